//go:build !headless

package client

import (
	"image/color"
	"math"
	"strconv"
	"time"

	"tickshot/client/netclient"
	"tickshot/client/palette"
	"tickshot/net/proto"
)

// The feedback ("juice") of the server's events, drawn only: particles,
// muzzle flashes, fading bodies, shockwaves, screen shake, the
// damage-direction arc and damage numbers. It reads events and views and
// writes nothing but its own state (effects), so it can never feed back
// into simulation or prediction. Its randomness is drawn from a stream
// seeded by the event (fxRand), so the same events draw the same frame.

// Durations and sizes of the feedback.
const (
	corpseTime    = 2500 * time.Millisecond // a killed player's body fades over this
	scorchTime    = 6 * time.Second         // an explosion's scorch mark on the floor
	shockTime     = 450 * time.Millisecond  // an explosion's shockwave ring
	flashTime     = 70 * time.Millisecond   // another player's muzzle flash
	damageArcTime = 1200 * time.Millisecond // the arc pointing at who hurt you
	numberTime    = 900 * time.Millisecond  // a damage number's rise
	maxParticles  = 768                     // the oldest go first beyond this (bounds the batch)
	// shakeMax is the screen shake's largest offset in pixels, at trauma
	// 1; the offset grows with trauma² (Eiserloh, "Math for Game
	// Programmers: Juicing Your Cameras With Math", GDC 2016).
	shakeMax = 9.0
	// shakeReach is how far from the local player an explosion shakes
	// the screen, world units.
	shakeReach = 700.0
)

// fxRand is a splitmix64 stream (Steele, Lea and Flood 2014) for the
// particles of one event: seeded from the event, never from a global
// source, so that a screenshot of the same events is the same image.
type fxRand uint64

func (r *fxRand) next() uint64 {
	*r += 0x9E3779B97F4A7C15
	z := uint64(*r)
	z = (z ^ z>>30) * 0xBF58476D1CE4E5B9
	z = (z ^ z>>27) * 0x94D049BB133111EB
	return z ^ z>>31
}

// in returns a number in [lo, hi).
func (r *fxRand) in(lo, hi float64) float64 {
	return lo + (hi-lo)*float64(r.next()>>11)/(1<<53)
}

// eventSeed is the particle seed of a server event: its server-wide ID
// and kind, so that two effects of one event differ.
func eventSeed(e *proto.Event) fxRand { return fxRand(uint64(e.ID)<<8 | uint64(e.Kind)) }

// particle is one dot or spark, in world units and seconds.
type particle struct {
	x, y, vx, vy float64
	r, grow      float64 // radius (px) and its change per second
	keep         float64 // the part of the velocity kept after a second (drag)
	col          color.NRGBA
	streak       bool // a spark: drawn as a line along its velocity
	life, left   time.Duration
}

// burstSpec describes n particles thrown from one point.
type burstSpec struct {
	n                int
	dir, spread      float64 // centre direction and half-width, radians (spread π: all round)
	speedLo, speedHi float64 // world units/s
	rLo, rHi, grow   float64 // radius px, its change per second
	keep             float64
	lifeLo, lifeHi   time.Duration
	cols             []color.NRGBA
	streak           bool
}

// The bursts of each effect.
var (
	sparkBurst = burstSpec{n: 9, spread: 0.8, speedLo: 220, speedHi: 520, rLo: 1.2, rHi: 2, keep: 0.02,
		lifeLo: 110 * time.Millisecond, lifeHi: 260 * time.Millisecond, streak: true,
		cols: []color.NRGBA{{0xff, 0xf4, 0xc0, 0xff}, {0xff, 0xc8, 0x50, 0xff}, {0xff, 0xff, 0xff, 0xff}}}
	fireBurst = burstSpec{n: 26, spread: math.Pi, speedLo: 120, speedHi: 420, rLo: 3, rHi: 6.5, grow: -5, keep: 0.03,
		lifeLo: 300 * time.Millisecond, lifeHi: 650 * time.Millisecond,
		cols: []color.NRGBA{{0xff, 0xd2, 0x4a, 0xff}, {0xff, 0x8a, 0x1e, 0xff}, {0xf0, 0x4a, 0x18, 0xff}}}
	emberBurst = burstSpec{n: 14, spread: math.Pi, speedLo: 380, speedHi: 760, rLo: 1.3, rHi: 2.2, keep: 0.05,
		lifeLo: 200 * time.Millisecond, lifeHi: 420 * time.Millisecond, streak: true,
		cols: []color.NRGBA{{0xff, 0xf0, 0xa0, 0xff}, {0xff, 0xb0, 0x40, 0xff}}}
	smokeBurst = burstSpec{n: 10, spread: math.Pi, speedLo: 40, speedHi: 150, rLo: 9, rHi: 15, grow: 16, keep: 0.08,
		lifeLo: 900 * time.Millisecond, lifeHi: 1500 * time.Millisecond,
		cols: []color.NRGBA{{0x4a, 0x46, 0x44, 0x90}, {0x5c, 0x56, 0x50, 0x80}}}
	deathBurst = burstSpec{n: 28, spread: math.Pi, speedLo: 90, speedHi: 330, rLo: 2.5, rHi: 5, grow: -3, keep: 0.04,
		lifeLo: 400 * time.Millisecond, lifeHi: 850 * time.Millisecond}
)

