// Package netclient is the client's netcode without rendering: the
// handshake, usercmd creation and sending (with cl_cmdbackup), client-side
// prediction and reconciliation of the local player (Bernier 2001, "Client
// Side Prediction"), interpolation of everyone else from snapshot history
// (Bernier 2001, "Display of Targets"), and the clock that drives it. The
// Ebiten client and the headless `tickshot bot` both run it, so tests and
// measurements exercise the real netcode. A Client is used from one
// goroutine.
package netclient

import (
	"context"
	"fmt"
	"math"
	"strconv"
	"time"

	"tickshot/game"
	"tickshot/net/proto"
	"tickshot/net/rtc"
	"tickshot/net/transport"
	"tickshot/net/ws"
	"tickshot/shared"
)

// Config holds the client's rates and switches (Source's cvar names in comments).
type Config struct {
	Name        string
	Rate        int     // rate, bytes/s
	UpdateRate  int     // cl_updaterate, snapshots/s (default 20)
	CmdRate     int     // cl_cmdrate, command packets/s (default: the tick rate)
	InterpMs    int     // cl_interp, ms (default 100)
	InterpRatio float64 // cl_interp_ratio (default 2)
	CmdBackup   int     // cl_cmdbackup, earlier commands resent per packet (default 2)
	Predict     bool    // cl_predict
	Interpolate bool    // cl_interpolate
	ExtrapMs    int     // cl_extrapolate_amount in ms (default 250)
	Smooth      bool    // cl_smooth
	// NoReconcile turns reconciliation off (the lag lab's switch, as in
	// Gambetta's demo): a snapshot's state replaces the prediction and the
	// commands the server has not run yet are not replayed on it.
	NoReconcile bool
	// DeadReckon, with cl_interpolate 0, draws others at the present
	// server-time estimate, extrapolated from the newest snapshots up to
	// cl_extrapolate_amount (QuakeWorld's way): no interpolation delay, and
	// an overshoot when a target turns. The lag lab's extrapolation switch.
	DeadReckon bool
	SmoothMs   int    // cl_smoothtime in ms (default 100)
	NoDelta    bool   // cl_nodelta: ask for full snapshots only
	Spectate   bool   // join as a spectator (--spectate): no body, every entity in view
	Password   string // password: the server's join password, "" for none (Source's password cvar)
	Color      uint8  // cl_color: the body colour, 0..proto.MaxColor (Hello.Color)
	// Transport is cl_transport, for Dial: rtc.ModeAuto ("" too),
	// ModeWebRTC or ModeWebSocket.
	Transport rtc.Mode
	// Timeout is cl_timeout: how long without a snapshot before the client
	// gives up and disconnects (0: DefaultTimeout). ConnectionProblem
	// counts down to it.
	Timeout time.Duration
}

// DefaultConfig returns Source's defaults.
func DefaultConfig(name string) Config {
	return Config{Name: name, Rate: 196608, UpdateRate: 20, InterpMs: 100, InterpRatio: 2,
		CmdBackup: 2, Predict: true, Interpolate: true, ExtrapMs: 250, Smooth: true, SmoothMs: 100}
}

// Input is the player's controls, held over the ticks of a command or a
// frame.
type Input struct {
	MoveX, MoveY float32 // [-1, 1], world axes
	Angle        float32 // aim, radians
	Buttons      uint16  // shared.Button* bits held down
	// Pressed are the buttons pressed at some moment since the previous
	// Frame or Command, even if released since (a click shorter than a
	// frame). They are latched until a command carries them: the next
	// command made has them in its Buttons, later ones only if held.
	Pressed uint16
	Weapon  uint8
}

