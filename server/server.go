// Package server is Tickshot's dedicated server: a fixed tick loop in one
// goroutine that owns the world, client sessions that feed it usercmds,
// snapshot scheduling at each client's cl_updaterate, server-side bots, and
// the HTTP endpoints /ws (players), /status (JSON) and /metrics (Prometheus).
package server

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"os"
	"slices"
	"strings"
	"sync"
	"time"

	"tickshot/game"
	"tickshot/net/lan"
	"tickshot/net/proto"
	"tickshot/net/realip"
	"tickshot/shared"
)

// Config is a server's settings; zero fields take the defaults below.
type Config struct {
	// Addr is the listen address, default ":27015".
	Addr string
	// TickRate is sv_tickrate in ticks/s, 20..128, default 64.
	TickRate int
	// MaxPlayers is the number of slots, humans and bots together, default 16.
	MaxPlayers int
	// Bots is the number of server-side bots, default 0. A human who joins
	// a full server takes a bot's slot.
	Bots int
	// Map is the map name, default the first of MapCycle, else
	// game.DefaultMap.
	Map string
	// MapCycle is the maps played in turn (Source's mapcycle): when a
	// match's intermission ends, the map after the current one in this list
	// is loaded (the first when the current one is not in it), as
	// changelevel does. At most MaxMapCycle names; one name keeps that map.
	// Empty: game.DefaultMapCycle (the playable maps) when Map is empty or
	// one of them; for another map (the "range" benchmark, the "lab") the
	// map stays.
	MapCycle []string
	// Hostname is the server's name in /status, on the browser page and in
	// the LAN announcement (Source's hostname), at most 64 bytes; default
	// "Tickshot server". It is cleaned as every name shown to people is
	// (proto.CleanName: controls and bidi overrides such as U+202E
	// removed, spaces folded); a name with nothing left is the default.
	Hostname string
	// MaxUsrCmdProcessTicks is sv_maxusrcmdprocessticks: the most commands
	// of one client the server runs in one tick. With the command time a
	// client may bank (CmdBacklogMs) it is the speed-hack guard, and it
	// bounds how fast a backlog drains. Default 16.
	MaxUsrCmdProcessTicks int
	// Seed seeds spawn choice and bots; 0 picks one from the clock.
	Seed uint64
	// Fake simulates network conditions on every message the server
	// receives (net_fakelag, net_fakejitter, net_fakeloss on the server side).
	Fake proto.FakeConditions
	// RconPassword enables remote console commands ("rcon" from a client's
	// console) for whoever knows it; empty disables rcon.
	RconPassword string
	// Password is the join password (Source's sv_password): a player's
	// Hello must carry it, or the join is refused. Empty: anyone may join.
	// At most proto.MaxPasswordLen bytes of printable UTF-8. It is never
	// announced nor shown in /status (only that one is needed).
	Password string
	// NoDamage makes hits do no damage (they are still confirmed): for the
	// hit-registration benchmark, whose target must not die.
	NoDamage bool
	// Cvars are console variables to set at start, as name/value pairs
	// (sv_unlag, sv_maxunlag, sv_showimpacts, sv_mutualkills).
	Cvars [][2]string
	// Logger receives the server's log; default slog.Default().
	Logger *slog.Logger
	// HTTPReadHeaderTimeout, HTTPIdleTimeout, HTTPReadTimeout and
	// HTTPWriteTimeout limit slow and idle HTTP clients; read and write
	// timeouts apply to every route but /ws. MaxConns caps the TCP
	// connections held at once (HTTP and websocket); one more is closed on
	// accept. Zero takes the Default* values (httplimits.go).
	HTTPReadHeaderTimeout, HTTPIdleTimeout, HTTPReadTimeout, HTTPWriteTimeout time.Duration
	MaxConns                                                                  int
	// MaxDownloads caps the browser client's downloads sent at once; one
	// more waits for a turn, at most DownloadWait, then is answered 503
	// with Retry-After (downloads.go). Zero takes DefaultMaxDownloads and
	// DefaultDownloadWait.
	MaxDownloads int
	DownloadWait time.Duration
	// LAN announces the server on the local network while it runs (DNS-SD
	// over multicast DNS, package net/lan), so `tickshot servers` and the
	// menu's server list find it. Off by default; the commands turn it on
	// (--lan).
	LAN bool
	// Masters are the URLs of the master servers (sv_master, --master)
	// this server registers with while it runs, every master.RegisterEvery
	// (package net/master): the internet server list. None: not listed.
	// Each is an http:// or https:// URL (CheckMasterURL).
	Masters []string
	// Region is the country or region the masters list (sv_region,
	// --region), at most 32 bytes of printable text; "" for none.
	Region string
	// MasterEvery is how often to register with Masters;
	// 0 takes master.RegisterEvery (tests shorten it).
	MasterEvery time.Duration
	// Lifecycle hears of readiness, human joins and leaves, and match ends
	// (lifecycle.go; server/agones for Agones). Nil: nobody listens.
	Lifecycle Lifecycle
	// Transports is sv_transports: TransportsBoth (default: the WebSocket,
	// and for a client that offers one a WebRTC data channel for snapshots
	// and usercmds, package net/rtc) or TransportsWebSocket (every offer
	// refused; no UDP port).
	Transports string
	// UDPAddr is the UDP listen address of every player's data channel;
	// default Addr's host and port as bound (27015/udp beside 27015/tcp).
	// When the default cannot be bound the server warns and runs on the
	// WebSocket only; a UDPAddr given that cannot be bound stops it.
	UDPAddr string
	// PublicIPs are the IP addresses advertised for the UDP port instead
	// of the interfaces' own: behind a 1:1 NAT or in a container.
	PublicIPs []string
	// TrustedProxies are the reverse proxies (nginx, Caddy) whose
	// X-Forwarded-For or Forwarded header names the client (package
	// realip; --trusted-proxy, sv_trusted_proxy): every per-address limit
	// then counts the forwarded address (clientaddr.go). Empty: headers
	// are ignored, every connection is its TCP peer's.
	TrustedProxies realip.Proxies
	// UPnP asks the router, while Run runs, to forward the TCP port and
	// the UDP port to this computer (UPnP IGD or NAT-PMP, package
	// net/portmap, in native builds), in the background: the game starts
	// at once, and the outcome is logged in one line. Off by default (a
	// dedicated server usually has a public address); --upnp, sv_upnp 1
	// in server.cfg, and a game hosted from the menu or with
	// `tickshot play --addr` beyond loopback turn it on.
	UPnP bool
	// PortMapped, when set, hears the outcome of UPnP once, from another
	// goroutine: a sentence for people (portmap.Outcome.Sentence) and the
	// invite link ("" unless the router forwards the ports).
	PortMapped func(sentence, link string)
}

