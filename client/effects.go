//go:build !headless

package client

import (
	"image/color"
	"math"
	"time"

	"tickshot/client/palette"
	"tickshot/shared"
)

// Effect durations.
const (
	tracerTime    = 180 * time.Millisecond
	muzzleTime    = 60 * time.Millisecond
	hitMarkerTime = 220 * time.Millisecond
	impactTime    = 300 * time.Millisecond
)

type tracer struct {
	x0, y0, x1, y1 float64
	own            bool
	left           time.Duration
}

// impactBox is one sv_showimpacts pair: the target's hitbox as this client
// drew it when firing (red) and as the server rewound it (blue).
type impactBox struct {
	clientX, clientY float64
	haveClient       bool
	serverX, serverY float64
	hit              bool
	left             time.Duration
}

const impactBoxTime = 4 * time.Second

type explosion struct {
	x, y, r float64
	left    time.Duration
}

const explosionTime = 400 * time.Millisecond

type impact struct {
	x, y float64
	left time.Duration
}

// effects are the short-lived things drawn over the world and the HUD:
// tracers, impacts, sv_showimpacts boxes and explosions in the world
// (drawWorld, drawExplosions), the damage flash, hit markers, muzzle flash
// and the match banner on the HUD (hud.go).
type effects struct {
	tracers     []tracer
	boxes       []impactBox
	explosions  []explosion
	impacts     []impact
	muzzle      time.Duration
	hitMarker   time.Duration
	killMarker  time.Duration
	damageFlash float64 // 0..1
	banner      string  // match end/start, in the middle of the screen
	bannerLeft  time.Duration
	killedBy    string
}

func (f *effects) addTracer(x0, y0, x1, y1 float64, own bool) {
	f.tracers = append(f.tracers, tracer{x0, y0, x1, y1, own, tracerTime})
}

func (f *effects) addExplosion(x, y, r float64) {
	f.explosions = append(f.explosions, explosion{x, y, r, explosionTime})
}

func (f *effects) addImpact(x, y float64) {
	f.impacts = append(f.impacts, impact{x, y, impactTime})
}

// expire counts dt off every item's remaining time and keeps those left.
func expire[T any](items []T, dt time.Duration, left func(*T) *time.Duration) []T {
	kept := items[:0]
	for i := range items {
		if l := left(&items[i]); *l > dt {
			*l -= dt
			kept = append(kept, items[i])
		}
	}
	return kept
}

func (f *effects) update(dt time.Duration) {
	f.tracers = expire(f.tracers, dt, func(t *tracer) *time.Duration { return &t.left })
	f.explosions = expire(f.explosions, dt, func(e *explosion) *time.Duration { return &e.left })
	f.boxes = expire(f.boxes, dt, func(b *impactBox) *time.Duration { return &b.left })
	f.impacts = expire(f.impacts, dt, func(i *impact) *time.Duration { return &i.left })
	f.bannerLeft = max(f.bannerLeft-dt, 0)
	f.muzzle = max(f.muzzle-dt, 0)
	f.hitMarker = max(f.hitMarker-dt, 0)
	f.killMarker = max(f.killMarker-dt, 0)
	f.damageFlash = max(f.damageFlash-dt.Seconds()*3, 0)
}

// drawWorld draws the impacts, tracers and sv_showimpacts boxes, under
// the projectiles and players.
func (f *effects) drawWorld(v *worldView) {
	cx, cy := v.camX, v.camY
	b := &batch
	for _, im := range f.impacts {
		a := float64(im.left) / float64(impactTime)
		b.disc(f32(im.x-cx), f32(im.y-cy), f32(4+6*(1-a)), nrgba(color.NRGBA{0xff, 0x60, 0x40, uint8(200 * a)}))
	}
	for _, t := range f.tracers {
		col := palette.TracerOther
		if t.own {
			col = palette.TracerMe
		}
		b.line(f32(t.x0-cx), f32(t.y0-cy), f32(t.x1-cx), f32(t.y1-cy), 2, fade(col, float64(t.left)/float64(tracerTime)))
	}
	// sv_showimpacts: red where this client drew the target when firing,
	// blue where the server traced it after its rewind.
	for _, bx := range f.boxes {
		a := uint8(255 * math.Min(1, float64(bx.left)/float64(time.Second)))
		r := float32(shared.PlayerRadius)
		// Red a little outside the hitbox, blue a little inside: when the
		// server agrees with the client they show as two concentric rings.
		if bx.haveClient {
			b.ring(f32(bx.clientX-cx), f32(bx.clientY-cy), r+2, 2, nrgba(color.NRGBA{0xff, 0x30, 0x30, a}))
		}
		b.ring(f32(bx.serverX-cx), f32(bx.serverY-cy), r-2, 2, nrgba(color.NRGBA{0x40, 0x80, 0xff, a}))
	}
}

// drawExplosions draws the rockets' explosions, over the projectiles.
func (f *effects) drawExplosions(v *worldView) {
	b := &batch
	for _, e := range f.explosions {
		a := float64(e.left) / float64(explosionTime)
		r := e.r * (0.4 + 0.6*(1-a))
		b.disc(f32(e.x-v.camX), f32(e.y-v.camY), f32(r), nrgba(color.NRGBA{0xff, 0x80, 0x20, uint8(160 * a)}))
		b.ring(f32(e.x-v.camX), f32(e.y-v.camY), f32(r), 3, nrgba(color.NRGBA{0xff, 0xe0, 0x80, uint8(220 * a)}))
	}
}
