package server

import (
	"crypto/sha256"
	"crypto/subtle"
	"fmt"
	"log/slog"
	"strings"
	"sync"
	"time"

	"tickshot/game"
	"tickshot/net/proto"
	"tickshot/net/realip"
	"tickshot/net/rtc"
	"tickshot/net/transport"
)

// handshaker takes a connection from its upgrade to its admission: it
// caps the connections waiting for their Hello (prehello.go) and the joins
// per address (joinlimit.go), waits for the Hello, checks its protocol
// version and join password, and hands the join to the tick goroutine
// (join), which admits or refuses it (Server.admit). It runs on the
// connections' goroutines; at shutdown it refuses new handshakes and lets
// Run wait for the goodbyes of those in progress.
type handshaker struct {
	log      *slog.Logger
	metrics  *metrics
	password string        // sv_password; "" lets anyone join
	stopped  chan struct{} // closed when the tick loop has stopped
	// join queues a join for the tick goroutine (Server.call); false when
	// the server stopped first.
	join func(joinReq) bool

	// rtc answers clients' WebRTC offers (net/rtc); nil refuses them
	// (sv_transports websocket, no UDP port, or a server not Listening).
	rtc *rtc.Host

	preHello  preHello    // connections waiting for their Hello (prehello.go)
	joinLimit joinLimiter // joins per address (joinlimit.go)
	// proxies are the trusted reverse proxies (Config.TrustedProxies),
	// whose forwarded client addresses count (clientaddr.go).
	proxies realip.Proxies
	addrLog addrLog // spaces log lines per address (clientaddr.go)

	// Connections in their handshake (serve), so that shutdown waits
	// for their goodbyes; none is added once closing is set.
	mu         sync.Mutex
	closing    bool
	handshakes sync.WaitGroup
}

// joinReq is a connection whose Hello passed the handshake's checks,
// waiting for the tick goroutine's answer on reply.
type joinReq struct {
	conn   *proto.Conn
	client clientAddr // who it is for the per-address limits (clientaddr.go)
	hello  *proto.Hello
	reply  chan refusal // the zero refusal on success
}

// close refuses the handshakes that begin from now on (shutdown).
func (s *handshaker) close() {
	s.mu.Lock()
	s.closing = true
	s.mu.Unlock()
}

// ServeTransport serves one player's connection over any transport (a
// websocket from /ws, or one end of a transport.Pipe in tests): it waits
// for the Hello and asks the tick goroutine to admit the player. It
// returns when the player is admitted or refused. Give the transport
// proto.ServerOptions().
func (s *Server) ServeTransport(t transport.Transport) {
	s.hs.serve(t, directClient(t.RemoteAddr()), func() {})
}

// serve is ServeTransport for a connection from client (clientaddr.go);
// gotHello is called once the wait for the Hello is over, whatever its
// outcome.
func (s *handshaker) serve(t transport.Transport, client clientAddr, gotHello func()) {
	conn := proto.NewServerConn(t)
	s.mu.Lock()
	if s.closing {
		s.mu.Unlock()
		s.reject(conn, shutdownRefusal)
		return
	}
	s.handshakes.Add(1) // Run waits for the goodbye at shutdown
	s.mu.Unlock()
	defer s.handshakes.Done()
	var hello *proto.Hello
	defer gotHello()
	select {
	case p, ok := <-conn.Recv():
		if !ok {
			reason, remote := conn.Reason()
			if n := s.addrLog.note("left "+client.key, time.Now()); n > 0 { // spaced per address, as rejectFrom
				s.log.Info("client left during handshake", "remote", conn.RemoteAddr(), "reason", reason, "left", n,
					"logged_at_most_every", addrLogEvery)
			}
			if !remote && strings.HasPrefix(reason, decodeErrorPrefix) {
				s.metrics.decodeErrors.Add(1)
			}
			s.metrics.addHandshake(conn)
			return
		}
		h, isHello := p.Msg.(*proto.Hello)
		if !isHello {
			s.rejectFrom(conn, client, notHello(p.Msg))
			return
		}
		hello = h
	case <-time.After(proto.HandshakeTimeout):
		s.rejectFrom(conn, client, refusal{refuseHandshakeTimeout, "no hello within handshake timeout"})
		return
	case <-s.stopped:
		s.rejectShutdown(conn)
		return
	}
	gotHello()
	// Every Hello takes a join token, wrong passwords too: guessing runs at
	// the join rate of its address.
	if now := time.Now(); !client.exempt && !s.joinLimit.allow(client.key, now) { // joinlimit.go
		if n := s.addrLog.note("join rate "+client.key, now); n > 0 {
			s.log.Warn("joins refused: "+JoinTooFastReason, "ip", client.key, "refused", n, "burst", JoinBurst,
				"per_second", JoinsPerSecond, "logged_at_most_every", addrLogEvery)
		}
		s.sendReject(conn, refusal{refuseJoinRate, JoinTooFastReason}) // counted, logged spaced per address
		return
	}
	if r := s.checkHello(hello); r.refused() {
		s.rejectFrom(conn, client, r)
		return
	}
	req := joinReq{conn: conn, client: client, hello: hello, reply: make(chan refusal, 1)}
	if !s.join(req) {
		s.rejectShutdown(conn)
		return
	}
	select {
	case r := <-req.reply:
		if r.refused() {
			s.rejectFrom(conn, client, r)
		}
	case <-s.stopped:
		select {
		case r := <-req.reply: // admitted in the last tick: Run tells it as a player
			if r.refused() {
				s.rejectFrom(conn, client, r)
			}
		default:
			s.rejectShutdown(conn)
		}
	}
}

