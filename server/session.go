package server

import (
	"fmt"
	"math"
	"net/http"
	"sort"
	"strings"
	"time"

	"tickshot/game"
	"tickshot/net/proto"
	"tickshot/net/transport"
	"tickshot/net/ws"
	"tickshot/shared"
)

// session is one connected human player.
type session struct {
	conn       *proto.Conn
	player     *game.Player
	hello      proto.Hello
	updateRate int
	snapAcc    float64 // ticks accumulated towards the next snapshot

	lastCmd uint32           // newest CommandNumber run
	pending []shared.UserCmd // received, not yet run (budget)
	budget  int              // command ticks the client may still run

	ackTick    uint32              // tick of the newest snapshot the client acked
	ackSeq     uint32              // Seq of the newest snapshot the client acked: the delta baseline
	deltaBuf   []byte              // reused for EntityDelta
	entBuf     []proto.EntityState // reused for the selected entities
	projBuf    []proto.ProjectileState
	evBuf      []proto.Event
	scoreBuf   []proto.ScoreEntry
	snap       proto.Snapshot // the snapshot being written, reused
	wire       []byte         // its encoding, reused
	evWire     []byte         // its EventData, reused
	sent       [sentRing]sentSnap
	nextSeq    uint32 // Seq of the next snapshot
	appliedSeq uint32 // snapshots up to this Seq are reflected in view
	// view is the client's interpolation state of every other player,
	// rebuilt from the snapshots it acknowledged (see lagcomp.go).
	view     map[uint16]*game.EntityView
	rttMs    float64 // smoothed round trip, ms; <0 until measured
	rttVar   float64 // mean deviation of the RTT samples, ms
	lastScor uint32  // tick of the last scoreboard sent
	// knownNames are the names the client has received (in a snapshot it
	// acknowledged), by player id: scoreboard rows omit them.
	knownNames map[uint16]string
	scoresDue  bool // the scoreboard changed since it was last sent

	// Abuse accounting: counted, logged once.
	droppedCmds int
	warned      bool
	badRcon     bool
	msgWindow   time.Time
	msgCount    int
	msgSeen     uint64 // the connection's PacketsIn when last counted

	// Rates (Hello, then Settings), clamped by net.ClampRates.
	rate        int     // bytes/s the client accepts
	cmdRate     int     // command packets/s it sends
	rateBudget  float64 // bytes that may be sent now; negative = in debt
	choked      bool    // the due snapshot was held back by rate
	chokeAcc    float64 // update-interval accumulator while choked
	chokes      int     // snapshots choked since the last one sent
	chokesTotal int
	cmdSeq      proto.SeqTracker
	kicked      string
}

// sentRing is how many sent snapshots a session remembers: 2 s at 64/s.
const sentRing = 128

// sentSnap is a snapshot as it was sent: for RTT and the client's view.
type sentSnap struct {
	seq  uint32
	tick uint32
	at   time.Time
	ents []proto.EntityState
	// names are the names this snapshot's scoreboard carried, by id.
	names []sentName
}

type joinReq struct {
	conn  *proto.Conn
	hello *proto.Hello
	reply chan string // "" on success, else the reject reason
}

// handleWS upgrades a player's connection and serves it.
func (s *Server) handleWS(w http.ResponseWriter, r *http.Request) {
	t, err := ws.Upgrade(w, r, proto.ServerOptions())
	if err != nil {
		s.log.Info("websocket upgrade failed", "remote", r.RemoteAddr, "err", err)
		return
	}
	s.ServeTransport(t)
}

