package server

import (
	"fmt"
	"log/slog"
	"math"
	"strings"
	"time"
	"unicode/utf8"

	"tickshot/game"
	"tickshot/net/proto"
	"tickshot/shared"
)

// A session is one connected human player, made of the parts a Quake 3 or
// Source server keeps per client: the usercmds waiting to run (cmdQueue),
// the rate and update-interval control that decides when a snapshot goes
// out (rateControl), the snapshots sent and acknowledged by sequence number
// with the RTT they measure (ackState), and the server's copy of what the
// client has received and draws (clientView), which lag compensation
// rewinds to. The tick goroutine owns every session.
type session struct {
	conn   *proto.Conn
	player *game.Player
	hello  proto.Hello // as announced, with the rates as clamped
	// spectator: player is in the world's Spectators, not its Players
	// (spectate.go): no body, commands acknowledged but not run, no culling.
	spectator bool
	// client is who it is for the per-address limits (clientaddr.go:
	// sv_maxplayers_per_ip, rcon guessing); lastInput is when the last
	// Cmds message arrived (or the admission), for sv_timeout (squat.go).
	client    clientAddr
	lastInput time.Time

	// Events (events.go): since is the admission tick (older events
	// are not sent); evSentMax the newest event ID any snapshot carried;
	// skipLeaves the IDs of leave notices coalesced away for this client,
	// in increasing order.
	since      uint32
	evSentMax  uint32
	skipLeaves []uint32

	cmds cmdQueue
	rate rateControl
	acks ackState
	view clientView
	out  snapOut

	lastScor  uint32 // tick of the last scoreboard sent
	lastSnap  uint32 // tick of the last snapshot written (scoreSlot)
	scoresDue bool   // the scoreboard changed since it was last sent

	// Chat flood control (say): tokens left, and the tick they were last
	// refilled to; refused messages.
	chatTokens  int
	chatAt      uint32
	chatRefused int

	// Abuse accounting: counted, logged once.
	warned bool
	msgs   msgMeter // the flood limit's count (flood.go)
	kicked string
}

// newSession is a session for player p joining with hello, at tick now of
// a server running tickRate ticks/s with a command budget of maxTicks.
func newSession(conn *proto.Conn, p *game.Player, hello proto.Hello, now uint32, tickRate, maxTicks int) *session {
	ss := &session{conn: conn, player: p, hello: hello}
	ss.acks.rttMs = -1
	// ackTick starts now: a newcomer gets the events from now on, not the
	// last seconds' backlog.
	ss.acks.ackTick, ss.since = now, now
	ss.chatTokens, ss.chatAt = ChatBurst, now
	ss.cmds.budget, ss.cmds.runLeft = maxTicks, maxTicks
	ss.rate.snapAcc = float64(tickRate) // the first snapshot goes out at once
	ss.applyRates(hello.Rate, hello.UpdateRate, hello.CmdRate, hello.InterpMs, hello.InterpRatio, tickRate)
	return ss
}

// applyRates takes the client's rate, cl_updaterate, cl_cmdrate, cl_interp
// and cl_interp_ratio (Hello, then Settings), clamped by proto.ClampRates.
func (ss *session) applyRates(rate uint32, updateRate, cmdRate, interpMs uint16, ratio float32, tickRate int) {
	r, ur, cr, im := proto.ClampRates(rate, updateRate, cmdRate, interpMs, tickRate)
	if ur != ss.rate.updateRate {
		ss.rate.phased = false // a phase group of the new update rate at the next snapshot
	}
	ss.rate.bytesPerSec, ss.rate.updateRate, ss.rate.cmdRate = int(r), ur, cr
	ss.hello.InterpMs, ss.hello.InterpRatio = uint16(im), ratio
	ss.hello.Rate, ss.hello.UpdateRate, ss.hello.CmdRate = r, uint16(ur), uint16(cr)
}

