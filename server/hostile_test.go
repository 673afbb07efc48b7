package server

import (
	"strings"
	"testing"
	"unicode/utf8"

	"tickshot/net/proto"
)

// Strings that reach every client (leave reasons, names) are cleaned so
// that one player cannot make everyone's snapshot fail net.Check.
func TestHostileTextCannotBreakOthersSnapshots(t *testing.T) {
	s, err := New(Config{Addr: "127.0.0.1:0", Bots: 1, Seed: 3, Logger: lcQuiet()})
	if err != nil {
		t.Fatal(err)
	}
	watcher := s.w.Players[0]
	ss := testSession(watcher, 0)

	// Two joins whose 24-byte names collide and end in a 2-byte character.
	name := strings.Repeat("a", 19) + "é" + "bbb"
	p1 := s.newPlayer(s.w.UniqueName(name, proto.MaxNameLen), false)
	p2 := s.newPlayer(s.w.UniqueName(name, proto.MaxNameLen), false)
	if !utf8.ValidString(p2.Name) || len(p2.Name) > proto.MaxNameLen || p1.Name == p2.Name {
		t.Fatalf("unique name %q (of %q): invalid UTF-8, too long or not unique", p2.Name, p1.Name)
	}
	// A leave reason cut mid-character, and one with control characters.
	s.removePlayer(p1.ID, strings.Repeat("a", 63)+"é")
	s.removePlayer(p2.ID, "bye\x01\x7f\xff")
	s.w.Tick++
	snap := s.snap.selectFor(ss)
	snap.Scores = s.snap.scoreboard(nil, s.sessions)
	if _, err := proto.Decode(proto.MustEncode(snap)); err != nil {
		t.Fatalf("a snapshot with hostile texts fails the client's check: %v", err)
	}
}

// A newcomer does not get the backlog of events, and no snapshot carries
// more than MaxEventsPerSnapshot, whatever the backlog.
func TestEventBacklogBounded(t *testing.T) {
	s, err := New(Config{Addr: "127.0.0.1:0", Seed: 3, Logger: lcQuiet()})
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 5000; i++ {
		s.addEvent(proto.Event{Kind: proto.EvLeft, A: 1, Text: strings.Repeat("x", 200)}, 0)
	}
	p := s.newPlayer("late", false)
	old := testSession(p, 0)
	snap := s.snap.selectFor(old)
	if len(snap.Events) > MaxEventsPerSnapshot {
		t.Fatalf("%d events in one snapshot, limit %d", len(snap.Events), MaxEventsPerSnapshot)
	}
	if n := len(proto.MustEncode(snap)); n >= proto.MaxServerFrame {
		t.Fatalf("snapshot of %d bytes, frame limit %d", n, proto.MaxServerFrame)
	}
	// Admission starts the newcomer's acks at the current tick.
	s.w.Tick += 10
	fresh := testSession(p, s.w.Tick)
	if n := len(s.snap.selectFor(fresh).Events); n != 0 {
		t.Fatalf("a newcomer got %d old events", n)
	}
}

// "kill" during the intermission does nothing (it would only flood events).
func TestKillIgnoredDuringIntermission(t *testing.T) {
	s, err := New(Config{Addr: "127.0.0.1:0", Seed: 3, Logger: lcQuiet()})
	if err != nil {
		t.Fatal(err)
	}
	p := s.newPlayer("p", false)
	s.w.Intermission = s.w.Tick + 100
	before := len(s.w.Events)
	(&session{player: p}).command(s, &proto.Command{Text: "kill"})
	if len(s.w.Events) != before || !p.Alive() {
		t.Fatalf("kill during intermission added %d events (alive %v)", len(s.w.Events)-before, p.Alive())
	}
	s.w.Intermission = 0
	(&session{player: p}).command(s, &proto.Command{Text: "kill"})
	if p.Alive() {
		t.Fatalf("kill outside the intermission did not kill")
	}
}
