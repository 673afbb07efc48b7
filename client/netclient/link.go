package netclient

import (
	"math"
	"time"

	"tickshot/net/proto"
	"tickshot/shared"
)

// link is the client's end of the connection: the transport (proto.Conn,
// with its simulated net_fake* conditions), the acks each way (snapshot
// Seq and AckBits back to the server; which commands went out), the delta
// baselines snapshots are rebuilt against, the command packet pacing
// (cl_cmdrate, cl_cmdbackup), and the statistics net_graph draws. It neither predicts nor draws.
type link struct {
	conn *proto.Conn

	// Snapshots in: acks, delta baselines, freshness.
	newestSeq  uint32 // Seq of the newest snapshot applied
	seqBits    uint32 // AckBits: which of the 32 before newestSeq arrived
	newestTick uint32 // tick of the newest snapshot applied
	frames     proto.FrameRing
	entBuf     []proto.EntityState // the newest frame, reused
	pickBuf    []proto.PickupState // the newest pickup frame, reused
	evBuf      []proto.Event       // the newest snapshot's events, reused

	// Commands out.
	cmdSeq   uint32  // Seq of the newest Cmds message
	sentUpTo uint32  // newest command number sent
	cmdAcc   float64 // cl_cmdrate accumulator: a packet is due at the tick rate
	arrived  uint32  // commands up to this number reached the server (Snapshot.AckCmd + CmdQueue)
	// madeWith[n%len] is newestSeq when command n was made (Cmds.AckAges).
	madeWith [2 * proto.MaxCmdsPerMsg]uint32

	net NetStats
	st  linkStats
	tap tap // a demo recording's sink of what arrives and what is sent (demo.go); noTap when none
}

// linkStats are the link's counters (the Stats fields of the same names).
type linkStats struct {
	snapshotsReceived, cmdsSent, packetsSent int
	droppedSnapshots, snapshotsLost          int
	fullSnapshots, baselineMissing           int
	pingMs, tickTimeUs                       int
}

// newLink runs over conn.
func newLink(conn *proto.Conn) *link {
	return &link{conn: conn, tap: noTap{}}
}

// recv is the channel of arrived packets, closed when the connection ends.
func (l *link) recv() <-chan proto.Packet { return l.conn.Recv() }

// sendSettings tells the server cfg's rates (after a change of rate,
// cl_updaterate, cl_cmdrate, cl_interp, cl_interp_ratio or cl_nodelta).
func (l *link) sendSettings(cfg Config) {
	l.send(&proto.Settings{Rate: uint32(cfg.Rate), UpdateRate: uint16(cfg.UpdateRate),
		CmdRate: uint16(cfg.CmdRate), InterpMs: uint16(cfg.InterpMs), InterpRatio: float32(cfg.InterpRatio),
		NoDelta: cfg.NoDelta})
}

// closedError says why the connection ended, and whether the server ended it.
func (l *link) closedError() *ClosedError {
	reason, remote := l.conn.Reason()
	return &ClosedError{Reason: reason, Remote: remote}
}

// send queues a message for the server.
func (l *link) send(m proto.Message) { l.conn.Send(m) }

// received hands packet p to the tap and counts it in the incoming meter.
func (l *link) received(p proto.Packet) {
	l.tap.packet(p)
	l.net.In.Add(p.At, p.Size)
	l.net.Transport = l.conn.Transport()
}

// unpack rebuilds snapshot s's entity and pickup frames (s.Entities,
// s.Pickups) against the baseline frame it names and decodes its events
// (s.Events); false drops it. A snapshot not newer than the newest
// applied is dropped (counted), as is one whose baseline this client no
// longer holds (counted; the server falls back to a full snapshot once
// acks resume); a malformed delta or event block is a protocol error that
// closes the connection. The frames are kept as baselines for later
// snapshots.
func (l *link) unpack(s *proto.Snapshot) bool {
	if !l.fresh(s.Tick) {
		l.st.droppedSnapshots++
		return false
	}
	var base []proto.EntityState
	var pickBase []proto.PickupState
	if s.Baseline != 0 {
		b, ok := l.frames.Get(s.Baseline)
		if !ok {
			l.st.baselineMissing++
			return false
		}
		base = b
		pickBase, _ = l.frames.Pickups(s.Baseline)
	}
	ents, err := proto.ApplySnapshotDelta(l.entBuf[:0], base, s.EntityDelta, s.Tick)
	if err != nil {
		l.conn.Close("protocol error: " + err.Error())
		return false
	}
	picks, err := proto.ApplyPickupDelta(l.pickBuf[:0], pickBase, s.PickupDelta)
	if err != nil {
		l.conn.Close("protocol error: " + err.Error())
		return false
	}
	l.entBuf, l.pickBuf = ents, picks
	s.Entities, s.Pickups = ents, picks
	l.frames.Put(s.Seq, ents)
	l.frames.PutPickups(s.Seq, picks)
	if s.Baseline == 0 {
		l.st.fullSnapshots++
	}
	events, err := proto.DecodeEvents(l.evBuf[:0], s.Tick, s.EventData)
	if err != nil {
		l.conn.Close("protocol error: " + err.Error())
		return false
	}
	l.evBuf, s.Events = events, events
	return true
}

// fresh reports whether a snapshot of tick is newer than the newest applied.
func (l *link) fresh(tick uint32) bool {
	return l.st.snapshotsReceived == 0 || tick > l.newestTick
}