// ---- what a session does at the tick ----
//
// The methods below run on the tick goroutine and act on the server s
// they are given (its world, cvars, log and metrics), as ioquake3's
// SV_ExecuteClientMessage and SV_ClientCommand act for one client_t.

// read drains the client's received messages at the tick of server s
// that began at now: usercmds run, settings and console commands apply,
// floods and foreign messages kick (tick goroutine).
func (ss *session) read(s *Server, now time.Time) {
	// Command time: one tick of budget per tick of real time, banked.
	ss.cmds.refill(s.budgetTicks, s.cfg.backlogTicks(), s.cfg.MaxUsrCmdProcessTicks)
	if ss.msgs.over(ss.conn.PacketsIn(), now) {
		ss.kick(s, kickFlood, fmt.Sprintf("message flood (more than %d messages/s)", MaxMsgsPerSecond))
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
			ss.lastInput = now
			if m.Seq != 0 {
				ss.cmds.seq.Arrive(m.Seq)
			}
			ss.onCmds(s, m, pkt.At)
			// Run this message's commands before the next message's acks
			// add snapshots to the view: a shot is rewound with only the
			// snapshots the shooter had when it fired.
			ss.runPending(s)
		case *proto.Settings:
			ss.applyRates(m.Rate, m.UpdateRate, m.CmdRate, m.InterpMs, m.InterpRatio, s.cfg.TickRate)
			ss.hello.NoDelta = m.NoDelta
		case *proto.Command:
			ss.command(s, m)
		default:
			ss.kick(s, kickProtocolError, fmt.Sprintf("protocol error: unexpected %s message", m.Type()))
			return
		}
	}
	ss.runPending(s)
	ss.checkTimeout(s, now) // squat.go
}

// onCmds takes a Cmds message received at time at: its acks update the
// session's view and RTT, its usercmds are checked and queued.
func (ss *session) onCmds(s *Server, m *proto.Cmds, at time.Time) {
	ss.acks.ack(m.Ack, m.AckBits, at)
	for i := range m.Cmds {
		if err := proto.ValidateUserCmd(&m.Cmds[i], s.cfg.TickRate); err != nil {
			ss.kick(s, kickInvalidUserCmd, "invalid usercmd: "+err.Error())
			return
		}
	}
	// The view takes each command's ack when that command runs, not now:
	// commands still queued were drawn without the newer snapshots, and a
	// backup whose own message was lost was made with an older ack than
	// this message's (Cmds.AckAges).
	sent := m.Ack != 0 && m.Ack <= ss.acks.nextSeq // an ack of a snapshot never sent is ignored
	if n := len(m.Cmds); n > 0 && m.Cmds[n-1].CommandNumber > ss.cmds.newest() {
		// The jitter of the command packets' arrival against the client's
		// clock when it made the newest command, and the buffer it needs.
		c := &m.Cmds[n-1]
		tr := float64(s.cfg.TickRate)
		ss.cmds.jitter.AddTransit((float64(s.w.Tick)-float64(c.TickCount)-float64(c.TickFrac)/256)/tr, stallTicks/tr)
		ss.cmds.target = 0
		if s.vars.cmdBuffer.Get() {
			ss.cmds.target = cmdBufferTarget(ss.cmds.jitter.Ms(), ss.cmds.seq.LossPct(), s.cfg.TickRate, ss.rate.cmdRate)
		}
	}
	for i := range m.Cmds {
		if c := &m.Cmds[i]; sent && c.CommandNumber > ss.cmds.newest() {
			seq, bits := m.MadeAck(i)
			ss.view.hold(heldAck{before: c.CommandNumber, seq: seq, bits: bits}, &ss.acks, s.cfg.TickRate)
		}
		if !ss.cmds.push(m.Cmds[i], s.cfg.backlogTicks()+s.cfg.MaxUsrCmdProcessTicks) {
			ss.warnDropped(s.log)
		}
	}
	if sent {
		// The commands after these were made with this ack or a newer one.
		ss.view.hold(heldAck{before: ss.cmds.newest() + 1, seq: m.Ack, bits: m.AckBits}, &ss.acks, s.cfg.TickRate)
	}
}

