package netclient

import (
	"testing"
	"time"

	"tickshot/net/proto"
	"tickshot/net/transport"
	"tickshot/shared"
)

// The link alone, over an in-memory pipe whose far end plays the server.

func pipeLink(t *testing.T) (*link, transport.Transport) {
	t.Helper()
	a, b := transport.Pipe(proto.ClientOptions(), proto.ServerOptions())
	l := newLink(proto.NewConn(a))
	t.Cleanup(func() { a.Close("test over"); b.Close("test over") })
	return l, b
}

// deltaSnap is snapshot seq at tick whose entity frame is ents, encoded
// against the frame base (Seq baseSeq; 0: a full snapshot) as a server does.
func deltaSnap(tick, seq, baseSeq uint32, base, ents []proto.EntityState) *proto.Snapshot {
	return &proto.Snapshot{Tick: tick, Seq: seq, Baseline: baseSeq,
		EntityDelta: proto.AppendEntityDelta(nil, base, ents), EventData: proto.AppendEvents(nil, tick, nil)}
}

func TestLinkUnpacksDeltasAgainstBaselines(t *testing.T) {
	l, _ := pipeLink(t)
	f1 := []proto.EntityState{entAt(3, 10, 0), entAt(7, 20, 0)}
	s1 := deltaSnap(100, 1, 0, nil, f1)
	if !l.unpack(s1) || len(s1.Entities) != 2 {
		t.Fatalf("full snapshot: unpacked %v entities", len(s1.Entities))
	}
	l.applied(s1)
	f2 := []proto.EntityState{entAt(3, 12, 0)}
	s2 := deltaSnap(102, 2, 1, f1, f2)
	if !l.unpack(s2) || len(s2.Entities) != 1 || s2.Entities[0].X != proto.ToFixed(12) {
		t.Fatalf("delta snapshot: entities %+v, want player 3 at X 12", s2.Entities)
	}
	l.applied(s2)
	// A baseline the link never held, and a snapshot older than one applied.
	if l.unpack(deltaSnap(104, 3, 9, f1, f2)) {
		t.Error("a snapshot against an unknown baseline was used")
	}
	if l.unpack(deltaSnap(101, 4, 0, nil, f1)) {
		t.Error("a snapshot older than the newest applied was used")
	}
	if l.st.baselineMissing != 1 || l.st.droppedSnapshots != 1 || l.st.fullSnapshots != 1 {
		t.Errorf("baseline missing %d, dropped %d, full %d; want 1, 1, 1",
			l.st.baselineMissing, l.st.droppedSnapshots, l.st.fullSnapshots)
	}
}

func TestLinkAcksAndCountsLoss(t *testing.T) {
	l, _ := pipeLink(t)
	for _, seq := range []uint32{1, 2, 4} { // 3 never arrived
		l.applied(&proto.Snapshot{Tick: seq * 2, Seq: seq})
	}
	if l.newestSeq != 4 || l.seqBits != 0b110 {
		t.Errorf("ack %d bits %b; want 4 and 110 (2 and 1 arrived, 3 did not)", l.newestSeq, l.seqBits)
	}
	if l.st.snapshotsLost != 1 || l.st.snapshotsReceived != 3 {
		t.Errorf("lost %d, received %d; want 1, 3", l.st.snapshotsLost, l.st.snapshotsReceived)
	}
	l.applied(&proto.Snapshot{Tick: 100, Seq: 50})
	if l.seqBits != 0 || l.st.snapshotsLost != 46 {
		t.Errorf("after a gap of 45: bits %b, lost %d; want 0, 46", l.seqBits, l.st.snapshotsLost)
	}
}

func TestLinkPacesCommandPackets(t *testing.T) {
	l, srv := pipeLink(t)
	l.applied(&proto.Snapshot{Tick: 10, Seq: 1})
	cmds := map[uint32]shared.UserCmd{}
	cmd := func(n uint32) shared.UserCmd { return cmds[n] }
	recv := func() *proto.Cmds { return recvCmds(t, srv) }
	// cl_cmdrate 32 at 64 ticks/s: a packet every second command.
	for n := uint32(1); n <= 4; n++ {
		cmds[n] = shared.UserCmd{CommandNumber: n}
		l.queued(cmds[n], 32)
		l.sendDue(partsTickRate, n, 2, cmd, t0)
	}
	first, second := recv(), recv()
	if first.Seq != 1 || len(first.Cmds) != 2 || first.Cmds[1].CommandNumber != 2 || first.Ack != 1 {
		t.Errorf("first packet %+v, want Seq 1 with commands 1-2 acking snapshot 1", first)
	}
	// cl_cmdbackup 2: commands 1 and 2 again before 3 and 4.
	if len(second.Cmds) != 4 || second.Cmds[0].CommandNumber != 1 || second.Cmds[3].CommandNumber != 4 {
		t.Errorf("second packet carries %d commands, want 1-4 (two backups)", len(second.Cmds))
	}
	if l.st.cmdsSent != 4 || l.st.packetsSent != 2 || l.sentUpTo != 4 {
		t.Errorf("sent %d commands in %d packets up to %d; want 4, 2, 4", l.st.cmdsSent, l.st.packetsSent, l.sentUpTo)
	}
	if _, b := l.net.Out.Rates(t0); b == 0 {
		t.Error("outgoing bytes not metered")
	}
}

