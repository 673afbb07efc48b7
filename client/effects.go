//go:build !headless

package client

import (
	"image/color"
	"math"
	"time"

	"tickshot/client/palette"
	"tickshot/game"
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

const explosionTime = 550 * time.Millisecond

type impact struct {
	x, y float64
	left time.Duration
}

// effects are the short-lived things drawn over the world and the HUD:
// tracers, impacts, sv_showimpacts boxes and explosions in the world
// (drawWorld, drawExplosions), the damage flash, hit markers, muzzle flash
// and the match banner on the HUD (hud.go), and the feedback of juice.go
// (particles, bodies, shockwaves, shake, damage arcs and numbers).
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

	// The feedback (juice.go).
	particles []particle
	corpses   []corpse
	flashes   []flash
	shocks    []shockwave
	arcs      []damageArc
	numbers   []damageNumber
	walls     *game.Map     // the map the particles stop at (the newest event's)
	trauma    float64       // screen shake, 0..1, decaying
	clock     time.Duration // the effects' own time, for the shake
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
	f.updateJuice(dt)
}

// drawWorld draws the impacts, tracers and sv_showimpacts boxes, under
// the projectiles and players.
func (f *effects) drawWorld(v *worldView) {
	f.drawFloor(v)
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

// drawExplosions draws the rockets' explosions, over the projectiles:
// the smoke, then a glow on the floor, the fireball growing and cooling
// from white-hot to red, a white flash in the first frames, then the
// shockwaves, sparks and muzzle flashes (drawBlasts).
func (f *effects) drawExplosions(v *worldView) {
	b := &batch
	f.drawParticles(v, true)
	for _, e := range f.explosions {
		a := float64(e.left) / float64(explosionTime)
		t := 1 - a
		x, y := f32(e.x-v.camX), f32(e.y-v.camY)
		r := e.r * (0.35 + 0.5*easeOut(t))
		for k := float32(1); k <= 3; k++ { // a soft glow on the floor
			b.disc(x, y, f32(e.r)*(0.7+0.25*k), nrgba(color.NRGBA{0xff, 0x8c, 0x30, uint8(14 * a)}))
		}
		// The fireball: puffs around the centre, in turns seeded by where
		// it went off, so that no two look alike.
		rng := fxRand(math.Float64bits(e.x)*31 ^ math.Float64bits(e.y))
		for range 6 {
			ang, d := rng.in(0, 2*math.Pi), rng.in(0.25, 0.5)*r
			px, py := x+f32(math.Cos(ang)*d), y+f32(math.Sin(ang)*d)
			b.disc(px, py, f32(r*rng.in(0.45, 0.6)), nrgba(color.NRGBA{0xf0, uint8(0x40 + 0x40*a), 0x12, uint8(225 * a)}))
		}
		b.disc(x, y, f32(r*0.7), nrgba(color.NRGBA{0xff, uint8(0x90 + 0x50*a), 0x2c, uint8(240 * a)}))
		b.disc(x, y, f32(r*0.38), nrgba(color.NRGBA{0xff, 0xf6, 0xd0, uint8(255 * math.Min(1, a*1.4))}))
		if t < 0.3 { // the first frames: a flash
			b.disc(x, y, f32(e.r*0.8), nrgba(color.NRGBA{0xff, 0xff, 0xf4, uint8(200 * (1 - t/0.3))}))
		}
	}
	f.drawBlasts(v)
}