// syncView brings the view up to the acks that every command still queued
// was made after (all of them when none is queued).
func (ss *session) syncView(tickRate int) {
	next := ^uint32(0)
	if c, ok := ss.cmds.peek(); ok {
		next = c.CommandNumber
	}
	ss.view.catchUp(next, &ss.acks, tickRate)
}

// runPending runs queued commands in order, on server s's world, while the
// client has budget.
func (ss *session) runPending(s *Server) {
	for {
		c, ok := ss.cmds.next()
		if !ok {
			ss.syncView(s.cfg.TickRate)
			return
		}
		// The view holds what the client had when it made c: the acks of
		// the messages up to the one that brought c, none later.
		ss.view.catchUp(c.CommandNumber, &ss.acks, s.cfg.TickRate)
		if ss.spectator {
			continue // acknowledged (AckCmd), not run: a spectator has no body
		}
		s.runCommand(ss.player, c, ss)
	}
}

// warnDropped logs, once per player, that its commands are being dropped.
func (ss *session) warnDropped(log *slog.Logger) {
	if !ss.warned {
		ss.warned = true
		log.Warn("usercmds dropped: more command time than real time allows (server.CmdBacklogMs)",
			"player", ss.player.Name, "id", ss.player.ID)
	}
}

// kick closes the session's connection with reason, told to the client
// ("kicked: " reason), counted in the metrics by code (kick.go) whatever
// the words, and logged; a session already kicked is left as it is.
func (ss *session) kick(s *Server, code kickCode, reason string) {
	if ss.kicked != "" {
		return
	}
	s.metrics.kick(code)
	ss.kicked, s.kicked = reason, true
	s.log.Warn("player kicked", "player", ss.player.Name, "id", ss.player.ID, "reason", reason)
	ss.conn.Close("kicked: " + reason)
}

// print sends a line to the player's console.
func (ss *session) print(text string) {
	if ss.conn != nil {
		ss.conn.Send(&proto.Print{Text: proto.TruncateUTF8(text, proto.MaxPrintLen)})
	}
}

// command runs the client's console command on server s.
func (ss *session) command(s *Server, m *proto.Command) {
	fields := strings.Fields(m.Text)
	if len(fields) == 0 {
		return
	}
	switch fields[0] {
	case "kill":
		if err := s.w.Suicide(ss.player); err != nil {
			ss.print("kill: " + err.Error())
		}
	case "say", "say_team":
		ss.say(s, strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(m.Text), fields[0])), fields[0] == "say_team")
	case "jointeam":
		ss.joinTeam(s, fields[1:])
	case "spectate":
		ss.spectate(s) // spectate.go
	case "join":
		ss.joinGame(s, game.TeamNone)
	case "vote":
		ss.print(s.levels.vote.cast(ss.player.ID, fields[1:])) // mapvote.go
	case "rcon":
		if s.cfg.RconPassword == "" {
			ss.print("rcon is disabled on this server (no --rcon-password)")
			return
		}
		if !ss.rconAllowed(s, m.Password) { // rcon.go: constant time, rate-limited per address
			return
		}
		ss.print(s.exec(strings.Join(fields[1:], " ")))
	default:
		ss.print("unknown server command: " + fields[0])
	}
}

// Chat flood control: a player may say ChatBurst messages at once, then one
// every ChatIntervalMs (a token bucket); more are refused with a message to
// the sender, never passed on.
const (
	ChatBurst      = 4
	ChatIntervalMs = 1000
)

