package netclient

import (
	"errors"
	"testing"
	"time"

	"tickshot/net/proto"
	"tickshot/shared"
)

// The stall watcher, the match and the shots alone: made-up times and
// snapshots, no server.

func TestStallWatchSilence(t *testing.T) {
	w := stallWatch{heard: t0}
	w.noteSnapshot(t0.Add(time.Second))
	w.noteSnapshot(t0.Add(time.Second / 2)) // late: not a newer sign of life
	if got := w.silence(t0.Add(3 * time.Second)); got != 2*time.Second {
		t.Errorf("silence %v, want 2 s since the snapshot", got)
	}
	// A pause in polling longer than pollPause restarts the count.
	w.notePoll(t0.Add(3 * time.Second))
	w.notePoll(t0.Add(3*time.Second + 2*pollPause))
	if got := w.silence(t0.Add(3*time.Second + 2*pollPause)); got != 0 {
		t.Errorf("silence %v after the owner's pause, want 0", got)
	}
}

func TestStallWatchTroubleAndExpiry(t *testing.T) {
	cfg := DefaultConfig("p")
	cfg.Timeout = 2 * time.Second
	w := stallWatch{heard: t0}
	if _, ok := w.trouble(t0.Add(cfg.ProblemAfter()), cfg); ok {
		t.Errorf("trouble at exactly ProblemAfter %v", cfg.ProblemAfter())
	}
	tr, ok := w.trouble(t0.Add(1500*time.Millisecond), cfg)
	if !ok || tr.Silence != 1500*time.Millisecond || tr.Left != 500*time.Millisecond {
		t.Fatalf("trouble after 1.5 s with cl_timeout 2 s = %+v, %v; want silence 1.5 s, 0.5 s left", tr, ok)
	}
	if tr.String() != "Connection problem, auto-disconnect in 1 s" {
		t.Errorf("warning %q", tr)
	}
	if err := w.expired(t0.Add(1999*time.Millisecond), cfg); err != nil {
		t.Errorf("expired before cl_timeout: %v", err)
	}
	var ce *ClosedError
	if err := w.expired(t0.Add(2*time.Second), cfg); !errors.As(err, &ce) || !ce.TimedOut {
		t.Errorf("at cl_timeout: %v, want a *ClosedError with TimedOut", err)
	}
	if tr, ok := w.trouble(t0.Add(5*time.Second), cfg); !ok || tr.Left != 0 {
		t.Errorf("past cl_timeout: %+v, %v; want trouble with nothing left", tr, ok)
	}
}

func TestMatchTakesEventsOnceAndScores(t *testing.T) {
	m := newMatch()
	ev := func(id uint32) proto.Event { return proto.Event{ID: id, Kind: proto.EvKill} }
	m.take(&proto.Snapshot{Events: []proto.Event{ev(1), ev(2)},
		Scores: []proto.ScoreEntry{{ID: 1, Name: "ann"}, {ID: 2, Name: "bob"}}})
	m.take(&proto.Snapshot{Events: []proto.Event{ev(2), ev(3)}}) // 2 resent until acked
	if got := m.TakeEvents(); len(got) != 3 || got[0].ID != 1 || got[2].ID != 3 {
		t.Errorf("events %+v, want 1, 2, 3 once each", got)
	}
	if got := m.TakeEvents(); len(got) != 0 {
		t.Errorf("taken twice: %+v", got)
	}
	if !m.isNew(ev(4)) || m.isNew(ev(3)) {
		t.Error("isNew does not follow the newest event taken")
	}
	// A held scoreboard and names map are replaced, never written.
	oldRows, oldNames := m.scores, m.names
	m.take(&proto.Snapshot{Scores: []proto.ScoreEntry{{ID: 1, Kills: 2}, {ID: 2, Name: "bo"}}})
	if m.scores[0].Name != "ann" || m.names[2] != "bo" {
		t.Errorf("scores %+v names %v: a row without a name keeps the one heard", m.scores, m.names)
	}
	if oldRows[0].Kills != 0 || oldNames[2] != "bob" {
		t.Error("a new scoreboard wrote into the rows or names handed out")
	}
	m.print("hello")
	if p := m.TakePrints(); len(p) != 1 || p[0] != "hello" || len(m.TakePrints()) != 0 {
		t.Errorf("prints %q", p)
	}
}

