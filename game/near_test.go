package game

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"tickshot/shared"
)

// TestNearWithinHoldsEveryPlayerInside: on random worlds (bots fighting,
// players joining and leaving, commands moving them between the asks),
// Near.Within returns, ascending, every player that stands within the
// distance asked, wherever the tick is: the grid follows the commands or
// is rebuilt.
func TestNearWithinHoldsEveryPlayerInside(t *testing.T) {
	var got []int32
	asked := 0
	for seed := uint64(0); seed < 60; seed++ {
		r := rand.New(rand.NewPCG(seed, 9))
		m, err := LoadMap([]string{"arena", "sprawl", "plaza"}[r.IntN(3)])
		if err != nil {
			t.Fatal(err)
		}
		w := NewWorld(m, 64, seed, Rules{BotSkill: 2, TeamPlay: r.IntN(3) == 0})
		var humans []*Player
		for range 4 + r.IntN(20) {
			w.AddBot(32)
		}
		for i := range 4 + r.IntN(12) {
			humans = append(humans, w.AddPlayer("human"+string(rune('a'+i)), false))
		}
		var cmdNum uint32
		for range 200 {
			w.NextTick()
			if r.IntN(20) == 0 && len(humans) > 1 { // a leave, a join
				k := r.IntN(len(humans))
				w.RemovePlayer(humans[k].ID, "left")
				humans = slices.Delete(humans, k, k+1)
				humans = append(humans, w.AddPlayer("late", false))
			}
			for _, h := range humans {
				mx, my := float32(r.IntN(3)-1), float32(r.IntN(3)-1)
				for range 1 + r.IntN(12) { // a burst crosses cells
					cmdNum++
					w.RunCommand(h, shared.UserCmd{CommandNumber: cmdNum, TickCount: w.Tick, Msec: shared.MsecFor(w.TickRate),
						MoveX: mx, MoveY: my}, nil)
				}
				// Round someone who moved, or anywhere.
				o := humans[r.IntN(len(humans))].State
				x, y := o.X+r.NormFloat64()*100, o.Y+r.NormFloat64()*100
				d := r.Float64() * 200
				if r.IntN(4) == 0 {
					x, y, d = r.Float64()*m.Width, r.Float64()*m.Height, r.Float64()*1800
				}
				got = w.Near.Within(x, y, d, got)
				if !slices.IsSorted(got) || len(slices.Compact(slices.Clone(got))) != len(got) {
					t.Fatalf("seed %d tick %d: %v not ascending", seed, w.Tick, got)
				}
				for i, p := range w.Players {
					if math.Hypot(p.State.X-x, p.State.Y-y) <= d && !slices.Contains(got, int32(i)) {
						t.Fatalf("seed %d tick %d: player %d at (%.1f, %.1f) within %.1f of (%.1f, %.1f), not in %v",
							seed, w.Tick, p.ID, p.State.X, p.State.Y, d, x, y, got)
					}
				}
				asked++
			}
			w.Step()
		}
	}
	t.Logf("%d asks", asked)
}
