package server

import (
	"fmt"
	"testing"

	"tickshot/game"
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
	first := s.snap.selectFor(obs)
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

	snap := s.snap.selectFor(obs)
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
	snap = s.snap.selectFor(obs)
	n := len(snap.Events)
	if n == 0 || n >= 300 {
		t.Fatalf("%d events carried of a flood of 300 kills", n)
	}
	if done, last := obs.out.evDone, snap.Events[n-1].ID; done != last {
		t.Errorf("the snapshot settles events up to %d, but carried up to %d and deferred the rest", done, last)
	}
}

// eqSession is a session of player id for the eventQueue tests, admitted
// at tick 0 with rate 20000 and cl_updaterate 20.
func eqSession(id uint16) *session {
	ss := testSession(&game.Player{ID: id}, 0)
	ss.applyRates(20000, 20, 64, 100, 2, DefaultTickRate)
	return ss
}

var eqEverywhere = game.Rect{MinX: -1e9, MinY: -1e9, MaxX: 1e9, MaxY: 1e9}

// TestEventQueueIDsAndLifetime: the queue numbers events in order, keeps
// them EventLifetime seconds, and still sends the newest level change to
// a client that never acknowledged it once the queue dropped it.
func TestEventQueueIDsAndLifetime(t *testing.T) {
	q := newEventQueue(DefaultTickRate)
	ss := eqSession(1)
	if id := q.add(proto.Event{Kind: proto.EvChangeLevel, Text: "arena"}, 0, 1, nil); id != 1 {
		t.Fatalf("first ID %d, want 1", id)
	}
	if id := q.add(proto.Event{Kind: proto.EvKill, A: 2, B: 3}, 0, 2, nil); id != 2 {
		t.Fatalf("second ID %d, want 2", id)
	}
	q.trim(1 + EventLifetime*DefaultTickRate)
	if len(q.events) != 2 {
		t.Fatalf("%d events after EventLifetime exactly, want 2", len(q.events))
	}
	got := q.pick(ss, 1+EventLifetime*DefaultTickRate, eqEverywhere, nil)
	if len(got) != 2 || got[0].Kind != proto.EvChangeLevel || got[0].ID != 1 || ss.out.evDone != 2 {
		t.Fatalf("picked %+v (settled %d), want the level change then the kill, settled 2", got, ss.out.evDone)
	}
	q.trim(3 + EventLifetime*DefaultTickRate)
	if len(q.events) != 0 {
		t.Fatalf("%d events after EventLifetime, want none", len(q.events))
	}
	got = q.pick(ss, 3+EventLifetime*DefaultTickRate, eqEverywhere, nil)
	if len(got) != 1 || got[0].Kind != proto.EvChangeLevel {
		t.Fatalf("picked %+v once the queue dropped it, want the level change alone", got)
	}
	ss.acks.ackEvent = ss.out.evDone // the client acknowledged that snapshot
	if got = q.pick(ss, 4+EventLifetime*DefaultTickRate, eqEverywhere, nil); len(got) != 0 {
		t.Fatalf("picked %+v after the ack, want nothing", got)
	}
}

// TestEventQueueAddressingAndAck: an event for one player reaches only
// that player; an acknowledged event is not resent; a client admitted
// after an event does not get it.
func TestEventQueueAddressingAndAck(t *testing.T) {
	q := newEventQueue(DefaultTickRate)
	a, b := eqSession(1), eqSession(2)
	q.add(proto.Event{Kind: proto.EvChat, A: 1, Text: "team"}, 1, 5, nil)
	q.add(proto.Event{Kind: proto.EvKill, A: 1, B: 2}, 0, 5, nil)
	if got := q.pick(a, 5, eqEverywhere, nil); len(got) != 2 {
		t.Fatalf("addressee got %d events, want 2", len(got))
	}
	if got := q.pick(b, 5, eqEverywhere, nil); len(got) != 1 || got[0].Kind != proto.EvKill {
		t.Fatalf("other player got %+v, want the kill alone", got)
	}
	a.acks.ackEvent = 1
	if got := q.pick(a, 6, eqEverywhere, nil); len(got) != 1 || got[0].ID != 2 {
		t.Fatalf("after acking event 1: %+v, want event 2 alone", got)
	}
	late := testSession(&game.Player{ID: 3}, 5)
	if got := q.pick(late, 6, eqEverywhere, nil); len(got) != 0 {
		t.Fatalf("a client admitted at tick 5 got %+v, want nothing older", got)
	}
}

