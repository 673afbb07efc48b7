package server

import (
	"math/rand/v2"
	"slices"
	"testing"

	"tickshot/game"
	"tickshot/net/proto"
)

// TestEventIndexMatchesScan holds pick, which visits the events the
// index (eventindex.go) gives a view, to pickRef, the scan of every event
// after the acknowledgement it replaced: over 40 random matches of 400
// ticks, every snapshot of 24 clients carries the same events, settles the
// same ID and leaves the same skipped leaves. The events are every kind,
// at random places on and off a 24 000-unit world (explosions of every
// radius, some past the index's span), named and addressed at random; the
// views wander, sit on cell edges, cover the world, nothing or are
// inverted (a blast's radius grows them into holding some); the acks lag
// and jump, some clients never acknowledge and some seldom (their acks
// fall behind the queue's oldest event), and half the matches start with
// event IDs at 2³⁰ (a new client's ack of 0 far below them); the rates run
// from starved to plenty, so the budget cuts.
func TestEventIndexMatchesScan(t *testing.T) {
	kinds := []uint8{proto.EvShot, proto.EvHit, proto.EvKill, proto.EvJoin, proto.EvLeft, proto.EvImpact,
		proto.EvExplode, proto.EvChat, proto.EvTeam, proto.EvMatchStart}
	const players = 24
	for seed := range uint64(40) {
		rng := rand.New(rand.NewPCG(seed, 77))
		q := newEventQueue(DefaultTickRate)
		if seed%2 == 1 {
			q.nextID = 1 << 30 // a server that has run a while: IDs far above a new client's ack of 0
		}
		var got, want []*session // the same clients, twice: for pick and for pickRef
		var both []*session
		for id := range uint16(players) {
			rate := []uint32{1500, 5000, 20000, 196608}[rng.IntN(4)]
			for _, side := range []*[]*session{&got, &want} {
				ss := testSession(&game.Player{ID: id + 1}, 0)
				ss.applyRates(rate, 20, 64, 100, 2, DefaultTickRate)
				*side = append(*side, ss)
				both = append(both, ss)
			}
		}
		coord := func() int32 {
			switch rng.IntN(20) {
			case 0:
				return proto.ToFixed(-rng.Float64() * 5000) // off the world
			case 1:
				return proto.ToFixed(float64(rng.IntN(24) * eventCell)) // on a cell's edge
			}
			return proto.ToFixed(rng.Float64() * 24000)
		}
		pos := make([][2]float64, players)
		for i := range pos {
			pos[i] = [2]float64{rng.Float64() * 24000, rng.Float64() * 24000}
		}
		for tick := uint32(1); tick <= 400; tick++ {
			for range rng.IntN(10) {
				e := proto.Event{Kind: kinds[rng.IntN(len(kinds))], A: uint16(rng.IntN(players + 4)), B: uint16(rng.IntN(players + 4)),
					X: coord(), Y: coord(), X2: coord(), Y2: coord(), Value: int16(rng.IntN(300) - 20)}
				switch rng.IntN(50) {
				case 0:
					e.Value = int16(rng.IntN(30000)) // a blast past eventSpanMax cells
				case 1, 2, 3, 4, 5:
					e.Value = int16(600 + rng.IntN(900)) // a few cells across
				}
				if (e.Kind == proto.EvShot || e.Kind == proto.EvExplode) && rng.IntN(3) == 0 { // by a client, where it stands
					e.A = uint16(rng.IntN(players) + 1)
					e.X, e.Y = proto.ToFixed(pos[e.A-1][0]), proto.ToFixed(pos[e.A-1][1])
				}
				if e.Kind == proto.EvKill && rng.IntN(2) == 0 { // in someone's view, by either end: not news to it
					e.A, e.B = uint16(players+1+rng.IntN(4)), uint16(players+1+rng.IntN(4)) // naming no client
					near := pos[rng.IntN(players)]
					x, y := proto.ToFixed(near[0]+rng.NormFloat64()*500), proto.ToFixed(near[1]+rng.NormFloat64()*500)
					if rng.IntN(2) == 0 {
						e.X, e.Y = x, y
					} else {
						e.X2, e.Y2 = x, y
					}
				}
				to := uint16(0)
				if rng.IntN(10) == 0 {
					to = uint16(rng.IntN(players) + 1)
				}
				q.add(e, to, tick, both)
			}
			q.trim(tick)
			if tick%50 == 0 {
				checkIndexTrimmed(t, &q)
			}
			for i := range players {
				pos[i][0] += rng.NormFloat64() * 200
				pos[i][1] += rng.NormFloat64() * 200
				view := game.Rect{MinX: pos[i][0] - 900, MinY: pos[i][1] - 600, MaxX: pos[i][0] + 900, MaxY: pos[i][1] + 600}
				switch rng.IntN(30) {
				case 0:
					view = eqEverywhere
				case 1: // inverted: no point in it, but grown by a blast's radius it holds some
					view = game.Rect{MinX: pos[i][0] + 600, MinY: pos[i][1] + 600, MaxX: pos[i][0] - 600, MaxY: pos[i][1] - 600}
				case 2:
					x := float64(rng.IntN(20) * eventCell)
					view = game.Rect{MinX: x, MinY: x, MaxX: x + eventCell, MaxY: x + 700}
				}
				// The client acknowledges: late, on time or not at all.
				ack := got[i].acks.ackEvent
				switch {
				case i%6 == 5: // never acknowledges: every queued event is due
				case i%6 == 4 && rng.IntN(50) != 0: // seldom: its ack falls behind the queue
				case rng.IntN(4) == 0:
					ack = q.nextID
				case rng.IntN(3) == 0:
					ack = max(ack, q.nextID-uint32(rng.IntN(40)))
				}
				since := uint32(0)
				if rng.IntN(8) == 0 {
					since = tick - uint32(rng.IntN(int(tick)))
				}
				for _, ss := range []*session{got[i], want[i]} {
					ss.acks.ackEvent, ss.since = ack, since
				}
				a := q.pick(got[i], tick, view, nil)
				b := q.pickRef(want[i], tick, view, nil)
				if words := len(q.index.marks); words > (len(q.events)+63)/64+1 {
					t.Fatalf("seed %d tick %d: the candidates took %d words of bits for a queue of %d events", seed, tick, words, len(q.events))
				}
				if !slices.Equal(a, b) || got[i].out.evDone != want[i].out.evDone || !slices.Equal(got[i].skipLeaves, want[i].skipLeaves) {
					t.Fatalf("seed %d tick %d client %d, view %+v, ack %d: pick carries %v (settles %d, skips %v); the scan %v (settles %d, skips %v)",
						seed, tick, i+1, view, ack, eventIDs(a), got[i].out.evDone, got[i].skipLeaves, eventIDs(b), want[i].out.evDone, want[i].skipLeaves)
				}
				for _, ss := range []*session{got[i], want[i]} {
					if n := len(a); n > 0 {
						ss.evSentMax = max(ss.evSentMax, a[n-1].ID)
					}
				}
			}
		}
	}
}

// checkIndexTrimmed fails t when a list of q's index holds an ID the
// queue no longer does, or a player's list is empty but kept.
func checkIndexTrimmed(t *testing.T, q *eventQueue) {
	t.Helper()
	oldest := q.oldest()
	ix := &q.index
	lists := append([][]uint32{ix.anywhere, ix.news}, ix.buckets[:]...)
	for _, p := range ix.active {
		if len(ix.named[p]) == 0 {
			t.Fatalf("player %d is active with no events", p)
		}
	}
	for p, l := range ix.named {
		if len(l) > 0 && !slices.Contains(ix.active, uint16(p)) {
			t.Fatalf("player %d has events but is not active: trim would not see them", p)
		}
		lists = append(lists, l)
	}
	for _, l := range lists {
		if len(l) > 0 && l[0] < oldest {
			t.Fatalf("the index holds event %d, the queue's oldest is %d", l[0], oldest)
		}
	}
}

func eventIDs(es []proto.Event) []uint32 {
	out := make([]uint32, len(es))
	for i, e := range es {
		out[i] = e.ID
	}
	return out
}