// say passes a chat message on to every player (EvChat): control
// characters stripped, cut to proto.MaxChatLen bytes, rate-limited. With
// team (say_team) in team deathmatch it goes to the sender's team only,
// marked proto.ChatTeam; in deathmatch say_team is say, as in Source.
// say and say_team share the token bucket.
func (ss *session) say(s *Server, text string, team bool) {
	text = proto.TruncateUTF8(stripControl(text), proto.MaxChatLen)
	if text == "" {
		return
	}
	now := s.w.Tick
	refill := uint32(ChatIntervalMs * s.cfg.TickRate / 1000)
	if ss.chatTokens < ChatBurst && now > ss.chatAt {
		gained := min(int((now-ss.chatAt)/max(refill, 1)), ChatBurst)
		if gained > 0 {
			ss.chatTokens = min(ss.chatTokens+gained, ChatBurst)
			ss.chatAt += uint32(gained) * refill
		}
	}
	if ss.chatTokens <= 0 {
		ss.chatRefused++
		if ss.chatRefused == 1 {
			s.log.Info("chat flood: messages refused", "player", ss.player.Name, "id", ss.player.ID)
		}
		ss.print("chat: you are sending messages too fast; wait a second")
		return
	}
	if ss.chatTokens == ChatBurst {
		ss.chatAt = now // the bucket was full: refill from now
	}
	ss.chatTokens--
	// A spectator's team is the spectators, in either mode (Source's team 1).
	spec := ss.player.Team == game.TeamSpectator
	if !team || !spec && (!s.w.TeamPlay() || !ss.player.Team.Playing()) {
		s.events.add(proto.Event{Kind: proto.EvChat, A: ss.player.ID, Text: text}, 0, s.w.Tick, s.sessions)
		return
	}
	// One event per teammate with a connection (the sender included, so
	// that it sees its message as the others do).
	for _, o := range s.sessions {
		if o.player.Team == ss.player.Team {
			s.events.add(proto.Event{Kind: proto.EvChat, A: ss.player.ID, Text: text, Value: proto.ChatTeam}, o.player.ID, s.w.Tick, s.sessions)
		}
	}
}

// joinTeam is the jointeam command: red (2), blue (3) or auto (0), as
// game.World.JoinTeam rules; the answer or the refusal goes to the
// player's console.
func (ss *session) joinTeam(s *Server, args []string) {
	if len(args) != 1 {
		ss.print("usage: jointeam red|blue|auto (or 2|3|0)")
		return
	}
	t, err := game.ParseTeam(strings.ToLower(args[0]))
	if err == nil && ss.spectatorTeam(s, t) { // spectate.go
		return
	}
	if err == nil {
		err = s.w.JoinTeam(ss.player, t)
	}
	if err != nil {
		ss.print("jointeam: " + err.Error())
		return
	}
	ss.print(fmt.Sprintf("you joined the %s team", ss.player.Team))
}

// stripControl removes control characters and invalid UTF-8 from s.
func stripControl(s string) string {
	return strings.Map(func(r rune) rune {
		if r < 0x20 || r == 0x7f || (r >= 0x80 && r < 0xa0) || r == utf8.RuneError {
			return -1
		}
		return r
	}, strings.ToValidUTF8(s, ""))
}

// sessionOf returns the session of player id among sessions, or nil (a bot).
func sessionOf(sessions []*session, id uint16) *session {
	for _, ss := range sessions {
		if ss.player.ID == id {
			return ss
		}
	}
	return nil
}

// sessionsByID indexes sessions by player ID, for a loop over every player
// that wants each one's session: sessionOf per player is O(players²), a
// million comparisons at 1 024.
func sessionsByID(sessions []*session) map[uint16]*session {
	m := make(map[uint16]*session, len(sessions))
	for _, ss := range sessions {
		m[ss.player.ID] = ss
	}
	return m
}

// ---- the command queue ----