// Each command says which snapshot it was made with (Cmds.AckAges): a
// backup made before the newest snapshot arrived keeps its older ack, so
// the server rewinds its shot with what the shooter had then.
func TestLinkSendsEachCommandsAckAge(t *testing.T) {
	l, srv := pipeLink(t)
	cmds := map[uint32]shared.UserCmd{}
	cmd := func(n uint32) shared.UserCmd { return cmds[n] }
	recv := func() *proto.Cmds { return recvCmds(t, srv) }
	l.applied(&proto.Snapshot{Tick: 10, Seq: 1})
	cmds[1] = shared.UserCmd{CommandNumber: 1}
	l.queued(cmds[1], partsTickRate)
	l.sendDue(partsTickRate, 1, 2, cmd, t0)
	if m := recv(); m.AckAges != nil {
		t.Errorf("every command made with the ack: AckAges %v, want nil", m.AckAges)
	}
	// Snapshots 2 and 3 arrive; command 2 is made after 2, command 3 after 3.
	l.applied(&proto.Snapshot{Tick: 11, Seq: 2})
	cmds[2] = shared.UserCmd{CommandNumber: 2}
	l.queued(cmds[2], partsTickRate/2)
	l.applied(&proto.Snapshot{Tick: 12, Seq: 3})
	cmds[3] = shared.UserCmd{CommandNumber: 3}
	l.queued(cmds[3], partsTickRate/2)
	l.sendDue(partsTickRate, 3, 2, cmd, t0)
	m := recv()
	if m.Ack != 3 || len(m.Cmds) != 3 || string(m.AckAges) != "\x02\x01\x00" {
		t.Fatalf("Ack %d, %d commands, AckAges %v; want 3, 3 and [2 1 0]", m.Ack, len(m.Cmds), m.AckAges)
	}
	if seq, bits := m.MadeAck(1); seq != 2 || bits != 1 {
		t.Errorf("command 2 made with snapshot %d bits %b, want 2 and 1", seq, bits)
	}
}

// recvCmds decodes the next Cmds message the link sent to srv's end.
func recvCmds(t *testing.T, srv transport.Transport) *proto.Cmds {
	t.Helper()
	select {
	case f := <-srv.Recv():
		m, err := proto.Decode(f.Data)
		if err != nil {
			t.Fatal(err)
		}
		return m.(*proto.Cmds)
	case <-time.After(5 * time.Second):
		t.Fatal("no Cmds message")
		return nil
	}
}

// Every command the server has not acknowledged goes again (up to
// MaxUnackedBackup), at least cl_cmdbackup; cl_cmdbackup 0 sends none.
// Twenty unacknowledged commands, a third of a second at 64 ticks/s (it
// was 16: a longer burst of loss lost commands for good), all go again;
// past the message's room only the newest.
func TestLinkResendsUnacknowledgedCommands(t *testing.T) {
	for _, c := range []struct{ backup, n, want int }{{2, 11, 1 + 10}, {0, 11, 1}, {2, 21, 1 + 20}, {2, 40, proto.MaxCmdsPerMsg}} {
		l, srv := pipeLink(t)
		l.applied(&proto.Snapshot{Tick: 10, Seq: 1}) // AckCmd 0: nothing acknowledged
		cmds := map[uint32]shared.UserCmd{}
		cmd := func(n uint32) shared.UserCmd { return cmds[n] }
		for n := uint32(1); n <= uint32(c.n); n++ {
			cmds[n] = shared.UserCmd{CommandNumber: n}
			l.queued(cmds[n], partsTickRate)
			l.sendDue(partsTickRate, n, c.backup, cmd, t0)
			if m := recvCmds(t, srv); n == uint32(c.n) && (len(m.Cmds) != c.want || m.Cmds[len(m.Cmds)-1].CommandNumber != n) {
				t.Errorf("cl_cmdbackup %d, %d commands unacknowledged: command %d's packet carries %d, want %d ending with it", c.backup, c.n-1, n, len(m.Cmds), c.want)
			}
		}
	}
}
