package server

import (
	"testing"

	"tickshot/game"
	"tickshot/net/proto"
)

// sendTo builds, numbers and encodes the snapshot the server would send
// ss now, and decodes it as the client would (the bytes on the wire).
func sendTo(t *testing.T, s *Server, ss *session) (*proto.Snapshot, []proto.EntityState) {
	t.Helper()
	s.buildFrame()
	snap := s.buildSnapshot(ss)
	ss.nextSeq++
	snap.Seq = ss.nextSeq
	s.encodeEntities(ss, snap) // no ack yet: a full frame
	m, err := proto.Decode(proto.MustEncode(snap))
	if err != nil {
		t.Fatal(err)
	}
	got := m.(*proto.Snapshot)
	ents, err := proto.ApplyEntityDelta(nil, nil, got.EntityDelta)
	if err != nil {
		t.Fatal(err)
	}
	return got, ents
}

func has(ents []proto.EntityState, id uint16) bool {
	for _, e := range ents {
		if e.ID == id {
			return true
		}
	}
	return false
}

// A client receives the players and events in its view and not those
// outside it: a player behind the camera's edge is not on the wire.
func TestInterestManagement(t *testing.T) {
	s := lcServer(t, Config{Seed: 1}) // arena, 2048 x 1536
	me := s.newPlayer("me", false)
	near := s.newPlayer("near", false)
	far := s.newPlayer("far", false)
	me.State.X, me.State.Y = 200, 200
	near.State.X, near.State.Y = 700, 500
	far.State.X, far.State.Y = 1950, 1450
	view := game.ViewRect(s.m, me.State.X, me.State.Y)
	if !view.Contains(near.State.X, near.State.Y) || view.Contains(far.State.X, far.State.Y) {
		t.Fatalf("test setup: view %+v", view)
	}
	ss := lcSession(me, 50)
	s.tick = 100 // events are sent when newer than the client's acked tick

	// Events: a far shot and hit are not sent; the kill feed, a join and
	// anything about the client itself are.
	s.addEvent(proto.Event{Kind: proto.EvShot, A: far.ID, X: proto.ToFixed(1950), Y: proto.ToFixed(1450), X2: proto.ToFixed(1700), Y2: proto.ToFixed(1400)}, 0)
	s.addEvent(proto.Event{Kind: proto.EvHit, A: far.ID, B: near.ID, X2: proto.ToFixed(1700), Y2: proto.ToFixed(1400)}, 0)
	s.addEvent(proto.Event{Kind: proto.EvKill, A: far.ID, B: near.ID}, 0)
	s.addEvent(proto.Event{Kind: proto.EvShot, A: near.ID, X: proto.ToFixed(700), Y: proto.ToFixed(500), X2: proto.ToFixed(1900), Y2: proto.ToFixed(1400)}, 0)
	s.addEvent(proto.Event{Kind: proto.EvHit, A: far.ID, B: me.ID, X2: proto.ToFixed(200), Y2: proto.ToFixed(200)}, 0)
	ss.ackTick = s.tick - 1

	snap, ents := sendTo(t, s, ss)
	if !has(ents, near.ID) {
		t.Error("the player in view is missing")
	}
	if has(ents, far.ID) {
		t.Error("the player outside the view is on the wire")
	}
	if has(ents, me.ID) {
		t.Error("the client's own player is among the others")
	}
	kinds := map[uint8]int{}
	for _, e := range snap.Events {
		kinds[e.Kind]++
		if e.Kind == proto.EvShot && e.A == far.ID {
			t.Error("a shot fired and ending outside the view was sent")
		}
		if e.Kind == proto.EvHit && e.B == near.ID {
			t.Error("a hit outside the view was sent")
		}
	}
	if kinds[proto.EvKill] != 1 || kinds[proto.EvShot] != 1 || kinds[proto.EvHit] != 1 {
		t.Errorf("events %v: want the kill feed, the shot from inside the view and the hit on the client", kinds)
	}

	// The far player walks into view: it appears; it leaves: it is gone,
	// and its interpolation history (client and server view alike)
	// restarts when it comes back, as after a teleport.
	far.State.X, far.State.Y = 800, 600
	if _, ents := sendTo(t, s, ss); !has(ents, far.ID) {
		t.Error("the player that walked into view is missing")
	}
	rec := &sentSnap{seq: 1, tick: s.tick, ents: []proto.EntityState{{ID: far.ID, X: proto.ToFixed(800), Y: proto.ToFixed(600), Flags: proto.FlagAlive}}}
	s.applyToView(ss, rec)
	if ss.view[far.ID] == nil {
		t.Fatal("no view entry for the player in view")
	}
	s.applyToView(ss, &sentSnap{seq: 2, tick: s.tick + 1})
	if ss.view[far.ID] != nil {
		t.Error("the server's copy of the client's view kept a player that left it")
	}
}

// Scoreboard rows carry a player's name until the client has received it
// in a snapshot it acknowledged; a new player behind a reused id gets its
// name sent again.
func TestLeanScoreboard(t *testing.T) {
	s := lcServer(t, Config{Seed: 1})
	me := s.newPlayer("me", false)
	other := s.newPlayer("other", false)
	ss := lcSession(me, 50)
	names := func(rows []proto.ScoreEntry) map[uint16]string {
		m := map[uint16]string{}
		for _, r := range rows {
			m[r.ID] = r.Name
		}
		return m
	}
	first := names(ss.leanScores(s.scoreboard(nil)))
	if first[me.ID] != "me" || first[other.ID] != "other" {
		t.Fatalf("first scoreboard names %v", first)
	}
	// A snapshot carrying "other" reached the client.
	s.learnNames(ss, &sentSnap{names: []sentName{{other.ID, "other"}}})
	second := names(ss.leanScores(s.scoreboard(nil)))
	if second[other.ID] != "" || second[me.ID] != "me" {
		t.Errorf("after the client got \"other\": names %v, want other's omitted and me's still sent", second)
	}
	// The id now belongs to someone else: the name is sent again.
	other.Name = "newcomer"
	if third := names(ss.leanScores(s.scoreboard(nil))); third[other.ID] != "newcomer" {
		t.Errorf("a new name behind a known id was omitted: %v", third)
	}
}
