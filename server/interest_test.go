package server

import (
	"math"
	"testing"
	"time"

	"tickshot/game"
	"tickshot/net/proto"
	"tickshot/shared"
)

// sendTo builds, numbers and encodes the snapshot the server would send
// ss now, and decodes it as the client would (the bytes on the wire).
func sendTo(t *testing.T, s *Server, ss *session) (*proto.Snapshot, []proto.EntityState) {
	t.Helper()
	s.snap.buildFrame()
	m, err := proto.Decode(s.snap.write(ss, s.sessions, time.Now())) // no ack yet: a full frame
	if err != nil {
		t.Fatal(err)
	}
	got := m.(*proto.Snapshot)
	ents, err := proto.ApplyEntityDelta(nil, nil, got.EntityDelta)
	if err != nil {
		t.Fatal(err)
	}
	if got.Events, err = proto.DecodeEvents(nil, got.Tick, got.EventData); err != nil {
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
	view := game.ViewRect(s.w.Map, me.State.X, me.State.Y)
	if !view.Contains(near.State.X, near.State.Y) || view.Contains(far.State.X, far.State.Y) {
		t.Fatalf("test setup: view %+v", view)
	}
	ss := lcSession(me, 50)
	s.w.Tick = 100 // events are sent when newer than the client's admission

	// Events: a far shot and hit are not sent; a kill whose victim is in
	// view, a join and anything about the client itself are (a kill with
	// both ends out of view is news: events.go, TestFarKillsAreNews).
	s.addEvent(proto.Event{Kind: proto.EvShot, A: far.ID, X: proto.ToFixed(1950), Y: proto.ToFixed(1450), X2: proto.ToFixed(1700), Y2: proto.ToFixed(1400)}, 0)
	s.addEvent(proto.Event{Kind: proto.EvHit, A: far.ID, B: near.ID, X2: proto.ToFixed(1700), Y2: proto.ToFixed(1400)}, 0)
	s.addEvent(proto.Event{Kind: proto.EvKill, A: far.ID, B: near.ID, X: proto.ToFixed(1950), Y: proto.ToFixed(1450), X2: proto.ToFixed(700), Y2: proto.ToFixed(500)}, 0)
	s.addEvent(proto.Event{Kind: proto.EvShot, A: near.ID, X: proto.ToFixed(700), Y: proto.ToFixed(500), X2: proto.ToFixed(1900), Y2: proto.ToFixed(1400)}, 0)
	s.addEvent(proto.Event{Kind: proto.EvHit, A: far.ID, B: me.ID, X2: proto.ToFixed(200), Y2: proto.ToFixed(200)}, 0)
	ss.acks.ackTick = s.w.Tick - 1

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
	rec := &sentSnap{seq: 1, tick: s.w.Tick, ents: []proto.EntityState{{ID: far.ID, X: proto.ToFixed(800), Y: proto.ToFixed(600), Flags: proto.FlagAlive}}}
	s.applyToView(ss, rec)
	if s.viewEnts(ss)[far.ID] == nil {
		t.Fatal("no view entry for the player in view")
	}
	s.applyToView(ss, &sentSnap{seq: 2, tick: s.w.Tick + 1})
	if s.viewEnts(ss)[far.ID] != nil {
		t.Error("the server's copy of the client's view kept a player that left it")
	}
}

// Scoreboard rows carry a player's name until the client has received it
// in a snapshot it acknowledged (then an unchanged row is not sent at
// all); a new player behind a reused id gets its name sent again.
func TestLeanScoreboard(t *testing.T) {
	s := lcServer(t, Config{Seed: 1})
	me := s.newPlayer("me", false)
	other := s.newPlayer("other", false)
	ss := lcSession(me, 50)
	var sb scoreBoard
	names := func() map[uint16]string {
		_, wire := ss.view.scores.delta(nil, nil, boardOf(&sb, s.snap.scoreboard(nil, s.sessions)), me.ID, nil, nil)
		m := map[uint16]string{}
		for _, r := range wire {
			m[r.ID] = r.Name
		}
		return m
	}
	first := names()
	if first[me.ID] != "me" || first[other.ID] != "other" {
		t.Fatalf("first scoreboard names %v", first)
	}
	// A snapshot carrying "other" reached the client.
	ss.view.scores.sent(7, []scoreRow{{ScoreEntry: proto.ScoreEntry{ID: other.ID, Name: "other"}}})
	ss.view.learn(&sentSnap{seq: 7})
	second := names()
	if second[other.ID] != "" || second[me.ID] != "me" {
		t.Errorf("after the client got \"other\": names %v, want other's omitted and me's still sent", second)
	}
	// The id now belongs to someone else: the name is sent again.
	other.Name = "newcomer"
	if third := names(); third[other.ID] != "newcomer" {
		t.Errorf("a new name behind a known id was omitted: %v", third)
	}
}

// A player that leaves a client's view and comes back is rewound, for that
// client's shots, from the snapshots it received since it came back, never
// by interpolating across the gap with what it saw before: the server's
// copy of the view restarts the history as the client's does.
func TestRewindAfterLeavingAndReenteringView(t *testing.T) {
	s := lcServer(t, Config{Seed: 1}) // arena, no bots
	me := s.newPlayer("me", false)
	target := s.newPlayer("target", false)
	me.State.X, me.State.Y = 200, 200
	ss := lcSession(me, 50)
	now := time.Unix(1000, 0)
	dt := time.Second / time.Duration(s.cfg.TickRate)
	step := func(x, y float64) {
		now = now.Add(dt)
		s.Step(now)
		target.State.X, target.State.Y = x, y
		if s.w.Tick%3 == 0 { // a snapshot the client received and acked
			s.snap.buildFrame()
			snap := s.snap.selectFor(ss)
			s.applyToView(ss, &sentSnap{seq: s.w.Tick, tick: s.w.Tick, ents: append([]proto.EntityState(nil), snap.Entities...)})
		}
	}
	for i := 0; i < 30; i++ {
		step(600, 400) // in view
	}
	for i := 0; i < 30; i++ {
		step(1950, 1450) // out of view
	}
	if s.viewEnts(ss)[target.ID] != nil {
		t.Fatal("the view kept a player that left it")
	}
	back := s.w.Tick
	for i := 0; i < 30; i++ {
		step(700+2*float64(i), 450) // back in view, moving right
	}
	v := s.viewEnts(ss)[target.ID]
	if v == nil || v.Hist.Len() == 0 {
		t.Fatal("no view entry after coming back")
	}
	if oldest := v.Hist.Get(0); oldest.Tick <= back || oldest.X < 700 {
		t.Errorf("the history holds a sample from before the player came back: %+v (back at tick %d)", oldest, back)
	}
	// A shot whose render tick lies after the return is rewound from the view.
	rt := float64(back) + 12.5
	cmd := shared.UserCmd{TickCount: uint32(rt + 6.4), TickFrac: uint8(math.Round((rt + 6.4 - math.Floor(rt+6.4)) * 256)), LerpMsec: 100}
	boxes, info := s.rewinder.rewoundHitboxes(ss, &cmd, nil)
	if info.FromView != 1 {
		t.Fatalf("rewind %+v: want the target from the view", info)
	}
	want, _, _ := v.Hist.At(info.Used, float64(MaxExtrapolateMs)*float64(s.cfg.TickRate)/1000)
	for _, b := range boxes {
		if b.ID != target.ID {
			continue
		}
		if b.X != want.X || b.Y != want.Y {
			t.Errorf("rewound to (%v, %v), the view (what the client drew) has (%v, %v)", b.X, b.Y, want.X, want.Y)
		}
		if b.X < 700 || b.X > 760 || b.Y != 450 {
			t.Errorf("rewound to (%v, %v): off the path since the return", b.X, b.Y)
		}
	}
}
