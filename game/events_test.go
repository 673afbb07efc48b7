package game

import "testing"

func TestEventLogStampsAndReuses(t *testing.T) {
	var l EventLog
	l.add(7, Event{Kind: EvJoin, A: 1, Tick: 99})
	l.add(8, Event{Kind: EvLeft, A: 1})
	ev := l.TakeEvents()
	if len(ev) != 2 || ev[0].Tick != 7 || ev[1].Tick != 8 || ev[0].Kind != EvJoin || ev[1].Kind != EvLeft {
		t.Fatalf("took %+v", ev)
	}
	if len(l.Events) != 0 || len(l.TakeEvents()) != 0 {
		t.Fatal("TakeEvents did not forget")
	}
	// The next tick's events reuse the array: nothing allocated.
	if n := testing.AllocsPerRun(100, func() {
		l.add(9, Event{Kind: EvKill})
		l.add(9, Event{Kind: EvHit})
		l.TakeEvents()
	}); n != 0 {
		t.Fatalf("%v allocations a tick", n)
	}
}
