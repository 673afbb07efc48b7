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
	"sort"
	"strconv"
	"time"

	"tickshot/game"
	"tickshot/net/proto"
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
	SmoothMs    int     // cl_smoothtime in ms (default 100)
	NoDelta     bool    // cl_nodelta: ask for full snapshots only
	Spectate    bool    // join as a spectator (--spectate): no body, every entity in view
	Password    string  // password: the server's join password, "" for none (Source's password cvar)
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

// Entity is another player as the client knows it.
type Entity struct {
	ID uint16
	game.EntityView
	Health int
	Flags  uint8
	seen   uint32 // tick of the last snapshot that carried it
}

// Stats counts what the netcode did.
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
}

type predEntry struct {
	cmd   shared.UserCmd
	state shared.PlayerState // predicted state after cmd
}

const ringSize = 256

// Client is a connected player.
type Client struct {
	Cfg      Config
	conn     *proto.Conn
	ID       uint16
	TickRate int
	Map      *game.Map
	World    *shared.World
	Accept   proto.Accept

	// Prediction.
	cmdNum    uint32
	ring      [ringSize]predEntry
	predicted shared.PlayerState // after the newest command
	ackCmd    uint32
	sentUpTo  uint32
	cmdAcc    float64
	errX      float64 // visual smoothing offset, world units
	errY      float64
	latched   uint16 // buttons pressed since the last command, not yet carried by one

	// Frame pacing (Frame, DrawPos).
	frameAt        time.Time     // now of the previous Frame
	frameAcc       time.Duration // real time elapsed and not yet run as ticks
	maxFrameTicks  int           // most ticks one Frame runs
	lastTickAt     time.Time     // real time of the newest tick Frame ran (zero: none)
	prevLX, prevLY float64       // LocalPos before that tick, world units

	// Authoritative.
	Server     proto.SelfState // newest own state from the server
	Health     int
	haveSnap   bool
	lastSnap   uint32 // newest snapshot tick
	newestSeq  uint32 // Seq of the newest snapshot
	seqBits    uint32 // AckBits: which of the 32 before newestSeq arrived
	lastSnapAt time.Time
	// heard is when the stream last showed life: the newest snapshot's
	// arrival, the connection, or the end of a pause in polling (stall.go).
	heard    time.Time
	lastPoll time.Time // the last Poll, to tell a paused owner from a silent server

	// Clock: estimated newest server tick, fractional.
	clock float64
	// renderTick is where others were drawn for the newest command.
	renderTick float64
	nextTick   uint32 // usercmd fields of the next command, fixed by Advance
	nextFrac   uint8
	nextLerp   uint16
	// drawn is the render-time claim of the frame last drawn (MarkDrawn);
	// the commands of the next Frame claim it, and frame is the claim the
	// command being made uses.
	drawn, frame renderClaim
	shotViews    [16]ShotView
	spec         specCam // the spectator camera (spectate.go)

	Entities    map[uint16]*Entity
	projectiles map[uint16]*projectileView
	Scores      []proto.ScoreEntry
	Names       map[uint16]string
	lastEventID uint32
	events      []proto.Event
	effects     []shared.Result

	Stats  Stats
	Net    NetStats
	frames proto.FrameRing     // entity frames of recent snapshots: delta baselines
	entBuf []proto.EntityState // the newest frame, reused
	evBuf  []proto.Event       // the newest snapshot's events, reused
	cmdSeq uint32
	prints []string
	err    error

	// Demos (demo.go): the clock (nil: time.Now), the recording sink, the
	// Accept as received, and recorded commands that replace the ones
	// made (playback).
	nowFunc   func() time.Time
	rec       *recording
	acceptRaw []byte
	acceptAt  time.Time
	replay    []shared.UserCmd
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

// Connect opens a transport to addr with dial, sends Hello and waits for
// Accept or Reject. The errors say why in words: the dial's error, the
// server's reject reason, or a handshake timeout.
func Connect(ctx context.Context, dial Dialer, addr string, cfg Config) (*Client, error) {
	if cfg.Name == "" {
		cfg.Name = "player"
	}
	cfg.Name = proto.CleanText(cfg.Name, proto.MaxNameLen)
	c, err := connect(ctx, dial, addr, cfg)
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
	conn.Send(&proto.Hello{Protocol: proto.ProtocolVersion, Name: cfg.Name, Rate: uint32(cfg.Rate),
		UpdateRate: uint16(cfg.UpdateRate), CmdRate: uint16(cfg.CmdRate), InterpMs: uint16(cfg.InterpMs),
		InterpRatio: float32(cfg.InterpRatio), NoDelta: cfg.NoDelta, Spectate: cfg.Spectate, Password: cfg.Password})
	timeout := time.NewTimer(proto.HandshakeTimeout)
	defer timeout.Stop()
	select {
	case p, ok := <-conn.Recv():
		if !ok {
			reason, remote := conn.Reason()
			return nil, &ClosedError{Reason: reason, Remote: remote}
		}
		switch m := p.Msg.(type) {
		case *proto.Accept:
			c, err := newClient(conn, cfg, m)
			if c != nil {
				c.acceptRaw, c.acceptAt = p.Raw, p.At
			}
			return c, err
		case *proto.Reject:
			conn.Close("rejected")
			return nil, &RejectError{Reason: m.Reason}
		default:
			conn.Close("protocol error")
			return nil, fmt.Errorf("connect %s: protocol error: expected accept, got %s", addr, m.Type())
		}
	case <-timeout.C:
		conn.Close("handshake timeout")
		return nil, &HandshakeTimeoutError{Addr: addr, After: proto.HandshakeTimeout}
	case <-ctx.Done():
		conn.Close("cancelled")
		return nil, ctx.Err()
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
	c := &Client{Cfg: cfg, conn: conn, ID: a.PlayerID, TickRate: int(a.TickRate), Map: m,
		World: m.World(int(a.TickRate)), Accept: *a, Entities: map[uint16]*Entity{}, projectiles: map[uint16]*projectileView{}, Names: map[uint16]string{},
		clock: float64(a.Tick), heard: time.Now()}
	if c.Cfg.CmdRate <= 0 || c.Cfg.CmdRate > c.TickRate {
		c.Cfg.CmdRate = c.TickRate
	}
	// A Frame makes at most MaxFrameTime of commands, no more than one
	// Cmds message holds, nor more than the server queues for a client
	// (2 × sv_maxusrcmdprocessticks, server/session.go).
	c.maxFrameTicks = min(c.TickRate*int(MaxFrameTime/time.Millisecond)/1000, proto.MaxCmdsPerMsg)
	for _, v := range a.Cvars {
		if n, err := strconv.Atoi(v.Value); err == nil && v.Name == "sv_maxusrcmdprocessticks" && n > 0 {
			c.maxFrameTicks = min(c.maxFrameTicks, 2*n)
		}
	}
	c.maxFrameTicks = max(c.maxFrameTicks, 1)
	c.Cfg.UpdateRate = int(a.UpdateRate)
	c.predicted.Dead = true // until the first snapshot
	return c, nil
}

// Err returns why the connection ended, or nil while it is up.
func (c *Client) Err() error { return c.err }

// Close disconnects with a reason.
func (c *Client) Close(reason string) { c.conn.Close(reason) }

// Closed is closed once the connection has released its link after Close
// (the Disconnect was written or failed): from then on the server can see
// that this client left.
func (c *Client) Closed() <-chan struct{} { return c.conn.Closed() }

// ConnStats returns the transport counters.
func (c *Client) ConnStats() proto.Stats { return c.conn.Stats() }

// InterpTicks returns the interpolation period in ticks:
// max(cl_interp, cl_interp_ratio / cl_updaterate).
func (c *Client) InterpTicks() float64 {
	return c.InterpMs() * float64(c.TickRate) / 1000
}

// InterpMs returns the interpolation period in whole ms (the usercmd's
// lerp_msec): max(cl_interp, cl_interp_ratio / cl_updaterate), rounded.
func (c *Client) InterpMs() float64 {
	return math.Round(math.Min(game.InterpPeriodMs(float64(c.Cfg.InterpMs), c.Cfg.InterpRatio, c.Cfg.UpdateRate), proto.MaxInterpMs))
}

// clockParts splits the clock into the usercmd's TickCount and TickFrac.
func (c *Client) clockParts() (uint32, uint8) {
	q := math.Round(math.Max(c.clock, 0) * 256)
	return uint32(q / 256), uint8(math.Mod(q, 256))
}

// ServerTick returns the estimated current server tick (fractional).
func (c *Client) ServerTick() float64 { return c.clock }

// RenderTick returns the tick at which other players are drawn: that of the
// next usercmd, fixed by Advance (so that the server can rewind to exactly it).
func (c *Client) RenderTick() float64 {
	if !c.Cfg.Interpolate {
		return float64(c.lastSnap)
	}
	return c.renderTick
}

// ShotView is what the client drew when it fired: every other player at the
// command's render tick (for sv_showimpacts and the hit-registration benchmark).
type ShotView struct {
	Cmd        uint32
	RenderTick float64
	Others     []RenderedEntity
}

func (c *Client) recordShotView(cmd uint32, rt float64) {
	c.shotViews[cmd%uint32(len(c.shotViews))] = ShotView{Cmd: cmd, RenderTick: rt, Others: c.renderedAt(rt)}
}

// renderClaim is the render time a usercmd claims: the usercmd fields and
// the render tick they give (shared.UserCmd.RenderTick).
type renderClaim struct {
	tick   uint32
	frac   uint8
	lerp   uint16
	render float64
	ok     bool
}

// MarkDrawn tells the client that the frame it last advanced to (by Frame)
// is the one on screen: the commands of the next Frame then all claim its
// render time, so a shot is rewound to what the player saw when it clicked,
// not to a later tick of a slow frame that was never drawn (Bernier 2001:
// the server must reconstruct "what the player was looking at"). Windows
// call it from Draw; a client that draws nothing (a bot) does not, and its
// commands claim their own ticks.
func (c *Client) MarkDrawn() {
	c.drawn = renderClaim{tick: c.nextTick, frac: c.nextFrac, lerp: c.nextLerp, render: c.renderTick, ok: true}
}

// ShotViewOf returns what the client drew when it fired command cmd, if it
// is among the last 16 shots' commands.
func (c *Client) ShotViewOf(cmd uint32) (ShotView, bool) {
	v := c.shotViews[cmd%uint32(len(c.shotViews))]
	return v, v.Cmd == cmd && cmd != 0
}

// Predicted returns the local player's predicted state after the newest
// command (or the newest server state with prediction off).
func (c *Client) Predicted() shared.PlayerState {
	if !c.Cfg.Predict {
		return c.Server.State()
	}
	return c.predicted
}

// LocalPos returns where to draw the local player: the prediction plus the
// decaying correction offset (cl_smooth).
func (c *Client) LocalPos() (float64, float64) {
	s := c.Predicted()
	if !c.Cfg.Predict {
		return s.X, s.Y
	}
	return s.X + c.errX, s.Y + c.errY
}

// CommandNumber returns the newest command number made.
func (c *Client) CommandNumber() uint32 { return c.cmdNum }

// AckCmd returns the newest command the server ran.
func (c *Client) AckCmd() uint32 { return c.ackCmd }

// HaveSnapshot reports whether a snapshot has arrived.
func (c *Client) HaveSnapshot() bool { return c.haveSnap }

// TakeEvents returns the server events that arrived since the last call, in order.
func (c *Client) TakeEvents() []proto.Event {
	e := c.events
	c.events = nil
	return e
}

// TakeEffects returns the results of commands predicted for the first time
// since the last call (for sounds, muzzle flashes and tracers, which play once).
func (c *Client) TakeEffects() []shared.Result {
	e := c.effects
	c.effects = nil
	return e
}

// Poll processes every message that has arrived. It returns the connection
// error once the connection has ended: the server closed it, the transport
// failed, or no snapshot arrived for Config.Timeout (a *ClosedError with
// TimedOut set; the client then closes the connection itself).
func (c *Client) Poll() error {
	if c.err != nil {
		return c.err
	}
	now := c.now()
	c.notePoll(now)
	for {
		select {
		case p, ok := <-c.conn.Recv():
			if !ok {
				reason, remote := c.conn.Reason()
				c.err = &ClosedError{Reason: reason, Remote: remote}
				return c.err
			}
			c.handle(p)
		default:
			return c.checkTimeout(now)
		}
	}
}

func (c *Client) handle(p proto.Packet) {
	if c.rec != nil {
		c.recordPacket(p)
	}
	c.Net.In.Add(p.At, p.Size)
	switch m := p.Msg.(type) {
	case *proto.Snapshot:
		c.noteSnapshot(p.At)
		if c.onSnapshot(m, p.At) {
			c.Net.record(m, p, c)
		}
	case *proto.Print:
		c.prints = append(c.prints, m.Text)
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
// 32 ticks, and 2 × the server's sv_maxusrcmdprocessticks: what one Cmds
// message carries and the server queues). A longer frame, up to StallGap,
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
	if c.rec != nil {
		c.rec.frame = DemoFrame{Now: now}
		defer c.recordFrame()
	}
	if c.frameAt.IsZero() {
		// The first frame: the clock stood still since the handshake (a
		// window's first frames can take half a second), so start it at the
		// newest snapshot rather than nudge it there at 5 % for seconds,
		// during which every shot's claimed render time would lag what the
		// server can credit.
		c.frameAt = now
		c.resyncAt(now)
		if c.rec != nil {
			c.rec.frame.Resync = true
		}
		return 0
	}
	elapsed := now.Sub(c.frameAt)
	c.frameAt = now
	if elapsed <= 0 {
		return 0
	}
	if elapsed > StallGap {
		if c.haveSnap {
			c.resyncAt(now)
			c.Stats.Resyncs++
			if c.rec != nil {
				c.rec.frame.Resync = true
			}
		}
		c.frameAcc = 0
		return 0
	}
	tick := time.Second / time.Duration(c.TickRate)
	c.frameAcc += elapsed
	n := int(c.frameAcc / tick)
	if n > c.maxFrameTicks {
		// Keep the clock at real time; make commands for the newest ticks only.
		skip := n - c.maxFrameTicks
		c.advanceClock(time.Duration(skip) * tick)
		c.Stats.FrameTicksDropped += skip
		c.frameAcc -= time.Duration(skip) * tick
		n = c.maxFrameTicks
		if c.rec != nil {
			c.rec.frame.Skip = skip
		}
	}
	return c.runTicks(now, n, input)
}

// runTicks runs n ticks of one Frame at real time now: each advances the
// clock and makes one command from input.
func (c *Client) runTicks(now time.Time, n int, input func() Input) int {
	tick := time.Second / time.Duration(c.TickRate)
	// The commands of this frame claim the render time of the frame last
	// drawn (MarkDrawn), if it is at most MaxFrameTime old: what the player
	// was looking at while it pressed.
	c.frame = c.drawn
	c.drawn.ok = false
	if c.frame.ok && c.renderTick-c.frame.render > MaxFrameTime.Seconds()*float64(c.TickRate) {
		c.frame.ok = false
	}
	defer func() { c.frame.ok = false }()
	made := 0
	for i := range n {
		c.frameAcc -= tick
		if i == n-1 {
			c.prevLX, c.prevLY = c.LocalPos()
		}
		c.Advance(tick)
		if c.makeCommand(input()) {
			made++
		}
	}
	if n > 0 {
		c.lastTickAt = now.Add(-c.frameAcc)
	}
	if c.rec != nil {
		c.rec.frame.Ticks = n
	}
	c.sendDue()
	return made
}

// DrawPos returns where to draw the local player at real time now (the
// clock Frame is given): LocalPos before the newest tick Frame ran, moved
// towards LocalPos after it by the fraction of a tick that has passed since
// that tick's real time (the render interpolation of Fiedler's "Fix Your
// Timestep!"). A 144 Hz display so shows smooth motion instead of steps of
// a tick, at most one tick (1 s / TickRate) behind the prediction; when a
// Frame ran several ticks, only the last is interpolated over. A jump of
// more than 64 world units (a respawn) is not slid across. Before the
// first Frame tick it is LocalPos.
func (c *Client) DrawPos(now time.Time) (float64, float64) {
	x, y := c.LocalPos()
	if c.lastTickAt.IsZero() {
		return x, y
	}
	px, py := c.prevLX, c.prevLY
	if math.Hypot(x-px, y-py) > 64 {
		return x, y
	}
	a := float64(now.Sub(c.lastTickAt)) * float64(c.TickRate) / float64(time.Second)
	a = math.Max(0, math.Min(1, a))
	return px + (x-px)*a, py + (y-py)*a
}

// Advance moves the client's clock and smoothing on by dt of real time and
// fixes the render tick of the next command, so that what the player aims
// at (Rendered) is exactly what that command will tell the server it saw.
func (c *Client) Advance(dt time.Duration) {
	c.advanceClock(dt)
	if c.Cfg.Smooth && c.Cfg.SmoothMs > 0 {
		k := math.Exp(-dt.Seconds() * 1000 / float64(c.Cfg.SmoothMs) * 3)
		c.errX, c.errY = c.errX*k, c.errY*k
	} else {
		c.errX, c.errY = 0, 0
	}
	c.nextTick, c.nextFrac = c.clockParts()
	c.nextLerp = uint16(c.InterpMs())
	if !c.Cfg.Interpolate {
		// Others are drawn as the newest snapshot has them: say exactly
		// that (lerp 0, as Source sends), so the rewind matches.
		c.nextTick, c.nextFrac, c.nextLerp = c.lastSnap, 0, 0
	}
	cmd := shared.UserCmd{TickCount: c.nextTick, TickFrac: c.nextFrac, LerpMsec: c.nextLerp}
	c.renderTick = cmd.RenderTick(c.TickRate)
}

// Command makes the next usercmd from in (call it once per tick, after
// Advance): it is predicted at once (shared.RunCommand), stored with its
// result for reconciliation, and sent when cl_cmdrate says a packet is due.
// Buttons pressed since the last command (in.Pressed, and those latched by
// Frame) are added to its Buttons.
func (c *Client) Command(in Input) {
	c.makeCommand(in)
	c.sendDue()
}

// makeCommand makes, predicts and stores one usercmd from in, carrying the
// latched presses; it reports whether it made one (not before the first
// snapshot, when the presses stay latched).
func (c *Client) makeCommand(in Input) bool {
	c.latched |= in.Pressed
	if !c.haveSnap {
		return false
	}
	if c.Spectating() {
		// No body: a command without input, for the acks (spectate.go).
		in, c.latched = Input{}, 0
	}
	c.cmdNum++
	cmd := shared.UserCmd{
		CommandNumber: c.cmdNum,
		TickCount:     c.nextTick,
		TickFrac:      c.nextFrac,
		Msec:          shared.MsecFor(c.TickRate),
		LerpMsec:      c.nextLerp,
		Buttons:       (in.Buttons | c.latched) & shared.ButtonsValid,
		MoveX:         clamp32(in.MoveX), MoveY: clamp32(in.MoveY),
		ViewAngle: float32(math.Remainder(float64(in.Angle), 2*math.Pi)),
		Weapon:    min(in.Weapon, shared.NumWeapons-1),
	}
	rt := c.renderTick
	if c.frame.ok {
		cmd.TickCount, cmd.TickFrac, cmd.LerpMsec, rt = c.frame.tick, c.frame.frac, c.frame.lerp, c.frame.render
	}
	if len(c.replay) > 0 {
		cmd = c.takeReplay(cmd) // demo playback: the recorded command
	}
	if c.rec != nil {
		c.rec.frame.Cmds = append(c.rec.frame.Cmds, cmd)
	}
	c.latched = 0
	var res shared.Result
	c.predicted, res = shared.RunCommand(c.predicted, cmd, c.World)
	c.ring[c.cmdNum%ringSize] = predEntry{cmd: cmd, state: c.predicted}
	if res.Fired {
		c.recordShotView(cmd.CommandNumber, rt)
	}
	if c.Cfg.Predict && (res.Fired || res.ReloadStarted) {
		c.effects = append(c.effects, res)
	}
	c.cmdAcc += float64(c.Cfg.CmdRate)
	return true
}

// sendDue sends the commands not yet sent when cl_cmdrate says a packet is
// due: cl_cmdrate is added to an accumulator per command made, and a
// packet is due when it reaches the tick rate. Several commands made
// together (one Frame) go out in one packet.
func (c *Client) sendDue() {
	if tr := float64(c.TickRate); c.cmdAcc >= tr {
		c.cmdAcc = math.Mod(c.cmdAcc, tr)
		c.sendCmds()
	}
}

func clamp32(v float32) float32 {
	if v != v {
		return 0
	}
	return float32(math.Max(-1, math.Min(1, float64(v))))
}

func (c *Client) sendCmds() {
	from := c.sentUpTo + 1
	if back := uint32(c.Cfg.CmdBackup); from > back {
		from -= back
	} else {
		from = 1
	}
	if c.cmdNum-from+1 > proto.MaxCmdsPerMsg {
		from = c.cmdNum - proto.MaxCmdsPerMsg + 1
	}
	if from > c.cmdNum {
		return
	}
	c.cmdSeq++
	msg := &proto.Cmds{Ack: c.newestSeq, AckBits: c.seqBits, Seq: c.cmdSeq, Cmds: make([]shared.UserCmd, 0, c.cmdNum-from+1)}
	for n := from; n <= c.cmdNum; n++ {
		msg.Cmds = append(msg.Cmds, c.ring[n%ringSize].cmd)
	}
	b := proto.MustEncode(msg)
	if c.conn.SendRaw(b) {
		c.Stats.CmdsSent += int(c.cmdNum - c.sentUpTo)
		c.Stats.PacketsSent++
		c.sentUpTo = c.cmdNum
		c.Net.Out.Add(c.now(), len(b))
	}
}

// Resync jumps the server-time estimate to the newest snapshot's tick plus
// the time since it arrived, as on connect. The window calls it after a
// stall (a hidden browser tab runs no frames): catching up at 5 % would
// take minutes, and making up the missed commands would be a burst the
// server refuses.
func (c *Client) Resync() { c.resyncAt(c.now()) }

// resyncAt is Resync at real time now.
func (c *Client) resyncAt(now time.Time) {
	if !c.haveSnap {
		return
	}
	ahead := math.Min(now.Sub(c.lastSnapAt).Seconds(), 1) * float64(c.TickRate)
	c.clock = float64(c.lastSnap) + math.Max(ahead, 0)
	c.cmdAcc = 0
	c.frameAcc = 0
}

// rebuildEntities turns the snapshot's EntityDelta into its entity frame
// (s.Entities), against the baseline frame it names, and keeps the frame
// as a baseline for later snapshots. A baseline this client no longer
// holds drops the snapshot (counted; the server falls back to a full
// snapshot once acks resume); a malformed delta is a protocol error that
// closes the connection.
func (c *Client) rebuildEntities(s *proto.Snapshot) bool {
	var base []proto.EntityState
	if s.Baseline != 0 {
		b, ok := c.frames.Get(s.Baseline)
		if !ok {
			c.Stats.BaselineMissing++
			return false
		}
		base = b
	}
	ents, err := proto.ApplyEntityDelta(c.entBuf[:0], base, s.EntityDelta)
	if err != nil {
		c.conn.Close("protocol error: " + err.Error())
		return false
	}
	c.entBuf = ents
	s.Entities = ents
	c.frames.Put(s.Seq, ents)
	if s.Baseline == 0 {
		c.Stats.FullSnapshots++
	}
	return true
}

// advanceClock runs the server-time estimate at real speed, nudged up to 5%
// towards the newest snapshot tick; it jumps only when more than half a
// second off (connect, long stall).
func (c *Client) advanceClock(dt time.Duration) {
	if !c.haveSnap {
		return
	}
	errTicks := float64(c.lastSnap) - c.clock
	adj := math.Max(-0.05, math.Min(0.05, errTicks*0.02))
	c.clock += dt.Seconds() * float64(c.TickRate) * (1 + adj)
}

// onSnapshot applies a snapshot; it reports whether it was used.
func (c *Client) onSnapshot(s *proto.Snapshot, at time.Time) bool {
	if c.haveSnap && s.Tick <= c.lastSnap {
		c.Stats.DroppedSnapshots++
		return false
	}
	if !c.rebuildEntities(s) {
		return false
	}
	events, err := proto.DecodeEvents(c.evBuf[:0], s.Tick, s.EventData)
	if err != nil {
		c.conn.Close("protocol error: " + err.Error())
		return false
	}
	c.evBuf, s.Events = events, events
	// A map change comes before the state it carries: the snapshot's
	// positions are on the new map, and prediction replays against its walls.
	for _, e := range s.Events {
		if e.Kind == proto.EvChangeLevel && e.ID > c.lastEventID && !c.changeLevel(e.Text) {
			return false
		}
	}
	c.Stats.SnapshotsReceived++
	c.trackSeq(s.Seq)
	c.Stats.PingMs = int(s.PingMs)
	c.Stats.TickTimeUs = int(s.TickTimeUs)
	first := !c.haveSnap
	c.haveSnap = true
	c.lastSnap = s.Tick
	c.lastSnapAt = at
	if first || math.Abs(float64(s.Tick)-c.clock) > float64(c.TickRate)/2 {
		c.clock = float64(s.Tick)
	}
	lifeChanged := !first && (s.Self.Dead != c.Server.Dead || s.Self.Teleport != c.Server.Teleport ||
		s.Self.Spectator != c.Server.Spectator)
	c.Server = s.Self
	c.Health = int(s.Self.Health)
	c.reconcile(s, lifeChanged)
	c.updateEntities(s)
	c.updateProjectiles(s)
	for _, e := range s.Events {
		if e.ID > c.lastEventID {
			c.lastEventID = e.ID
			c.events = append(c.events, e)
		}
	}
	if len(s.Scores) > 0 {
		// A row without a name is a player whose name this client has.
		c.Scores = append(c.Scores[:0], s.Scores...)
		for i, r := range c.Scores {
			if r.Name != "" {
				c.Names[r.ID] = r.Name
			} else {
				c.Scores[i].Name = c.Names[r.ID]
			}
		}
	}
	return true
}

// changeLevel moves the client to map name (EvChangeLevel): its walls for
// prediction and drawing, its size for the camera. A map this build does
// not have ends the connection with a reason that names it.
func (c *Client) changeLevel(name string) bool {
	if name == c.Map.Name {
		return true
	}
	m, err := game.LoadMap(name)
	if err != nil {
		c.conn.Close("server changed to an unknown map")
		c.err = fmt.Errorf("server changed to %w", err)
		return false
	}
	c.Map, c.World = m, m.World(c.TickRate)
	c.Accept.Map = m.Name // what a demo recorded from now on starts on
	c.spec.placed = false // the spectator camera starts at the new map's centre
	c.prints = append(c.prints, "changelevel: map "+m.Name)
	return true
}

// reconcile compares the server's state after AckCmd with what was
// predicted for that command; on a difference it counts a prediction error
// (or, when lifeChanged, a death or respawn: the server's decision, which
// no prediction foresees), takes the server's state and replays the
// unacknowledged commands.
func (c *Client) reconcile(s *proto.Snapshot, lifeChanged bool) {
	auth := s.Self.State()
	ack := s.AckCmd
	if ack > c.cmdNum {
		ack = c.cmdNum // cannot ack what was never made; treat as newest
	}
	c.ackCmd = ack
	if s.Self.Spectator {
		// No body to predict: every command's result is the server's
		// state, and nothing is an error (spectate.go).
		start := max(ack, 1)
		if c.cmdNum >= ringSize {
			start = max(start, c.cmdNum-ringSize+1)
		}
		for n := start; n <= c.cmdNum; n++ {
			c.ring[n%ringSize].state = auth
		}
		c.predicted, c.errX, c.errY = auth, 0, 0
		return
	}
	oldX, oldY := c.predicted.X, c.predicted.Y
	match := false
	if ack > 0 && c.cmdNum-ack < ringSize {
		match = c.ring[ack%ringSize].state.Equal(auth)
	} else if ack == 0 && c.cmdNum == 0 {
		match = c.predicted.Equal(auth)
	}
	if match {
		return
	}
	if ack > 0 && c.cmdNum-ack < ringSize {
		p := c.ring[ack%ringSize].state
		if lifeChanged {
			c.Stats.LifeResets++
		} else {
			c.Stats.Corrections++
			c.Stats.LastErrorDist = math.Hypot(p.X-auth.X, p.Y-auth.Y)
		}
	}
	// Rebase and replay.
	st := auth
	if ack > 0 && c.cmdNum-ack < ringSize {
		c.ring[ack%ringSize].state = st
	}
	start := ack + 1
	if c.cmdNum >= ringSize && start < c.cmdNum-ringSize+1 {
		start = c.cmdNum - ringSize + 1
	}
	for n := start; n <= c.cmdNum && n > 0; n++ {
		e := &c.ring[n%ringSize]
		st, _ = shared.RunCommand(st, e.cmd, c.World)
		e.state = st
	}
	c.predicted = st
	// Hide the jump: the drawn position keeps where it was and decays to the truth.
	jump := math.Hypot(c.predicted.X-oldX, c.predicted.Y-oldY)
	if c.Cfg.Smooth && jump < 64 && !auth.Dead {
		c.errX += oldX - c.predicted.X
		c.errY += oldY - c.predicted.Y
	} else {
		c.errX, c.errY = 0, 0
	}
}

func (c *Client) updateEntities(s *proto.Snapshot) {
	for _, es := range s.Entities {
		e := c.Entities[es.ID]
		if e == nil {
			e = &Entity{ID: es.ID}
			e.Teleport = es.Teleport
			c.Entities[es.ID] = e
		}
		e.Observe(es.Sample(s.Tick), es.Teleport, c.TickRate)
		e.Health = int(es.Health)
		e.Flags = es.Flags
		e.seen = s.Tick
	}
	for id, e := range c.Entities {
		if e.seen != s.Tick {
			delete(c.Entities, id)
		}
	}
}

// RenderedEntity is another player at the render time.
type RenderedEntity struct {
	ID           uint16
	X, Y         float64
	Angle        float64
	Alive        bool
	Health       int
	Bot          bool
	Protected    bool // under spawn protection (mp_spawnprotection)
	Extrapolated bool
}

// Rendered returns every other player at RenderTick, sorted by ID.
func (c *Client) Rendered() []RenderedEntity { return c.renderedAt(c.RenderTick()) }

// renderedAt returns every other player at render tick rt, sorted by ID.
func (c *Client) renderedAt(rt float64) []RenderedEntity {
	out := make([]RenderedEntity, 0, len(c.Entities))
	for _, e := range c.Entities {
		if r, ok := c.renderOne(e, rt); ok {
			out = append(out, r)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].ID < out[j].ID })
	return out
}

// renderOne is entity e at render tick rt, as Rendered draws it: false
// when its history has no sample for rt.
func (c *Client) renderOne(e *Entity, rt float64) (RenderedEntity, bool) {
	var smp game.Sample
	var extra, ok bool
	if c.Cfg.Interpolate {
		smp, extra, ok = e.Hist.At(rt, float64(c.Cfg.ExtrapMs)*float64(c.TickRate)/1000)
	} else {
		smp, ok = e.Hist.Newest()
	}
	if !ok {
		return RenderedEntity{}, false
	}
	return RenderedEntity{ID: e.ID, X: smp.X, Y: smp.Y, Angle: smp.Angle, Alive: smp.Alive,
		Health: e.Health, Bot: e.Flags&proto.FlagBot != 0, Protected: e.Flags&proto.FlagProtected != 0, Extrapolated: extra}, true
}

// Name returns a player's name from the scoreboard.
func (c *Client) Name(id uint16) string {
	if n, ok := c.Names[id]; ok {
		return n
	}
	return fmt.Sprintf("player %d", id)
}

// SetFakeConditions simulates network conditions on received snapshots
// (net_fakelag, net_fakejitter, net_fakeloss).
func (c *Client) SetFakeConditions(f proto.FakeConditions) { c.conn.SetFakeConditions(f) }

// trackSeq records the arrival of snapshot seq for AckBits.
func (c *Client) trackSeq(seq uint32) {
	if seq <= c.newestSeq {
		return
	}
	shift := seq - c.newestSeq
	if c.newestSeq != 0 {
		c.Stats.SnapshotsLost += int(shift - 1)
	}
	if c.newestSeq == 0 || shift > 32 {
		c.seqBits = 0 // the previous newest is outside the 32-snapshot window
	} else {
		c.seqBits = c.seqBits<<shift | 1<<(shift-1)
	}
	c.newestSeq = seq
}

type projectileView struct {
	hist   game.History
	weapon uint8
	owner  uint16
	seen   uint32
}

func (c *Client) updateProjectiles(s *proto.Snapshot) {
	for _, ps := range s.Projectiles {
		v := c.projectiles[ps.ID]
		if v == nil {
			v = &projectileView{weapon: ps.Weapon, owner: ps.Owner}
			c.projectiles[ps.ID] = v
		}
		v.hist.Add(game.Sample{Tick: s.Tick, X: proto.FromFixed(ps.X), Y: proto.FromFixed(ps.Y),
			Angle: math.Atan2(float64(ps.VY), float64(ps.VX)), Alive: true})
		v.seen = s.Tick
	}
	for id, v := range c.projectiles {
		if v.seen != s.Tick {
			delete(c.projectiles, id)
		}
	}
}

// RenderedProjectile is a projectile in flight at the render time.
type RenderedProjectile struct {
	ID     uint16
	Owner  uint16
	Weapon uint8
	X, Y   float64
	Angle  float64
}

// Projectiles returns the projectiles at RenderTick, sorted by ID.
func (c *Client) Projectiles() []RenderedProjectile {
	rt := c.RenderTick()
	out := make([]RenderedProjectile, 0, len(c.projectiles))
	for id, v := range c.projectiles {
		smp, _, ok := v.hist.At(rt, float64(c.Cfg.ExtrapMs)*float64(c.TickRate)/1000)
		if ok {
			out = append(out, RenderedProjectile{ID: id, Owner: v.owner, Weapon: v.weapon, X: smp.X, Y: smp.Y, Angle: smp.Angle})
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].ID < out[j].ID })
	return out
}

// TakePrints returns the lines the server sent for the console.
func (c *Client) TakePrints() []string {
	p := c.prints
	c.prints = nil
	return p
}

// SendCommand asks the server to run a console command ("kill", "rcon ...").
func (c *Client) SendCommand(text, password string) {
	c.conn.Send(&proto.Command{Text: text, Password: password})
}

// SendSettings tells the server the current rates after a change of
// rate, cl_updaterate, cl_cmdrate, cl_interp or cl_interp_ratio.
func (c *Client) SendSettings() {
	c.conn.Send(&proto.Settings{Rate: uint32(c.Cfg.Rate), UpdateRate: uint16(c.Cfg.UpdateRate),
		CmdRate: uint16(c.Cfg.CmdRate), InterpMs: uint16(c.Cfg.InterpMs), InterpRatio: float32(c.Cfg.InterpRatio),
		NoDelta: c.Cfg.NoDelta})
}

// FakeConditions returns the simulated conditions on received messages.
func (c *Client) FakeConditions() proto.FakeConditions { return c.conn.FakeConditions() }
