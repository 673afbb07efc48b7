//go:build !headless

package client

import (
	"bytes"
	"reflect"
	"testing"
	"time"

	"github.com/hajimehoshi/ebiten/v2"

	"tickshot/client/netclient"
	"tickshot/game"
	"tickshot/net/proto"
)

// juiceView is the local player 1 at (500, 500) and player 2 at (800,
// 500) in the newest snapshot and drawn.
func juiceView() netclient.View {
	var vw netclient.View
	vw.ID = 1
	vw.Predicted.X, vw.Predicted.Y = 500, 500
	vw.Held = []netclient.HeldEntity{{ID: 2, Newest: game.Sample{X: 800, Y: 500, Alive: true}}}
	vw.Rendered = []netclient.RenderedEntity{{ID: 2, X: 800, Y: 500, Alive: true}}
	return vw
}

func fx(x float64) int32 { return proto.ToFixed(x) }

var (
	allJuice = juiceSwitches{shake: true, numbers: true}
	evShot   = proto.Event{ID: 10, Kind: proto.EvShot, A: 2, X: fx(800), Y: fx(500), X2: fx(300), Y2: fx(500)}
	evHurt   = proto.Event{ID: 11, Kind: proto.EvHit, A: 2, B: 1, Value: 25, X2: fx(510), Y2: fx(500)}
	evHit    = proto.Event{ID: 12, Kind: proto.EvHit, A: 1, B: 2, Value: 25, X2: fx(790), Y2: fx(500)}
	evKill   = proto.Event{ID: 13, Kind: proto.EvKill, A: 1, B: 2}
	evBoom   = proto.Event{ID: 14, Kind: proto.EvExplode, A: 2, X: fx(600), Y: fx(520), Value: 110}
)

// TestJuiceEachEventHasItsEffect feeds each event alone and checks the
// feedback it must add: another player's shot a muzzle flash at its gun;
// a hit taken sparks, the arc towards the shooter and shake; a hit dealt
// sparks and a damage number; a kill the death burst and a body where the
// victim fell; an explosion near the player its shockwave, fire and
// smoke particles and shake. Then everything expires.
func TestJuiceEachEventHasItsEffect(t *testing.T) {
	vw := juiceView()
	for _, c := range []struct {
		name  string
		e     proto.Event
		check func(f *effects) string
	}{
		{"shot", evShot, func(f *effects) string {
			if len(f.flashes) != 1 || f.flashes[0].x >= 800 || f.flashes[0].x < 800-gunLength-1 {
				return "want one muzzle flash at the gun's tip, towards the shot"
			}
			return ""
		}},
		{"hurt", evHurt, func(f *effects) string {
			switch {
			case len(f.particles) != sparkBurst.n:
				return "want the hit's sparks"
			case len(f.arcs) != 1 || f.arcs[0].fromX != 800:
				return "want a damage arc from the shooter at (800, 500)"
			case f.trauma <= 0:
				return "want screen shake on damage taken"
			case len(f.numbers) != 0:
				return "no damage number for damage taken"
			}
			return ""
		}},
		{"hit", evHit, func(f *effects) string {
			switch {
			case len(f.particles) != sparkBurst.n:
				return "want the hit's sparks"
			case len(f.numbers) != 1 || f.numbers[0].text != "25":
				return "want a damage number 25"
			case len(f.arcs) != 0 || f.trauma != 0:
				return "no arc or shake for a hit dealt"
			}
			for _, p := range f.particles {
				if p.vx <= 0 {
					return "sparks fly on away from the shooter (+x)"
				}
			}
			return ""
		}},
		{"kill", evKill, func(f *effects) string {
			if len(f.corpses) != 1 || f.corpses[0].x != 800 || f.corpses[0].id != 2 || len(f.particles) != deathBurst.n {
				return "want the death burst and a body at (800, 500)"
			}
			return ""
		}},
		{"explosion", evBoom, func(f *effects) string {
			n := smokeBurst.n + fireBurst.n + emberBurst.n
			if len(f.shocks) != 1 || len(f.particles) != n || f.trauma <= 0 {
				return "want a shockwave, fire, embers and smoke, and shake (it is 100 units away)"
			}
			return ""
		}},
	} {
		var f effects
		f.onEvent(&c.e, &vw, allJuice)
		if msg := c.check(&f); msg != "" {
			t.Errorf("%s: %s (got %d particles, %d flashes, %d arcs, %d numbers, %d bodies, %d shockwaves, trauma %.2f)",
				c.name, msg, len(f.particles), len(f.flashes), len(f.arcs), len(f.numbers), len(f.corpses), len(f.shocks), f.trauma)
		}
		if f.live() == 0 {
			t.Errorf("%s: nothing to show", c.name)
		}
		for i := 0; i < 50; i++ {
			f.update(200 * time.Millisecond) // 10 s
		}
		if f.live() != 0 || f.trauma != 0 {
			t.Errorf("%s: %d effects and trauma %.2f left after 10 s: want all expired", c.name, f.live(), f.trauma)
		}
	}
}