// Stats counts what the netcode did (Client.Stats gathers it from the parts).
type Stats struct {
	SnapshotsReceived int
	CmdsSent          int // usercmds made and sent (each once, backups not counted)
	PacketsSent       int
	Corrections       int     // prediction errors: acked state differed from the prediction
	LifeResets        int     // deaths and respawns: the server replaced the predicted state (not in Corrections)
	LastErrorDist     float64 // world units of the last correction
	PingMs            int     // round trip as the server measures it
	TickTimeUs        int     // server tick time
	DroppedSnapshots  int     // snapshots older than one already applied
	SnapshotsLost     int     // snapshots that never arrived (gaps in Seq)
	FullSnapshots     int     // snapshots without a delta baseline
	BaselineMissing   int     // delta snapshots dropped: their baseline was not held
	Resyncs           int     // clock resynchronisations after a stall (Frame)
	FrameTicksDropped int     // ticks of real time Frame made no command for: frames longer than MaxFrameTime
	CmdQueue          int     // the server's queue of this client's commands not yet run (Snapshot.CmdQueue)
	CmdQueuePulled    int     // ticks made no command for because that queue stayed deep (clock.serverQueue)
	CmdTarget         int     // the depth the server keeps that queue at: its command buffer (Snapshot.CmdTarget)
	DilationPct       float64 // the command clock's rate against real time, percent, positive when slower (clock.tickDur)
}

// Client is a connected player: a front over four parts, each of which
// owns its state and is tested alone. A usercmd's trip through them:
// Frame asks the clock how many ticks of real time to run; each tick the
// clock fixes the render time the command claims, the command is made
// from the input, the predictor runs it (shared.RunCommand) and keeps it,
// and the link sends the commands when cl_cmdrate says a packet is due.
// A snapshot's trip: the link rebuilds it against its baseline and acks
// it, the clock is corrected towards its tick, the predictor reconciles
// against its state, and the interpolator adds its entities to their
// histories.
//
// Beside them, Match holds what the server says about the match (the
// scoreboard, names, events and prints), Shots what the client's own shots
// drew and the effects to play, and the stall watcher the stream's silence
// (ConnectionProblem, cl_timeout). The window reads it through View, once
// a frame, and takes events, prints and effects once each from Match and
// Shots; what it changes goes through methods (SetConfig,
// SetFakeConditions, the spectator camera).
type Client struct {
	cfg      Config
	id       uint16
	tickRate int
	gameMap  *game.Map
	world    *shared.World
	accept   proto.Accept // as received; its Map follows level changes

	link   *link           // transport, acks, pacing, statistics (link.go)
	clk    *clock          // prediction and render clocks, Frame pacing (clock.go)
	pred   *predictor      // command ring, replay, smoothing (predictor.go)
	pick   pickupPredictor // the local player's predicted pickups (pickups.go)
	interp *interpolator   // entity and projectile histories (interpolator.go)

	latched        uint16  // buttons pressed since the last command, not yet carried by one
	prevLX, prevLY float64 // LocalPos before the newest tick a Frame ran (DrawPos)

	server proto.SelfState // newest own state from the server

	match *Match     // scoreboard, names, events, prints (match.go)
	shots Shots      // shot views and predicted effects (shots.go)
	stall stallWatch // the snapshot stream's silence (stall.go)
	spec  SpecCam    // the spectator camera (spectate.go)
	err   error      // why the connection ended (Err)

	// Demos (demo.go): the Accept as received, and the source of the
	// usercmds predicted and sent (live: those made; demo playback: the
	// recorded ones). A recording is the link's tap; playback's real time
	// is the clock's (clock.wall).
	acceptRaw []byte
	acceptAt  time.Time
	cmds      cmdSource

	views viewCache // the View of the state as it stands (view.go)
}

// Dialer opens a transport to a server address. Websocket is the one
// players use; tests may dial an in-memory pipe (transport.Pipe).
type Dialer func(ctx context.Context, addr string) (transport.Transport, error)

