package server

import "testing"

// TestScoreDueSlots: scoreDue's schedule, on a client that has a
// snapshot every tick. The first scoreboard goes at once. After it, one
// goes only on the first tick of one of the client's slots: two slots
// after the last when the board changed, one while rows are pending, four
// otherwise. And 64 calm clients whose board a kill changes all at once
// send theirs spread over a slot's ticks, not together.
func TestScoreDueSlots(t *testing.T) {
	const tickRate = 64
	const p = tickRate / 2 // ticks a slot
	// next is the first tick after from at which the client's scoreboard
	// is due, its last at tick last, with a snapshot every tick.
	next := func(id uint16, from, last uint32, changed, pending bool) uint32 {
		for tick := from + 1; tick < from+10*p; tick++ {
			if scoreDue(tick, tick-1, last, id, tickRate, changed, pending) {
				return tick
			}
		}
		t.Fatalf("client %d: no scoreboard in 10 slots after tick %d", id, from)
		return 0
	}
	if !scoreDue(5, 0, 0, 7, tickRate, false, false) {
		t.Error("a client's first scoreboard waits")
	}
	for _, id := range []uint16{1, 7, 40} {
		o := uint32(id) % p  // client id's slots begin o ticks before the multiples of p
		last := 10*p - o + 3 // three ticks into one of its slots
		for _, c := range []struct {
			changed, pending bool
			slots            uint32
		}{{true, false, 2}, {false, true, 1}, {false, false, 4}, {true, true, 1}} {
			got := next(id, last, last, c.changed, c.pending)
			if want := last - 3 + c.slots*p; got != want {
				t.Errorf("client %d, last at tick %d, changed %v, pending %v: due at tick %d, want %d (the first of the slot %d slots on)",
					id, last, c.changed, c.pending, got, want, c.slots)
			}
		}
		// A snapshot on the slot's first tick that is not the client's
		// first of the slot (it had one on that tick already) waits.
		at := last - 3 + 2*p
		if scoreDue(at, at, last, id, tickRate, true, false) {
			t.Errorf("client %d: a second snapshot in a slot carried a scoreboard", id)
		}
	}
	// A first scoreboard late in its slot, rows pending: the next slot's
	// first tick is two ticks on, within a quarter second, so the next
	// goes on the first tick of the slot after.
	for _, id := range []uint16{1, 7, 40} {
		o := uint32(id) % p
		first := 20*p - o - 2 // two ticks before one of its slots begins
		if got, want := next(id, first, first, false, true), first+2+p; got != want {
			t.Errorf("client %d: first scoreboard on tick %d, late in its slot; next on tick %d, want %d", id, first, got, want)
		}
	}
	// 64 calm clients (last scoreboard 3 slots before, on one of their
	// slots' first ticks) when a kill changes the board on tick k: each
	// sends on its next slot's first tick, so the 64 go over a slot's p
	// ticks, two a tick.
	const k = 40 * p
	perTick := map[uint32]int{}
	for id := uint16(1); id <= 64; id++ {
		o := uint32(id) % p
		got := next(id, k-1, 37*p-o, true, false)
		if want := k + p - o; got != want && got != want-p {
			t.Errorf("client %d: due on tick %d after the kill on %d, want its next slot's first (%d)", id, got, k, want)
		}
		perTick[got]++
	}
	for tick, n := range perTick {
		if n > 64/p {
			t.Errorf("tick %d: %d of 64 clients' scoreboards at once after one kill", tick, n)
		}
	}
}
