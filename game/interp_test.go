package game

import (
	"math"
	"testing"
)

func histOf(samples ...Sample) *History {
	var h History
	for _, s := range samples {
		h.Add(s)
	}
	return &h
}

func mustAt(t *testing.T, h *History, tick, maxExtrap float64) (Sample, bool) {
	t.Helper()
	s, ex, ok := h.At(tick, maxExtrap)
	if !ok {
		t.Fatalf("At(%v): no sample", tick)
	}
	return s, ex
}

func TestHistoryEmpty(t *testing.T) {
	var h History
	if _, _, ok := h.At(10, 5); ok {
		t.Error("At on an empty history reports ok")
	}
	if _, ok := h.Newest(); ok {
		t.Error("Newest on an empty history reports ok")
	}
}

func TestHistoryInterpolatesBetweenSamples(t *testing.T) {
	h := histOf(
		Sample{Tick: 10, X: 100, Y: -40, Angle: 0.5, Alive: true},
		Sample{Tick: 12, X: 200, Y: 60, Angle: 1.0, Alive: true},
	)
	for _, c := range []struct {
		tick, x, y, angle float64
	}{
		{10, 100, -40, 0.5},
		{10.5, 125, -15, 0.625},
		{11, 150, 10, 0.75},
		{11.5, 175, 35, 0.875},
		{12, 200, 60, 1.0},
	} {
		s, ex := mustAt(t, h, c.tick, 4)
		if ex {
			t.Errorf("At(%v): reported as extrapolated", c.tick)
		}
		if s.X != c.x || s.Y != c.y || s.Angle != c.angle {
			t.Errorf("At(%v) = (%v, %v, %v), want (%v, %v, %v)", c.tick, s.X, s.Y, s.Angle, c.x, c.y, c.angle)
		}
		if !s.Alive {
			t.Errorf("At(%v): not alive", c.tick)
		}
	}
	// Before the first sample: hold the oldest.
	if s, _ := mustAt(t, h, 3, 4); s.X != 100 || s.Y != -40 {
		t.Errorf("before the history: (%v, %v), want the oldest sample", s.X, s.Y)
	}
}

func TestHistoryBridgesDroppedSnapshot(t *testing.T) {
	// Snapshots every 2 ticks; the one at tick 14 was lost.
	h := histOf(
		Sample{Tick: 10, X: 0, Alive: true},
		Sample{Tick: 12, X: 20, Alive: true},
		Sample{Tick: 16, X: 100, Alive: true},
		Sample{Tick: 18, X: 120, Alive: true},
	)
	for _, c := range []struct{ tick, x float64 }{
		{12, 20}, {13, 40}, {14, 60}, {15, 80}, {16, 100}, {17, 110},
	} {
		s, ex := mustAt(t, h, c.tick, 4)
		if ex || s.X != c.x {
			t.Errorf("At(%v) = %v (extrapolated %v), want %v interpolated across the gap", c.tick, s.X, ex, c.x)
		}
	}
}

func TestHistoryTeleportNotSmoothed(t *testing.T) {
	var h History
	for tick := uint32(2); tick <= 20; tick += 2 {
		h.Add(Sample{Tick: tick, X: float64(tick), Y: 5, Alive: true})
	}
	// Respawn across the map: the caller restarts the history.
	h.Reset()
	if h.Len() != 0 {
		t.Fatalf("Len after Reset = %d", h.Len())
	}
	h.Add(Sample{Tick: 22, X: 1000, Y: 500, Alive: true})
	for tick := 0.0; tick <= 30; tick += 0.25 {
		s, _ := mustAt(t, &h, tick, 4)
		if s.X != 1000 || s.Y != 500 {
			t.Fatalf("At(%v) after teleport = (%v, %v): the old position leaked in", tick, s.X, s.Y)
		}
	}
	h.Add(Sample{Tick: 24, X: 1010, Y: 500, Alive: true})
	for tick := 0.0; tick <= 24; tick += 0.25 {
		s, _ := mustAt(t, &h, tick, 4)
		if s.X < 1000 || s.X > 1010 {
			t.Fatalf("At(%v) = %v: outside the new segment", tick, s.X)
		}
	}
	if s, _ := mustAt(t, &h, 23, 4); s.X != 1005 {
		t.Errorf("At(23) = %v, want 1005", s.X)
	}
	// A new sample with a tick older than the reset one is still rejected.
	h.Add(Sample{Tick: 21, X: -5})
	if h.Len() != 2 {
		t.Errorf("old sample accepted after reset: Len %d", h.Len())
	}
}