// sv_transports values.
const (
	TransportsBoth      = "both"
	TransportsWebSocket = "websocket"
)

// Defaults.
const (
	DefaultAddr       = ":27015"
	DefaultTickRate   = 64
	DefaultMaxPlayers = 16
	DefaultHostname   = "Tickshot server"
	// MaxPlayersLimit is the most player slots a server may have.
	MaxPlayersLimit = 1024
	MinTickRate     = shared.MinTickRate // the sv_tickrate range (shared owns it)
	MaxTickRate     = shared.MaxTickRate
	// MaxMapCycle is the most maps Config.MapCycle holds.
	MaxMapCycle = 64
	// ShutdownReason is what clients are told when the server stops.
	ShutdownReason = "server shutting down"
	// ShutdownGrace bounds the wait, at shutdown, for the goodbyes to
	// players and to connections in their handshake to be written.
	ShutdownGrace = 2 * time.Second
	// HTTPShutdownGrace is how long HTTP requests in progress (one still
	// being sent, a download) may go on at shutdown before they are cut.
	HTTPShutdownGrace = 100 * time.Millisecond
)

func (c *Config) fill() error {
	if c.Addr == "" {
		c.Addr = DefaultAddr
	}
	c.Hostname = proto.CleanName(c.Hostname, 64)
	if c.Hostname == "" {
		c.Hostname = DefaultHostname
	}
	if c.TickRate == 0 {
		c.TickRate = DefaultTickRate
	}
	if c.TickRate < MinTickRate || c.TickRate > MaxTickRate {
		return fmt.Errorf("tick rate %d outside %d..%d", c.TickRate, MinTickRate, MaxTickRate)
	}
	if c.MaxPlayers == 0 {
		c.MaxPlayers = DefaultMaxPlayers
	}
	if c.MaxPlayers < 1 || c.MaxPlayers > MaxPlayersLimit {
		return fmt.Errorf("maxplayers %d outside 1..%d", c.MaxPlayers, MaxPlayersLimit)
	}
	if c.Bots < 0 || c.Bots > c.MaxPlayers {
		return fmt.Errorf("bots %d outside 0..maxplayers (%d)", c.Bots, c.MaxPlayers)
	}
	if proto.CleanText(c.Password, proto.MaxPasswordLen) != c.Password {
		return fmt.Errorf("password: at most %d bytes of printable UTF-8", proto.MaxPasswordLen)
	}
	if len(c.MapCycle) > MaxMapCycle {
		return fmt.Errorf("mapcycle: more than %d maps", MaxMapCycle)
	}
	for _, m := range c.MapCycle {
		if !slices.Contains(game.MapNames(), m) {
			return fmt.Errorf("mapcycle: no map %q (available: %s)", m, strings.Join(game.MapNames(), ", "))
		}
	}
	if len(c.MapCycle) == 0 && (c.Map == "" || slices.Contains(game.DefaultMapCycle(), c.Map)) {
		c.MapCycle = game.DefaultMapCycle()
	}
	if c.Map == "" && len(c.MapCycle) > 0 {
		c.Map = c.MapCycle[0]
	}
	switch c.Transports {
	case "":
		c.Transports = TransportsBoth
	case TransportsBoth, TransportsWebSocket:
	default:
		return fmt.Errorf("transports %q: want %s or %s", c.Transports, TransportsBoth, TransportsWebSocket)
	}
	if err := CheckMasters(c.Masters, c.Region); err != nil {
		return err
	}
	if c.MaxUsrCmdProcessTicks == 0 {
		c.MaxUsrCmdProcessTicks = 16
	}
	if c.Seed == 0 {
		c.Seed = uint64(time.Now().UnixNano())
	}
	if c.Logger == nil {
		c.Logger = slog.Default()
	}
	if c.Lifecycle == nil {
		c.Lifecycle = noLifecycle{}
	}
	c.fillHTTP()
	return nil
}

