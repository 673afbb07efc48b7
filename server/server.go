// Package server is Tickshot's dedicated server: a fixed tick loop in one
// goroutine that owns the world, client sessions that feed it usercmds,
// snapshot scheduling at each client's cl_updaterate, server-side bots, and
// the HTTP endpoints /ws (players) and /status (JSON).
package server

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"math/rand/v2"
	"net"
	"net/http"
	"os"
	"sort"
	"sync"
	"time"

	"tickshot/assets/web"
	"tickshot/game"
	"tickshot/net/proto"
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
	// Map is the map name, default game.DefaultMap.
	Map string
	// Hostname is the server's name in /status and on the browser page
	// (Source's hostname), at most 64 bytes; default "Tickshot server".
	Hostname string
	// MaxUsrCmdProcessTicks is sv_maxusrcmdprocessticks: the most command
	// time, in ticks, a client may bank; commands beyond it are dropped (a
	// speed-hack guard). Default 16.
	MaxUsrCmdProcessTicks int
	// Seed seeds spawn choice and bots; 0 picks one from the clock.
	Seed uint64
	// Fake simulates network conditions on every message the server
	// receives (net_fakelag, net_fakejitter, net_fakeloss on the server side).
	Fake proto.FakeConditions
	// RconPassword enables remote console commands ("rcon" from a client's
	// console) for whoever knows it; empty disables rcon.
	RconPassword string
	// NoDamage makes hits do no damage (they are still confirmed): for the
	// hit-registration benchmark, whose target must not die.
	NoDamage bool
	// Cvars are console variables to set at start, as name/value pairs
	// (sv_unlag, sv_maxunlag, sv_showimpacts, sv_mutualkills).
	Cvars [][2]string
	// Logger receives the server's log; default slog.Default().
	Logger *slog.Logger
}

// Defaults.
const (
	DefaultAddr       = ":27015"
	DefaultTickRate   = 64
	DefaultMaxPlayers = 16
	DefaultHostname   = "Tickshot server"
	// MaxPlayersLimit is the most player slots a server may have.
	MaxPlayersLimit = 256
	MinTickRate     = 20
	MaxTickRate     = 128
	// ShutdownReason is what clients are told when the server stops.
	ShutdownReason = "server shutting down"
)

func (c *Config) fill() error {
	if c.Addr == "" {
		c.Addr = DefaultAddr
	}
	c.Hostname = proto.CleanText(c.Hostname, 64)
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
	if c.MaxUsrCmdProcessTicks == 0 {
		c.MaxUsrCmdProcessTicks = 16
	}
	if c.Seed == 0 {
		c.Seed = uint64(time.Now().UnixNano())
	}
	if c.Logger == nil {
		c.Logger = slog.Default()
	}
	return nil
}

// Server is one running game.
type Server struct {
	cfg   Config
	log   *slog.Logger
	m     *game.Map
	world *shared.World
	rng   *rand.Rand

	joins chan joinReq
	start time.Time

	// Owned by the tick goroutine.
	tick       uint32
	players    []*game.Player // sorted by ID
	sessions   []*session
	bots       []*bot
	nextID     uint16
	events     []proto.Event // recent events, oldest first
	eventTo    []uint16      // recipient of each event, 0 for everyone
	lag        map[uint16]*lagRing
	boxBuf     []game.Hitbox
	botBoxBuf  []game.Hitbox
	vars       vars
	execCh     chan execReq
	lastTickAt time.Time
	matchStart uint32 // tick the current match started
	// intermission is the tick the next match starts, 0 while one is on.
	intermission uint32
	budgetTicks  int
	projectiles  []*projectile
	nextProjID   uint16
	nextEventID  uint32
	scoresDirty  bool
	tickStats    tickStats
	snapStats    SnapshotStatus          // snapshots sent since start
	frame        []proto.EntityState     // this tick's players, quantized (buildFrame)
	projFrame    []proto.ProjectileState // this tick's projectiles (buildFrame)
	scoreBuf     []proto.ScoreEntry      // this tick's scoreboard, when one is due
	scoresBuilt  bool                    // scoreBuf is this tick's
	enc          proto.Encoder           // writes every snapshot (tick goroutine)

	statusMu sync.Mutex
	status   Status

	ln       net.Listener
	httpSrv  *http.Server
	stopOnce sync.Once
	stopped  chan struct{}
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
		m:       m,
		world:   m.World(cfg.TickRate),
		rng:     rand.New(rand.NewPCG(cfg.Seed, cfg.Seed*31+7)),
		joins:   make(chan joinReq, 16),
		nextID:  1,
		stopped: make(chan struct{}),
		lag:     map[uint16]*lagRing{},
		vars:    defaultVars(),
		execCh:  make(chan execReq, 4),
	}
	s.vars.fake = cfg.Fake.Clamp()
	for _, kv := range cfg.Cvars {
		if err := s.vars.set(kv[0], kv[1]); err != nil {
			return nil, err
		}
	}
	for i := 0; i < cfg.Bots; i++ {
		s.addBot()
	}
	return s, nil
}

