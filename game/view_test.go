package game

import "testing"

// A held entity's copy (proto.EntityState.Tick) may be older than a state
// the view took from a snapshot before it, even one from before a respawn:
// Observe ignores it whole, keeping the newer samples and the newer
// teleport counter, and takes the next newer sample as usual.
func TestObserveIgnoresOlderSample(t *testing.T) {
	var v EntityView
	v.Observe(Sample{Tick: 10, X: 100}, 1, 64)
	v.Observe(Sample{Tick: 12, X: 110}, 2, 64) // respawned: history restarts
	v.Observe(Sample{Tick: 11, X: 105}, 1, 64) // a held copy of a state before the respawn
	v.Observe(Sample{Tick: 12, X: 999}, 1, 64) // the same tick again
	if v.Teleport != 2 || v.Hist.Len() != 1 {
		t.Fatalf("after older samples: teleport %d, %d samples; want 2 and 1", v.Teleport, v.Hist.Len())
	}
	if s, _ := v.Hist.Newest(); s.Tick != 12 || s.X != 110 {
		t.Fatalf("newest %+v, want tick 12 at X 110", s)
	}
	v.Observe(Sample{Tick: 14, X: 120}, 2, 64)
	if v.Hist.Len() != 2 {
		t.Fatalf("a newer sample after them: %d samples, want 2", v.Hist.Len())
	}
}