// Server is one running game.
type Server struct {
	cfg Config
	log *slog.Logger
	// w is the game: players, bots, projectiles and the rules (game.World).
	w *game.World
	// rewinder is lag compensation (lagcomp.go): the hitbox records, and
	// the hitbox source handed to w for a human's command.
	rewinder rewinder
	// kicked: a session was kicked (session.kick) since the last
	// dropClosed, which the tick then runs again before the world steps.
	kicked bool

	// calls are closures from other goroutines (joins, console commands)
	// that the tick goroutine runs at the next tick boundary, in arrival
	// order (Nakama's match loop: one channel of work for the match).
	calls chan func(*Server)
	hs    handshaker // connections from upgrade to admission (handshake.go)
	start time.Time

	// Owned by the tick goroutine.
	sessions    []*session
	events      eventQueue // events waiting to ride in snapshots (events.go)
	vars        *vars
	lastTickAt  time.Time
	budget      budgetClock // real time into ticks of command budget
	budgetTicks int
	tickStats   tickStats
	snap        snapshotWriter // writes every client's snapshot (snapshot.go)
	rcon        rconGuard      // wrong rcon passwords per address (rcon.go)
	metrics     *metrics       // GET /metrics (metrics.go)
	levels      levels         // the map cycle and the map asked for (changelevel.go)
	// tap, when set (Local), sees every world event as the tick takes it.
	tap func(*game.Event)

	statusMu sync.Mutex
	status   Status

	ln net.Listener // Listen's (listen.go)
	// downloads caps the browser client's downloads sent at once (downloads.go).
	downloads *downloadSlots
	stopOnce  sync.Once
	stopped   chan struct{} // closed when the tick loop has stopped
}