// TestJuiceParticlesAreSeededByTheEvent: the same events give the same
// particles (a screenshot is stable), another event ID others.
func TestJuiceParticlesAreSeededByTheEvent(t *testing.T) {
	vw := juiceView()
	run := func(id uint32) []particle {
		var f effects
		e := evBoom
		e.ID = id
		f.onEvent(&e, &vw, allJuice)
		f.update(100 * time.Millisecond)
		return f.particles
	}
	if a, b := run(14), run(14); !reflect.DeepEqual(a, b) {
		t.Error("the same explosion threw different particles")
	}
	if a, b := run(14), run(15); reflect.DeepEqual(a, b) {
		t.Error("two explosions threw the same particles")
	}
}

// TestJuiceCvarsTurnShakeAndNumbersOff sets cl_screenshake 0 and
// hud_combattext 0 on a Game: the switches its play screen passes leave
// out the shake and the damage numbers, and keep the rest.
func TestJuiceCvarsTurnShakeAndNumbersOff(t *testing.T) {
	g := newGame(Options{Addr: "pipe", AutoPlay: true, Width: 640, Height: 360})
	if sw := g.cv.juice(); sw != allJuice {
		t.Fatalf("defaults %+v, want shake and numbers on", sw)
	}
	for _, line := range []string{"cl_screenshake 0", "hud_combattext 0"} {
		if out := g.exec(line); out != "" && bytes.Contains([]byte(out), []byte("error")) {
			t.Fatalf("%s: %s", line, out)
		}
	}
	sw := g.cv.juice()
	vw := juiceView()
	var f effects
	for _, e := range []proto.Event{evHurt, evHit, evBoom} {
		f.onEvent(&e, &vw, sw)
	}
	if f.trauma != 0 {
		t.Errorf("cl_screenshake 0: trauma %.2f, want none", f.trauma)
	}
	if dx, dy := f.shake(); dx != 0 || dy != 0 {
		t.Errorf("cl_screenshake 0: the screen moves by %.1f, %.1f", dx, dy)
	}
	if len(f.numbers) != 0 {
		t.Errorf("hud_combattext 0: %d damage numbers, want none", len(f.numbers))
	}
	if len(f.arcs) != 1 || len(f.shocks) != 1 {
		t.Errorf("the other feedback must stay: %d arcs, %d shockwaves", len(f.arcs), len(f.shocks))
	}
}

// TestJuiceShakeFallsOffWithDistance: an explosion beyond shakeReach
// does not shake the screen; a nearer one shakes it more than a farther.
func TestJuiceShakeFallsOffWithDistance(t *testing.T) {
	vw := juiceView()
	trauma := func(x float64) float64 {
		var f effects
		e := evBoom
		e.X = fx(x)
		e.Y = fx(500)
		f.onEvent(&e, &vw, allJuice)
		return f.trauma
	}
	near, far, out := trauma(550), trauma(900), trauma(500+shakeReach+10)
	if !(near > far && far > 0 && out == 0) {
		t.Errorf("trauma at 50, 400, %v units: %.2f, %.2f, %.2f; want falling to 0", shakeReach+10, near, far, out)
	}
}

