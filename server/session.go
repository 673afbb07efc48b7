package server

import (
	"crypto/sha256"
	"crypto/subtle"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"tickshot/game"
	"tickshot/net/proto"
	"tickshot/net/transport"
	"tickshot/net/ws"
)

type joinReq struct {
	conn  *proto.Conn
	hello *proto.Hello
	reply chan string // "" on success, else the reject reason
}

// handleWS upgrades a player's connection and serves it.
func (s *Server) handleWS(w http.ResponseWriter, r *http.Request) {
	ip := r.RemoteAddr
	if h := remoteIP(ip); h != "" {
		ip = h
	}
	// Counted before the upgrade, so connections are counted in the order
	// their upgrades began, not in the order their goroutines got there.
	reason := s.preHello.enter(ip) // prehello.go
	var once sync.Once
	release := func() {
		if reason == "" {
			once.Do(func() { s.preHello.leave(ip) })
		}
	}
	defer release()
	t, err := ws.Upgrade(w, r, proto.ServerOptions())
	if err != nil {
		// Debug: any HTTP client can repeat a bad upgrade on one
		// keep-alive connection (it got HTTP 400 already).
		s.log.Debug("websocket upgrade failed", "remote", r.RemoteAddr, "err", err)
		return
	}
	if reason != "" {
		// Counted in the metrics per connection, logged at most every
		// preHelloLogEvery: a flood must not write a line per connection.
		if n := s.preHello.noteRefusal(time.Now()); n > 0 {
			s.log.Warn("connections refused before their hello: "+reason, "remote", r.RemoteAddr, "refused", n,
				"logged_at_most_every", preHelloLogEvery)
		}
		s.sendReject(proto.NewConn(t), reason)
		return
	}
	s.serve(t, release)
}

// ServeTransport serves one player's connection over any transport (a
// websocket from /ws, or one end of a transport.Pipe in tests): it waits
// for the Hello and asks the tick goroutine to admit the player. It
// returns when the player is admitted or refused. Give the transport
// proto.ServerOptions().
func (s *Server) ServeTransport(t transport.Transport) { s.serve(t, func() {}) }