// New loads the map and prepares a server; Run starts it.
func New(cfg Config) (*Server, error) {
	if err := cfg.fill(); err != nil {
		return nil, err
	}
	m, err := game.LoadMap(cfg.Map)
	if err != nil {
		return nil, err
	}
	cfg.Map = m.Name
	s := &Server{
		cfg:     cfg,
		log:     cfg.Logger,
		levels:  levels{cycle: cfg.MapCycle},
		calls:   make(chan func(*Server), maxPendingCalls),
		stopped: make(chan struct{}),
		vars:    defaultVars(),
		events:  newEventQueue(cfg.TickRate),
	}
	s.metrics = newMetrics(s)
	s.downloads = newDownloadSlots(cfg.MaxDownloads, cfg.DownloadWait)
	s.hs = handshaker{log: s.log, metrics: s.metrics, password: cfg.Password, stopped: s.stopped, proxies: cfg.TrustedProxies,
		join: func(req joinReq) bool { return s.call(func(s *Server) { req.reply <- s.admit(req) }, nil) }}
	s.vars.setFake(cfg.Fake.Clamp())
	for _, kv := range cfg.Cvars {
		if err := s.vars.set(kv[0], kv[1]); err != nil {
			return nil, err
		}
	}
	s.w = game.NewWorld(m, cfg.TickRate, cfg.Seed, s.rules())
	s.rewinder = newRewinder(s.w, s.vars, s.log)
	s.snap = newSnapshotWriter(s.w, &s.events, s.vars.maxRate)
	for i := 0; i < cfg.Bots; i++ {
		s.w.AddBot(proto.MaxNameLen)
	}
	return s, nil
}

// ErrBrowserListen is Listen's and Run's error in the browser build
// (GOOS=js, listen_js.go), where the server runs only in process: the lag
// lab drives it with Step and ServeTransport over in-memory transports.
var ErrBrowserListen = errors.New("the browser cannot listen: run tickshot-server")

// Addr returns the bound address, after Listen.
func (s *Server) Addr() string {
	if s.ln == nil {
		return s.cfg.Addr
	}
	return s.ln.Addr().String()
}

// Map returns the current map (it changes with changelevel and the map
// cycle: read it on the tick goroutine, or after Run returned).
func (s *Server) Map() *game.Map { return s.w.Map }

// announce starts the LAN announcement when cfg.LAN is set and returns
// what withdraws it. A host without a usable interface still runs the game.
func (s *Server) announce() (stop func()) {
	if !s.cfg.LAN {
		return func() {}
	}
	acfg := lan.AnnounceConfig{Addr: s.Addr(), Name: s.cfg.Hostname, Map: s.w.Map.Name, MaxPlayers: s.cfg.MaxPlayers,
		Bots: s.cfg.Bots, Version: proto.ProtocolVersion, Password: s.cfg.Password != "",
		Refresh: func(c *lan.AnnounceConfig) {
			st := s.CurrentStatus()
			c.Map = st.Map // changelevel, mapcycle
			c.Players, c.Bots = 0, 0
			for _, p := range st.Players {
				if p.Bot {
					c.Bots++
				} else {
					c.Players++
				}
			}
		}}
	stop, err := lan.Announce(acfg)
	if err != nil {
		s.log.Warn("not announced on the LAN", "err", err)
		return func() {}
	}
	s.log.Info("announced on the LAN", "service", lan.ServiceType, "name", s.cfg.Hostname)
	return stop
}

// Step runs one tick at the given time, for tests and tools that drive the
// clock themselves with Handler served elsewhere (e.g. httptest). Never call
// it while Run is running.
func (s *Server) Step(now time.Time) {
	if s.start.IsZero() {
		s.start = now
	}
	s.runTick(now)
}

// Tick returns the current server tick (only safe from the goroutine that
// calls Step, or after Run returned).
func (s *Server) Tick() uint32 { return s.w.Tick }

// maxPendingCalls is how many calls may wait for the tick at once; more
// wait to be queued.
const maxPendingCalls = 32

// call queues f to run on the tick goroutine at the next tick boundary
// (runCalls). It returns false, with f not queued, when the server stopped
// or timeout fired first (a nil timeout never fires).
func (s *Server) call(f func(*Server), timeout <-chan time.Time) bool {
	select {
	case s.calls <- f:
		return true
	case <-s.stopped:
		return false
	case <-timeout:
		return false
	}
}