// Listen binds the listen address; Addr then reports the real one (useful
// with port 0).
func (s *Server) Listen() error {
	ln, err := net.Listen("tcp", s.cfg.Addr)
	if err != nil {
		return fmt.Errorf("listen on %s: %w", s.cfg.Addr, err)
	}
	s.ln = ln
	return nil
}

// Addr returns the bound address, after Listen.
func (s *Server) Addr() string {
	if s.ln == nil {
		return s.cfg.Addr
	}
	return s.ln.Addr().String()
}

// Map returns the loaded map.
func (s *Server) Map() *game.Map { return s.m }

// Run serves HTTP and runs the tick loop until ctx ends, then tells every
// client the server is shutting down and returns.
func (s *Server) Run(ctx context.Context) error {
	if s.ln == nil {
		if err := s.Listen(); err != nil {
			return err
		}
	}
	s.httpSrv = &http.Server{Handler: s.Handler(), ReadHeaderTimeout: 5 * time.Second}
	httpErr := make(chan error, 1)
	go func() { httpErr <- s.httpSrv.Serve(s.ln) }()
	s.start = time.Now()
	s.log.Info("server started", "addr", s.Addr(), "map", s.m.Name, "tickrate", s.cfg.TickRate,
		"maxplayers", s.cfg.MaxPlayers, "bots", s.cfg.Bots, "name", s.cfg.Hostname)
	if wc := webClient(); wc.Available() {
		raw, gz := wc.Sizes()
		s.log.Info("browser client: players open http://"+browserHost(s.Addr())+"/", "wasm_bytes", raw, "gzip_bytes", gz)
	} else {
		s.log.Warn("this server was built without the browser client; build it with 'make server' so players can join from a browser")
	}

	err := s.loop(ctx, httpErr)

	for _, ss := range s.sessions {
		ss.conn.Close(ShutdownReason)
	}
	// Give the goodbyes up to 2 s to be written before the process may exit.
	deadline := time.After(2 * time.Second)
	for _, ss := range s.sessions {
		select {
		case <-ss.conn.Closed():
		case <-deadline:
		}
	}
	shutCtx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	_ = s.httpSrv.Shutdown(shutCtx)
	close(s.stopped)
	s.log.Info("server stopped", "ticks", s.tick)
	return err
}

// Handler returns the server's HTTP endpoints: /ws (the game), /status
// (JSON) and the browser client (package web: / is its page,
// /tickshot.wasm and /wasm_exec.js its files).
func (s *Server) Handler() http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("/ws", s.handleWS)
	mux.HandleFunc("/status", s.handleStatus)
	webClient().Register(mux)
	return mux
}

// webClient is the embedded browser client, read once.
var webClient = sync.OnceValue(web.Load)

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
func (s *Server) Tick() uint32 { return s.tick }

func (s *Server) loop(ctx context.Context, httpErr chan error) error {
	interval := time.Second / time.Duration(s.cfg.TickRate)
	next := time.Now()
	timer := time.NewTimer(0)
	defer timer.Stop()
	for {
		select {
		case <-ctx.Done():
			return nil
		case err := <-httpErr:
			if errors.Is(err, http.ErrServerClosed) {
				return nil
			}
			return fmt.Errorf("http: %w", err)
		case <-timer.C:
		}
		now := time.Now()
		s.runTick(now)
		next = next.Add(interval)
		if d := time.Until(next); d > -10*interval {
			timer.Reset(max(d, 0))
		} else {
			// Far behind (the machine stalled): do not try to catch up.
			next = time.Now()
			timer.Reset(0)
		}
	}
}

