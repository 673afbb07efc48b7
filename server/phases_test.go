package server

import (
	"fmt"
	"math/rand/v2"
	"testing"
)

func TestPhaseGroupCount(t *testing.T) {
	for _, c := range []struct{ ur, tr, want int }{
		{20, 64, 3},   // 3 groups: one on 60 of 64 ticks, none on 4 (busiest 1.07 × mean)
		{64, 64, 1},   // every tick
		{20, 128, 6},  // 6.4 ticks apart
		{10, 64, 6},   // 6.4 ticks apart
		{32, 64, 2},   // every other tick, the two alternate
		{33, 64, 7},   // 1.94 ticks apart: 7 groups, 3 or 4 a tick (1.11 × mean)
		{100, 64, 1},  // over the tick rate (ClampRates keeps it under): every tick
		{1, 128, 8},   // at most 8
		{128, 128, 1}, // every tick
	} {
		if got := phaseGroupCount(c.ur, c.tr); got != c.want {
			t.Errorf("phaseGroupCount(%d, %d) = %d, want %d", c.ur, c.tr, got, c.want)
		}
	}
}

// TestPhaseGroupsKeepRatesAndEvenTicks: clients that joined at random
// ticks, at cl_updaterate 10, 20, 33 and 64, each receive their update rate
// of snapshots (within one over 10 s), the clients of one update rate send
// on at most phaseGroupCount different sets of ticks, and the busiest tick
// carries no more snapshots than the groups' even spread allows: 30
// clients at cl_updaterate 20 in 3 groups of 10, one group a tick at most.
func TestPhaseGroupsKeepRatesAndEvenTicks(t *testing.T) {
	for _, rates := range [][]uint16{{20}, {10, 20, 33, 64}} {
		t.Run(fmt.Sprint(rates), func(t *testing.T) {
			r := newShareRun(t, 0, true)
			rng := rand.New(rand.NewPCG(4, uint64(len(rates))))
			const clients, warm, ticks = 30, 128, 640
			joinAt := make([]int, clients)
			for i := range joinAt {
				joinAt[i] = rng.IntN(100)
			}
			sends := make([][]bool, clients)
			for i := range sends {
				sends[i] = make([]bool, ticks)
			}
			most := 0
			var rateOf []uint16 // by client index (join order)
			for tick := 0; tick < warm+ticks; tick++ {
				for i, at := range joinAt {
					if at == tick {
						r.join(fmt.Sprintf("c%d", i), rates[i%len(rates)], 100000, 3, false)
						rateOf = append(rateOf, rates[i%len(rates)])
					}
				}
				n := 0
				r.step(func(int) bool { return false }, func(i int, _ []byte) {
					if tick >= warm {
						sends[i][tick-warm] = true
						n++
					}
				})
				most = max(most, n)
			}
			patterns := map[uint16]map[string]bool{}
			for i, s := range sends {
				ur := rateOf[i]
				got := 0
				for _, sent := range s {
					if sent {
						got++
					}
				}
				if want := int(ur) * ticks / 64; got < want-1 || got > want+1 {
					t.Errorf("client %d at cl_updaterate %d: %d snapshots in %d ticks, want %d", i, ur, got, ticks, want)
				}
				if patterns[ur] == nil {
					patterns[ur] = map[string]bool{}
				}
				patterns[ur][fmt.Sprint(s)] = true
			}
			for ur, p := range patterns {
				if n := phaseGroupCount(int(ur), 64); len(p) > n {
					t.Errorf("cl_updaterate %d: clients send on %d different sets of ticks, want at most %d groups", ur, len(p), n)
				}
			}
			if len(rates) == 1 && most > clients/3 {
				t.Errorf("busiest tick wrote %d snapshots, want at most %d (one group of 3)", most, clients/3)
			}
			t.Logf("busiest tick %d snapshots", most)
		})
	}
}

// TestPhasedRateControlBackOnPhaseAfterChoke: a client in the phase group
// of offset 32 at cl_updaterate 16 and 64 ticks/s sends on the ticks
// 2 mod 4 (its group's: (32 + 16·tick) mod 64 < 16); a snapshot held back
// by its rate goes when the budget allows, and the ones after it are on
// the group's ticks again.
func TestPhasedRateControlBackOnPhaseAfterChoke(t *testing.T) {
	r := rateControl{bytesPerSec: 64000, updateRate: 16, snapAcc: 64, phased: true, phase: 32}
	var sent []uint32
	tick := uint32(100)
	for ; tick < 164; tick++ {
		if r.due(tick, 64) {
			sent = append(sent, tick)
			r.sent(100)
		}
	}
	if len(sent) < 16 || sent[0] != 100 {
		t.Fatalf("sent at %v: want the first at once (100), then 16 a second", sent)
	}
	for _, s := range sent[1:] {
		if s%4 != 2 {
			t.Fatalf("sent at %v: want every one after the first on a tick 2 mod 4", sent)
		}
	}
	r.sent(64000 / 2) // half a second's bytes: choked for about 16 ticks
	sent = sent[:0]
	for end := tick + 64; tick < end; tick++ {
		if r.due(tick, 64) {
			sent = append(sent, tick)
			r.sent(100)
		}
	}
	if len(sent) < 8 || r.chokesTotal == 0 {
		t.Fatalf("after the debt: sent at %v, %d chokes", sent, r.chokesTotal)
	}
	for _, s := range sent[1:] {
		if s%4 != 2 {
			t.Fatalf("after a choke sent at %v: want every one after the first on a tick 2 mod 4", sent)
		}
	}
}