// TestEventQueueCoalescing: a join and its leave queued before a snapshot
// carried the join reach no client; a client that was sent the join gets
// the leave.
func TestEventQueueCoalescing(t *testing.T) {
	q := newEventQueue(DefaultTickRate)
	seen, unseen := eqSession(1), eqSession(2)
	join := q.add(proto.Event{Kind: proto.EvJoin, A: 9, Text: "quick"}, 0, 3, nil)
	seen.evSentMax = join // a snapshot carried the join to seen only
	sessions := []*session{seen, unseen}
	q.add(proto.Event{Kind: proto.EvLeft, A: 9, Text: LeftReason}, 0, 3, sessions)
	got := q.pick(seen, 3, eqEverywhere, nil)
	if len(got) != 1 || got[0].Kind != proto.EvLeft {
		t.Errorf("the client sent the join got %+v, want the leave alone", got)
	}
	if got := q.pick(unseen, 3, eqEverywhere, nil); len(got) != 0 {
		t.Errorf("the client never sent the join got %+v, want nothing", got)
	}
}

// TestEventQueueVisibility: shots of others out of view are not picked;
// the kill feed and events about the client itself are.
func TestEventQueueVisibility(t *testing.T) {
	q := newEventQueue(DefaultTickRate)
	ss := eqSession(1)
	view := game.Rect{MinX: 0, MinY: 0, MaxX: 100, MaxY: 100}
	far := proto.ToFixed(1000)
	q.add(proto.Event{Kind: proto.EvShot, A: 2, X: far, Y: far, X2: far, Y2: far}, 0, 1, nil)
	q.add(proto.Event{Kind: proto.EvShot, A: 1, X: far, Y: far, X2: far, Y2: far}, 0, 1, nil)
	q.add(proto.Event{Kind: proto.EvKill, A: 2, B: 3}, 0, 1, nil)
	got := q.pick(ss, 1, view, nil)
	if len(got) != 2 || got[0].A != 1 || got[1].Kind != proto.EvKill {
		t.Fatalf("picked %+v, want its own shot and the kill", got)
	}
	if ss.out.evDone != 3 {
		t.Errorf("settled up to %d, want 3 (the unseen shot is settled too)", ss.out.evDone)
	}
}

// TestFarKillsAreNews: in a crowd, the kills that name neither the client
// nor happen in its view are news (isNews): a snapshot carries the newest
// of them, at most MaxNoticesPerSnapshot and within the notice budget,
// and settles the rest; the client's own kill and one in its view go
// first, whatever the far ones; a spectator's view (everywhere) holds
// every kill, so it is sent them all, oldest first, in turn.
func TestFarKillsAreNews(t *testing.T) {
	q := newEventQueue(DefaultTickRate)
	ss, spec := eqSession(1), eqSession(2)
	view := game.Rect{MinX: 0, MinY: 0, MaxX: 1000, MaxY: 1000}
	far, near := proto.ToFixed(5000), proto.ToFixed(500)
	const farKills = 40
	for k := range farKills {
		q.add(proto.Event{Kind: proto.EvKill, A: uint16(10 + k), B: uint16(60 + k), X: far, Y: far, X2: far, Y2: far}, 0, 1, nil)
		switch k {
		case 5: // the victim in view
			q.add(proto.Event{Kind: proto.EvKill, A: 7, B: 8, X: far, Y: far, X2: near, Y2: near}, 0, 1, nil)
		case 20: // the client's own death, far off
			q.add(proto.Event{Kind: proto.EvKill, A: 9, B: 1, X: far, Y: far, X2: far, Y2: far}, 0, 1, nil)
		}
	}
	got := q.pick(ss, 1, view, nil)
	var feed, newsIDs []uint32
	for _, e := range got {
		if e.A == 7 || e.B == 1 {
			feed = append(feed, e.ID)
		} else {
			newsIDs = append(newsIDs, e.ID)
		}
	}
	if len(feed) != 2 {
		t.Fatalf("carried %v: want the kill in view and the client's own among them", eventIDs(got))
	}
	if len(newsIDs) == 0 || len(newsIDs) > MaxNoticesPerSnapshot || newsIDs[len(newsIDs)-1] != q.nextID {
		t.Fatalf("carried far kills %v: want the newest (%d) and at most %d", newsIDs, q.nextID, MaxNoticesPerSnapshot)
	}
	for i := 1; i < len(newsIDs); i++ {
		if newsIDs[i] != newsIDs[i-1]+1 {
			t.Fatalf("far kills %v: want the newest, in a row", newsIDs)
		}
	}
	if ss.out.evDone != q.nextID {
		t.Errorf("settled up to %d, want %d: a far kill not carried is dropped", ss.out.evDone, q.nextID)
	}
	// The spectator: every kill is in its view, so none is news, and the
	// budget makes the newer ones wait rather than drop.
	seen := 0
	for tick := uint32(1); seen < farKills+2; tick++ {
		got := q.pick(spec, tick, eqEverywhere, nil)
		if len(got) == 0 {
			t.Fatalf("the spectator got %d of %d kills, then nothing", seen, farKills+2)
		}
		for _, e := range got {
			if seen++; e.ID != uint32(seen) {
				t.Fatalf("the spectator's kill %d has ID %d: want every kill in order", seen, e.ID)
			}
		}
		spec.acks.ackEvent = spec.out.evDone
	}
}
