package netclient

import (
	"math"
	"testing"

	"tickshot/net/proto"
)

// Entities updated less often than every snapshot (server/priority.go):
// a held entity keeps its baseline's state and Tick, adds no sample, and
// is interpolated between its own fresh states (per-entity history).

// heldRun plays snapshots every 3 ticks at 64 ticks/s (about 20/s) through
// a link and an interpolator, as the server writes them: entity 7's state
// comes from pos(tick) and is fresh in the snapshots for which fresh(k)
// says so, else held at the client's baseline (the previous snapshot, always
// acked). After each snapshot it renders entity 7 at every quarter tick up
// to the next snapshot, cl_interp 100 ms (6.4 ticks) behind, with
// cl_extrapolate_amount 250 ms (16 ticks), and calls at with each.
func heldRun(t *testing.T, snaps int, pos func(tick uint32) float64, fresh func(k int) bool, at func(rt float64, e RenderedEntity)) {
	t.Helper()
	l, _ := pipeLink(t)
	ip := newInterpolator(partsTickRate)
	const every = 3
	const interp = 6.4
	opts := lerpOpts{interpolate: true, extrapTicks: 16}
	var base []proto.EntityState
	for k := 0; k < snaps; k++ {
		tick := uint32(100 + every*k)
		cur := []proto.EntityState{entAt(7, pos(tick), 0)}
		cur[0].Tick = tick
		if k > 0 && !fresh(k) {
			cur = base // held: the client's own copy
		}
		var baseSeq uint32
		if k > 0 {
			baseSeq = uint32(k)
		}
		s := deltaSnap(tick, uint32(k+1), baseSeq, base, cur)
		if !l.unpack(s) {
			t.Fatalf("snapshot %d not unpacked", k+1)
		}
		l.applied(s)
		if got := s.Entities[0]; got.X != cur[0].X || got.Tick != cur[0].Tick {
			t.Fatalf("snapshot %d: client holds %+v, server recorded %+v", k+1, got, cur[0])
		}
		ip.update(s)
		base = append([]proto.EntityState(nil), s.Entities...)
		for q := 0; q < every*4; q++ {
			rt := float64(tick) + float64(q)/4 - interp
			if e, ok := ip.entity(7, rt, opts); ok {
				at(rt, e)
			}
		}
	}
}

// An entity moving in a straight line at constant speed, fresh only every
// 4th snapshot (12 ticks apart, 5.6 ticks beyond the 6.4 of cl_interp),
// is drawn without a jump: each quarter tick moves it by its speed's
// quarter tick, whether interpolated or extrapolated (within
// cl_extrapolate_amount, a straight line's extrapolation is exact), and it
// never goes backwards when its fresh state arrives.
func TestHeldEntityDrawnWithoutJumps(t *testing.T) {
	const speed = 300.0 // world units/s
	pos := func(tick uint32) float64 { return 100 + speed*float64(tick)/partsTickRate }
	prevRT, prevX := math.NaN(), 0.0
	extrapolated, worst := 0, 0.0
	heldRun(t, 40, pos, func(k int) bool { return k%4 == 0 }, func(rt float64, e RenderedEntity) {
		if e.Extrapolated {
			extrapolated++
		}
		if !math.IsNaN(prevRT) && rt > prevRT && rt > 100+12 {
			want := speed * (rt - prevRT) / partsTickRate
			worst = max(worst, math.Abs(e.X-prevX-want))
		}
		prevRT, prevX = rt, e.X
	})
	t.Logf("extrapolated in %d renders; the largest departure from a steady step: %.4f units", extrapolated, worst)
	if extrapolated == 0 {
		t.Error("never extrapolated: the entity was not held long enough to show anything")
	}
	if worst > 0.01 { // quantization: positions are 1/shared.PosScale units
		t.Errorf("a render stepped %.4f units off its steady path: a jump", worst)
	}
}

// An entity that stops is sent fresh though unchanged (an empty record):
// the client adds samples at its new ticks and draws it standing, not
// extrapolated past where it stopped; held instead, it would be
// extrapolated onwards.
func TestStoppedFreshEntityNotExtrapolated(t *testing.T) {
	pos := func(tick uint32) float64 { return 100 + float64(min(tick, 130)-100)*5 } // stops at tick 130
	var lastX float64
	lateExtrap := 0
	heldRun(t, 30, pos, func(int) bool { return true }, func(rt float64, e RenderedEntity) {
		if rt > 150 {
			lastX = e.X
			if e.Extrapolated {
				lateExtrap++
			}
		}
	})
	if lastX != pos(130) || lateExtrap != 0 {
		t.Errorf("stopped at X %v: drawn at %v, %d renders extrapolated after it stopped", pos(130), lastX, lateExtrap)
	}
}

// A held entity's copy comes from the client's baseline, the newest
// snapshot it acked, which may be older than one that reached it after:
// here the baseline's state is from before a respawn the client has seen.
// The interpolator ignores the copy whole: no sample, no history restart,
// and the health and teleport counter stay those of the newest fresh state.
func TestOlderHeldCopyIgnored(t *testing.T) {
	ip := newInterpolator(partsTickRate)
	at := func(tick uint32, x float64, teleport, health uint8) proto.EntityState {
		e := entAt(7, x, 0)
		e.Tick, e.Teleport, e.Health = tick, teleport, health
		return e
	}
	ip.update(&proto.Snapshot{Tick: 100, Entities: []proto.EntityState{at(100, 500, 1, 40)}})
	ip.update(&proto.Snapshot{Tick: 103, Entities: []proto.EntityState{at(103, 2000, 2, 100)}}) // respawned
	ip.update(&proto.Snapshot{Tick: 106, Entities: []proto.EntityState{at(100, 500, 1, 40)}})   // held against baseline 100
	e := ip.entities[7]
	if e == nil {
		t.Fatal("the held entity was forgotten")
	}
	if e.Teleport != 2 || e.Health != 100 || e.Hist.Len() != 1 {
		t.Fatalf("after an older held copy: teleport %d, health %d, %d samples; want 2, 100, 1", e.Teleport, e.Health, e.Hist.Len())
	}
	if s, _ := e.Hist.Newest(); s.Tick != 103 {
		t.Fatalf("newest sample of tick %d, want 103", s.Tick)
	}
}