// ServeTransport serves one player's connection over any transport (a
// websocket from /ws, or one end of a transport.Pipe in tests): it waits
// for the Hello and asks the tick goroutine to admit the player. It
// returns when the player is admitted or refused. Give the transport
// proto.ServerOptions().
func (s *Server) ServeTransport(t transport.Transport) {
	conn := proto.NewConn(t)
	var hello *proto.Hello
	select {
	case p, ok := <-conn.Recv():
		if !ok {
			reason, _ := conn.Reason()
			s.log.Info("client left during handshake", "remote", conn.RemoteAddr(), "reason", reason)
			return
		}
		h, isHello := p.Msg.(*proto.Hello)
		if !isHello {
			s.reject(conn, fmt.Sprintf("protocol error: expected hello, got %s", p.Msg.Type()))
			return
		}
		hello = h
	case <-time.After(proto.HandshakeTimeout):
		s.reject(conn, "no hello within handshake timeout")
		return
	case <-s.stopped:
		conn.Close(ShutdownReason)
		return
	}
	if hello.Protocol != proto.ProtocolVersion {
		s.reject(conn, fmt.Sprintf("protocol version %d, server speaks %d: update your game", hello.Protocol, proto.ProtocolVersion))
		return
	}
	req := joinReq{conn: conn, hello: hello, reply: make(chan string, 1)}
	select {
	case s.joins <- req:
	case <-s.stopped:
		conn.Close(ShutdownReason)
		return
	}
	select {
	case reason := <-req.reply:
		if reason != "" {
			s.reject(conn, reason)
		}
	case <-s.stopped:
	}
}

func (s *Server) reject(conn *proto.Conn, reason string) {
	s.log.Info("client rejected", "remote", conn.RemoteAddr(), "reason", reason)
	conn.Send(&proto.Reject{Reason: reason})
	time.Sleep(50 * time.Millisecond) // let the writer flush the reject
	conn.Close(reason)
}

// acceptJoins admits waiting clients (tick goroutine).
func (s *Server) acceptJoins() {
	for {
		select {
		case req := <-s.joins:
			req.reply <- s.admit(req)
		default:
			return
		}
	}
}

func (s *Server) admit(req joinReq) string {
	if len(s.w.Players) >= s.cfg.MaxPlayers {
		if !s.w.RemoveBot("bot removed to make room") {
			return fmt.Sprintf("server is full (%d/%d players)", len(s.w.Players), s.cfg.MaxPlayers)
		}
	}
	h := req.hello
	name := s.uniqueName(h.Name)
	p := s.w.AddPlayer(name, false)
	// ackTick starts now: a newcomer gets the events from now on, not the
	// last seconds' backlog.
	ss := &session{conn: req.conn, player: p, hello: *h, rttMs: -1, view: map[uint16]*game.EntityView{}, ackTick: s.w.Tick,
		budget: s.cfg.MaxUsrCmdProcessTicks, snapAcc: float64(s.cfg.TickRate)}
	req.conn.SetFakeConditions(s.vars.fake)
	ss.applyRates(h.Rate, h.UpdateRate, h.CmdRate, h.InterpMs, h.InterpRatio, s.cfg.TickRate)
	ur := ss.updateRate
	s.sessions = append(s.sessions, ss)
	req.conn.Send(&proto.Accept{PlayerID: p.ID, TickRate: uint16(s.cfg.TickRate), Map: s.m.Name,
		Tick: s.w.Tick, UpdateRate: uint16(ur), Cvars: s.publicCvars()})
	s.log.Info("player joined", "name", name, "id", p.ID, "remote", req.conn.RemoteAddr(), "cl_updaterate", ur)
	return ""
}

func (s *Server) uniqueName(name string) string { return s.w.UniqueName(name, proto.MaxNameLen) }

func (s *Server) publicCvars() []proto.Cvar {
	cv := []proto.Cvar{
		{Name: "sv_tickrate", Value: fmt.Sprint(s.cfg.TickRate)},
		{Name: "sv_maxusrcmdprocessticks", Value: fmt.Sprint(s.cfg.MaxUsrCmdProcessTicks)},
		{Name: "maxplayers", Value: fmt.Sprint(s.cfg.MaxPlayers)},
	}
	for _, c := range ServerCvars {
		cv = append(cv, proto.Cvar{Name: c.Name, Value: s.vars.get(c.Name)})
	}
	return cv
}

// applyRates takes the client's announced rates, clamped to their ranges.
func (ss *session) applyRates(rate uint32, updateRate, cmdRate, interpMs uint16, ratio float32, tickRate int) {
	r, ur, cr, im := proto.ClampRates(rate, updateRate, cmdRate, interpMs, tickRate)
	ss.rate, ss.updateRate, ss.cmdRate = int(r), ur, cr
	ss.hello.InterpMs, ss.hello.InterpRatio = uint16(im), ratio
	ss.hello.Rate, ss.hello.UpdateRate, ss.hello.CmdRate = r, uint16(ur), uint16(cr)
}

