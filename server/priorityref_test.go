package server

import (
	"math/rand"
	"slices"
	"testing"

	"tickshot/game"
	"tickshot/net/proto"
	"tickshot/net/rtc"
)

// refPriority is prioritize as it was first written (a table of waits by
// player ID, a sort of every candidate by distance for the nearest, a sort
// of every candidate by priority): the reference the faster one must
// match, frame for frame.
type refPriority struct {
	waited []heldForRef
}

type heldForRef struct {
	seq     uint32
	waited  uint16
	inFrame bool // fresh or held in snapshot seq
}

// run is prioritize's frame for snap against base (delta: snap is a delta
// snapshot, whose base may still be empty), with entBudget bytes for the
// players and carryBudget for the carried.
func (r *refPriority) run(p [2]float64, snap *proto.Snapshot, base []proto.EntityState, delta bool, entBudget, carryBudget int) []proto.EntityState {
	type cand struct {
		base                 int
		d2                   float64
		cost                 int
		waited               uint16
		prio                 float32
		forced, stale, fresh bool
		carry                bool
	}
	prev := func(id uint16, seq uint32) heldForRef {
		if int(id) < len(r.waited) && r.waited[id].seq == seq-1 {
			return r.waited[id]
		}
		return heldForRef{}
	}
	var cands []cand
	var rec []byte
	bi, left := 0, entBudget
	for _, e := range snap.Entities {
		for bi < len(base) && base[bi].ID < e.ID {
			left -= proto.RemovedRecordLen(base[bi].ID)
			bi++
		}
		c := cand{base: -1}
		if bi < len(base) && base[bi].ID == e.ID {
			c.base = bi
			c.stale = snap.Tick-base[bi].Tick >= maxHeldTicks
			rec = proto.AppendEntityRecord(rec[:0], base[bi], e, true)
			bi++
		} else {
			rec = proto.AppendEntityRecord(rec[:0], proto.EntityState{}, e, false)
		}
		c.cost = len(rec)
		dx, dy := proto.FromFixed(e.X)-p[0], proto.FromFixed(e.Y)-p[1]
		c.d2 = dx*dx + dy*dy
		pr := prev(e.ID, snap.Seq)
		c.waited = pr.waited
		c.carry = delta && c.base < 0 && pr.inFrame
		c.prio = priority(c.waited, c.d2)
		c.forced = int(c.waited) >= MaxHeldSnapshots-1
		cands = append(cands, c)
	}
	for ; bi < len(base); bi++ {
		left -= proto.RemovedRecordLen(base[bi].ID)
	}
	order := make([]int, len(cands))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int { return cmpFloat(cands[a].d2, cands[b].d2) })
	for _, i := range order[:min(NearestFresh, len(order))] {
		cands[i].fresh = true
		left -= cands[i].cost
	}
	for i := range cands {
		if c := &cands[i]; c.stale && !c.fresh {
			c.fresh = true
			left -= c.cost
		}
	}
	slices.SortStableFunc(order, func(a, b int) int {
		ca, cb := &cands[a], &cands[b]
		if ca.carry != cb.carry {
			if ca.carry {
				return -1
			}
			return 1
		}
		if ca.carry {
			return cmpFloat(float64(cb.prio), float64(ca.prio))
		}
		if ca.forced != cb.forced {
			if ca.forced {
				return -1
			}
			return 1
		}
		if ca.forced && ca.waited != cb.waited {
			return int(cb.waited) - int(ca.waited)
		}
		return cmpFloat(float64(cb.prio), float64(ca.prio))
	})
	spent := entBudget - left
	for _, i := range order {
		c := &cands[i]
		room := entBudget - spent
		if c.carry {
			room = carryBudget - spent
		}
		if !c.fresh && c.cost <= room {
			c.fresh = true
			spent += c.cost
		}
	}
	var pick []proto.EntityState
	for i, e := range snap.Entities {
		c := &cands[i]
		switch {
		case c.fresh:
			pick = append(pick, e)
		case c.base >= 0:
			pick = append(pick, base[c.base])
		}
		w := uint16(0)
		if !c.fresh {
			w = min(c.waited+1, 1<<15-1)
		}
		if int(e.ID) >= len(r.waited) {
			r.waited = append(r.waited, make([]heldForRef, int(e.ID)+1-len(r.waited))...)
		}
		r.waited[e.ID] = heldForRef{seq: snap.Seq, waited: w, inFrame: c.fresh || c.base >= 0}
	}
	return pick
}