// Websocket dials addr's /ws (see ws.URL for the forms of addr) with the
// client's transport options: gorilla/websocket in native builds, the
// browser's WebSocket under GOOS=js.
func Websocket(ctx context.Context, addr string) (transport.Transport, error) {
	return ws.Dial(ctx, addr, proto.ClientOptions())
}

// Dial returns the Dialer of a cl_transport mode: the WebSocket
// (Websocket), which, unless mode is rtc.ModeWebSocket, offers the server
// a WebRTC data channel for snapshots and usercmds once the server has
// accepted the client, and falls back to the WebSocket without one
// (package net/rtc). The transport in use, or why the client stays on the
// WebSocket, reaches the console as a Print (Match.TakePrints).
func Dial(mode rtc.Mode) Dialer {
	return func(ctx context.Context, addr string) (transport.Transport, error) {
		t, err := Websocket(ctx, addr)
		if err != nil || mode == rtc.ModeWebSocket {
			return t, err
		}
		return rtc.NewClient(t, proto.ClientOptions(), mode, nil), nil
	}
}

// Connect opens a transport to addr with dial, sends Hello and waits for
// Accept or Reject. The errors say why in words: the dial's error, the
// server's reject reason, or a handshake timeout.
func Connect(ctx context.Context, dial Dialer, addr string, cfg Config) (*Client, error) {
	c, err := connect(ctx, dial, addr, cfg.named())
	if err != nil {
		return nil, &ConnectError{Addr: addr, Err: err}
	}
	return c, nil
}

func connect(ctx context.Context, dial Dialer, addr string, cfg Config) (*Client, error) {
	t, err := dial(ctx, addr)
	if err != nil {
		return nil, err
	}
	conn := proto.NewConn(t)
	sendHello(conn, cfg)
	timeout := time.NewTimer(proto.HandshakeTimeout)
	defer timeout.Stop()
	select {
	case p, ok := <-conn.Recv():
		return answered(conn, p, ok, addr, cfg, nil)
	case <-timeout.C:
		conn.Close("handshake timeout")
		return nil, &HandshakeTimeoutError{Addr: addr, After: proto.HandshakeTimeout}
	case <-ctx.Done():
		conn.Close("cancelled")
		return nil, ctx.Err()
	}
}

// named is cfg with the name a Hello carries: "player" for none, cleaned
// to what the server accepts (proto.CleanText, MaxNameLen).
func (cfg Config) named() Config {
	if cfg.Name == "" {
		cfg.Name = "player"
	}
	cfg.Name = proto.CleanText(cfg.Name, proto.MaxNameLen)
	return cfg
}

// sendHello sends the handshake's first message with cfg's settings.
func sendHello(conn *proto.Conn, cfg Config) {
	conn.Send(&proto.Hello{Protocol: proto.ProtocolVersion, Name: cfg.Name, Rate: uint32(cfg.Rate),
		UpdateRate: uint16(cfg.UpdateRate), CmdRate: uint16(cfg.CmdRate), InterpMs: uint16(cfg.InterpMs),
		InterpRatio: float32(cfg.InterpRatio), NoDelta: cfg.NoDelta, Spectate: cfg.Spectate, Password: cfg.Password,
		Color: min(cfg.Color, proto.MaxColor)})
}

// answered takes the server's answer to the Hello (ok false: the
// connection ended first): the client on Accept, a *RejectError, or why
// the connection ended. now is the client's clock (nil: the wall clock).
func answered(conn *proto.Conn, p proto.Packet, ok bool, addr string, cfg Config, now func() time.Time) (*Client, error) {
	if !ok {
		reason, remote := conn.Reason()
		return nil, &ClosedError{Reason: reason, Remote: remote}
	}
	switch m := p.Msg.(type) {
	case *proto.Accept:
		c, err := newClient(conn, cfg, m)
		if c != nil {
			c.acceptRaw, c.acceptAt = p.Raw, p.At
			if now != nil {
				c.clk.wall, c.stall.heard = now, now()
			}
		}
		return c, err
	case *proto.Reject:
		conn.Close("rejected")
		return nil, &RejectError{Reason: m.Reason}
	default:
		conn.Close("protocol error")
		return nil, fmt.Errorf("connect %s: protocol error: expected accept, got %s", addr, m.Type())
	}
}