// onCommand runs a client's console command on the server.
func (s *Server) onCommand(ss *session, m *proto.Command) {
	fields := strings.Fields(m.Text)
	if len(fields) == 0 {
		return
	}
	switch fields[0] {
	case "kill":
		if err := s.w.Suicide(ss.player); err != nil {
			s.print(ss, "kill: "+err.Error())
		}
	case "rcon":
		if s.cfg.RconPassword == "" {
			s.print(ss, "rcon is disabled on this server (no --rcon-password)")
			return
		}
		if m.Password != s.cfg.RconPassword {
			if !ss.badRcon {
				ss.badRcon = true // logged once per player
				s.log.Warn("bad rcon password", "player", ss.player.Name, "id", ss.player.ID)
			}
			s.print(ss, "rcon: bad password")
			return
		}
		s.print(ss, s.exec(strings.Join(fields[1:], " ")))
	default:
		s.print(ss, "unknown server command: "+fields[0])
	}
}

// print sends a line to the player's console.
func (s *Server) print(ss *session, text string) {
	if ss.conn != nil {
		ss.conn.Send(&proto.Print{Text: proto.TruncateUTF8(text, proto.MaxPrintLen)})
	}
}

// MaxEventsPerSnapshot bounds the events one snapshot carries (the newest
// are kept): 256 events of at most ~300 bytes stay under net.MaxServerFrame.
const MaxEventsPerSnapshot = 256

// MaxMsgsPerSecond is the flood limit: more messages than this from one
// client in one second gets it kicked.
const MaxMsgsPerSecond = 400

// readSession drains a client's received messages (tick goroutine).
func (s *Server) readSession(ss *session, now time.Time) {
	// Command time: one tick of budget per server tick, banked up to the cap.
	ss.budget = min(ss.budget+s.budgetTicks, s.cfg.MaxUsrCmdProcessTicks)
	// Count every frame the connection read, including those its full
	// receive queue dropped: a burst that overflows the queue is a flood too.
	if now.Sub(ss.msgWindow) > time.Second {
		ss.msgWindow, ss.msgCount = now, 0
	}
	in := ss.conn.Stats().PacketsIn
	ss.msgCount += int(in - ss.msgSeen)
	ss.msgSeen = in
	if ss.msgCount > MaxMsgsPerSecond {
		s.kick(ss, fmt.Sprintf("message flood (more than %d messages/s)", MaxMsgsPerSecond))
		return
	}
	for ss.kicked == "" {
		var pkt proto.Packet
		var ok bool
		select {
		case pkt, ok = <-ss.conn.Recv():
		default:
			ok = false
		}
		if !ok {
			break
		}
		switch m := pkt.Msg.(type) {
		case *proto.Cmds:
			if m.Seq != 0 {
				ss.cmdSeq.Arrive(m.Seq)
			}
			s.onCmds(ss, m, pkt.At)
			// Run this message's commands before the next message's acks
			// add snapshots to the view: a shot is rewound with only the
			// snapshots the shooter had when it fired.
			s.runPending(ss)
		case *proto.Settings:
			ss.applyRates(m.Rate, m.UpdateRate, m.CmdRate, m.InterpMs, m.InterpRatio, s.cfg.TickRate)
			ss.hello.NoDelta = m.NoDelta
		case *proto.Command:
			s.onCommand(ss, m)
		default:
			s.kick(ss, fmt.Sprintf("protocol error: unexpected %s message", m.Type()))
			return
		}
	}
	s.runPending(ss)
}

