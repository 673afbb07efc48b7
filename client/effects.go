//go:build !headless

package client

import "time"

// Effect durations.
const (
	tracerTime    = 180 * time.Millisecond
	muzzleTime    = 60 * time.Millisecond
	hitMarkerTime = 220 * time.Millisecond
	impactTime    = 300 * time.Millisecond
	feedTime      = 6 * time.Second
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

type feedEntry struct {
	killer, victim string
	mine, me       bool // the local player killed / was killed
	notice         string
	left           time.Duration
}

// effects are the short-lived things drawn over the world and the HUD.
type effects struct {
	tracers     []tracer
	boxes       []impactBox
	explosions  []explosion
	impacts     []impact
	feed        []feedEntry
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

func (f *effects) addKill(killer, victim string, mine, me bool) {
	f.feed = append(f.feed, feedEntry{killer: killer, victim: victim, mine: mine, me: me, left: feedTime})
	if len(f.feed) > 6 {
		f.feed = f.feed[len(f.feed)-6:]
	}
}

func (f *effects) addNotice(s string) {
	f.feed = append(f.feed, feedEntry{notice: s, left: feedTime / 2})
	if len(f.feed) > 6 {
		f.feed = f.feed[len(f.feed)-6:]
	}
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
	f.feed = expire(f.feed, dt, func(e *feedEntry) *time.Duration { return &e.left })
	f.bannerLeft = max(f.bannerLeft-dt, 0)
	f.muzzle = max(f.muzzle-dt, 0)
	f.hitMarker = max(f.hitMarker-dt, 0)
	f.killMarker = max(f.killMarker-dt, 0)
	f.damageFlash = max(f.damageFlash-dt.Seconds()*3, 0)
}