// Joining is a handshake in progress that never blocks, for a caller that
// drives time itself (the lag lab, client/lab): Begin sends the Hello,
// Poll reads the answer once it has arrived.
type Joining struct {
	conn *proto.Conn
	cfg  Config
	now  func() time.Time
}

// Begin sends the Hello over t (give it proto.ClientOptions()) and returns
// the handshake; now is the client's clock from then on (nil: the wall
// clock): every Frame is given its times, and the snapshot-timeout watch
// counts on it.
func Begin(t transport.Transport, cfg Config, now func() time.Time) *Joining {
	cfg = cfg.named()
	j := &Joining{conn: proto.NewConn(t), cfg: cfg, now: now}
	sendHello(j.conn, cfg)
	return j
}

// Poll returns the client once the Accept has arrived, or the error once
// the server refused or the connection ended; nil, nil while the answer is
// on its way. Call it no more after it returned a client or an error.
func (j *Joining) Poll() (*Client, error) {
	select {
	case p, ok := <-j.conn.Recv():
		return answered(j.conn, p, ok, j.conn.RemoteAddr(), j.cfg, j.now)
	default:
		return nil, nil
	}
}

func newClient(conn *proto.Conn, cfg Config, a *proto.Accept) (*Client, error) {
	if a.TickRate < shared.MinTickRate || a.TickRate > shared.MaxTickRate {
		conn.Close("bad tick rate")
		return nil, fmt.Errorf("server announced tick rate %d outside %d..%d", a.TickRate, shared.MinTickRate, shared.MaxTickRate)
	}
	m, err := game.LoadMap(a.Map)
	if err != nil {
		conn.Close("unknown map")
		return nil, fmt.Errorf("server runs %w", err)
	}
	tr := int(a.TickRate)
	world := m.World(tr)
	c := &Client{cfg: cfg, id: a.PlayerID, tickRate: tr, gameMap: m, world: world, accept: *a,
		match: newMatch(), stall: stallWatch{heard: time.Now()}, link: newLink(conn), clk: newClock(tr, a.Tick, maxFrameTicks(tr, a.Cvars)),
		pred: newPredictor(world), interp: newInterpolator(tr), cmds: liveCmds{}}
	if c.cfg.CmdRate <= 0 || c.cfg.CmdRate > c.tickRate {
		c.cfg.CmdRate = c.tickRate
	}
	c.cfg.UpdateRate = int(a.UpdateRate)
	return c, nil
}

// maxFrameTicks is the most commands one Frame makes at tickRate: those of
// MaxFrameTime, no more than one Cmds message holds, nor more than the
// server queues for a client (2 × sv_maxusrcmdprocessticks, as its cvars
// announce it; server/session.go).
func maxFrameTicks(tickRate int, cvars []proto.Cvar) int {
	n := min(tickRate*int(MaxFrameTime/time.Millisecond)/1000, proto.MaxCmdsPerMsg)
	for _, v := range cvars {
		if q, err := strconv.Atoi(v.Value); err == nil && v.Name == "sv_maxusrcmdprocessticks" && q > 0 {
			n = min(n, 2*q)
		}
	}
	return max(n, 1)
}

// Err returns why the connection ended, or nil while it is up.
func (c *Client) Err() error { return c.err }

// Close disconnects with a reason.
func (c *Client) Close(reason string) { c.link.conn.Close(reason) }

// Closed is closed once the connection has released its link after Close
// (the Disconnect was written or failed): from then on the server can see
// that this client left.
func (c *Client) Closed() <-chan struct{} { return c.link.conn.Closed() }