// runTick advances the world by one tick.
func (s *Server) runTick(now time.Time) {
	t0 := time.Now()
	s.tick++
	// Command budget follows real time: after a stall that skipped ticks,
	// clients get the command time that really passed (at most the cap).
	s.budgetTicks = 1
	if !s.lastTickAt.IsZero() {
		interval := time.Second / time.Duration(s.cfg.TickRate)
		s.budgetTicks = min(max(int(now.Sub(s.lastTickAt)/interval), 1), s.cfg.MaxUsrCmdProcessTicks)
	}
	s.lastTickAt = now
	s.runExecs()
	s.acceptJoins()
	for _, ss := range s.sessions {
		s.readSession(ss, now)
	}
	s.dropClosed()
	s.runMatch()
	s.runBots()
	s.moveProjectiles()
	s.respawn()
	s.recordLag()
	s.trimEvents()
	s.sendSnapshots(now)
	s.tickStats.add(time.Since(t0))
	if s.tick%uint32(max(s.cfg.TickRate/4, 1)) == 0 {
		s.publishStatus()
	}
}

// player returns the player with id, or nil.
func (s *Server) player(id uint16) *game.Player {
	for _, p := range s.players {
		if p.ID == id {
			return p
		}
	}
	return nil
}

func (s *Server) newPlayer(name string, isBot bool) *game.Player {
	id := s.nextID
	for s.player(id) != nil || id == 0 {
		id++
	}
	s.nextID = id + 1
	p := &game.Player{ID: id, Name: name, Bot: isBot}
	p.Spawn(s.m.ChooseSpawn(s.enemyPositions(id), s.rng))
	// Keep s.players sorted by ID (IDs wrap after 65535 joins): snapshots
	// list players in this order and applyToView relies on it.
	i := sort.Search(len(s.players), func(i int) bool { return s.players[i].ID > id })
	s.players = append(s.players, nil)
	copy(s.players[i+1:], s.players[i:])
	s.players[i] = p
	s.scoresDirty = true
	s.addEvent(proto.Event{Kind: proto.EvJoin, A: id, Text: name}, 0)
	return p
}

func (s *Server) removePlayer(id uint16, reason string) {
	for i, p := range s.players {
		if p.ID == id {
			s.players = append(s.players[:i], s.players[i+1:]...)
			break
		}
	}
	s.scoresDirty = true
	delete(s.lag, id)
	for _, ss := range s.sessions {
		delete(ss.view, id)
	}
	s.addEvent(proto.Event{Kind: proto.EvLeft, A: id, Text: truncate(reason, 64)}, 0)
}

func (s *Server) enemyPositions(self uint16) []game.Point {
	var pts []game.Point
	for _, p := range s.players {
		if p.ID != self && p.Alive() {
			pts = append(pts, game.Point{X: p.State.X, Y: p.State.Y})
		}
	}
	return pts
}

func (s *Server) respawn() {
	for _, p := range s.players {
		if p.State.Dead && s.tick >= p.RespawnTick {
			p.Spawn(s.m.ChooseSpawn(s.enemyPositions(p.ID), s.rng))
		}
	}
}

// runCommand runs one validated usercmd for p through shared.RunCommand and
// resolves what it fired. ss is the player's session, nil for bots.
//
// Simultaneous kills: commands run in arrival order, so when two players
// would kill each other in one tick, the command the server runs first wins
// and the other player is already dead when its command runs (as CS:GO).
// With sv_mutualkills 1, a player killed earlier in the same tick still gets
// that tick's shots, from the state it had when it died, so both can die
// (as Overwatch).
func (s *Server) runCommand(p *game.Player, cmd shared.UserCmd, ss *session) {
	var res shared.Result
	if p.State.Dead && s.vars.mutualKills && p.DiedTick == s.tick && p.Deaths > 0 {
		var st shared.PlayerState
		st, res = shared.RunCommand(p.PreDeath, cmd, s.world)
		p.PreDeath = st
		p.State.Weapon, p.State.Ammo = st.Weapon, st.Ammo
	} else {
		p.State, res = shared.RunCommand(p.State, cmd, s.world)
	}
	p.Angle = float64(cmd.ViewAngle)
	if res.Fired {
		s.fire(p, ss, &cmd, res.Shot)
	}
}