// CmdBacklogMs is how much command time, ms, a client may bank and the
// server queues for it: its commands held back by a stall of its link up
// to this long (TCP holds everything behind one lost packet; a frame
// hitch) all run when they arrive, none is dropped, and the queue is empty
// again within a few ticks. A client still never runs more command time
// than the real time that passed plus this bank (the speed-hack guard).
const CmdBacklogMs = 1000

// backlogTicks is CmdBacklogMs in ticks at the tick rate, at least twice
// sv_maxusrcmdprocessticks: the command time a client banks. Its queue
// holds sv_maxusrcmdprocessticks more, for commands that arrive a little
// ahead of the server's ticks.
func (c *Config) backlogTicks() int {
	return max(c.TickRate*CmdBacklogMs/1000, 2*c.MaxUsrCmdProcessTicks)
}

// cmdQueue holds a client's usercmds received but not yet run, in command
// number order, and the command time it may still use: one tick of budget
// per tick of real time, banked up to backlogTicks, so a client never runs
// faster than real time (Source's speed-hack defence), and at most
// sv_maxusrcmdprocessticks commands in one server tick, so that a backlog
// after a stall drains within a bounded number of ticks (backlogTicks /
// sv_maxusrcmdprocessticks: 4 at the defaults) instead of staying as
// input delay (before issue 19 the bank was sv_maxusrcmdprocessticks
// itself: after a burst had used it, the queue never drained).
type cmdQueue struct {
	lastCmd uint32           // newest CommandNumber run
	pending []shared.UserCmd // received, not yet run
	head    int              // pending[:head] have run this tick
	budget  int              // command ticks the client may still run
	runLeft int              // commands it may still run this server tick
	ran     int              // commands run this server tick
	target  int              // depth to keep after a tick runs (cmdBufferTarget)
	// jitter is the arrival jitter of its command packets, RFC 3550's J of
	// their lateness: the server tick that reads a packet less the
	// client's clock (TickCount + TickFrac/256) when it made its newest
	// command. Ticks, not wall time: the buffer must cover the ticks whose
	// command is not there yet, and a lockstep test drives the ticks.
	jitter  proto.Jitter
	seq     proto.SeqTracker // Cmds message sequence: the upstream loss
	dropped int              // commands refused because the queue was full
	lost    int              // command numbers never received: skipped when a later one ran
	// lastRender is the render tick the newest command run claimed (UserCmd.RenderTick; the lag lab's server pane).
	lastRender float64
}

// refill starts a server tick: it adds ticks of command time, banked up
// to bank ticks, and allows perTick commands this tick.
func (q *cmdQueue) refill(ticks, bank, perTick int) {
	q.budget = min(q.budget+ticks, bank)
	q.runLeft, q.ran = perTick, 0
}

// budgetClock turns the real time between server ticks into whole ticks of
// command budget (cmdQueue.refill), carrying the fraction of a tick over to
// the next: a tick loop that runs a little late every tick (a loaded
// machine) would otherwise lose that fraction each time, and a client whose
// commands follow real time would keep commands queued for good.
type budgetClock struct {
	last time.Time
	owed time.Duration // real time not yet granted as budget
}

// ticks returns the budget of the tick run at now: the whole ticks of
// interval that passed since the last, at least 1 (every tick may run a
// command) and at most limit (a stall beyond the bank is not made up).
func (b *budgetClock) ticks(now time.Time, interval time.Duration, limit int) int {
	if b.last.IsZero() {
		b.last = now
		return 1
	}
	b.owed += now.Sub(b.last)
	b.last = now
	n := min(max(int(b.owed/interval), 1), limit)
	b.owed = max(b.owed-time.Duration(n)*interval, -interval)
	if n == limit {
		b.owed = min(b.owed, 0) // the rest of a stall is not made up later
	}
	return n
}

// stallTicks is the most, ticks, one change of a command packet's
// lateness counts in its link's jitter: a stall (TCP holding everything
// behind a lost packet) is a backlog, which the queue drains, not jitter
// to buffer for seconds after.
const stallTicks = 4