// statsOf gathers what the netcode did so far from the parts.
func statsOf(link *link, p *predictor, k *clock) Stats {
	l := &link.st
	return Stats{SnapshotsReceived: l.snapshotsReceived, CmdsSent: l.cmdsSent, PacketsSent: l.packetsSent,
		Corrections: p.corrections, LifeResets: p.lifeResets, LastErrorDist: p.lastErrorDist,
		PingMs: l.pingMs, TickTimeUs: l.tickTimeUs, DroppedSnapshots: l.droppedSnapshots,
		SnapshotsLost: l.snapshotsLost, FullSnapshots: l.fullSnapshots, BaselineMissing: l.baselineMissing,
		Resyncs: k.resyncs, FrameTicksDropped: k.ticksDropped, CmdQueue: k.queueNow, CmdQueuePulled: k.pulledBack,
		CmdTarget: k.target, DilationPct: k.dilationPct()}
}

// Match returns the scoreboard, the names heard, and the server's events
// and prints (which the window takes once each).
func (c *Client) Match() *Match { return c.match }

// Shots returns what the client drew when it fired (the last 16 shots) and
// the effects of commands predicted for the first time.
func (c *Client) Shots() *Shots { return &c.shots }

// Net returns the connection's figures as net_graph draws them, updated
// by Poll (the window reads, never writes them).
func (c *Client) Net() *NetStats { return &c.link.net }

// ConnStats returns the transport counters.
func (c *Client) ConnStats() proto.Stats { return c.link.conn.Stats() }

// lerpMs returns the interpolation period in whole ms (the usercmd's
// lerp_msec): max(cl_interp, cl_interp_ratio / cl_updaterate), rounded,
// at most proto.MaxInterpMs.
func (cfg Config) lerpMs() float64 {
	return math.Round(math.Min(game.InterpPeriodMs(float64(cfg.InterpMs), cfg.InterpRatio, cfg.UpdateRate), proto.MaxInterpMs))
}

// lerpOpts are the interpolator's settings at tickRate.
func (cfg Config) lerpOpts(tickRate int) lerpOpts {
	return lerpOpts{interpolate: cfg.drawAt() != drawNewest, extrapTicks: float64(cfg.ExtrapMs) * float64(tickRate) / 1000}
}

// drawAt is where in time others are drawn: cl_interpolate, DeadReckon.
func (cfg Config) drawAt() drawAt {
	switch {
	case cfg.Interpolate:
		return drawInterp
	case cfg.DeadReckon:
		return drawPresent
	}
	return drawNewest
}

// MarkDrawn tells the client that the frame it last advanced to (by Frame)
// is the one on screen: the commands of the next Frame then all claim its
// render time, so a shot is rewound to what the player saw when it clicked,
// not to a later tick of a slow frame that was never drawn (Bernier 2001:
// the server must reconstruct "what the player was looking at"). Windows
// call it from Draw; a client that draws nothing (a bot) does not, and its
// commands claim their own ticks.
func (c *Client) MarkDrawn() { c.clk.markDrawn() }

// Poll processes every message that has arrived. It returns the connection
// error once the connection has ended: the server closed it, the transport
// failed, or no snapshot arrived for Config.Timeout (a *ClosedError with
// TimedOut set; the client then closes the connection itself).
func (c *Client) Poll() error {
	defer c.views.stale()
	if c.err != nil {
		return c.err
	}
	now := c.clk.now()
	c.stall.notePoll(now)
	for {
		select {
		case p, ok := <-c.link.recv():
			if !ok {
				c.err = c.link.closedError()
				return c.err
			}
			c.handle(p)
		default:
			if err := c.stall.expired(now, c.cfg); err != nil {
				c.err = err
				c.link.conn.Close("timed out")
			}
			return c.err
		}
	}
}