func TestHistoryExtrapolatesThenHolds(t *testing.T) {
	h := histOf(
		Sample{Tick: 10, X: 0, Y: 100, Alive: true},
		Sample{Tick: 12, X: 20, Y: 90, Alive: true},
	)
	const maxExtrap = 4
	for _, c := range []struct{ tick, x, y float64 }{
		{12.5, 25, 87.5}, {13, 30, 85}, {14, 40, 80}, {15, 50, 75}, {16, 60, 70},
		// beyond 12+4: held
		{16.5, 60, 70}, {17, 60, 70}, {40, 60, 70},
	} {
		s, ex := mustAt(t, h, c.tick, maxExtrap)
		if !ex {
			t.Errorf("At(%v): not reported as extrapolated", c.tick)
		}
		if s.X != c.x || s.Y != c.y {
			t.Errorf("At(%v) = (%v, %v), want (%v, %v)", c.tick, s.X, s.Y, c.x, c.y)
		}
	}
	// maxExtrap 0 (cl_extrapolate off): hold the newest.
	if s, ex := mustAt(t, h, 14, 0); !ex || s.X != 20 || s.Y != 90 {
		t.Errorf("At(14, 0) = (%v, %v), want the newest sample held", s.X, s.Y)
	}
	// A single sample cannot be extrapolated.
	one := histOf(Sample{Tick: 12, X: 20, Alive: true})
	if s, _ := mustAt(t, one, 14, maxExtrap); s.X != 20 {
		t.Errorf("one sample extrapolated to %v", s.X)
	}
	// A dead entity is not extrapolated.
	dead := histOf(Sample{Tick: 10, X: 0, Alive: true}, Sample{Tick: 12, X: 20, Alive: false})
	if s, _ := mustAt(t, dead, 14, maxExtrap); s.X != 20 || s.Alive {
		t.Errorf("dead entity at %v alive=%v, want held at 20 and dead", s.X, s.Alive)
	}
}

func TestHistoryAnglesShortWay(t *testing.T) {
	a, b := math.Pi-0.1, -math.Pi+0.1 // 0.2 rad apart across ±pi
	h := histOf(Sample{Tick: 0, Angle: a, Alive: true}, Sample{Tick: 4, Angle: b, Alive: true})
	for tick := 0.0; tick <= 4; tick += 0.25 {
		s, _ := mustAt(t, h, tick, 0)
		if math.Abs(s.Angle) < math.Pi-0.1-1e-12 {
			t.Fatalf("At(%v) angle %v: went the long way round through 0", tick, s.Angle)
		}
		if s.Angle < -math.Pi || s.Angle > math.Pi {
			t.Fatalf("At(%v) angle %v outside [-pi, pi]", tick, s.Angle)
		}
	}
	if s, _ := mustAt(t, h, 1, 0); math.Abs(s.Angle-(math.Pi-0.05)) > 1e-12 {
		t.Errorf("quarter way: %v, want %v", s.Angle, math.Pi-0.05)
	}
	if s, _ := mustAt(t, h, 3, 0); math.Abs(s.Angle-(-math.Pi+0.05)) > 1e-12 {
		t.Errorf("three quarters: %v, want %v", s.Angle, -math.Pi+0.05)
	}
	if s, _ := mustAt(t, h, 2, 0); math.Abs(math.Abs(s.Angle)-math.Pi) > 1e-12 {
		t.Errorf("half way: %v, want ±pi", s.Angle)
	}
	// And the other direction.
	h2 := histOf(Sample{Tick: 0, Angle: b, Alive: true}, Sample{Tick: 4, Angle: a, Alive: true})
	if s, _ := mustAt(t, h2, 1, 0); math.Abs(s.Angle-(-math.Pi+0.05)) > 1e-12 {
		t.Errorf("reverse quarter way: %v, want %v", s.Angle, -math.Pi+0.05)
	}
}