// runCalls runs the calls queued when the tick began (tick goroutine).
// Later ones wait for the next tick, after dropClosed: a client admitted
// here that leaves and joins again at once must not be admitted a second
// time while its first session still holds a slot.
func (s *Server) runCalls() {
	for range len(s.calls) {
		(<-s.calls)(s)
	}
}

// runTick advances the world by one tick.
func (s *Server) runTick(now time.Time) {
	t0 := time.Now()
	s.w.NextTick()
	// Command budget follows real time: after a stall that skipped ticks,
	// clients get the command time that really passed (at most the cap).
	s.budgetTicks = s.budget.ticks(now, time.Second/time.Duration(s.cfg.TickRate), s.cfg.backlogTicks())
	s.lastTickAt = now
	// changelevel, or the map cycle's next map when an intermission ends:
	// before joins, so that this tick's Accepts name the map the world is on.
	s.runLevel() // changelevel.go
	// Remove the players who left before admitting anyone: a join in the
	// same tick as a leave must see the leaver's slot free, or churn
	// answers "server is full" (or parks the joiner as a spectator) with
	// slots really free.
	s.dropClosed()
	s.runCalls() // joins (handshake.go) and console commands (Exec)
	s.w.Rules = s.rules()
	for _, ss := range s.sessions {
		ss.read(s, now) // session.go
	}
	if s.kicked {
		// The players kicked by now leave before the world steps. One
		// whose link ended meanwhile leaves at the next tick's walk: a
		// second walk of every session's connection each tick was 1-2 %
		// of the tick at 1 024 players (each a cold channel).
		s.dropClosed()
	}
	s.w.Step()          // match flow, bots, projectiles, respawns
	s.rewinder.record() // lagcomp.go
	s.takeWorldEvents()
	s.levels.vote.send(s.sessions, s.w.Tick, s.cfg.TickRate) // mapvote.go: the tally, when it changed
	s.events.trim(s.w.Tick)
	s.snap.tickTimeUs, s.snap.tickStdUs = uint32(s.tickStats.meanUs()), uint32(s.tickStats.stdUs())
	s.snap.send(s.sessions, now) // snapshot.go
	d := time.Since(t0)
	s.tickStats.add(d)
	s.metrics.tick.Observe(d.Seconds())
	if s.w.Tick%uint32(max(s.cfg.TickRate/4, 1)) == 0 {
		s.publishStatus()
	}
}

// dropClosed removes sessions whose connection ended.
func (s *Server) dropClosed() {
	s.kicked = false
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
		s.w.AddBot(proto.MaxNameLen)
	}
}

// removePlayer takes a player out of the world and forgets its lag
// record and every client's interpolation history of it.
func (s *Server) removePlayer(id uint16, reason string) {
	s.w.RemovePlayer(id, truncate(reason, 64))
	s.rewinder.forget(id)
	for _, ss := range s.sessions {
		ss.view.forget(id, ss.acks.appliedSeq)
	}
}

// rules are the world's rules from the console variables.
func (s *Server) rules() game.Rules {
	v := s.vars
	return game.Rules{NoDamage: s.cfg.NoDamage, MutualKills: v.mutualKills.Get(), ShowImpacts: v.showImpacts.Get(),
		FragLimit: v.fragLimit.Get(), TimeLimit: v.timeLimit.Get(), BotSkill: v.botSkill.Get(),
		SpawnProtection: v.spawnProt.Get(), TeamPlay: v.gameMode.Get() == 1, FriendlyFire: v.friendly.Get(),
		AutoTeamBalance: v.autoBalance.Get(), ChatTime: v.chatTime.Get()}
}