// handle takes one arrived message (Poll, Playback.Deliver).
func (c *Client) handle(p proto.Packet) {
	c.link.received(p)
	switch m := p.Msg.(type) {
	case *proto.Snapshot:
		c.stall.noteSnapshot(p.At)
		if c.onSnapshot(m, p.At) {
			c.link.net.record(m, p, c.tickRate, c.cfg.lerpMs(), c.pred.corrections)
		}
	case *proto.Print:
		c.match.print(m.Text)
	case *proto.MatchStats:
		c.match.stats = m
	case *proto.MapVote:
		c.match.vote = m
	case *proto.Reject:
		c.err = &RejectError{Reason: m.Reason}
	}
}

// Tick is Advance followed by Command: one tick of real time dt with input in.
func (c *Client) Tick(dt time.Duration, in Input) {
	c.Advance(dt)
	c.Command(in)
}

// StallGap is the longest pause between two Frames that is made up with
// commands. After a longer one (a hidden browser tab runs no frames, a
// suspended laptop, a debugger) Frame resynchronises the clock instead
// (Resync): a burst of catch-up commands would be refused by the server's
// command budget or count as a flood.
const StallGap = time.Second

// MaxFrameTime is the most real time one Frame turns into commands (at most
// 32 ticks: what one Cmds message carries; the server queues a second of
// them, server.CmdBacklogMs). A longer frame, up to StallGap,
// advances the clock by all of it but makes commands for this much only: a
// player below 2 fps moves slower than real time rather than losing
// commands in the server's queue.
const MaxFrameTime = 500 * time.Millisecond

// Frame runs the client for one rendered frame at real time now (any
// monotonic clock; tests pass a fake one): it makes one usercmd for every
// tick interval (1 s / TickRate) of real time that elapsed since the
// previous Frame, each with the input in held during it, so that movement
// and fire rate follow real time whatever the frame rate. At 5 fps and 64
// ticks/s a frame makes 12 or 13 commands, at 144 fps most frames make none
// or one; the time short of a whole tick carries over to the next Frame.
// This is Source's CL_Move, which the engine runs once per whole tick of
// accumulated frame time and which sends a packet only on a frame's final
// tick: the commands of one Frame go out together in one Cmds message when
// cl_cmdrate says a packet is due.
//
// Buttons in in.Pressed (pressed at any moment since the previous Frame,
// even if released since) are latched until a command carries them: a
// click shorter than a frame or a tick is never lost, even when this Frame
// makes no command. A frame longer than MaxFrameTime makes commands for
// MaxFrameTime only (the rest counted in Stats.FrameTicksDropped); after a
// gap longer than StallGap Frame resynchronises the clock (Resync, counted
// in Stats.Resyncs) and makes none. The first Frame only starts the count.
// Frame returns the number of commands made (none before the first
// snapshot).
func (c *Client) Frame(now time.Time, in Input) int {
	c.latched |= in.Pressed
	in.Pressed = 0
	return c.FrameFunc(now, func() Input { return in })
}

// FrameFunc is Frame with the input of each tick asked of input, once per
// tick, after the clock advanced (so RenderTick, Rendered and Predicted are
// those of the command it is for) and before the command is made: for a
// bot brain that thinks every tick. Pressed buttons in its answers are
// latched as in Frame.
func (c *Client) FrameFunc(now time.Time, input func() Input) int {
	defer c.views.stale()
	p := c.clk.pace(now)
	if p.resync && c.clk.haveSnap {
		c.link.resetPacing()
	}
	made := 0
	if !p.idle {
		made = c.runTicks(now, p.ticks, input)
	}
	c.link.tap.frame(DemoFrame{Now: now, Resync: p.resync, Skip: p.skip, Ticks: p.ticks, Acc: c.clk.acc()})
	return made
}

