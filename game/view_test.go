package game

import (
	"math/rand/v2"
	"testing"
)

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

// A ViewTail fed the same samples as an EntityView holds the view's two
// newest samples and its teleport counter, and a view restored from it
// reads the same at every render tick from its newest sample on: random
// walks with respawns, jumps, held copies (samples no newer) and deaths.
func TestViewTailFollowsView(t *testing.T) {
	for seed := uint64(1); seed <= 200; seed++ {
		rng := rand.New(rand.NewPCG(seed, 7))
		var v EntityView
		var tail ViewTail
		tick, x, tp := uint32(1), 0.0, uint8(0)
		for i := 0; i < 300; i++ {
			s := Sample{Tick: tick, X: x, Y: float64(i % 7), Angle: rng.Float64(), Alive: rng.IntN(9) != 0}
			switch r := rng.IntN(20); {
			case r == 0:
				tp++
			case r == 1:
				s.X += 2000 // a jump
			case r < 4 && tick > 3:
				s.Tick = tick - 1 - uint32(rng.IntN(3)) // a held copy
			}
			v.Observe(s, tp, 64)
			tail.Observe(s, tp, 64)
			tick += 1 + uint32(rng.IntN(3))
			x += rng.Float64()*8 - 4
			n := min(v.Hist.Len(), 2)
			if int(tail.N) != n || tail.Teleport != v.Teleport {
				t.Fatalf("seed %d step %d: tail holds %d, teleport %d; view %d, %d", seed, i, tail.N, tail.Teleport, n, v.Teleport)
			}
			for k := 0; k < n; k++ {
				if tail.S[k] != v.Hist.Get(v.Hist.Len()-n+k) {
					t.Fatalf("seed %d step %d: tail sample %d %+v, view %+v", seed, i, k, tail.S[k], v.Hist.Get(v.Hist.Len()-n+k))
				}
			}
			var back EntityView
			back.Restore(&tail)
			newest, _ := v.Hist.Newest()
			for rt := float64(newest.Tick); rt < float64(newest.Tick)+20; rt += 0.37 {
				a, _, _ := v.Hist.At(rt, 16)
				b, _, _ := back.Hist.At(rt, 16)
				if a != b {
					t.Fatalf("seed %d step %d at %.2f: restored %+v, view %+v", seed, i, rt, b, a)
				}
			}
		}
	}
}