// juiceAround gives p's effects a shot, a hit taken and one dealt, a
// kill and an explosion near the local player, 120 ms on.
func juiceAround(p *playScene) {
	vw := p.c.View()
	px, py := vw.Predicted.X, vw.Predicted.Y
	for i, e := range []proto.Event{evShot, evHurt, evHit, evKill, evBoom} {
		e.ID += uint32(i)
		e.X, e.Y, e.X2, e.Y2 = fx(px+80), fx(py), fx(px+40), fx(py)
		e.A = vw.Rendered[0].ID
		if e.Kind == proto.EvHit && e.B != vw.ID {
			e.A, e.B = vw.ID, vw.Rendered[0].ID
		}
		p.fx.onEvent(&e, &vw, allJuice)
	}
	p.fx.update(120 * time.Millisecond)
}

// TestJuiceKeepsTheOneBatch draws 64 players with an explosion, a death,
// hits, damage numbers and a damage arc on screen: the frame issues as
// many batch DrawTriangles calls as without them (issue 13's budget).
func TestJuiceKeepsTheOneBatch(t *testing.T) {
	calls := func(withFx bool) int {
		g := newDrawGame(newFakeClient(t, fakeWorld{others: 63}), testScreenW, testScreenH, 3)
		frozen := time.Now()
		g.clock = func() time.Time { return frozen }
		p := g.scenes.Current().(*playScene)
		n := 0
		onFrame(func(*ebiten.Image) {
			dst := ebiten.NewImage(testScreenW, testScreenH)
			defer dst.Deallocate()
			g.Draw(dst) // the text laid out
			if withFx {
				juiceAround(p)
				if p.fx.live() == 0 {
					t.Fatal("no effects to draw")
				}
				g.Draw(dst) // numbers laid out
			}
			c := batch.calls
			g.Draw(dst)
			n = batch.calls - c
		})
		return n
	}
	plain, juicy := calls(false), calls(true)
	t.Logf("DrawTriangles calls a frame: %d plain, %d with effects", plain, juicy)
	if juicy != plain {
		t.Errorf("effects add batch calls: %d with, %d without", juicy, plain)
	}
}

// TestHitAndKillSoundsAreDistinct: the hit and kill sounds are pitched,
// not silent, different from each other and from the hurt sound, the
// kill's chime longer than the hit's tick; every run renders the same.
func TestHitAndKillSoundsAreDistinct(t *testing.T) {
	a, b := synthSounds(), synthSounds()
	if !reflect.DeepEqual(a, b) {
		t.Fatal("two renderings of the sounds differ")
	}
	peak := func(pcm []byte) int {
		m := 0
		for i := 0; i+1 < len(pcm); i += 2 {
			v := int(int16(uint16(pcm[i]) | uint16(pcm[i+1])<<8))
			m = max(m, v, -v)
		}
		return m
	}
	hit, kill := a[sndHit], a[sndKill]
	if peak(hit) < 4000 || peak(kill) < 4000 {
		t.Errorf("peaks hit %d, kill %d: want audible", peak(hit), peak(kill))
	}
	if len(kill) <= 2*len(hit) {
		t.Errorf("kill sound %d bytes, hit %d: want the chime clearly longer", len(kill), len(hit))
	}
	if bytes.Equal(hit, a[sndHurt][:min(len(hit), len(a[sndHurt]))]) {
		t.Error("hit sound equals the hurt sound")
	}
}

// TestJuiceParticlesStopAtWalls: an explosion against range's east wall
// (x 992..1024) throws particles that never go inside it.
func TestJuiceParticlesStopAtWalls(t *testing.T) {
	m, err := game.LoadMap("range")
	if err != nil {
		t.Fatal(err)
	}
	vw := juiceView()
	vw.Map = m
	var f effects
	e := evBoom
	e.X, e.Y = fx(985), fx(384)
	f.onEvent(&e, &vw, allJuice)
	n := len(f.particles)
	for i := 0; i < 30; i++ {
		f.update(16 * time.Millisecond)
		for _, p := range f.particles {
			if m.Solid(p.x, p.y, 0.5) {
				t.Fatalf("a particle at %.1f, %.1f is inside a wall", p.x, p.y)
			}
		}
	}
	if len(f.particles) == 0 || len(f.particles) >= n {
		t.Errorf("%d of %d particles left after 0.48 s: want those that hit the wall gone, the others flying", len(f.particles), n)
	}
}