// burst throws s's particles from x, y; cols overrides s.cols when set.
func (f *effects) burst(rng *fxRand, x, y float64, s *burstSpec, dir float64, cols ...color.NRGBA) {
	if len(cols) == 0 {
		cols = s.cols
	}
	for i := 0; i < s.n; i++ {
		a := dir + rng.in(-s.spread, s.spread)
		v := rng.in(s.speedLo, s.speedHi)
		life := time.Duration(rng.in(float64(s.lifeLo), float64(s.lifeHi)))
		f.particles = append(f.particles, particle{x: x, y: y, vx: math.Cos(a) * v, vy: math.Sin(a) * v,
			r: rng.in(s.rLo, s.rHi), grow: s.grow, keep: s.keep, col: cols[int(rng.next()%uint64(len(cols)))],
			streak: s.streak, life: life, left: life})
	}
	if over := len(f.particles) - maxParticles; over > 0 {
		f.particles = append(f.particles[:0], f.particles[over:]...)
	}
}

// corpse is a killed player's body, fading where it fell.
type corpse struct {
	id       uint16
	x, y, a  float64 // world position, facing (radians)
	col      color.RGBA
	left     time.Duration
	self     bool // the local player's
	sinceHit time.Duration
	weapon   int // what it held (heldWeapon; the local player's predicted weapon), drawn beside it
}

// flash is another player's muzzle flash at its gun's tip.
type flash struct {
	x, y, a float64
	left    time.Duration
}

// shockwave is an explosion's expanding ring and the scorch it leaves.
type shockwave struct {
	x, y, r    float64
	left       time.Duration // of the ring
	scorchLeft time.Duration
}

// damageArc points from the local player at a player that hurt it.
type damageArc struct {
	fromX, fromY float64 // the attacker's position when hit, world units
	left         time.Duration
}

// damageNumber is the damage of one of the local player's hits, rising
// from where it landed (hud_combattext).
type damageNumber struct {
	x, y  float64
	text  string
	left  time.Duration
	drift float64 // sideways, pixels over its life
}

// juiceSwitches are the cvars the feedback obeys: cl_screenshake and
// hud_combattext.
type juiceSwitches struct{ shake, numbers bool }

// juice returns the switches as the cvars are now.
func (cv *clientCvars) juice() juiceSwitches {
	return juiceSwitches{shake: cv.screenShake.Get(), numbers: cv.combatText.Get()}
}

