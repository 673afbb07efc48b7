package server

import (
	"testing"
	"time"

	"tickshot/game"
	"tickshot/net/proto"
)

// swWorld is a world on the arena (2048 x 1536) with a snapshotWriter and
// its eventQueue, built directly: no server, no listener, no connection.
func swWorld(t *testing.T) (*game.World, *snapshotWriter, *eventQueue) {
	t.Helper()
	m, err := game.LoadMap("arena")
	if err != nil {
		t.Fatal(err)
	}
	w := game.NewWorld(m, DefaultTickRate, 1, game.Rules{})
	q := newEventQueue(DefaultTickRate)
	sw := newSnapshotWriter(w, &q, defaultVars().maxRate)
	return w, &sw, &q
}

// decodeSnap decodes an encoded snapshot as a client would, its entities
// applied to base.
func decodeSnap(t *testing.T, b []byte, base []proto.EntityState) (*proto.Snapshot, []proto.EntityState) {
	t.Helper()
	m, err := proto.Decode(b)
	if err != nil {
		t.Fatal(err)
	}
	snap := m.(*proto.Snapshot)
	ents, err := proto.ApplyEntityDelta(nil, base, snap.EntityDelta)
	if err != nil {
		t.Fatal(err)
	}
	return snap, ents
}

// TestSnapshotWriterSelects: the frame holds every player once, sorted by
// ID; a client's snapshot holds the others inside its view, never itself
// nor a player beyond the camera's edge; a spectator's holds everyone.
func TestSnapshotWriterSelects(t *testing.T) {
	w, sw, _ := swWorld(t)
	me, near, far := w.AddPlayer("me", false), w.AddPlayer("near", false), w.AddPlayer("far", false)
	me.State.X, me.State.Y = 200, 200
	near.State.X, near.State.Y = 700, 500
	far.State.X, far.State.Y = 1950, 1450
	sw.buildFrame()
	if len(sw.frame) != 3 || sw.frame[0].ID >= sw.frame[1].ID || sw.frame[1].ID >= sw.frame[2].ID {
		t.Fatalf("frame %+v, want the 3 players sorted by ID", sw.frame)
	}
	snap := sw.selectFor(testSession(me, 0))
	if len(snap.Entities) != 1 || snap.Entities[0].ID != near.ID {
		t.Fatalf("entities %+v, want only near (#%d)", snap.Entities, near.ID)
	}
	if snap.Tick != w.Tick || snap.Self.Spectator {
		t.Errorf("tick %d spectator %v, want tick %d, a player", snap.Tick, snap.Self.Spectator, w.Tick)
	}
	watcher := w.AddSpectator("watcher")
	ws := testSession(watcher, 0)
	ws.spectator = true
	snap = sw.selectFor(ws)
	if len(snap.Entities) != 3 || !snap.Self.Spectator {
		t.Fatalf("spectator's snapshot: %d entities (spectator %v), want all 3", len(snap.Entities), snap.Self.Spectator)
	}
}

