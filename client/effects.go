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

func (f *effects) update(dt time.Duration) {
	tr := f.tracers[:0]
	for _, t := range f.tracers {
		if t.left -= dt; t.left > 0 {
			tr = append(tr, t)
		}
	}
	f.tracers = tr
	ex := f.explosions[:0]
	for _, e := range f.explosions {
		if e.left -= dt; e.left > 0 {
			ex = append(ex, e)
		}
	}
	f.explosions = ex
	bx := f.boxes[:0]
	for _, b := range f.boxes {
		if b.left -= dt; b.left > 0 {
			bx = append(bx, b)
		}
	}
	f.boxes = bx
	im := f.impacts[:0]
	for _, i := range f.impacts {
		if i.left -= dt; i.left > 0 {
			im = append(im, i)
		}
	}
	f.impacts = im
	fe := f.feed[:0]
	for _, e := range f.feed {
		if e.left -= dt; e.left > 0 {
			fe = append(fe, e)
		}
	}
	f.feed = fe
	f.muzzle = max(f.muzzle-dt, 0)
	f.hitMarker = max(f.hitMarker-dt, 0)
	f.killMarker = max(f.killMarker-dt, 0)
	f.damageFlash = max(f.damageFlash-dt.Seconds()*3, 0)
}