func TestHistoryRingKeepsNewestInOrder(t *testing.T) {
	var h History
	const n = 3*HistorySize + 5
	for i := 1; i <= n; i++ {
		h.Add(Sample{Tick: uint32(10 * i), X: float64(i), Alive: true})
		want := min(i, HistorySize)
		if h.Len() != want {
			t.Fatalf("after %d adds Len = %d, want %d", i, h.Len(), want)
		}
		// Oldest first, consecutive, ending at the newest.
		for j := 0; j < h.Len(); j++ {
			if got, w := h.Get(j).X, float64(i-h.Len()+1+j); got != w {
				t.Fatalf("after %d adds Get(%d).X = %v, want %v", i, j, got, w)
			}
		}
		if s, _ := h.Newest(); s.X != float64(i) {
			t.Fatalf("Newest = %v, want %v", s.X, i)
		}
	}
	// Interpolation still works across the wrapped buffer.
	oldest := h.Get(0)
	for j := 0; j+1 < h.Len(); j++ {
		a := h.Get(j)
		tick := float64(a.Tick) + 5
		if s, _ := mustAt(t, &h, tick, 0); s.X != a.X+0.5 {
			t.Fatalf("At(%v) = %v, want %v", tick, s.X, a.X+0.5)
		}
	}
	// Samples that fell out are gone: before the oldest, the oldest is held.
	if s, _ := mustAt(t, &h, float64(oldest.Tick)-100, 0); s.X != oldest.X {
		t.Errorf("before the ring: %v, want the oldest kept %v", s.X, oldest.X)
	}
}

func TestHistoryIgnoresNonIncreasingTicks(t *testing.T) {
	h := histOf(Sample{Tick: 10, X: 1, Alive: true}, Sample{Tick: 12, X: 2, Alive: true})
	h.Add(Sample{Tick: 12, X: 99, Alive: true}) // duplicate
	h.Add(Sample{Tick: 11, X: 99, Alive: true}) // late, out of order
	h.Add(Sample{Tick: 0, X: 99, Alive: true})
	if h.Len() != 2 {
		t.Fatalf("Len = %d, want 2", h.Len())
	}
	if s, _ := h.Newest(); s.X != 2 || s.Tick != 12 {
		t.Errorf("Newest = %+v, want the tick-12 sample", s)
	}
	for tick := 9.0; tick <= 14; tick += 0.5 {
		if s, _ := mustAt(t, h, tick, 2); s.X == 99 {
			t.Fatalf("At(%v) shows an ignored sample", tick)
		}
	}
	h.Add(Sample{Tick: 13, X: 3, Alive: true})
	if h.Len() != 3 {
		t.Errorf("a newer sample was not accepted: Len %d", h.Len())
	}
}

func TestLerpAlive(t *testing.T) {
	a := Sample{Tick: 10, X: 0, Alive: true}
	b := Sample{Tick: 12, X: 10, Alive: false}
	if s := Lerp(a, b, 0.5); !s.Alive || s.X != 5 || s.Tick != 11 {
		t.Errorf("Lerp(0.5) = %+v, want alive at 5, tick 11", s)
	}
	if s := Lerp(a, b, 1); s.Alive || s.X != 10 || s.Tick != 12 {
		t.Errorf("Lerp(1) = %+v, want dead at 10, tick 12", s)
	}
}

// InterpPeriodMs is max(cl_interp, cl_interp_ratio / cl_updaterate) in ms,
// an update rate below 1 counting as 1.
func TestInterpPeriodMs(t *testing.T) {
	for _, c := range []struct {
		interpMs, ratio float64
		updateRate      int
		want            float64
	}{
		{100, 2, 20, 100},  // defaults: 2/20 s = 100 ms, a tie
		{0, 2, 20, 100},    // the ratio wins
		{100, 1, 64, 100},  // cl_interp wins over 15.6 ms
		{10, 2, 64, 31.25}, // two snapshot intervals at 64/s
		{0, 0, 20, 0},      // nothing asked for
		{0, 1, 0, 1000},    // a zero rate counts as 1/s
		{250, 5, 128, 250}, // cl_interp wins
		{0, 5, 10, 500},    // the ratio at the lowest rate
		{0, 0.5, 128, 3.90625},
	} {
		if got := InterpPeriodMs(c.interpMs, c.ratio, c.updateRate); math.Abs(got-c.want) > 1e-9 {
			t.Errorf("InterpPeriodMs(%v, %v, %d) = %v, want %v", c.interpMs, c.ratio, c.updateRate, got, c.want)
		}
	}
}