// onEvent adds the feedback of server event e as the local player of vw
// sees it (vw.ID; its position is vw.Predicted's). Events of other kinds
// add nothing.
func (f *effects) onEvent(e *proto.Event, vw *netclient.View, sw juiceSwitches) {
	rng := eventSeed(e)
	me := vw.ID
	f.walls = vw.Map
	switch e.Kind {
	case proto.EvShot:
		x0, y0, x1, y1 := proto.FromFixed(e.X), proto.FromFixed(e.Y), proto.FromFixed(e.X2), proto.FromFixed(e.Y2)
		if e.A != me && (x0 != x1 || y0 != y1) {
			a := math.Atan2(y1-y0, x1-x0)
			f.flashes = append(f.flashes, flash{x0 + math.Cos(a)*gunLength, y0 + math.Sin(a)*gunLength, a, flashTime})
		}
	case proto.EvHit:
		x, y := proto.FromFixed(e.X2), proto.FromFixed(e.Y2)
		dir := rng.in(-math.Pi, math.Pi)
		if ax, ay, ok := playerPos(vw, e.A); ok && (ax != x || ay != y) {
			dir = math.Atan2(y-ay, x-ax) // the sparks fly on, away from the shooter
			if e.B == me && e.A != me {
				f.arcs = append(f.arcs, damageArc{ax, ay, damageArcTime})
			}
		}
		f.burst(&rng, x, y, &sparkBurst, dir)
		if e.B == me && sw.shake {
			f.addTrauma(0.22 + 0.3*math.Min(float64(e.Value)/100, 1))
		}
		if e.A == me && e.B != me && sw.numbers && e.Value > 0 {
			f.numbers = append(f.numbers, damageNumber{x: x, y: y, text: strconv.Itoa(int(e.Value)), left: numberTime,
				drift: rng.in(-14, 14)})
		}
	case proto.EvKill:
		x, y, ok := playerPos(vw, e.B)
		if !ok {
			return
		}
		col, a, w := selfColour(vw), float64(vw.LastCommand.ViewAngle), int(vw.Predicted.Weapon)
		if e.B != me {
			col, a, w = otherColour(vw, e.B, isBot(vw, e.B)), renderedAngle(vw, e.B), heldWeapon(vw, e.B)
		}
		f.burst(&rng, x, y, &deathBurst, 0, straight(col), straight(darken(col, 0.7)), color.NRGBA{0xff, 0xf4, 0xe8, 0xff})
		f.corpses = append(f.corpses, corpse{id: e.B, x: x, y: y, a: a, col: col, left: corpseTime, self: e.B == me, weapon: w})
	case proto.EvExplode:
		x, y, r := proto.FromFixed(e.X), proto.FromFixed(e.Y), math.Max(float64(e.Value), 24)
		f.shocks = append(f.shocks, shockwave{x, y, r, shockTime, scorchTime})
		f.burst(&rng, x, y, &smokeBurst, 0)
		f.burst(&rng, x, y, &fireBurst, 0)
		f.burst(&rng, x, y, &emberBurst, 0)
		if sw.shake {
			if d := math.Hypot(x-vw.Predicted.X, y-vw.Predicted.Y); d < shakeReach && !vw.Spectating {
				f.addTrauma(0.6 * (1 - d/shakeReach))
			}
		}
	}
}

// addTrauma adds to the screen shake's trauma, at most 1.
func (f *effects) addTrauma(t float64) { f.trauma = math.Min(f.trauma+t, 1) }

// shake is the screen's offset this frame in pixels: trauma² × shakeMax
// along two incommensurate sines of the effects' clock (smooth, and the
// same for the same events).
func (f *effects) shake() (float64, float64) {
	if f.trauma <= 0 {
		return 0, 0
	}
	k := f.trauma * f.trauma * shakeMax
	t := f.clock.Seconds()
	return k * math.Sin(t*71+0.3) * math.Cos(t*23), k * math.Sin(t*59+1.7) * math.Cos(t*31+0.5)
}

// playerPos is where the newest snapshot has player id (the local player:
// where it is predicted).
func playerPos(vw *netclient.View, id uint16) (float64, float64, bool) {
	if id == vw.ID {
		return vw.Predicted.X, vw.Predicted.Y, true
	}
	if h, ok := vw.Holds(id); ok {
		return h.Newest.X, h.Newest.Y, true
	}
	return 0, 0, false
}

// rendered returns player id as drawn (vw.Rendered is by ID).
func rendered(vw *netclient.View, id uint16) (netclient.RenderedEntity, bool) {
	for _, e := range vw.Rendered {
		if e.ID == id {
			return e, true
		}
	}
	return netclient.RenderedEntity{}, false
}

func renderedAngle(vw *netclient.View, id uint16) float64 {
	e, _ := rendered(vw, id)
	return e.Angle
}

func isBot(vw *netclient.View, id uint16) bool {
	e, _ := rendered(vw, id)
	return e.Bot
}

// straight turns a premultiplied colour back to straight alpha.
func straight(c color.RGBA) color.NRGBA {
	if c.A == 0 || c.A == 0xff {
		return color.NRGBA{c.R, c.G, c.B, c.A}
	}
	k := 255 / float64(c.A)
	return color.NRGBA{uint8(float64(c.R) * k), uint8(float64(c.G) * k), uint8(float64(c.B) * k), c.A}
}