// MaxCmdBuffer is the deepest command buffer the server keeps for a
// client, commands (ticks of input delay): 8, 125 ms at 64 ticks/s.
const MaxCmdBuffer = 8

// cmdBufferTarget is the depth, commands, a client's queue is kept at
// after a tick ran (Overwatch, GDC 2017: a command buffer just deep enough
// that a command is there every tick, so the player moves on the server,
// and for everyone else, at a constant speed whatever its link's jitter):
// three times the arrival jitter jitterMs (RFC 3550's J, a mean
// deviation), less half a tick, in ticks rounded up; plus a command
// interval (tickRate/cmdRate ticks) when its command packets are lost
// (lossPct ≥ 1: the lost commands come with the next packet); at most
// MaxCmdBuffer. 0 on a clean link: commands run on arrival, as before.
func cmdBufferTarget(jitterMs, lossPct float64, tickRate, cmdRate int) int {
	tickMs := 1000 / float64(tickRate)
	n := max(int(math.Ceil(3*jitterMs/tickMs-0.5)), 0)
	if lossPct >= 1 {
		n += (tickRate + cmdRate - 1) / max(cmdRate, 1)
	}
	return min(n, MaxCmdBuffer)
}

// depth is the number of commands queued, not yet run.
func (q *cmdQueue) depth() int { return len(q.pending) - q.head }

// push queues c unless it already ran or is queued (the backup copies
// every Cmds message carries). It returns false when c was new but the
// queue already holds maxPending commands: c is dropped.
func (q *cmdQueue) push(c shared.UserCmd, maxPending int) bool {
	if c.CommandNumber <= q.lastCmd {
		return true // a backup copy of a command already run
	}
	if n := len(q.pending); n > q.head && c.CommandNumber <= q.pending[n-1].CommandNumber {
		return true // already queued
	}
	if len(q.pending)-q.head >= maxPending {
		q.dropped++
		return false
	}
	q.pending = append(q.pending, c)
	return true
}

// newest is the number of the newest command queued or run: a Cmds
// message's new commands are numbered above it.
func (q *cmdQueue) newest() uint32 {
	if n := len(q.pending); n > q.head {
		return q.pending[n-1].CommandNumber
	}
	return q.lastCmd
}

// peek returns the oldest queued command without running it.
func (q *cmdQueue) peek() (shared.UserCmd, bool) {
	if q.head >= len(q.pending) {
		return shared.UserCmd{}, false
	}
	return q.pending[q.head], true
}

// next pops the oldest queued command while budget remains and this
// tick's sv_maxusrcmdprocessticks allows. With a command buffer (target
// above 0) that is the first of the tick whenever one is queued, more only
// while the queue holds two or more beyond the target (a backlog): one
// beyond is left to the client's time dilation, as running it at once
// would move the player two ticks in one, a jump everyone else would see.
// Without one (a clean link) every command runs on arrival.
func (q *cmdQueue) next() (shared.UserCmd, bool) {
	if q.head >= len(q.pending) || q.budget <= 0 || q.runLeft <= 0 || q.ran > 0 && q.target > 0 && q.depth() <= q.target+1 {
		q.compact()
		return shared.UserCmd{}, false
	}
	c := q.pending[q.head]
	q.head++
	q.budget--
	q.runLeft--
	q.ran++
	if q.lastCmd != 0 && c.CommandNumber > q.lastCmd+1 {
		q.lost += int(c.CommandNumber - q.lastCmd - 1)
	}
	q.lastCmd = c.CommandNumber
	return c, true
}

// compact drops the commands that ran from the front of the queue.
func (q *cmdQueue) compact() {
	if q.head > 0 {
		q.pending = append(q.pending[:0], q.pending[q.head:]...)
		q.head = 0
	}
}

// ---- rate control ----