// runTicks runs n ticks of one Frame at real time now: each advances the
// clock and makes one command from input.
func (c *Client) runTicks(now time.Time, n int, input func() Input) int {
	// The commands of this frame claim the render time of the frame last
	// drawn (MarkDrawn): what the player was looking at while it pressed.
	c.clk.beginTicks()
	made := 0
	for i := range n {
		c.clk.tick()
		if i == n-1 {
			_, c.prevLX, c.prevLY = c.pred.local(c.cfg.Predict, c.server.State())
		}
		c.Advance(c.clk.tickDur())
		if c.makeCommand(input()) {
			made++
		}
	}
	c.clk.endTicks(now, n)
	c.link.sendDue(c.tickRate, c.pred.cmdNum, c.cfg.CmdBackup, c.pred.cmd, c.clk.now())
	return made
}

// Advance moves the client's clock and smoothing on by dt of real time and
// fixes the render tick of the next command, so that what the player aims
// at (Rendered) is exactly what that command will tell the server it saw.
func (c *Client) Advance(dt time.Duration) {
	defer c.views.stale()
	c.clk.advance(dt, c.cfg.lerpMs(), c.cfg.drawAt())
	c.pred.decay(dt, c.cfg.Smooth, c.cfg.SmoothMs)
}

// Command makes the next usercmd from in (call it once per tick, after
// Advance): it is predicted at once (shared.RunCommand), stored with its
// result for reconciliation, and sent when cl_cmdrate says a packet is due.
// Buttons pressed since the last command (in.Pressed, and those latched by
// Frame) are added to its Buttons.
func (c *Client) Command(in Input) {
	defer c.views.stale()
	c.makeCommand(in)
	c.link.sendDue(c.tickRate, c.pred.cmdNum, c.cfg.CmdBackup, c.pred.cmd, c.clk.now())
}

// makeCommand makes, predicts and stores one usercmd from in, carrying the
// latched presses; it reports whether it made one (not before the first
// snapshot, when the presses stay latched).
func (c *Client) makeCommand(in Input) bool {
	c.latched |= in.Pressed
	if !c.clk.haveSnap {
		return false
	}
	if spectating(c.clk.haveSnap, c.accept, c.server) {
		// No body: a command without input, for the acks (spectate.go).
		in, c.latched = Input{}, 0
	}
	claim := c.clk.claim()
	cmd := shared.UserCmd{
		CommandNumber: c.pred.nextNumber(),
		TickCount:     claim.tick,
		TickFrac:      claim.frac,
		Msec:          shared.MsecFor(c.tickRate),
		LerpMsec:      claim.lerp,
		Buttons:       (in.Buttons | c.latched) & shared.ButtonsValid,
		MoveX:         clamp32(in.MoveX), MoveY: clamp32(in.MoveY),
		ViewAngle: float32(math.Remainder(float64(in.Angle), 2*math.Pi)),
		Weapon:    min(in.Weapon, shared.NumWeapons-1),
	}
	rt := claim.render
	cmd = c.cmds.next(cmd)
	c.latched = 0
	res := c.pred.run(cmd)
	if c.cfg.Predict {
		c.pick.touch(c.pred, cmd.CommandNumber, c.pred.state(), c.server)
	}
	if res.Fired {
		c.shots.record(ShotView{Cmd: cmd.CommandNumber, RenderTick: rt, AckTick: c.clk.lastSnap,
			Others: c.interp.rendered(rt, c.cfg.lerpOpts(c.tickRate))})
	}
	if c.cfg.Predict && (res.Fired || res.ReloadStarted) {
		c.shots.effect(res)
	}
	c.link.queued(cmd, c.cfg.CmdRate)
	c.views.stale() // a tick's input function may have built a View before this command
	return true
}

func clamp32(v float32) float32 {
	if v != v {
		return 0
	}
	return float32(math.Max(-1, math.Min(1, float64(v))))
}