func (s *Server) onCmds(ss *session, m *proto.Cmds, at time.Time) {
	if m.Ack > ss.ackSeq && m.Ack <= ss.nextSeq {
		s.onAck(ss, m.Ack, m.AckBits, at)
	}
	for i := range m.Cmds {
		if err := proto.ValidateUserCmd(&m.Cmds[i], s.cfg.TickRate); err != nil {
			s.kick(ss, "invalid usercmd: "+err.Error())
			return
		}
	}
	for i := range m.Cmds {
		c := m.Cmds[i]
		if c.CommandNumber <= ss.lastCmd {
			continue // a backup copy of a command already run
		}
		if len(ss.pending) > 0 && c.CommandNumber <= ss.pending[len(ss.pending)-1].CommandNumber {
			continue // already queued
		}
		if len(ss.pending) >= 2*s.cfg.MaxUsrCmdProcessTicks {
			s.countDropped(ss, 1)
			continue
		}
		ss.pending = append(ss.pending, c)
	}
}

// onAck takes a snapshot acknowledgement: the RTT sample (from the
// server's own send time, never the client's word) and the arrivals that
// AckBits reports, applied in order to the session's copy of the client's view.
func (s *Server) onAck(ss *session, ack, bits uint32, at time.Time) {
	acked := &ss.sent[ack%sentRing]
	if acked.seq != ack {
		return // older than the ring: ignore
	}
	ss.ackSeq, ss.ackTick = ack, acked.tick
	sample := float64(at.Sub(acked.at)) / float64(time.Millisecond)
	if ss.rttMs < 0 {
		ss.rttMs, ss.rttVar = sample, sample/2
	} else {
		// RFC 6298's estimator: variation first, then the mean.
		ss.rttVar += (math.Abs(sample-ss.rttMs) - ss.rttVar) * 0.25
		ss.rttMs += (sample - ss.rttMs) * 0.2
	}
	from := ss.appliedSeq + 1
	if acked.seq-from >= sentRing {
		from = acked.seq - sentRing + 1
	}
	for seq := from; seq <= acked.seq; seq++ {
		d := acked.seq - seq
		arrived := d == 0 || (d <= 32 && bits&(1<<(d-1)) != 0)
		snap := &ss.sent[seq%sentRing]
		if !arrived || snap.seq != seq {
			continue
		}
		s.applyToView(ss, snap)
		s.learnNames(ss, snap)
	}
	ss.appliedSeq = acked.seq
}

// applyToView updates the session's view of the other players with a
// snapshot the client received, exactly as netclient does.
func (s *Server) applyToView(ss *session, snap *sentSnap) {
	for _, es := range snap.ents {
		v := ss.view[es.ID]
		if v == nil {
			v = &game.EntityView{Teleport: es.Teleport}
			ss.view[es.ID] = v
		}
		v.Observe(es.Sample(snap.tick), es.Teleport, s.cfg.TickRate)
	}
	// Players the snapshot no longer carries have left. The entities are
	// in ID order (s.w.Players is), so a binary search finds them.
	for id := range ss.view {
		i := sort.Search(len(snap.ents), func(i int) bool { return snap.ents[i].ID >= id })
		if i == len(snap.ents) || snap.ents[i].ID != id {
			delete(ss.view, id)
		}
	}
}

// runPending runs queued commands in order while the client has budget.
func (s *Server) runPending(ss *session) {
	n := 0
	for n < len(ss.pending) && ss.budget > 0 {
		c := ss.pending[n]
		n++
		ss.budget--
		ss.lastCmd = c.CommandNumber
		s.runCommand(ss.player, c, ss)
	}
	ss.pending = append(ss.pending[:0], ss.pending[n:]...)
}

func (s *Server) countDropped(ss *session, n int) {
	ss.droppedCmds += n
	if !ss.warned {
		ss.warned = true
		s.log.Warn("usercmds dropped: more command time than real time allows (sv_maxusrcmdprocessticks)",
			"player", ss.player.Name, "id", ss.player.ID)
	}
}

func (s *Server) kick(ss *session, reason string) {
	if ss.kicked != "" {
		return
	}
	ss.kicked = reason
	s.log.Warn("player kicked", "player", ss.player.Name, "id", ss.player.ID, "reason", reason)
	ss.conn.Close("kicked: " + reason)
}