// applied records snapshot s as applied: its tick, its Seq for the acks,
// and the server's figures it carries.
func (l *link) applied(s *proto.Snapshot) {
	l.st.snapshotsReceived++
	l.newestTick = s.Tick
	l.trackSeq(s.Seq)
	l.st.pingMs = int(s.PingMs)
	l.st.tickTimeUs = int(s.TickTimeUs)
	// The server ran up to AckCmd and holds CmdQueue more: at least the
	// commands up to AckCmd + CmdQueue reached it (its queue holds
	// distinct numbers above AckCmd, in order).
	l.arrived = max(l.arrived, s.AckCmd+uint32(s.CmdQueue))
}

// trackSeq records the arrival of snapshot seq for AckBits and counts the
// snapshots skipped before it as lost.
func (l *link) trackSeq(seq uint32) {
	if seq <= l.newestSeq {
		return
	}
	shift := seq - l.newestSeq
	if l.newestSeq != 0 {
		l.st.snapshotsLost += int(shift - 1)
	}
	if l.newestSeq == 0 || shift > 32 {
		l.seqBits = 0 // the previous newest is outside the 32-snapshot window
	} else {
		l.seqBits = l.seqBits<<shift | 1<<(shift-1)
	}
	l.newestSeq = seq
}

// queued takes command cmd, made and predicted, to be sent: it goes to
// the tap, and counts for cl_cmdrate pacing (cmdRate is added per command;
// a packet is due when the sum reaches the tick rate, sendDue).
func (l *link) queued(cmd shared.UserCmd, cmdRate int) {
	l.tap.cmd(cmd)
	l.madeWith[cmd.CommandNumber%uint32(len(l.madeWith))] = l.newestSeq
	l.cmdAcc += float64(cmdRate)
}

// resetPacing forgets the pacing sum (a clock resynchronisation).
func (l *link) resetPacing() { l.cmdAcc = 0 }

// sendDue sends the commands up to newest not yet sent, with backup
// earlier ones (cl_cmdbackup), when a packet is due at tickRate (made):
// several commands made together (one Frame) go out in one Cmds message.
// cmd returns a command by number.
func (l *link) sendDue(tickRate int, newest uint32, backup int, cmd func(n uint32) shared.UserCmd, now time.Time) {
	if tr := float64(tickRate); l.cmdAcc >= tr {
		l.cmdAcc = math.Mod(l.cmdAcc, tr)
		l.sendCmds(newest, backup, cmd, now)
	}
}

// ackAges is Cmds.AckAges for commands from..newest: how many snapshots
// older than newestSeq the newest one was when each was made (at most
// proto.MaxAckAge); nil when every one was made with newestSeq.
func (l *link) ackAges(from, newest uint32) []uint8 {
	var ages []uint8
	for n := from; n <= newest; n++ {
		age := uint32(0)
		if made := l.madeWith[n%uint32(len(l.madeWith))]; made < l.newestSeq {
			age = min(l.newestSeq-made, proto.MaxAckAge)
		}
		if age != 0 && ages == nil {
			ages = make([]uint8, n-from, newest-from+1)
		}
		if ages != nil {
			ages = append(ages, uint8(age))
		}
	}
	return ages
}

// MaxUnackedBackup is the most earlier commands a Cmds message resends
// because the server has not yet said they arrived (Overwatch, GDC 2017:
// every packet carries all unacknowledged input, so a burst of loss costs
// none): as many as fit beside one new command, proto.MaxCmdsPerMsg-1 =
// 31, about half a second at 64 ticks/s, 977 bytes, within one datagram.
// cl_cmdbackup is the least. It was 16: a run of 17 lost command packets,
// one burst in 400 at a mean burst of 3 (5 % loss, about five bursts in
// five seconds), lost commands for good (TestNoUsercmdLostToBurstLoss).
const MaxUnackedBackup = proto.MaxCmdsPerMsg - 1

// sendCmds sends one Cmds message: the commands not yet sent, after every
// earlier one the server has not acknowledged (at most MaxUnackedBackup of
// them) and at least backup (cl_cmdbackup) earlier ones (none at all with
// backup 0), up to newest (at
// most proto.MaxCmdsPerMsg), with the snapshot acks.
func (l *link) sendCmds(newest uint32, backup int, cmd func(n uint32) shared.UserCmd, now time.Time) {
	from := l.sentUpTo + 1
	back := uint32(backup)
	// cl_cmdbackup 0 sends no earlier command at all (the lag lesson of
	// lost usercmds); otherwise every unacknowledged one goes again.
	if unacked := from - 1 - min(l.arrived, from-1); back > 0 && unacked > back {
		back = min(unacked, max(MaxUnackedBackup, back))
	}
	if from > back {
		from -= back
	} else {
		from = 1
	}
	if newest-from+1 > proto.MaxCmdsPerMsg {
		from = newest - proto.MaxCmdsPerMsg + 1
	}
	if from > newest {
		return
	}
	l.cmdSeq++
	msg := &proto.Cmds{Ack: l.newestSeq, AckBits: l.seqBits, Seq: l.cmdSeq, Cmds: make([]shared.UserCmd, 0, newest-from+1)}
	for n := from; n <= newest; n++ {
		msg.Cmds = append(msg.Cmds, cmd(n))
	}
	msg.AckAges = l.ackAges(from, newest)
	b := proto.MustEncode(msg)
	if l.conn.SendRaw(b) {
		l.st.cmdsSent += int(newest - l.sentUpTo)
		l.st.packetsSent++
		l.sentUpTo = newest
		l.net.Out.Add(now, len(b))
	}
}