// runCommand runs one validated usercmd of a player through the world.
// ss is the player's session (nil for a bot): with sv_unlag 1 its shots
// are traced against the hitboxes as the client drew them (lagcomp.go).
func (s *Server) runCommand(p *game.Player, cmd shared.UserCmd, ss *session) {
	if ss != nil {
		ss.cmds.lastRender = cmd.RenderTick(s.cfg.TickRate)
	}
	if ss == nil || !s.vars.unlag.Get() {
		var lc game.HitboxSource // nil: the present hitboxes
		if ss != nil && s.rewinder.judged != nil {
			lc = presentShots{&s.rewinder} // the same, judged for Local as traced
		}
		s.w.RunCommand(p, cmd, lc)
		return
	}
	s.rewinder.ss = ss
	s.w.RunCommand(p, cmd, &s.rewinder)
	s.rewinder.ss = nil
}

// takeWorldEvents moves what the world reported this tick into the event
// queue, in wire form, and logs what a host wants to read.
func (s *Server) takeWorldEvents() {
	for _, e := range s.w.TakeEvents() {
		if s.tap != nil {
			s.tap(&e)
		}
		switch e.Kind {
		case game.EvKill:
			if s.log.Enabled(context.Background(), slog.LevelDebug) {
				s.log.Debug("kill", "killer", playerName(s.w, e.A), "victim", playerName(s.w, e.B), "tick", e.Tick)
			}
		case game.EvTeam:
			if e.Text != "" {
				if ss := sessionOf(s.sessions, e.A); ss != nil {
					ss.print(fmt.Sprintf("you were moved to the %s team (%s)", game.Team(e.Value), e.Text))
				}
			}
		case game.EvChangeLevel:
			s.log.Info("map changed", "map", e.Text)
		case game.EvMatchStart:
			s.levels.vote.close() // a changelevel or a mode change during the vote
		case game.EvMatchEnd:
			endOfMatch(s, &e) // mapvote.go: the statistics, the map vote
			s.metrics.matches.Add(1)
			s.cfg.Lifecycle.MatchEnded()
			if e.A == 0 && e.B != 0 {
				s.log.Info("match won", "team", e.Text, "score", s.w.TeamScore(game.Team(e.B)))
			}
			if e.A != 0 {
				kills := 0
				if p := s.w.Player(e.A); p != nil {
					kills = p.Kills
				}
				s.log.Info("match won", "player", e.Text, "kills", kills)
			}
		}
		s.events.add(wireEvent(&e), e.To, s.w.Tick, s.sessions) // events.go
	}
}

// playerName is the name of player id in w, "" when there is none.
func playerName(w *game.World, id uint16) string {
	if p := w.Player(id); p != nil {
		return p.Name
	}
	return ""
}

// wireEvent is a world event as snapshots carry it (proto.Event): world
// units to fixed point.
func wireEvent(e *game.Event) proto.Event {
	we := proto.Event{Kind: uint8(e.Kind), Tick: e.Tick, A: e.A, B: e.B, Value: int16(e.Value), Text: e.Text,
		X: proto.ToFixed(e.X), Y: proto.ToFixed(e.Y), X2: proto.ToFixed(e.X2), Y2: proto.ToFixed(e.Y2)}
	switch e.Kind {
	case game.EvShot:
		we.B = 0 // the wire's tracer names no victim (EvHit does)
		if e.Value >= 0 && e.Value < shared.NumWeapons && shared.Weapons[e.Value].Pellets > 1 {
			we.Cmd = e.Cmd // the seed of the other pellets (shared.PelletTracers)
		}
	case game.EvImpact:
		we.Cmd = e.Cmd
	}
	return we
}

// truncate cleans text for a message (net.CleanText): valid UTF-8, no
// control characters, at most n bytes.
func truncate(s string, n int) string {
	return proto.CleanText(s, n)
}

// IntermissionSeconds is the default pause between matches (mp_chattime).
const IntermissionSeconds = game.IntermissionSeconds

// browserHost is addr as a browser would reach it: an unspecified host
// (":27015", "0.0.0.0:27015", "[::]:27015") becomes this machine's name.
func browserHost(addr string) string {
	host, port, err := net.SplitHostPort(addr)
	if err != nil {
		return addr
	}
	if ip := net.ParseIP(host); host == "" || (ip != nil && ip.IsUnspecified()) {
		if h, err := os.Hostname(); err == nil && h != "" {
			host = h
		} else {
			host = "localhost"
		}
	}
	return net.JoinHostPort(host, port)
}