// dropClosed removes sessions whose connection ended.
func (s *Server) dropClosed() {
	kept := s.sessions[:0]
	for _, ss := range s.sessions {
		select {
		case <-ss.conn.Done():
			reason, _ := ss.conn.Reason()
			s.log.Info("player left", "name", ss.player.Name, "id", ss.player.ID, "reason", reason)
			s.removePlayer(ss.player.ID, reason)
		default:
			kept = append(kept, ss)
		}
	}
	for i := len(kept); i < len(s.sessions); i++ {
		s.sessions[i] = nil
	}
	s.sessions = kept
	// Bots given up for humans come back when slots free up.
	for len(s.w.Bots) < s.cfg.Bots && len(s.w.Players) < s.cfg.MaxPlayers {
		s.addBot()
	}
}

// sendSnapshots sends a snapshot to every client whose update interval is due.
func (s *Server) sendSnapshots(now time.Time) {
	if s.w.ScoresDirty {
		for _, ss := range s.sessions {
			ss.scoresDue = true
		}
		s.w.ScoresDirty = false
	}
	framed := false // s.frame is built at the first snapshot due this tick
	s.scoresBuilt = false
	for _, ss := range s.sessions {
		// rate: the budget grows by rate/tickrate bytes a tick, banked for at
		// most a quarter second; a snapshot is held back (choked) while the
		// budget is in debt.
		ss.rateBudget = math.Min(ss.rateBudget+float64(ss.rate)/float64(s.cfg.TickRate), float64(ss.rate)/4)
		if ss.snapAcc < float64(s.cfg.TickRate) {
			ss.snapAcc += float64(ss.updateRate)
		}
		if ss.snapAcc < float64(s.cfg.TickRate) {
			continue
		}
		if ss.rateBudget < 0 {
			// Held back: one choke for the due snapshot, and one more for
			// every further update interval spent waiting.
			if !ss.choked {
				ss.choked, ss.chokeAcc = true, 0
				ss.chokes++
				ss.chokesTotal++
			} else if ss.chokeAcc += float64(ss.updateRate); ss.chokeAcc >= float64(s.cfg.TickRate) {
				ss.chokeAcc -= float64(s.cfg.TickRate)
				ss.chokes++
				ss.chokesTotal++
			}
			continue
		}
		ss.choked = false
		ss.snapAcc -= float64(s.cfg.TickRate)
		if !framed {
			s.buildFrame()
			framed = true
		}
		b := s.writeSnapshot(ss, now)
		ss.rateBudget -= float64(len(b))
		// The transport owns what it is given: the reused encoding is copied.
		ss.conn.SendRaw(append([]byte(nil), b...)) // a full queue drops it: the client sees a lost snapshot
	}
}

// writeSnapshot builds the snapshot due to ss from this tick's frame,
// records it in the session's ring (for acks, baselines and the view),
// and encodes it: build, select, delta, encode (ioquake3's
// SV_BuildClientSnapshot then SV_WriteSnapshotToClient). The bytes are
// the session's reused buffer, valid until its next snapshot; nothing
// here allocates in the steady state (BenchmarkSnapshotPipeline).
func (s *Server) writeSnapshot(ss *session, now time.Time) []byte {
	snap := s.buildSnapshot(ss)
	snap.Choke = uint16(min(ss.chokes, 65535))
	ss.chokes = 0
	// The scoreboard: once a second when it changed (the kill feed says
	// who killed whom at once), else every 2 s for the pings.
	since := s.w.Tick - ss.lastScor
	scoreSent := false
	if (ss.scoresDue && since >= uint32(s.cfg.TickRate)) || since >= 2*uint32(s.cfg.TickRate) {
		if !s.scoresBuilt {
			s.scoreBuf = s.scoreboard(s.scoreBuf[:0])
			s.scoresBuilt = true
		}
		snap.Scores = ss.leanScores(s.scoreBuf)
		ss.lastScor = s.w.Tick
		ss.scoresDue = false
		scoreSent = true
	}
	ss.nextSeq++
	snap.Seq = ss.nextSeq
	rec := &ss.sent[snap.Seq%sentRing]
	rec.seq, rec.tick, rec.at = snap.Seq, s.w.Tick, now
	rec.ents = append(rec.ents[:0], snap.Entities...)
	rec.names = rec.names[:0]
	if scoreSent {
		for _, r := range snap.Scores {
			if r.Name != "" {
				rec.names = append(rec.names, sentName{r.ID, r.Name})
			}
		}
	}
	s.encodeEntities(ss, snap)
	ss.evWire = proto.AppendEvents(ss.evWire[:0], snap.Tick, snap.Events)
	snap.EventData = nil
	if len(ss.evWire) > 0 {
		snap.EventData = ss.evWire
	}
	ss.wire = s.enc.Append(ss.wire[:0], snap)
	s.countSnapshot(snap, len(ss.wire))
	return ss.wire
}

