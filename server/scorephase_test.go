package server_test

import (
	"testing"
)

// TestScoreboardsSpreadOverTicks: 64 clients who join on the same tick do
// not send their scoreboards on the same ticks after their first (each
// keeps to half-second slots of its own, scoreSlot): over 4 s of a match,
// no tick carries more than an eighth of the clients' scoreboards, where
// clients in step put a third of them on one tick (a snapshot every 3.2
// ticks at cl_updaterate 20 and 64 ticks/s; a kill marks every client's
// scoreboard changed at once). The scoreboards are the snapshots that
// carry the match clock (Snapshot.Match), as they all do.
func TestScoreboardsSpreadOverTicks(t *testing.T) {
	const players, tickRate = 64, 64
	r := newTickRig(t, players, "arena", tickRate) // joined together, then the rig's warm-up
	before := make([]int, players)
	for i, c := range r.clients {
		before[i] = c.Stats().Scoreboards
	}
	perTick := make([]int, 4*tickRate)
	for k := range perTick {
		r.clientsTick()
		r.serverTick()
		r.clientsRead(t)
		for i, c := range r.clients {
			n := c.Stats().Scoreboards
			perTick[k] += n - before[i]
			before[i] = n
		}
	}
	total, most := 0, 0
	for _, n := range perTick {
		total, most = total+n, max(most, n)
	}
	t.Logf("%d scoreboards in %d ticks, at most %d on one tick", total, len(perTick), most)
	if total < players*2 {
		t.Fatalf("%d scoreboards in 4 s to %d clients: want at least one each every 2 s", total, players)
	}
	if most > players/8 {
		t.Errorf("%d of %d clients got a scoreboard on one tick: their scoreboards go in step", most, players)
	}
}