// TestSnapshotWriterDelta: a client's first snapshot is full; once the
// client acknowledged it, the next is a delta against it that decodes to
// the same entities; cl_nodelta asks for full ones; the writer counts
// each kind.
func TestSnapshotWriterDelta(t *testing.T) {
	w, sw, _ := swWorld(t)
	me, other := w.AddPlayer("me", false), w.AddPlayer("other", false)
	me.State.X, me.State.Y = 200, 200
	other.State.X, other.State.Y = 400, 300
	ss := testSession(me, 0)
	sessions := []*session{ss}
	now := time.Unix(100, 0)

	w.Tick++
	sw.buildFrame()
	first, ents := decodeSnap(t, sw.write(ss, sessions, now), nil)
	if first.Baseline != 0 || first.Seq != 1 || len(ents) != 1 || ents[0].ID != other.ID {
		t.Fatalf("first snapshot: baseline %d seq %d entities %+v, want a full snapshot 1 of other", first.Baseline, first.Seq, ents)
	}
	ss.acks.ack(first.Seq, 0, now.Add(50*time.Millisecond))

	w.Tick++
	other.State.X = 420
	sw.buildFrame()
	second, got := decodeSnap(t, sw.write(ss, sessions, now.Add(time.Second/DefaultTickRate)), ents)
	if second.Baseline != first.Seq {
		t.Fatalf("second snapshot's baseline %d, want %d (the acked one)", second.Baseline, first.Seq)
	}
	if len(got) != 1 || got[0].X != proto.ToFixed(420) {
		t.Fatalf("delta decodes to %+v, want other at x 420", got)
	}

	ss.hello.NoDelta = true
	w.Tick++
	sw.buildFrame()
	if third, _ := decodeSnap(t, sw.write(ss, sessions, now.Add(2*time.Second/DefaultTickRate)), nil); third.Baseline != 0 {
		t.Errorf("cl_nodelta: baseline %d, want a full snapshot", third.Baseline)
	}
	if st := sw.stats; st.Full != 2 || st.Delta != 1 || st.FullBytes == 0 || st.DeltaBytes == 0 {
		t.Errorf("stats %+v, want 2 full and 1 delta with their bytes", st)
	}
}

// TestSnapshotWriterScoreboardAndEvents: the first snapshot carries the
// scoreboard (players and spectators, sorted by ID, with pings) and the
// queued events due to the client; the next one within a second carries
// no scoreboard, and the one 2 s later only the row that changed, without
// the name the client has.
func TestSnapshotWriterScoreboardAndEvents(t *testing.T) {
	w, sw, q := swWorld(t)
	me, other := w.AddPlayer("me", false), w.AddPlayer("other", false)
	watcher := w.AddSpectator("watcher")
	ss, os := testSession(me, 0), testSession(other, 0)
	os.acks.rttMs = 42
	sessions := []*session{ss, os}
	w.Tick = 200 // two seconds after their admission: a scoreboard is due
	q.add(proto.Event{Kind: proto.EvKill, A: other.ID, B: me.ID}, 0, w.Tick, sessions)
	sw.buildFrame()
	snap, _ := decodeSnap(t, sw.write(ss, sessions, time.Unix(100, 0)), nil)
	if len(snap.Scores) != 3 || snap.Scores[0].ID != me.ID || snap.Scores[2].ID != watcher.ID ||
		snap.Scores[2].Team != proto.TeamSpectator || snap.Scores[1].PingMs != 42 {
		t.Fatalf("scoreboard %+v, want me, other (ping 42), watcher (spectator)", snap.Scores)
	}
	evs, err := proto.DecodeEvents(nil, snap.Tick, snap.EventData)
	if err != nil || len(evs) != 1 || evs[0].Kind != proto.EvKill {
		t.Fatalf("events %+v (%v), want the kill", evs, err)
	}
	ss.view.learn(&ss.acks.sent[ss.acks.nextSeq%sentRing]) // the client received the names

	w.Tick++
	sw.scoresBuilt = false
	snap, _ = decodeSnap(t, sw.write(ss, sessions, time.Unix(100, 0)), nil)
	if len(snap.Scores) != 0 {
		t.Errorf("a scoreboard again within a second: %+v", snap.Scores)
	}
	// 2 s later the scoreboard is due again: a delta (docs/PROTOCOL.md
	// §5.8) of the one row that changed, other's ping, without its name.
	os.acks.rttMs = 90
	w.Tick += 2 * DefaultTickRate
	sw.scoresBuilt = false
	snap, _ = decodeSnap(t, sw.write(ss, sessions, time.Unix(102, 0)), nil)
	if snap.Match == nil || len(snap.Scores) != 1 || snap.Scores[0].ID != other.ID || snap.Scores[0].PingMs != 90 {
		t.Fatalf("the scoreboard after 2 s: %+v (clock %v), want other's row with ping 90", snap.Scores, snap.Match)
	}
	for _, r := range snap.Scores {
		if r.Name != "" {
			t.Errorf("row %+v carries a name the client has", r)
		}
	}
}