// encodeEntities writes the snapshot's entity frame as a delta against
// the newest snapshot the client acknowledged (Quake 3's
// SV_WriteSnapshotToClient against frames[deltaMessage & PACKET_MASK]), or
// against nothing (a full snapshot) when there is no acked baseline the
// client still holds (a new client, lost acks, or a baseline more than
// proto.FrameRingSize snapshots old) or when the client asked for full
// snapshots (cl_nodelta).
func (s *Server) encodeEntities(ss *session, snap *proto.Snapshot) {
	var base []proto.EntityState
	snap.Baseline = 0
	if b := &ss.sent[ss.ackSeq%sentRing]; !ss.hello.NoDelta && ss.ackSeq != 0 && b.seq == ss.ackSeq && snap.Seq-ss.ackSeq < proto.FrameRingSize {
		base, snap.Baseline = b.ents, ss.ackSeq
	}
	ss.deltaBuf = proto.AppendEntityDelta(ss.deltaBuf[:0], base, snap.Entities)
	snap.EntityDelta = ss.deltaBuf
}

// buildFrame quantizes every player once per tick into s.frame, sorted
// by ID: the world frame that each client's snapshot selects from
// (ioquake3 builds its snapshot entities once, SV_BuildClientSnapshot, and
// writes them per client).
func (s *Server) buildFrame() {
	s.frame = s.frame[:0]
	s.projFrame = s.projFrame[:0]
	for _, pr := range s.w.Projectiles {
		s.projFrame = append(s.projFrame, proto.ProjectileState{ID: pr.ID, Owner: pr.Owner, Weapon: pr.Weapon,
			X: proto.ToFixed(pr.X), Y: proto.ToFixed(pr.Y), VX: proto.ToFixed(pr.VX), VY: proto.ToFixed(pr.VY)})
	}
	for _, o := range s.w.Players {
		var flags uint8
		if o.Alive() {
			flags |= proto.FlagAlive
		}
		if o.Bot {
			flags |= proto.FlagBot
		}
		s.frame = append(s.frame, proto.EntityState{
			ID: o.ID, X: proto.ToFixed(o.State.X), Y: proto.ToFixed(o.State.Y),
			Angle: proto.AngleToWire(o.Angle), Health: uint8(o.Health), Flags: flags, Teleport: o.Teleport,
		})
	}
}