// updateJuice moves the particles and counts dt off the feedback.
func (f *effects) updateJuice(dt time.Duration) {
	s := dt.Seconds()
	f.clock += dt
	f.trauma = math.Max(f.trauma-s*1.6, 0)
	kept := f.particles[:0]
	for _, p := range f.particles {
		if p.left <= dt {
			continue
		}
		p.left -= dt
		k := math.Pow(p.keep, s)
		p.vx, p.vy = p.vx*k, p.vy*k
		nx, ny := p.x+p.vx*s, p.y+p.vy*s
		if f.walls != nil && f.walls.Solid(nx, ny, 0.5) {
			if p.grow <= 0 {
				continue // a spark or a bit stops at a wall
			}
			nx, ny, p.vx, p.vy = p.x, p.y, 0, 0 // smoke gathers against it
		}
		p.x, p.y = nx, ny
		p.r = math.Max(p.r+p.grow*s, 0.5)
		kept = append(kept, p)
	}
	f.particles = kept
	f.corpses = expire(f.corpses, dt, func(c *corpse) *time.Duration { return &c.left })
	f.flashes = expire(f.flashes, dt, func(l *flash) *time.Duration { return &l.left })
	f.arcs = expire(f.arcs, dt, func(a *damageArc) *time.Duration { return &a.left })
	f.numbers = expire(f.numbers, dt, func(n *damageNumber) *time.Duration { return &n.left })
	f.shocks = expire(f.shocks, dt, func(w *shockwave) *time.Duration {
		w.left = max(w.left-dt, 0) // the ring ends first; the scorch keeps it
		return &w.scorchLeft
	})
}

// blastShown tells whether an explosion's fireball, 90 to 250 ms old, is
// on the screen v shows (for a screenshot of one).
func (f *effects) blastShown(v *worldView) bool {
	for _, e := range f.explosions {
		age := explosionTime - e.left
		if age >= 90*time.Millisecond && age <= 250*time.Millisecond && v.onScreen(e.x-v.camX, e.y-v.camY, -e.r/4) {
			return true
		}
	}
	return false
}

// live counts the feedback still showing (tests).
func (f *effects) live() int {
	return len(f.particles) + len(f.corpses) + len(f.flashes) + len(f.arcs) + len(f.numbers) + len(f.shocks)
}

// darken scales c's colour (not its alpha) by k, 0..1.
func darken(c color.RGBA, k float64) color.RGBA {
	return color.RGBA{uint8(float64(c.R) * k), uint8(float64(c.G) * k), uint8(float64(c.B) * k), c.A}
}

// easeOut is 1-(1-t)², t in 0..1.
func easeOut(t float64) float64 { return 1 - (1-t)*(1-t) }

// drawFloor draws what lies on the floor under everything else: the
// scorch marks and the fading bodies.
func (f *effects) drawFloor(v *worldView) {
	b := &batch
	cx, cy := v.camX, v.camY
	for _, w := range f.shocks {
		a := math.Min(1, float64(w.scorchLeft)/float64(2*time.Second))
		b.disc(f32(w.x-cx), f32(w.y-cy), f32(w.r*0.55), nrgba(color.NRGBA{0x0c, 0x0b, 0x0a, uint8(110 * a)}))
		b.disc(f32(w.x-cx), f32(w.y-cy), f32(w.r*0.3), nrgba(color.NRGBA{0x08, 0x07, 0x06, uint8(90 * a)}))
	}
	for _, c := range f.corpses {
		x, y := c.x-cx, c.y-cy
		if !v.onScreen(x, y, 40) {
			continue
		}
		if e, ok := rendered(&v.view, c.id); !c.self && ok && e.Alive && corpseTime-c.left < time.Second {
			continue // still drawn alive (interpolation runs behind the event)
		}
		a := float32(float64(c.left) / float64(corpseTime))
		a *= a
		b.disc(f32(x+3), f32(y+4), 17, nrgba(color.NRGBA{0, 0, 0, uint8(70 * a)})) // its shadow
		drawWeapon(newAimFrame(x, y, c.a), weaponArt(c.weapon), float64(a))        // the weapon it held, fading with it (character.go)
		b.disc(f32(x), f32(y), 15, fade(darken(c.col, 0.6), float64(a)))
		b.ring(f32(x), f32(y), 15, 2, fade(palette.Outline, float64(a)))
	}
}