// rateControl decides when a client's next snapshot is due: every
// tickrate/cl_updaterate ticks, held back (choked) while the bytes sent
// exceed the client's rate (Source's rate and cl_updaterate).
type rateControl struct {
	bytesPerSec int     // rate: bytes/s the client accepts
	updateRate  int     // cl_updaterate: snapshots/s
	cmdRate     int     // cl_cmdrate: command packets/s it sends
	snapAcc     float64 // ticks accumulated towards the next snapshot
	budget      float64 // bytes that may be sent now; negative = in debt
	choked      bool    // the due snapshot is being held back by rate
	chokeAcc    float64 // update-interval accumulator while choked
	chokes      int     // snapshots choked since the last one sent
	chokesTotal int
	// phased: after each snapshot the accumulator is its phase group's
	// (phases.go), whose offset is phase (0..tickrate-1).
	phased bool
	phase  int
}

// due advances one server tick and reports whether a snapshot goes out now.
// The byte budget grows by rate/tickrate a tick, banked for at most a
// quarter second; a due snapshot is held back while the budget is in debt,
// counting one choke for it and one more for every further update
// interval spent waiting. tick is the server tick just run: a phased
// client's accumulator is set after each snapshot to its phase group's at
// that tick, so that it keeps to the group's ticks, also after a choke.
func (r *rateControl) due(tick uint32, tickRate int) bool {
	tr := float64(tickRate)
	r.budget = math.Min(r.budget+float64(r.bytesPerSec)/tr, float64(r.bytesPerSec)/4)
	if r.snapAcc < tr {
		r.snapAcc += float64(r.updateRate)
	}
	if r.snapAcc < tr {
		return false
	}
	if r.budget < 0 {
		if !r.choked {
			r.choked, r.chokeAcc = true, 0
			r.chokes++
			r.chokesTotal++
		} else if r.chokeAcc += float64(r.updateRate); r.chokeAcc >= tr {
			r.chokeAcc -= tr
			r.chokes++
			r.chokesTotal++
		}
		return false
	}
	r.choked = false
	r.snapAcc -= tr
	if r.phased {
		r.snapAcc = float64((uint64(r.phase) + uint64(tick)*uint64(r.updateRate)) % uint64(tickRate))
	}
	return true
}

// sent charges a snapshot of n bytes to the budget.
func (r *rateControl) sent(n int) { r.budget -= float64(n) }

// takeChokes returns the chokes since the last snapshot (its Choke field)
// and starts counting again.
func (r *rateControl) takeChokes() uint16 {
	n := uint16(min(r.chokes, 65535))
	r.chokes = 0
	return n
}

// ---- acks ----

// sentRing is how many sent snapshots a session remembers: 2 s at 64/s.
const sentRing = 128

// sentSnap is a snapshot as it was sent: for RTT, delta baselines and the
// client's view.
type sentSnap struct {
	seq  uint32
	tick uint32
	at   time.Time
	ents []proto.EntityState
	// picks is the pickup frame it carried (the pickups' delta baseline).
	picks []proto.PickupState
	// evDone: every event up to this ID was carried or settled
	// (eventQueue.pick).
	evDone uint32
	// reached: the client's acks say it arrived and the view has taken
	// it (ackState.reached); the client holds its entities.
	reached bool
}

// ackState is what was sent to a client and what it acknowledged, by
// snapshot sequence number (ioquake3's frames[seq & PACKET_MASK]).
type ackState struct {
	sent       [sentRing]sentSnap
	nextSeq    uint32  // Seq of the newest snapshot sent
	ackSeq     uint32  // Seq of the newest snapshot acked: the delta baseline
	ackTick    uint32  // tick of that snapshot
	ackEvent   uint32  // events up to this ID are settled; newer ones are resent
	appliedSeq uint32  // snapshots up to this Seq are reflected in the view
	rttMs      float64 // smoothed round trip, ms; <0 until measured
	rttVar     float64 // mean deviation of the RTT samples, ms
}

