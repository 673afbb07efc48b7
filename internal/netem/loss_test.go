package netem

import (
	"math"
	"testing"
	"time"
)

// runs feeds n packets through a shaper and returns the share lost and the
// mean length of the runs of consecutive losses.
func runs(d Dir, n int) (lossPct, meanRun float64) {
	s := newShaper(d, 7)
	now := time.Unix(0, 0)
	lost, nRuns, in := 0, 0, false
	for i := 0; i < n; i++ {
		v, _, _ := s.decide(now)
		if v != Pass {
			lost++
			if !in {
				nRuns++
			}
		}
		in = v != Pass
	}
	if nRuns == 0 {
		return 0, 0
	}
	return 100 * float64(lost) / float64(n), float64(lost) / float64(nRuns)
}

// Random loss loses the share asked for, in runs about as short as chance
// makes them (1/(1-p)); the Gilbert–Elliott model loses the same share in
// runs of the asked mean length.
func TestShaperLossShares(t *testing.T) {
	loss, run := runs(Dir{LossPct: 5}, 200000)
	if math.Abs(loss-5) > 0.3 || run > 1.1 {
		t.Errorf("random 5 %%: lost %.2f %% in runs of %.2f, want 5 ± 0.3 %% in runs under 1.1", loss, run)
	}
	b := BurstLoss(5, 4)
	if m := b.MeanLossPct(); math.Abs(m-5) > 1e-9 {
		t.Errorf("BurstLoss(5, 4).MeanLossPct() = %v, want 5", m)
	}
	loss, run = runs(Dir{Burst: b}, 200000)
	if math.Abs(loss-5) > 0.6 || math.Abs(run-4) > 0.4 {
		t.Errorf("burst 5 %% × 4: lost %.2f %% in runs of %.2f, want 5 ± 0.6 %% in runs of 4 ± 0.4", loss, run)
	}
}

// Jitter spreads delays over DelayMs ± JitterMs without reordering: each
// departure is at or after the one before and never before now + delay -
// jitter; with ReorderPct some leave at once.
func TestShaperJitterKeepsOrder(t *testing.T) {
	s := newShaper(Dir{DelayMs: 50, JitterMs: 10}, 3)
	now := time.Unix(0, 0)
	var last time.Time
	lo, hi := time.Hour, time.Duration(0)
	for i := 0; i < 5000; i++ {
		now = now.Add(time.Millisecond)
		_, due, re := s.decide(now)
		if re || due.Before(last) {
			t.Fatalf("packet %d leaves at %v, before the one before (%v) or reordered (%v)", i, due, last, re)
		}
		last = due
		d := due.Sub(now)
		lo, hi = min(lo, d), max(hi, d)
	}
	if lo < 40*time.Millisecond || hi > 61*time.Millisecond || hi < 55*time.Millisecond {
		t.Errorf("delays %v..%v, want within 40..60 ms (and a bit over for order) and spread past 55 ms", lo, hi)
	}
	s = newShaper(Dir{DelayMs: 50, ReorderPct: 10}, 3)
	re := 0
	for i := 0; i < 5000; i++ {
		if _, due, r := s.decide(now); r {
			re++
			if !due.Equal(now) {
				t.Fatalf("a reordered packet leaves at %v, want at once (%v)", due, now)
			}
		}
	}
	if re < 400 || re > 600 {
		t.Errorf("%d of 5000 reordered, want about 500", re)
	}
}

func TestDirCheckRefusesOutOfRange(t *testing.T) {
	for _, d := range []Dir{{DelayMs: -1}, {JitterMs: math.NaN()}, {LossPct: 101}, {Burst: Burst{LeavePct: -3}}, {ReorderPct: 200}} {
		if err := d.check("AtoB"); err == nil {
			t.Errorf("%+v: accepted", d)
		}
	}
	if err := (Dir{DelayMs: 75, JitterMs: 10, LossPct: 2, Burst: BurstLoss(1, 3)}).check("AtoB"); err != nil {
		t.Error(err)
	}
}