// notHello is the refusal of a connection whose first message m is not a
// Hello.
func notHello(m proto.Message) refusal {
	return refusal{refuseNotHello, fmt.Sprintf("protocol error: expected hello, got %s", m.Type())}
}

// checkHello returns why a Hello is refused before its player is admitted
// (another protocol version, the join password missing or wrong), or the
// zero refusal. ServeTransport and Local both ask it.
func (s *handshaker) checkHello(h *proto.Hello) refusal {
	if h.Protocol != proto.ProtocolVersion {
		return refusal{refuseProtocolVersion,
			fmt.Sprintf("protocol version %d, server speaks %d: update your game", h.Protocol, proto.ProtocolVersion)}
	}
	return s.checkPassword(h.Password)
}

// rejectShutdown refuses a connection in its handshake because the server
// is stopping, and waits (at most ShutdownGrace) until the Reject and the
// Disconnect are written, so that the process does not exit first.
func (s *handshaker) rejectShutdown(conn *proto.Conn) {
	s.reject(conn, shutdownRefusal)
	select {
	case <-conn.Closed():
	case <-time.After(ShutdownGrace):
	}
}

// checkPassword returns why a Hello's join password is refused, or the
// zero refusal.
// The comparison takes the same time whatever the password: both sides are
// hashed first, so neither a matching prefix nor the length shows
// (crypto/subtle compares the digests in constant time).
func (s *handshaker) checkPassword(given string) refusal {
	if s.password == "" {
		return refusal{}
	}
	if given == "" {
		return refusal{refusePasswordNeeded, proto.RejectNeedPassword}
	}
	want, got := sha256.Sum256([]byte(s.password)), sha256.Sum256([]byte(given))
	if subtle.ConstantTimeCompare(want[:], got[:]) != 1 {
		return refusal{refusePasswordWrong, proto.RejectWrongPassword}
	}
	return refusal{}
}

// shutdownRefusal refuses a connection in its handshake when the server stops.
var shutdownRefusal = refusal{refuseShutdown, ShutdownReason}

// rejectFrom refuses a connection in its handshake from client with r,
// counted, and logged at most once per address and kind of refusal per
// addrLogEvery with the count since: a password guesser, or a client
// that opens connections and sends junk, must not write a line each
// (issue 22 measured 24 793 lines in 8 s behind a proxy).
func (s *handshaker) rejectFrom(conn *proto.Conn, client clientAddr, r refusal) {
	if n := s.addrLog.note(fmt.Sprint("rejected ", r.code, " ", client.key), time.Now()); n > 0 {
		s.log.Info("client rejected", "remote", conn.RemoteAddr(), "reason", r.reason, "refused", n,
			"logged_at_most_every", addrLogEvery)
	}
	s.sendReject(conn, r)
}

// reject refuses conn with r, logged and counted.
func (s *handshaker) reject(conn *proto.Conn, r refusal) {
	s.log.Info("client rejected", "remote", conn.RemoteAddr(), "reason", r.reason)
	s.sendReject(conn, r)
}

// sendReject refuses conn with r's sentence, counted in the metrics by
// r's code, without a log line (for refusals that are counted and logged
// once per address).
func (s *handshaker) sendReject(conn *proto.Conn, r refusal) {
	s.metrics.refuse(r.code)
	conn.Send(&proto.Reject{Reason: r.reason})
	time.Sleep(50 * time.Millisecond) // let the writer flush the reject
	conn.Close(r.reason)
	s.metrics.addHandshake(conn)
}

// admit adds the player of a join request to the world and its session
// to the server, and sends it the Accept; or returns why it is refused.
func (s *Server) admit(req joinReq) refusal {
	h := req.hello
	if r := perIPReject(s.sessions, s.vars.maxPerIP.Get(), req.client); r.refused() { // squat.go
		return r
	}
	spectate, r := admitAs(s.w, s.cfg.MaxPlayers, s.vars.maxSpectators.Get(), h) // spectate.go
	if r.refused() {
		return r
	}
	name := s.w.UniqueName(FoldName(h.Name), proto.MaxNameLen) // names.go
	var p *game.Player
	if spectate {
		p = s.w.AddSpectator(name)
	} else {
		p = s.w.AddPlayer(name, false)
	}
	ss := newSession(req.conn, p, *h, s.w.Tick, s.cfg.TickRate, s.cfg.MaxUsrCmdProcessTicks)
	ss.spectator = spectate
	ss.client, ss.lastInput = req.client, s.lastTickAt // the tick's now (runTick)
	ss.evSentMax = s.events.nextID                     // it learns who is playing from its first scoreboard
	req.conn.SetFakeConditions(s.vars.fake)
	ur := ss.rate.updateRate
	s.sessions = append(s.sessions, ss)
	req.conn.Send(&proto.Accept{PlayerID: p.ID, TickRate: uint16(s.cfg.TickRate), Map: s.w.Map.Name,
		Tick: s.w.Tick, UpdateRate: uint16(ur), Cvars: s.publicCvars(), Spectator: spectate})
	s.levels.vote.greet(ss, s.sessions) // mapvote.go: joined during the intermission
	s.cfg.Lifecycle.PlayerConnected(name)
	s.log.Info("player joined", "name", name, "id", p.ID, "remote", req.conn.RemoteAddr(), "cl_updaterate", ur, "spectator", spectate)
	return refusal{}
}

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
