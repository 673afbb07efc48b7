package shared_test

import (
	"math"
	"testing"

	"tickshot/game"
	"tickshot/shared"
)

// quantSlack is the most that Quantize can lengthen a 2D vector: each
// component moves by at most half a step.
const quantSlack = math.Sqrt2 / (2 * shared.PosScale)

var tickRates = []int{20, 64, 128}

func openWorld(tickRate int) *shared.World { return &shared.World{TickRate: tickRate} }

func speedOf(s shared.PlayerState) float64 { return math.Hypot(s.VX, s.VY) }

func loadArena(t *testing.T) *game.Map {
	t.Helper()
	m, err := game.LoadMap("arena")
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func isQuantized(v float64) bool {
	f := v * shared.PosScale
	return f == math.Trunc(f) && !math.IsInf(f, 0)
}

func checkQuantized(t *testing.T, where string, s shared.PlayerState) {
	t.Helper()
	for _, f := range []struct {
		name string
		v    float64
	}{{"X", s.X}, {"Y", s.Y}, {"VX", s.VX}, {"VY", s.VY}} {
		if !isQuantized(f.v) {
			t.Fatalf("%s: %s = %v is not a multiple of 1/%d", where, f.name, f.v, shared.PosScale)
		}
	}
}

// run runs n copies of cmd (command numbers counting on) and returns every state.
func run(s shared.PlayerState, cmd shared.UserCmd, w *shared.World, n int) []shared.PlayerState {
	out := make([]shared.PlayerState, 0, n)
	for i := 0; i < n; i++ {
		cmd.CommandNumber++
		s, _ = shared.RunCommand(s, cmd, w)
		out = append(out, s)
	}
	return out
}

func TestAccelerationReachesButNeverExceedsMaxSpeed(t *testing.T) {
	dirs := []struct {
		mx, my float32
		exact  bool // axis-aligned: the speed is one component, Quantize cannot add to it
	}{
		{1, 0, true}, {0, 1, true}, {-1, 0, true}, {0, -1, true},
		{0.7071, 0.7071, false}, {-0.7071, 0.7071, false}, {1, 1, false}, {-1, -1, false},
		{0.3, -1, false}, {1, 0.3, false},
	}
	for _, tr := range tickRates {
		for _, d := range dirs {
			s := shared.NewPlayerState(1000, 1000)
			states := run(s, shared.UserCmd{MoveX: d.mx, MoveY: d.my}, openWorld(tr), 2*tr)
			reached := -1
			prev := 0.0
			for i, st := range states {
				sp := speedOf(st)
				limit := shared.MaxSpeed + quantSlack
				if d.exact {
					limit = shared.MaxSpeed
				}
				if sp > limit {
					t.Fatalf("rate %d input (%v,%v) tick %d: speed %v exceeds MaxSpeed %v", tr, d.mx, d.my, i, sp, shared.MaxSpeed)
				}
				if reached < 0 && sp < prev-quantSlack {
					t.Errorf("rate %d input (%v,%v) tick %d: speed fell from %v to %v while accelerating", tr, d.mx, d.my, i, prev, sp)
				}
				if reached < 0 && sp >= shared.MaxSpeed-quantSlack {
					reached = i
				}
				prev = sp
			}
			// From rest to full speed takes well under a second (Accel = 10/s).
			if reached < 0 || reached >= tr {
				t.Errorf("rate %d input (%v,%v): MaxSpeed not reached within 1 s (at tick %d, final speed %v)",
					tr, d.mx, d.my, reached, speedOf(states[len(states)-1]))
			}
			// The velocity points where the input does.
			last := states[len(states)-1]
			wl := math.Hypot(float64(d.mx), float64(d.my))
			cos := (last.VX*float64(d.mx) + last.VY*float64(d.my)) / (speedOf(last) * wl)
			if cos < 0.9999 {
				t.Errorf("rate %d input (%v,%v): velocity (%v,%v) not along the input", tr, d.mx, d.my, last.VX, last.VY)
			}
		}
	}
}

// TestPartialInputGivesProportionalSpeed: an axis a moves at a*MaxSpeed
// (a as carried on the wire, a multiple of 1/127). Axes below about 0.29 are
// left out: there StopSpeed friction outweighs the acceleration, and up to
// about 0.4 it nearly does, so the speed builds up slowly (see report).
func TestOverspeedIsCapped(t *testing.T) {
	for _, tr := range tickRates {
		for _, in := range [][2]float32{{0, 0}, {1, 0}, {-1, 0}, {0.7071, 0.7071}} {
			s := shared.NewPlayerState(1000, 1000)
			s.VX, s.VY = 1000, 1000 // e.g. a knockback or a corrupted state
			n, _ := shared.RunCommand(s, shared.UserCmd{CommandNumber: 1, MoveX: in[0], MoveY: in[1]}, openWorld(tr))
			if sp := speedOf(n); sp > shared.MaxSpeed+quantSlack {
				t.Errorf("rate %d input %v: speed %v after one command, want at most MaxSpeed", tr, in, sp)
			}
		}
	}
}

func TestPartialInputGivesProportionalSpeed(t *testing.T) {
	for _, tr := range tickRates {
		for _, a := range []float32{0.5, 0.75, -0.6, 1} {
			states := run(shared.NewPlayerState(1000, 1000), shared.UserCmd{MoveX: a}, openWorld(tr), 2*tr)
			want := math.Abs(math.Round(float64(a)*127)/127) * shared.MaxSpeed
			for i, st := range states {
				if math.Abs(st.VX) > want+quantSlack {
					t.Fatalf("rate %d axis %v tick %d: speed %v above wished %v", tr, a, i, st.VX, want)
				}
			}
			if got := math.Abs(states[len(states)-1].VX); math.Abs(got-want) > quantSlack {
				t.Errorf("rate %d axis %v: terminal speed %v, want about %v", tr, a, got, want)
			}
		}
	}
}

func TestFrictionStopsWithinBoundedTicks(t *testing.T) {
	for _, tr := range tickRates {
		for _, in := range [][2]float32{{1, 0}, {0, -1}, {0.7071, -0.7071}, {-0.3, 1}} {
			w := openWorld(tr)
			s := run(shared.NewPlayerState(1000, 1000), shared.UserCmd{MoveX: in[0], MoveY: in[1]}, w, tr)[tr-1]
			if speedOf(s) < shared.MaxSpeed-1 {
				t.Fatalf("rate %d: setup did not reach full speed: %v", tr, speedOf(s))
			}
			// Friction takes at least StopSpeed*Friction per second off the speed.
			bound := int(math.Ceil(shared.MaxSpeed/(shared.StopSpeed*shared.Friction)*float64(tr))) + 1
			released := run(s, shared.UserCmd{}, w, 3*tr)
			stopped := -1
			prev := speedOf(s)
			for i, st := range released {
				sp := speedOf(st)
				if sp > prev {
					t.Fatalf("rate %d tick %d: speed rose from %v to %v without input", tr, i, prev, sp)
				}
				prev = sp
				if st.VX == 0 && st.VY == 0 {
					if stopped < 0 {
						stopped = i
					}
				} else if stopped >= 0 {
					t.Fatalf("rate %d: moving again at tick %d after stopping at %d", tr, i, stopped)
				}
			}
			if stopped < 0 || stopped >= bound {
				t.Errorf("rate %d input %v: stopped at tick %d, want within %d ticks", tr, in, stopped, bound)
			}
			// Once stopped, the position holds.
			if stopped >= 0 {
				rest := released[stopped]
				for _, st := range released[stopped:] {
					if st.X != rest.X || st.Y != rest.Y {
						t.Fatalf("rate %d: drifting after stop: (%v,%v) -> (%v,%v)", tr, rest.X, rest.Y, st.X, st.Y)
					}
				}
			}
		}
	}
}

func TestDiagonalNoFasterThanStraight(t *testing.T) {
	axes := []float32{-1, -0.7071, -0.5, -0.3, 0, 0.3, 0.5, 0.7071, 1}
	for _, tr := range tickRates {
		n := tr // one second
		straight := run(shared.NewPlayerState(1000, 1000), shared.UserCmd{MoveX: 1}, openWorld(tr), n)
		maxDist := straight[n-1].X - 1000
		for _, mx := range axes {
			for _, my := range axes {
				states := run(shared.NewPlayerState(1000, 1000), shared.UserCmd{MoveX: mx, MoveY: my}, openWorld(tr), n)
				for i, st := range states {
					// Rounding errors of both components may add up while accelerating.
					if sp, ref := speedOf(st), speedOf(straight[i]); sp > ref+0.1 {
						t.Fatalf("rate %d input (%v,%v) tick %d: speed %v > straight %v", tr, mx, my, i, sp, ref)
					}
				}
				last := states[n-1]
				if d := math.Hypot(last.X-1000, last.Y-1000); d > maxDist+quantSlack*float64(n) {
					t.Errorf("rate %d input (%v,%v): covered %v in 1 s, straight only %v", tr, mx, my, d, maxDist)
				}
			}
		}
	}
}

func TestNeverInsideWallAndQuantized(t *testing.T) {
	m := loadArena(t)
	for _, tr := range tickRates {
		w := m.World(tr)
		r := &prng{s: 0xC0FFEE + uint64(tr)}
		touches := 0
		for p, sp := range m.Spawns {
			s := shared.NewPlayerState(sp.X, sp.Y)
			checkQuantized(t, "spawn", s)
			var mx, my float32
			for i := 0; i < 5000; i++ {
				if r.intn(40) == 0 {
					mx, my = r.axis(), r.axis()
				}
				cmd := shared.UserCmd{CommandNumber: uint32(i + 1), MoveX: mx, MoveY: my, ViewAngle: r.angle()}
				if r.intn(4) == 0 {
					cmd.Buttons = shared.ButtonAttack
				}
				prev := s
				s, _ = shared.RunCommand(s, cmd, w)
				if m.Solid(s.X, s.Y, shared.PlayerRadius) {
					t.Fatalf("rate %d spawn %d command %d: (%v,%v) -> (%v,%v) overlaps a wall",
						tr, p, i, prev.X, prev.Y, s.X, s.Y)
				}
				checkQuantized(t, "after command", s)
				// No tunnelling or teleport (walls may push back, hence the 2).
				if math.Hypot(s.X-prev.X, s.Y-prev.Y) > 2*shared.MaxSpeed/float64(tr) {
					t.Fatalf("rate %d: moved %v in one tick", tr, math.Hypot(s.X-prev.X, s.Y-prev.Y))
				}
				if m.Solid(s.X, s.Y, shared.PlayerRadius+1) {
					touches++
				}
			}
		}
		if touches < 1000 {
			t.Errorf("rate %d: only %d commands ended at a wall; the test does not exercise collisions", tr, touches)
		}
	}
}

func TestSlideAlongWallKeepsTangentialVelocity(t *testing.T) {
	for _, tr := range tickRates {
		// A wall along the top; the player rests against it.
		wall := &shared.World{TickRate: tr, Walls: []shared.Box{{MinX: 0, MinY: 0, MaxX: 4000, MaxY: 32}}}
		s := shared.NewPlayerState(500, 32+shared.PlayerRadius)
		s.VX, s.VY = 100, -50
		// A reference far from the wall with the same velocity.
		free := s
		free.Y = 2000
		cmd := shared.UserCmd{CommandNumber: 1, MoveX: 0.7071, MoveY: -0.7071}
		for i := 0; i < 3*tr; i++ {
			var ws, fs shared.PlayerState
			ws, _ = shared.RunCommand(s, cmd, wall)
			fs, _ = shared.RunCommand(free, cmd, openWorld(tr))
			if ws.VX != fs.VX || ws.X != fs.X {
				t.Fatalf("rate %d tick %d: along the wall X,VX = %v,%v; in the open %v,%v", tr, i, ws.X, ws.VX, fs.X, fs.VX)
			}
			if ws.Y < 32+shared.PlayerRadius || ws.VY < 0 {
				t.Fatalf("rate %d tick %d: into the wall: Y=%v VY=%v", tr, i, ws.Y, ws.VY)
			}
			if ws.VY != 0 {
				t.Fatalf("rate %d tick %d: pressing into the wall leaves VY=%v", tr, i, ws.VY)
			}
			if ws.X <= s.X {
				t.Fatalf("rate %d tick %d: not sliding: X %v -> %v", tr, i, s.X, ws.X)
			}
			s = ws
			// Keep the reference on the same tangential velocity.
			free = ws
			free.Y = 2000
			cmd.CommandNumber++
		}
		// Pressing diagonally into the wall, only the tangential part of the
		// acceleration remains: the slide settles where friction balances it.
		dx := math.Round(0.7071*127) / 127
		want := shared.Accel * shared.MaxSpeed * (dx / math.Hypot(dx, dx)) / shared.Friction
		if math.Abs(s.VX-want) > 0.5 {
			t.Errorf("rate %d: sliding speed %v, want %v", tr, s.VX, want)
		}
	}
}

func TestRunIntoWallStopsAtContact(t *testing.T) {
	m := loadArena(t)
	for _, tr := range tickRates {
		// Spawn 0 is near the top-left corner; run left into the outer wall.
		sp := m.Spawns[0]
		states := run(shared.NewPlayerState(sp.X, sp.Y), shared.UserCmd{MoveX: -1}, m.World(tr), 2*tr)
		last := states[len(states)-1]
		if last.VX != 0 {
			t.Errorf("rate %d: still moving into the wall: VX=%v", tr, last.VX)
		}
		stop := math.Inf(-1) // right edge of the wall to the left
		for _, wl := range m.Walls {
			if wl.MinY <= sp.Y && sp.Y <= wl.MaxY && wl.MaxX <= sp.X {
				stop = math.Max(stop, wl.MaxX+shared.PlayerRadius)
			}
		}
		if last.X < stop || last.X > stop+0.5 {
			t.Errorf("rate %d: stopped at X=%v, want just right of %v", tr, last.X, stop)
		}
		if last.Y != sp.Y {
			t.Errorf("rate %d: Y drifted %v -> %v", tr, sp.Y, last.Y)
		}
	}
}

// holdAttack runs n commands holding attack and returns the states and results.
func holdAttack(s shared.PlayerState, w *shared.World, n int, buttons uint16) ([]shared.PlayerState, []shared.Result) {
	var ss []shared.PlayerState
	var rs []shared.Result
	for i := 0; i < n; i++ {
		var res shared.Result
		s, res = shared.RunCommand(s, shared.UserCmd{CommandNumber: uint32(i + 1), Buttons: buttons}, w)
		ss = append(ss, s)
		rs = append(rs, res)
	}
	return ss, rs
}

func TestFireIntervalRespected(t *testing.T) {
	def := shared.Weapons[0]
	for _, tr := range tickRates {
		interval := int(shared.Ticks(def.IntervalMs, tr))
		if interval < 1 {
			t.Fatalf("interval %d", interval)
		}
		// Fewer ticks than the magazine lasts: shots at ticks 0, interval, 2*interval...
		n := interval * (int(def.MagSize) - 1)
		_, rs := holdAttack(shared.NewPlayerState(1000, 1000), openWorld(tr), n, shared.ButtonAttack)
		shots, last := 0, -1
		for i, r := range rs {
			if !r.Fired {
				continue
			}
			if last >= 0 && i-last != interval {
				t.Errorf("rate %d: shots at ticks %d and %d, want %d apart", tr, last, i, interval)
			}
			shots++
			last = i
		}
		if want := (n + interval - 1) / interval; shots != want {
			t.Errorf("rate %d: %d shots in %d ticks, want %d (interval %d ticks)", tr, shots, n, want, interval)
		}
		if !rs[0].Fired {
			t.Errorf("rate %d: the first command holding attack did not fire", tr)
		}
	}
}

func TestMagazineEmptiesThenAutoReloads(t *testing.T) {
	def := shared.Weapons[0]
	for _, tr := range tickRates {
		interval := int(shared.Ticks(def.IntervalMs, tr))
		reload := int(shared.Ticks(def.ReloadMs, tr))
		n := interval*int(def.MagSize) + reload + 4*interval
		ss, rs := holdAttack(shared.NewPlayerState(1000, 1000), openWorld(tr), n, shared.ButtonAttack)
		shots, started := 0, -1
		lastShot := -1
		for i := range rs {
			if rs[i].Fired {
				if started >= 0 && i < started+reload {
					t.Fatalf("rate %d: fired at tick %d during the reload started at %d", tr, i, started)
				}
				if started < 0 {
					shots++
					lastShot = i
				}
			}
			if rs[i].ReloadStarted {
				if started >= 0 {
					t.Fatalf("rate %d: second reload at tick %d (first %d)", tr, i, started)
				}
				started = i
				if ss[i].Ammo[0] != 0 {
					t.Errorf("rate %d: auto-reload with %d rounds left", tr, ss[i].Ammo[0])
				}
			}
		}
		if shots != int(def.MagSize) {
			t.Fatalf("rate %d: %d shots before the reload, want the magazine %d", tr, shots, def.MagSize)
		}
		if started != lastShot+1 {
			t.Errorf("rate %d: auto-reload began at tick %d, want right after the last shot %d", tr, started, lastShot)
		}
		// The magazine is full again exactly ReloadMs (in ticks) after the reload began.
		for i := started; i < started+reload; i++ {
			if ss[i].Ammo[0] != 0 || ss[i].ReloadTicks == 0 {
				t.Fatalf("rate %d tick %d: ammo %d reload %d before the reload is done", tr, i, ss[i].Ammo[0], ss[i].ReloadTicks)
			}
		}
		done := started + reload
		if got := ss[done].Ammo[0]; got != def.MagSize && got != def.MagSize-1 {
			t.Errorf("rate %d: ammo %d after the reload, want %d", tr, got, def.MagSize)
		}
		if !rs[done].Fired {
			t.Errorf("rate %d: holding attack did not fire as soon as the reload ended (tick %d)", tr, done)
		}
	}
}

func TestReloadButton(t *testing.T) {
	def := shared.Weapons[0]
	for _, tr := range tickRates {
		w := openWorld(tr)
		reload := int(shared.Ticks(def.ReloadMs, tr))
		s := shared.NewPlayerState(1000, 1000)

		// A full magazine does not reload.
		if _, r := shared.RunCommand(s, shared.UserCmd{CommandNumber: 1, Buttons: shared.ButtonReload}, w); r.ReloadStarted {
			t.Errorf("rate %d: reload started with a full magazine", tr)
		}

		// Fire three rounds, then reload.
		ss, _ := holdAttack(s, w, 2*int(shared.Ticks(def.IntervalMs, tr))+1, shared.ButtonAttack)
		s = ss[len(ss)-1]
		if s.Ammo[0] != def.MagSize-3 {
			t.Fatalf("rate %d: ammo %d after three shots", tr, s.Ammo[0])
		}
		cmd := shared.UserCmd{CommandNumber: 100, Buttons: shared.ButtonReload}
		s, r := shared.RunCommand(s, cmd, w)
		if !r.ReloadStarted || int(s.ReloadTicks) != reload {
			t.Fatalf("rate %d: reload button: started=%v ticks=%d, want %d", tr, r.ReloadStarted, s.ReloadTicks, reload)
		}
		// Attack and reload held through the reload: no shot, no restart.
		for i := 1; i < reload; i++ {
			cmd.CommandNumber++
			cmd.Buttons = shared.ButtonAttack | shared.ButtonReload
			s, r = shared.RunCommand(s, cmd, w)
			if r.Fired || r.ReloadStarted {
				t.Fatalf("rate %d tick %d of reload: fired=%v restarted=%v", tr, i, r.Fired, r.ReloadStarted)
			}
			if s.Ammo[0] != def.MagSize-3 {
				t.Fatalf("rate %d tick %d of reload: ammo %d changed early", tr, i, s.Ammo[0])
			}
		}
		cmd.CommandNumber++
		cmd.Buttons = 0
		s, _ = shared.RunCommand(s, cmd, w)
		if s.Ammo[0] != def.MagSize || s.ReloadTicks != 0 {
			t.Errorf("rate %d: after %d ticks of reload ammo=%d reload=%d, want %d, 0", tr, reload, s.Ammo[0], s.ReloadTicks, def.MagSize)
		}
	}
}

func TestSpreadDeterministicAndBounded(t *testing.T) {
	def := shared.Weapons[0]
	w := openWorld(64)
	s := shared.NewPlayerState(1000, 1000)
	seen := map[float64]bool{}
	lo, hi := math.Inf(1), math.Inf(-1)
	for cn := uint32(1); cn <= 5000; cn++ {
		aim := float32(cn%628)/100 - 3.14
		cmd := shared.UserCmd{CommandNumber: cn, Buttons: shared.ButtonAttack, ViewAngle: aim}
		_, r1 := shared.RunCommand(s, cmd, w)
		_, r2 := shared.RunCommand(s, cmd, w)
		if !r1.Fired {
			t.Fatal("did not fire")
		}
		if r1.Shot != r2.Shot {
			t.Fatalf("command %d: shots differ: %+v vs %+v", cn, r1.Shot, r2.Shot)
		}
		off := shared.SpreadOffset(shared.ShotSeed(cn), def.Spread)
		if math.Abs(off) > def.Spread {
			t.Fatalf("command %d: spread %v beyond ±%v", cn, off, def.Spread)
		}
		if r1.Shot.Angle != float64(aim)+off {
			t.Fatalf("command %d: angle %v is not aim %v + the shared seed's offset %v", cn, r1.Shot.Angle, aim, off)
		}
		// The same command number from another state and aim gives the same offset.
		other := shared.NewPlayerState(200, 300)
		cmd.ViewAngle = 0
		if _, r3 := shared.RunCommand(other, cmd, w); r3.Shot.Angle != off {
			t.Fatalf("command %d: offset depends on more than the command number: %v vs %v", cn, r3.Shot.Angle, off)
		}
		seen[off] = true
		lo, hi = math.Min(lo, off), math.Max(hi, off)
	}
	if len(seen) < 4990 {
		t.Errorf("only %d distinct offsets over 5000 commands", len(seen))
	}
	// Uniform over [-Spread, Spread]: both ends are nearly reached.
	if lo > -0.95*def.Spread || hi < 0.95*def.Spread {
		t.Errorf("offsets span [%v, %v], want most of ±%v", lo, hi, def.Spread)
	}
}

func TestShotDirMatchesAngle(t *testing.T) {
	w := openWorld(64)
	r := &prng{s: 99}
	s := shared.NewPlayerState(1000, 1000)
	for cn := uint32(1); cn <= 2000; cn++ {
		cmd := shared.UserCmd{CommandNumber: cn, Buttons: shared.ButtonAttack, ViewAngle: r.angle(), MoveX: r.axis(), MoveY: r.axis()}
		s0 := s
		s0.NextAttack, s0.ReloadTicks = 0, 0
		s0.Ammo[0] = shared.Weapons[0].MagSize
		st, res := shared.RunCommand(s0, cmd, w)
		if !res.Fired {
			t.Fatalf("command %d did not fire", cn)
		}
		if res.Shot.X != st.X || res.Shot.Y != st.Y {
			t.Fatalf("muzzle (%v,%v) is not the player (%v,%v)", res.Shot.X, res.Shot.Y, st.X, st.Y)
		}
		if math.Abs(math.Hypot(res.Shot.DirX, res.Shot.DirY)-1) > 1e-15 ||
			math.Abs(res.Shot.DirX-math.Cos(res.Shot.Angle)) > 1e-15 ||
			math.Abs(res.Shot.DirY-math.Sin(res.Shot.Angle)) > 1e-15 {
			t.Fatalf("dir (%v,%v) does not match angle %v", res.Shot.DirX, res.Shot.DirY, res.Shot.Angle)
		}
		s = st
	}
}

func TestDeadPlayersDoNotMoveOrFire(t *testing.T) {
	m := loadArena(t)
	for _, tr := range tickRates {
		s := shared.NewPlayerState(500, 700)
		s.VX, s.VY = 200, -100
		s.Dead = true
		s.Ammo[0] = 5
		for i := 0; i < tr; i++ {
			cmd := shared.UserCmd{CommandNumber: uint32(i + 1), MoveX: 1, MoveY: -0.7071,
				Buttons: shared.ButtonAttack | shared.ButtonReload, ViewAngle: 1}
			n, r := shared.RunCommand(s, cmd, m.World(tr))
			if n.X != 500 || n.Y != 700 || n.VX != 0 || n.VY != 0 {
				t.Fatalf("rate %d: dead player moved: %+v", tr, n)
			}
			if r.Fired || r.ReloadStarted || n.Ammo[0] != 5 || !n.Dead {
				t.Fatalf("rate %d: dead player acted: %+v %+v", tr, n, r)
			}
			s = n
		}
		// The same player alive does move and fire (the test above can fail).
		s.Dead = false
		n, r := shared.RunCommand(s, shared.UserCmd{CommandNumber: 999, MoveX: 1, Buttons: shared.ButtonAttack}, m.World(tr))
		if n.X == s.X || !r.Fired {
			t.Errorf("rate %d: live player did not move or fire: %+v %+v", tr, n, r)
		}
	}
}