// TestPriorityMatchesReference runs prioritize and the reference over
// random sequences of snapshots (players coming into and out of view,
// baselines acked late or lost, skipped snapshots, budgets from nothing
// to every player, players at equal distances) and wants the same frame
// every time: the same players fresh, the same held.
func TestPriorityMatchesReference(t *testing.T) {
	rng := rand.New(rand.NewSource(23))
	var sc prioScratch // one writer's, shared by every run's client as on a server
	for run := 0; run < 300; run++ {
		ss := &session{player: &game.Player{}}
		var ps priorityState
		var ref refPriority
		players := 1 + rng.Intn(300)
		var sent [][]proto.EntityState            // frames sent, by Seq-1
		outOfView := []int{0, 20, 4}[rng.Intn(3)] // 1 in this many leaves view each snapshot (0: none)
		tight := rng.Intn(2) == 0                 // budgets that hold a few players: long waits
		seq := uint32(0)
		tick := uint32(100)
		for step := 0; step < 100; step++ {
			seq++
			if rng.Intn(10) == 0 {
				seq++ // a snapshot not prioritized (or lost before it)
			}
			tick += uint32(1 + rng.Intn(6))
			px, py := float64(rng.Intn(4000)), float64(rng.Intn(4000))
			ss.player.State.X, ss.player.State.Y = px, py
			var ents []proto.EntityState
			grid := rng.Intn(3) == 0 // positions on a coarse grid: equal distances
			for id := 1; id <= players; id++ {
				if outOfView > 0 && rng.Intn(outOfView) == 0 {
					continue // out of view
				}
				x, y := rng.Intn(4000), rng.Intn(4000)
				if grid {
					x, y = x/500*500, y/500*500
				}
				ents = append(ents, proto.EntityState{ID: uint16(id), X: proto.ToFixed(float64(x)), Y: proto.ToFixed(float64(y)),
					Angle: int16(rng.Intn(600)), Health: uint8(rng.Intn(101)), Tick: tick})
			}
			var base []proto.EntityState
			if len(sent) > 0 && rng.Intn(5) != 0 {
				base = sent[max(0, len(sent)-1-rng.Intn(4))]
			}
			budget := rng.Intn(len(ents)*12 + 50)
			if tight {
				budget = rng.Intn(120)
			}
			// A delta against an acked frame; sometimes an empty one (nil
			// here, as the server records a frame that had no one).
			delta := base != nil || rng.Intn(10) == 0
			snapA := &proto.Snapshot{Seq: seq, Tick: tick, Entities: slices.Clone(ents)}
			if delta {
				snapA.Baseline = 1 // any acked Seq
			}
			// The carried may take more than the players' share: what
			// fits one datagram.
			carry := budget + rng.Intn(rtc.MaxDatagram)
			if rng.Intn(4) == 0 { // as the server's may be, both below 0 or either smaller
				budget -= rng.Intn(300)
				carry -= rng.Intn(600)
			}
			want := ref.run([2]float64{px, py}, &proto.Snapshot{Seq: seq, Tick: tick, Entities: slices.Clone(ents)}, base, delta, budget, carry)
			ps.prioritize(&sc, ss, snapA, base, budget, carry)
			if !slices.Equal(snapA.Entities, want) {
				t.Fatalf("run %d, snapshot %d (%d in view, budget %d): prioritize chose\n%v\nthe reference\n%v", run, seq, len(ents), budget, snapA.Entities, want)
			}
			sent = append(sent, slices.Clone(snapA.Entities))
		}
	}
}