func TestMatchTeamEventsAndSeed(t *testing.T) {
	m := newMatch()
	m.takeScores([]proto.ScoreEntry{{ID: 2, Name: "bob"}})
	held := m.scores
	m.ApplyTeamEvent(&proto.Event{Kind: proto.EvJoin, A: 1, Text: "ann", Value: int16(proto.TeamBlue)})
	m.ApplyTeamEvent(&proto.Event{Kind: proto.EvTeam, A: 2, Value: int16(proto.TeamRed)})
	m.ApplyTeamEvent(&proto.Event{Kind: proto.EvTeam, A: 2, Value: int16(proto.MaxTeam) + 1}) // no team
	if len(m.scores) != 2 || m.scores[0].ID != 1 || m.scores[0].Team != proto.TeamBlue || m.scores[1].Team != proto.TeamRed {
		t.Errorf("scores %+v, want ann (blue) added before bob (red)", m.scores)
	}
	if held[0].Team != proto.TeamNone {
		t.Error("a team event wrote into the rows handed out")
	}
	m.seed(40, []DemoName{{ID: 7, Name: "eve"}}, []proto.ScoreEntry{{ID: 7, Kills: 3}})
	if m.isNew(proto.Event{ID: 40}) || m.names[7] != "eve" || m.names[2] != "bob" {
		t.Errorf("after seed: last event %d, names %v", m.lastEventID, m.names)
	}
	if len(m.scores) != 1 || m.scores[0] != (proto.ScoreEntry{ID: 7, Name: "eve", Kills: 3}) {
		t.Errorf("after seed: scoreboard %+v, want eve's row with her name", m.scores)
	}
	if h := m.heard(); len(h) != 2 || h[0].ID != 2 || h[1] != (DemoName{ID: 7, Name: "eve"}) {
		t.Errorf("heard %+v, want bob then eve by ID", h)
	}
}

func TestShotsRingAndEffects(t *testing.T) {
	var s Shots
	if _, ok := s.Of(0); ok {
		t.Error("command 0 has a shot view")
	}
	s.record(ShotView{Cmd: 5, RenderTick: 4.5})
	if v, ok := s.Of(5); !ok || v.RenderTick != 4.5 {
		t.Errorf("Of(5) = %+v, %v", v, ok)
	}
	s.record(ShotView{Cmd: 5 + shotRing}) // 16 shots later: the same slot
	if _, ok := s.Of(5); ok {
		t.Error("a shot 16 commands older is still held")
	}
	if _, ok := s.Of(5 + shotRing); !ok {
		t.Error("the newer shot is not held")
	}
	s.effect(shared.Result{Fired: true})
	s.effect(shared.Result{ReloadStarted: true})
	if e := s.TakeEffects(); len(e) != 2 || !e[0].Fired || !e[1].ReloadStarted || len(s.TakeEffects()) != 0 {
		t.Errorf("effects %+v, want the two in order, once", e)
	}
	v := ShotView{RenderTick: 98, AckTick: 100}
	if got := v.AckLeadMs(2, 64); got != 0 {
		t.Errorf("AckLeadMs = %v, want 0 for a claim at the ack less the lerp", got)
	}
}

// The View is built once per change of state: get builds only when stale.
func TestViewCacheBuildsOncePerChange(t *testing.T) {
	var vc viewCache
	builds := 0
	build := func() View { builds++; return View{SnapshotTick: uint32(builds)} }
	if v := vc.get(build); v.SnapshotTick != 1 || builds != 1 {
		t.Fatalf("first get: tick %d after %d builds, want a build", v.SnapshotTick, builds)
	}
	if v := vc.get(build); v.SnapshotTick != 1 || builds != 1 {
		t.Fatalf("second get without a change: tick %d after %d builds, want the cached one", v.SnapshotTick, builds)
	}
	vc.stale()
	if v := vc.get(build); v.SnapshotTick != 2 || builds != 2 {
		t.Fatalf("get after stale: tick %d after %d builds, want a new build", v.SnapshotTick, builds)
	}
}

// TestMatchClockAndEndOfMatch: the match clock comes with a scoreboard's
// snapshot and stays until the next; the end of the match and the vote,
// once handed to the client, stay until the next match starts
// (EvMatchStart) and are gone after it.
func TestMatchClockAndEndOfMatch(t *testing.T) {
	m := newMatch()
	if _, ok := m.Clock(); ok {
		t.Fatal("a clock before any snapshot")
	}
	m.take(&proto.Snapshot{Scores: []proto.ScoreEntry{{ID: 1}}, Match: &proto.MatchClock{Start: 10, FragLimit: 20}})
	m.take(&proto.Snapshot{}) // no scoreboard, no clock: the last one holds
	if c, ok := m.Clock(); !ok || c.Start != 10 || c.FragLimit != 20 {
		t.Fatalf("clock %+v, %v", c, ok)
	}
	// What Client.handle does with the two messages (the server tests drive
	// it over a socket: TestMapVoteThreeClients).
	m.stats, m.vote = &proto.MatchStats{Winner: "a"}, &proto.MapVote{Maps: []string{"plaza"}, Votes: []uint16{1}}
	m.take(&proto.Snapshot{Events: []proto.Event{{ID: 1, Kind: proto.EvMatchEnd}}})
	if st, v := m.EndOfMatch(); st == nil || st.Winner != "a" || v == nil || v.Maps[0] != "plaza" {
		t.Fatalf("end of match %+v, vote %+v", st, v)
	}
	m.take(&proto.Snapshot{Events: []proto.Event{{ID: 2, Kind: proto.EvMatchStart}}})
	if st, v := m.EndOfMatch(); st != nil || v != nil {
		t.Errorf("after the next match started: end of match %+v, vote %+v", st, v)
	}
}