// record starts the ring entry of the next snapshot, sent at tick at time
// now; the caller fills in its entities and pickups. The snapshot
// that entry held leaves the ring: one that reached the client's view is
// passed to left first (clientView.leave), which keeps what the view still
// needs of it.
func (a *ackState) record(tick uint32, now time.Time, left func(*sentSnap)) *sentSnap {
	a.nextSeq++
	rec := &a.sent[a.nextSeq%sentRing]
	if rec.seq != 0 && rec.reached {
		left(rec)
	}
	rec.seq, rec.tick, rec.at, rec.reached = a.nextSeq, tick, now, false
	rec.ents, rec.picks, rec.evDone = rec.ents[:0], rec.picks[:0], 0
	return rec
}

// baseline is the snapshot a delta for snapshot seq is written against:
// the newest one acked, when the client still holds it (not more than
// proto.FrameRingSize snapshots old); nil for a full snapshot.
func (a *ackState) baseline(seq uint32) *sentSnap {
	b := &a.sent[a.ackSeq%sentRing]
	if a.ackSeq == 0 || b.seq != a.ackSeq || seq-a.ackSeq >= proto.FrameRingSize {
		return nil
	}
	return b
}

// ack takes the acknowledgement of snapshot seq (with bits for the 32
// before it) received at time at: the delta baseline, the settled events
// and an RTT sample from the server's own send time, never the client's
// word. It returns false for an ack that is stale or of a snapshot never
// sent. Which snapshots reached the view is reached's business.
func (a *ackState) ack(seq, bits uint32, at time.Time) bool {
	if seq <= a.ackSeq || seq > a.nextSeq {
		return false
	}
	acked := &a.sent[seq%sentRing]
	if acked.seq != seq {
		return false // older than the ring
	}
	a.ackSeq, a.ackTick = seq, acked.tick
	a.ackEvent = max(a.ackEvent, acked.evDone)
	sample := float64(at.Sub(acked.at)) / float64(time.Millisecond)
	if a.rttMs < 0 {
		a.rttMs, a.rttVar = sample, sample/2
	} else {
		// RFC 6298's estimator: variation first, then the mean.
		a.rttVar += (math.Abs(sample-a.rttMs) - a.rttVar) * 0.25
		a.rttMs += (sample - a.rttMs) * 0.2
	}
	return true
}

// reached marks as reached (sentSnap.reached) and passes to arrived,
// oldest first, every snapshot up to seq that an acknowledgement of seq
// with bits (for the 32 before it) says arrived and that no earlier call
// passed on; snapshots the ring no longer holds are skipped. It costs
// O(snapshots), never O(entities): the view is evaluated from the marks
// only when a shot asks (clientView.replay).
func (a *ackState) reached(seq, bits uint32, arrived func(*sentSnap)) {
	if seq <= a.appliedSeq {
		return
	}
	from := a.appliedSeq + 1
	if seq-from >= sentRing {
		from = seq - sentRing + 1
	}
	for s := from; s <= seq; s++ {
		d := seq - s
		got := d == 0 || (d <= 32 && bits&(1<<(d-1)) != 0)
		snap := &a.sent[s%sentRing]
		if got && snap.seq == s {
			snap.reached = true
			arrived(snap)
		}
	}
	a.appliedSeq = seq
}

// snapOut is what a session keeps from one of its snapshots to the next:
// the storage each snapshot only borrows is the writer's (snapBuffers), so
// that at 1 024 players a snapshot does not read a cold copy of it back
// from memory.
type snapOut struct {
	evDone    uint32             // eventQueue.pick's settled event ID for the last snapshot
	scoreFull []scoreRow         // the last scoreboard delta's rows, names filled in, with their versions
	scoreWire []proto.ScoreEntry // the same on the wire (Snapshot.Scores)
	prio      priorityState      // the players each snapshot carries fresh (priority.go)
}
