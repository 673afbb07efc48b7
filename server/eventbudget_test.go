package server

import (
	"fmt"
	"testing"

	"tickshot/net/proto"
)

// TestEventBudget: under a flood of join and leave notices a snapshot
// carries every kill, at most MaxNoticesPerSnapshot notices (the newest),
// and events within its budget; a player who joined and left before any
// snapshot carried the join is announced to nobody, while a client that
// was sent the join is sent the leave.
func TestEventBudget(t *testing.T) {
	s := lcServer(t, Config{Addr: "127.0.0.1:0", Seed: 3})
	obs := testSession(s.newPlayer("observer", false), 0)
	obs.applyRates(20000, 20, 64, 100, 2, s.cfg.TickRate)
	s.sessions = append(s.sessions, obs)
	s.w.Tick++
	s.w.TakeEvents()

	// A join the observer is sent before its player leaves.
	s.addEvent(proto.Event{Kind: proto.EvJoin, A: 200, Text: "early"}, 0)
	first := s.buildSnapshot(obs)
	if len(first.Events) != 1 || first.Events[0].A != 200 {
		t.Fatalf("first snapshot's events: %+v, want the join of 200", first.Events)
	}
	obs.evSentMax = first.Events[0].ID // as writeSnapshot does

	// Then churn: 100 players join and leave, with kills among them.
	kills := 0
	for i := range 100 {
		id := uint16(300 + i)
		s.addEvent(proto.Event{Kind: proto.EvJoin, A: id, Text: fmt.Sprintf("churner%d", i)}, 0)
		s.addEvent(proto.Event{Kind: proto.EvLeft, A: id, Text: LeftReason}, 0)
		if i%10 == 0 {
			s.addEvent(proto.Event{Kind: proto.EvKill, A: 1, B: 2}, 0)
			kills++
		}
	}
	// Joins whose players are still here, more than fit.
	for i := range 30 {
		s.addEvent(proto.Event{Kind: proto.EvJoin, A: uint16(500 + i), Text: fmt.Sprintf("stayer%d", i)}, 0)
	}
	s.addEvent(proto.Event{Kind: proto.EvLeft, A: 200, Text: LeftReason}, 0)

	snap := s.buildSnapshot(obs)
	var gotKills, notices int
	var leftEarly bool
	for _, e := range snap.Events {
		switch {
		case e.Kind == proto.EvKill:
			gotKills++
		case e.A >= 300 && e.A < 400:
			t.Errorf("a notice of a player who came and went unseen: %+v", e)
		case e.Kind == proto.EvLeft && e.A == 200:
			leftEarly = true
			notices++
		case e.Kind == proto.EvJoin && e.A >= 500:
			notices++
			if e.A < 500+30-MaxNoticesPerSnapshot {
				t.Errorf("a stale join %d sent before newer ones", e.A)
			}
		}
	}
	if gotKills != kills {
		t.Errorf("%d kills carried, want all %d", gotKills, kills)
	}
	if notices < 4 || notices > MaxNoticesPerSnapshot {
		t.Errorf("%d notices carried, want 4..%d", notices, MaxNoticesPerSnapshot)
	}
	if !leftEarly {
		t.Errorf("the leave of a player whose join was sent is missing")
	}
	size := len(proto.AppendEvents(nil, snap.Tick, snap.Events))
	if budget := 20000 / 20 / EventBudgetDiv; size > budget {
		t.Errorf("events of %d bytes, budget %d (rate 20000, cl_updaterate 20)", size, budget)
	}

	// A flood of kills: the oldest go first, the rest wait in order, and
	// an ack of that snapshot does not settle them.
	for range 300 {
		s.addEvent(proto.Event{Kind: proto.EvKill, A: 1, B: 2, Text: "a long enough reason to weigh"}, 0)
	}
	snap = s.buildSnapshot(obs)
	n := len(snap.Events)
	if n == 0 || n >= 300 {
		t.Fatalf("%d events carried of a flood of 300 kills", n)
	}
	if done, last := obs.out.evDone, snap.Events[n-1].ID; done != last {
		t.Errorf("the snapshot settles events up to %d, but carried up to %d and deferred the rest", done, last)
	}
}