// drawBlasts draws the explosions' shockwaves, the particles and the
// other players' muzzle flashes, over the projectiles.
func (f *effects) drawBlasts(v *worldView) {
	b := &batch
	cx, cy := v.camX, v.camY
	for _, w := range f.shocks {
		if w.left <= 0 {
			continue
		}
		t := 1 - float64(w.left)/float64(shockTime)
		r := w.r * (0.3 + 1.2*easeOut(t))
		b.ring(f32(w.x-cx), f32(w.y-cy), f32(r), f32(1.5+4*(1-t)), nrgba(color.NRGBA{0xff, 0xe8, 0xb8, uint8(190 * (1 - t) * (1 - t))}))
	}
	f.drawParticles(v, false)
	for _, l := range f.flashes {
		drawMuzzle(l.x-cx, l.y-cy, l.a, float64(l.left)/float64(flashTime))
	}
}

// drawParticles draws the smoke (the particles that grow) or the rest.
func (f *effects) drawParticles(v *worldView, smoke bool) {
	b := &batch
	for _, p := range f.particles {
		x, y := p.x-v.camX, p.y-v.camY
		if (p.grow > 0) != smoke || !v.onScreen(x, y, 30) {
			continue
		}
		a := float64(p.left) / float64(p.life)
		c := p.col
		c.A = uint8(float64(c.A) * math.Min(1, a*1.6))
		if p.streak {
			b.line(f32(x-p.vx*0.03), f32(y-p.vy*0.03), f32(x), f32(y), f32(p.r), nrgba(c))
		} else {
			b.disc(f32(x), f32(y), f32(p.r), nrgba(c))
		}
	}
}

// drawMuzzle adds a muzzle flash at the gun's tip x, y (pixels), facing
// a (radians), at strength k (0..1).
func drawMuzzle(x, y, a, k float64) {
	b := &batch
	dx, dy := math.Cos(a), math.Sin(a)
	glow := nrgba(color.NRGBA{0xff, 0xb8, 0x40, uint8(150 * k)})
	core := nrgba(color.NRGBA{0xff, 0xfa, 0xd8, uint8(255 * k)})
	b.disc(f32(x+dx*4), f32(y+dy*4), f32(9*k+3), glow)
	for _, s := range [3]float64{-0.55, 0, 0.55} {
		l := 16.0
		if s != 0 {
			l = 9
		}
		ex, ey := math.Cos(a+s), math.Sin(a+s)
		b.line(f32(x), f32(y), f32(x+ex*l*(0.6+0.4*k)), f32(y+ey*l*(0.6+0.4*k)), 3, core)
	}
	b.disc(f32(x), f32(y), 4, core)
}

// drawOverlay draws, over the players, the damage numbers in the world and
// the arcs around the local player at screen position px, py pointing at
// who hurt it.
func (f *effects) drawOverlay(v *worldView) {
	b := &batch
	px, py := v.px-v.camX, v.py-v.camY
	for _, d := range f.arcs {
		k := float64(d.left) / float64(damageArcTime)
		a := math.Atan2(d.fromY-v.py, d.fromX-v.px)
		b.arc(f32(px), f32(py), 52, 7, f32(a-0.42), f32(a+0.42), nrgba(color.NRGBA{0xff, 0x30, 0x28, uint8(230 * math.Min(1, k*1.5))}))
		b.arc(f32(px), f32(py), 61, 2, f32(a-0.22), f32(a+0.22), nrgba(color.NRGBA{0xff, 0xa0, 0x90, uint8(200 * math.Min(1, k*1.5))}))
	}
	for _, n := range f.numbers {
		t := 1 - float64(n.left)/float64(numberTime)
		x, y := n.x-v.camX+n.drift*t, n.y-v.camY-24-42*easeOut(t)
		alpha := math.Min(1, (1-t)*2.5)
		drawTextFaded(v.screen, n.text, 20, true, x, y, 1, colDamageNumber, float32(alpha))
	}
}

// colDamageNumber is the colour of hud_combattext's numbers.
var colDamageNumber = color.RGBA{0xff, 0xe0, 0x50, 0xff}