// serve is ServeTransport; gotHello is called once the wait for the Hello
// is over, whatever its outcome.
func (s *Server) serve(t transport.Transport, gotHello func()) {
	conn := proto.NewServerConn(t)
	s.hsMu.Lock()
	if s.closing {
		s.hsMu.Unlock()
		s.reject(conn, ShutdownReason)
		return
	}
	s.handshakes.Add(1) // Run waits for the goodbye at shutdown
	s.hsMu.Unlock()
	defer s.handshakes.Done()
	var hello *proto.Hello
	defer gotHello()
	select {
	case p, ok := <-conn.Recv():
		if !ok {
			reason, remote := conn.Reason()
			s.log.Info("client left during handshake", "remote", conn.RemoteAddr(), "reason", reason)
			if !remote && strings.HasPrefix(reason, decodeErrorPrefix) {
				s.metrics.decodeErrors.Add(1)
			}
			s.metrics.addHandshake(conn)
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
		s.rejectShutdown(conn)
		return
	}
	gotHello()
	if !s.joinLimit.allow(remoteIP(conn.RemoteAddr()), time.Now(), s.log) { // joinlimit.go
		s.sendReject(conn, JoinTooFastReason) // counted and logged once per address
		return
	}
	if hello.Protocol != proto.ProtocolVersion {
		s.reject(conn, fmt.Sprintf("protocol version %d, server speaks %d: update your game", hello.Protocol, proto.ProtocolVersion))
		return
	}
	if reason := s.checkPassword(hello.Password); reason != "" {
		s.reject(conn, reason)
		return
	}
	req := joinReq{conn: conn, hello: hello, reply: make(chan string, 1)}
	select {
	case s.joins <- req:
	case <-s.stopped:
		s.rejectShutdown(conn)
		return
	}
	select {
	case reason := <-req.reply:
		if reason != "" {
			s.reject(conn, reason)
		}
	case <-s.stopped:
		select {
		case reason := <-req.reply: // admitted in the last tick: Run tells it as a player
			if reason != "" {
				s.reject(conn, reason)
			}
		default:
			s.rejectShutdown(conn)
		}
	}
}

// rejectShutdown refuses a connection in its handshake because the server
// is stopping, and waits (at most ShutdownGrace) until the Reject and the
// Disconnect are written, so that the process does not exit first.
func (s *Server) rejectShutdown(conn *proto.Conn) {
	s.reject(conn, ShutdownReason)
	select {
	case <-conn.Closed():
	case <-time.After(ShutdownGrace):
	}
}

// checkPassword returns why a Hello's join password is refused, or "".
// The comparison takes the same time whatever the password: both sides are
// hashed first, so neither a matching prefix nor the length shows
// (crypto/subtle compares the digests in constant time).
func (s *Server) checkPassword(given string) string {
	if s.cfg.Password == "" {
		return ""
	}
	if given == "" {
		return proto.RejectNeedPassword
	}
	want, got := sha256.Sum256([]byte(s.cfg.Password)), sha256.Sum256([]byte(given))
	if subtle.ConstantTimeCompare(want[:], got[:]) != 1 {
		return proto.RejectWrongPassword
	}
	return ""
}

func (s *Server) reject(conn *proto.Conn, reason string) {
	s.log.Info("client rejected", "remote", conn.RemoteAddr(), "reason", reason)
	s.sendReject(conn, reason)
}

// sendReject refuses conn with reason, counted in the metrics, without a
// log line (for refusals that are counted and logged once per address).
func (s *Server) sendReject(conn *proto.Conn, reason string) {
	s.metrics.refuse(RefuseCode(reason))
	conn.Send(&proto.Reject{Reason: reason})
	time.Sleep(50 * time.Millisecond) // let the writer flush the reject
	conn.Close(reason)
	s.metrics.addHandshake(conn)
}

// acceptJoins admits the clients waiting when the tick began (tick
// goroutine). Later requests wait for the next tick, after dropClosed: a
// client admitted here that leaves and joins again at once must not be
// admitted a second time while its first session still holds a slot.
func (s *Server) acceptJoins() {
	for range len(s.joins) {
		req := <-s.joins
		req.reply <- s.admit(req)
	}
}

func (s *Server) admit(req joinReq) string {
	h := req.hello
	if reason := s.perIPReject(req.conn.RemoteAddr()); reason != "" { // squat.go
		return reason
	}
	spectate, reason := s.admitAs(h) // spectate.go
	if reason != "" {
		return reason
	}
	name := s.uniqueName(FoldName(h.Name)) // names.go
	var p *game.Player
	if spectate {
		p = s.w.AddSpectator(name)
	} else {
		p = s.w.AddPlayer(name, false)
	}
	ss := newSession(req.conn, p, *h, s.w.Tick, s.cfg.TickRate, s.cfg.MaxUsrCmdProcessTicks)
	ss.spectator = spectate
	ss.ip, ss.lastInput = remoteIP(req.conn.RemoteAddr()), s.lastTickAt // the tick's now (runTick)
	ss.evSentMax = s.events.nextID                                      // it learns who is playing from its first scoreboard
	req.conn.SetFakeConditions(s.vars.fake)
	ur := ss.rate.updateRate
	s.sessions = append(s.sessions, ss)
	req.conn.Send(&proto.Accept{PlayerID: p.ID, TickRate: uint16(s.cfg.TickRate), Map: s.m.Name,
		Tick: s.w.Tick, UpdateRate: uint16(ur), Cvars: s.publicCvars(), Spectator: spectate})
	s.cfg.Lifecycle.PlayerConnected(name)
	s.log.Info("player joined", "name", name, "id", p.ID, "remote", req.conn.RemoteAddr(), "cl_updaterate", ur, "spectator", spectate)
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
	case "say", "say_team":
		s.say(ss, strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(m.Text), fields[0])), fields[0] == "say_team")
	case "jointeam":
		s.joinTeam(ss, fields[1:])
	case "spectate":
		s.spectate(ss) // spectate.go
	case "join":
		s.joinGame(ss, game.TeamNone)
	case "rcon":
		if s.cfg.RconPassword == "" {
			s.print(ss, "rcon is disabled on this server (no --rcon-password)")
			return
		}
		if !s.rconAllowed(ss, m.Password) { // rcon.go: constant time, rate-limited per address
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

// MaxMsgsPerSecond is the flood limit: more messages than this from one
// client in one second gets it kicked.
const MaxMsgsPerSecond = 400

// readSession drains a client's received messages (tick goroutine).
func (s *Server) readSession(ss *session, now time.Time) {
	// Command time: one tick of budget per server tick, banked up to the cap.
	ss.cmds.refill(s.budgetTicks, s.cfg.MaxUsrCmdProcessTicks)
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
			ss.lastInput = now
			if m.Seq != 0 {
				ss.cmds.seq.Arrive(m.Seq)
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
	s.checkTimeout(ss, now) // squat.go
}

func (s *Server) onCmds(ss *session, m *proto.Cmds, at time.Time) {
	ss.acks.ack(m.Ack, m.AckBits, at, func(snap *sentSnap) {
		ss.view.apply(snap, s.cfg.TickRate)
		ss.view.learn(snap)
	})
	for i := range m.Cmds {
		if err := proto.ValidateUserCmd(&m.Cmds[i], s.cfg.TickRate); err != nil {
			s.kick(ss, "invalid usercmd: "+err.Error())
			return
		}
	}
	for i := range m.Cmds {
		if !ss.cmds.push(m.Cmds[i], 2*s.cfg.MaxUsrCmdProcessTicks) {
			s.warnDropped(ss)
		}
	}
}

// applyToView updates the session's view with a snapshot the client
// received (clientView.apply).
func (s *Server) applyToView(ss *session, snap *sentSnap) { ss.view.apply(snap, s.cfg.TickRate) }

// runPending runs queued commands in order while the client has budget.
func (s *Server) runPending(ss *session) {
	for {
		c, ok := ss.cmds.next()
		if !ok {
			return
		}
		if ss.spectator {
			continue // acknowledged (AckCmd), not run: a spectator has no body
		}
		s.runCommand(ss.player, c, ss)
	}
}

// warnDropped logs, once per player, that its commands are being dropped.
func (s *Server) warnDropped(ss *session) {
	if !ss.warned {
		ss.warned = true
		s.log.Warn("usercmds dropped: more command time than real time allows (sv_maxusrcmdprocessticks)",
			"player", ss.player.Name, "id", ss.player.ID)
	}
}

func (s *Server) kick(ss *session, reason string) { s.kickAs(ss, KickCode(reason), reason) }

// kickAs kicks with a reason code of KickReasons (metrics.go), for a
// reason text not made by the server (the kick command's).
func (s *Server) kickAs(ss *session, code, reason string) {
	if ss.kicked != "" {
		return
	}
	s.metrics.kick(code)
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
			reason, remote := ss.conn.Reason()
			s.log.Info("player left", "name", ss.player.Name, "id", ss.player.ID, "reason", reason, "client_said", remote)
			if !remote && strings.HasPrefix(reason, decodeErrorPrefix) {
				s.metrics.decodeErrors.Add(1)
			}
			s.metrics.sessionEnded(ss)
			if remote {
				// A client's own words are logged, never passed on: others
				// would read them as the server's ("kicked: banned by admin").
				reason = LeftReason
			}
			s.removePlayer(ss.player.ID, reason)
			s.cfg.Lifecycle.PlayerDisconnected(ss.player.Name)
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

// leanScores is the scoreboard for one client: the rows with the names it
// has not received yet, the others with Name "" (the client keeps the
// names it has: FINDINGS measured the names as 27 % of the bytes at 64
// players when every scoreboard carried them).
func (ss *session) leanScores(rows []proto.ScoreEntry) []proto.ScoreEntry {
	out := append(ss.out.scoreBuf[:0], rows...)
	ss.out.scoreBuf = out
	for i := range out {
		if n, ok := ss.view.names[out[i].ID]; ok && n == out[i].Name {
			out[i].Name = ""
		}
	}
	return out
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
func (s *Server) say(ss *session, text string, team bool) {
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
		s.print(ss, "chat: you are sending messages too fast; wait a second")
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
func (s *Server) joinTeam(ss *session, args []string) {
	if len(args) != 1 {
		s.print(ss, "usage: jointeam red|blue|auto (or 2|3|0)")
		return
	}
	t, err := game.ParseTeam(strings.ToLower(args[0]))
	if err == nil && s.spectatorTeam(ss, t) { // spectate.go
		return
	}
	if err == nil {
		err = s.w.JoinTeam(ss.player, t)
	}
	if err != nil {
		s.print(ss, "jointeam: "+err.Error())
		return
	}
	s.print(ss, fmt.Sprintf("you joined the %s team", ss.player.Team))
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