// fire resolves a shot by its weapon kind.
func (s *Server) fire(p *game.Player, ss *session, cmd *shared.UserCmd, shot shared.Shot) {
	switch shared.Weapons[shot.Weapon].Kind {
	case shared.Hitscan:
		s.fireHitscan(p, ss, cmd, shot)
	case shared.Projectile:
		s.fireProjectile(p, shot)
	}
}

// damage applies a hit and its consequences (events, score).
func (s *Server) damage(attacker, victim *game.Player, amount int, x, y float64) {
	if victim == nil || !victim.Alive() {
		return
	}
	pre := victim.State
	killed := false
	if !s.cfg.NoDamage && s.intermission == 0 {
		killed = victim.Damage(amount, s.tick, s.cfg.TickRate)
	}
	s.addEvent(proto.Event{Kind: proto.EvHit, A: attacker.ID, B: victim.ID, Value: int16(amount),
		X2: proto.ToFixed(x), Y2: proto.ToFixed(y)}, 0)
	if killed {
		victim.DiedTick = s.tick
		victim.PreDeath = pre
		if attacker.ID != victim.ID {
			attacker.Kills++
			if s.vars.fragLimit > 0 && attacker.Kills >= s.vars.fragLimit && s.intermission == 0 {
				s.endMatch(attacker)
			}
		}
		s.scoresDirty = true
		s.addEvent(proto.Event{Kind: proto.EvKill, A: attacker.ID, B: victim.ID}, 0)
		s.log.Debug("kill", "killer", attacker.Name, "victim", victim.Name, "tick", s.tick)
	}
}

// EventLifetime is how long an event is resent before it is dropped, in seconds.
const EventLifetime = 2

// addEvent queues an event for every client (to == 0) or for one player.
func (s *Server) addEvent(e proto.Event, to uint16) {
	s.nextEventID++
	e.ID = s.nextEventID
	e.Tick = s.tick
	s.events = append(s.events, e)
	s.eventTo = append(s.eventTo, to)
}

func (s *Server) trimEvents() {
	limit := uint32(EventLifetime * s.cfg.TickRate)
	i := 0
	for i < len(s.events) && s.tick-s.events[i].Tick > limit {
		i++
	}
	if i > 0 {
		s.events = append(s.events[:0], s.events[i:]...)
		s.eventTo = append(s.eventTo[:0], s.eventTo[i:]...)
	}
}

// truncate cleans text for a message (net.CleanText): valid UTF-8, no
// control characters, at most n bytes.
func truncate(s string, n int) string {
	return proto.CleanText(s, n)
}

// IntermissionSeconds is the pause between matches.
const IntermissionSeconds = 5

// runMatch ends the match at mp_timelimit and starts the next one after
// the intermission.
func (s *Server) runMatch() {
	if s.intermission != 0 {
		if s.tick >= s.intermission {
			s.startMatch()
		}
		return
	}
	if s.vars.timeLimit > 0 && float64(s.tick-s.matchStart) >= s.vars.timeLimit*60*float64(s.cfg.TickRate) {
		// The leader wins; a shared top score (or nobody) is a draw.
		var leader *game.Player
		tied := false
		for _, p := range s.players {
			switch {
			case leader == nil || p.Kills > leader.Kills:
				leader, tied = p, false
			case p.Kills == leader.Kills:
				tied = true
			}
		}
		if tied {
			leader = nil
		}
		s.endMatch(leader)
	}
}

// endMatch announces the winner (nil: nobody) and starts the intermission,
// during which nobody takes damage.
func (s *Server) endMatch(winner *game.Player) {
	e := proto.Event{Kind: proto.EvMatchEnd, Value: IntermissionSeconds}
	if winner != nil {
		e.A, e.Text = winner.ID, winner.Name
		s.log.Info("match won", "player", winner.Name, "kills", winner.Kills)
	}
	s.addEvent(e, 0)
	s.intermission = s.tick + uint32(IntermissionSeconds*s.cfg.TickRate)
}

// startMatch resets the scores and respawns everyone.
func (s *Server) startMatch() {
	s.intermission = 0
	s.matchStart = s.tick
	s.projectiles = s.projectiles[:0]
	for _, p := range s.players {
		p.Kills, p.Deaths = 0, 0
		p.Spawn(s.m.ChooseSpawn(s.enemyPositions(p.ID), s.rng))
	}
	s.scoresDirty = true
	s.addEvent(proto.Event{Kind: proto.EvMatchStart}, 0)
}

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