// Resync jumps the server-time estimate to the newest snapshot's tick plus
// the time since it arrived, as on connect. The window calls it after a
// stall (a hidden browser tab runs no frames): catching up at 5 % would
// take minutes, and making up the missed commands would be a burst the
// server refuses.
func (c *Client) Resync() {
	defer c.views.stale()
	if c.clk.resync(c.clk.now()) {
		c.link.resetPacing()
	}
}

// onSnapshot applies a snapshot; it reports whether it was used.
func (c *Client) onSnapshot(s *proto.Snapshot, at time.Time) bool {
	if !c.link.unpack(s) {
		return false
	}
	// A map change comes before the state it carries: the snapshot's
	// positions are on the new map, and prediction replays against its walls.
	for _, e := range s.Events {
		if e.Kind == proto.EvChangeLevel && c.match.isNew(e) && !c.changeLevel(e.Text) {
			return false
		}
	}
	c.link.applied(s)
	first := !c.clk.haveSnap
	c.clk.observe(s.Tick, at)
	c.clk.serverQueue(int(s.CmdQueue), int(s.CmdTarget), at)
	lifeChanged := !first && (s.Self.Dead != c.server.Dead || s.Self.Teleport != c.server.Teleport ||
		s.Self.Spectator != c.server.Spectator)
	c.server = s.Self
	before := c.pred.corrections
	c.pred.reconcile(s.Self.State(), s.AckCmd, lifeChanged, s.Self.Spectator, c.cfg.Smooth, !c.cfg.NoReconcile)
	c.pick.settle(c.pred, s, c.id, before)
	c.interp.update(s)
	c.match.take(s)
	return true
}

// changeLevel moves the client to map name (EvChangeLevel): its walls for
// prediction and drawing, its size for the camera. A map this build does
// not have ends the connection with a reason that names it.
func (c *Client) changeLevel(name string) bool {
	if name == c.gameMap.Name {
		return true
	}
	m, err := game.LoadMap(name)
	if err != nil {
		c.link.conn.Close("server changed to an unknown map")
		c.err = fmt.Errorf("server changed to %w", err)
		return false
	}
	c.gameMap, c.world = m, m.World(c.tickRate)
	c.pred.setWorld(c.world)
	c.pick.reset()
	c.accept.Map = m.Name // what a demo recorded from now on starts on
	c.match.print("changelevel: map " + m.Name)
	return true
}

// SetFakeConditions simulates network conditions on received snapshots
// (net_fakelag, net_fakejitter, net_fakeloss).
func (c *Client) SetFakeConditions(f proto.FakeConditions) {
	c.link.conn.SetFakeConditions(f)
	c.views.stale()
}

// SetConfig changes the settings (the console's cvars) but not the name:
// cl_updaterate and cl_cmdrate are held to the tick rate (0 cl_cmdrate:
// the tick rate), and a change of a rate the server applies (rate,
// cl_updaterate, cl_cmdrate, cl_interp, cl_interp_ratio, cl_nodelta) is
// sent to it (Settings). The prediction, interpolation and smoothing
// switches take effect from the next Frame.
func (c *Client) SetConfig(cfg Config) {
	cfg.Name, cfg.Password = c.cfg.Name, c.cfg.Password
	cfg.UpdateRate = min(cfg.UpdateRate, c.tickRate)
	if cfg.CmdRate <= 0 || cfg.CmdRate > c.tickRate {
		cfg.CmdRate = c.tickRate
	}
	old := c.cfg
	c.cfg = cfg
	defer c.views.stale()
	if old.Rate != cfg.Rate || old.UpdateRate != cfg.UpdateRate || old.CmdRate != cfg.CmdRate ||
		old.InterpMs != cfg.InterpMs || old.InterpRatio != cfg.InterpRatio || old.NoDelta != cfg.NoDelta {
		c.link.sendSettings(c.cfg)
	}
}

// SendCommand asks the server to run a console command ("kill", "rcon ...").
func (c *Client) SendCommand(text, password string) {
	c.link.send(&proto.Command{Text: text, Password: password})
}