// buildSnapshot selects what one client receives from the tick's frame
// (interest management): the other players and projectiles inside its
// view (game.ViewRect: the most the client can show, plus a margin); the
// events about it, the kill feed and joins always, shots, hits and
// explosions only where it can see them. A player behind the camera's edge
// is not on the wire (the anti-maphack rule).
func (s *Server) buildSnapshot(ss *session) *proto.Snapshot {
	p := ss.player
	view := game.ViewRect(s.m, p.State.X, p.State.Y)
	snap := &ss.snap
	*snap = proto.Snapshot{
		Tick:       s.w.Tick,
		AckCmd:     ss.lastCmd,
		Self:       proto.MakeSelf(p.State, p.Health, p.Teleport, ss.snap.Self.Ammo),
		TickTimeUs: uint32(s.tickStats.meanUs()),
		TickStdUs:  uint32(s.tickStats.stdUs()),
		PingVarMs:  uint16(math.Min(ss.rttVar, 65535)),
		CmdLoss:    uint8(math.Round(ss.cmdSeq.LossPct())),
		PingMs:     uint16(math.Max(ss.rttMs, 0)),
		Entities:   ss.entBuf[:0],
		// Reused storage; nil (msgpack nil) when there is none.
		Projectiles: ss.projBuf[:0:cap(ss.projBuf)],
		Events:      ss.evBuf[:0:cap(ss.evBuf)],
	}
	for _, pr := range s.projFrame {
		if view.Contains(proto.FromFixed(pr.X), proto.FromFixed(pr.Y)) {
			snap.Projectiles = append(snap.Projectiles, pr)
		}
	}
	ss.projBuf = snap.Projectiles
	if len(snap.Projectiles) == 0 {
		snap.Projectiles = nil
	}
	for _, e := range s.frame {
		if e.ID != p.ID && view.Contains(proto.FromFixed(e.X), proto.FromFixed(e.Y)) {
			snap.Entities = append(snap.Entities, e)
		}
	}
	ss.entBuf = snap.Entities
	// Events since the newest snapshot the client acked (resent until acked).
	for i, e := range s.events {
		if e.Tick > ss.ackTick && (s.eventTo[i] == 0 || s.eventTo[i] == p.ID) && eventVisible(&e, p.ID, view) {
			snap.Events = append(snap.Events, e)
		}
	}
	ss.evBuf = snap.Events
	// A snapshot carries at most MaxEventsPerSnapshot, the newest: it must
	// stay far below the client's frame limit whatever happens.
	if n := len(snap.Events); n > MaxEventsPerSnapshot {
		snap.Events = snap.Events[n-MaxEventsPerSnapshot:]
	}
	if len(snap.Events) == 0 {
		snap.Events = nil
	}
	return snap
}

// eventVisible reports whether a client (player id) with view should get
// event e: everything about itself, the kill feed, joins, leaves and
// match news always; shots, hits and explosions of others only when they
// happen in view.
func eventVisible(e *proto.Event, id uint16, view game.Rect) bool {
	if e.A == id || e.B == id {
		return true
	}
	in := func(x, y int32) bool { return view.Contains(proto.FromFixed(x), proto.FromFixed(y)) }
	switch e.Kind {
	case proto.EvShot:
		return in(e.X, e.Y) || in(e.X2, e.Y2)
	case proto.EvHit:
		return in(e.X2, e.Y2)
	case proto.EvExplode:
		return view.Grow(float64(e.Value)).Contains(proto.FromFixed(e.X), proto.FromFixed(e.Y))
	}
	return true
}

// scoreboard appends every player's row to rows.
func (s *Server) scoreboard(rows []proto.ScoreEntry) []proto.ScoreEntry {
	for _, p := range s.w.Players {
		row := proto.ScoreEntry{ID: p.ID, Name: p.Name, Kills: int16(p.Kills), Deaths: int16(p.Deaths), Bot: p.Bot}
		if ss := s.sessionOf(p.ID); ss != nil && ss.rttMs > 0 {
			row.PingMs = uint16(ss.rttMs)
		}
		rows = append(rows, row)
	}
	return rows
}

func (s *Server) sessionOf(id uint16) *session {
	for _, ss := range s.sessions {
		if ss.player.ID == id {
			return ss
		}
	}
	return nil
}

// sentName is a player's name as a snapshot's scoreboard carried it.
type sentName struct {
	id   uint16
	name string
}

// leanScores is the scoreboard for one client: the rows with the names it
// has not received yet, the others with Name "" (the client keeps the
// names it has: FINDINGS measured the names as 27 % of the bytes at 64
// players when every scoreboard carried them).
func (ss *session) leanScores(rows []proto.ScoreEntry) []proto.ScoreEntry {
	out := append(ss.scoreBuf[:0], rows...)
	ss.scoreBuf = out
	for i := range out {
		if n, ok := ss.knownNames[out[i].ID]; ok && n == out[i].Name {
			out[i].Name = ""
		}
	}
	return out
}

// learnNames records the names a snapshot that reached the client carried.
func (s *Server) learnNames(ss *session, snap *sentSnap) {
	for _, n := range snap.names {
		if ss.knownNames == nil {
			ss.knownNames = map[uint16]string{}
		}
		ss.knownNames[n.id] = n.name
	}
}
