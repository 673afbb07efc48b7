//go:build !headless

// Package client is Tickshot's Ebiten game window: input sampled every
// frame into usercmds for the ticks of real time that passed (Source's
// CL_Move, netclient.Client.Frame), the local player predicted and
// everyone else interpolated by package netclient, and the arena, players,
// tracers, HUD, kill feed, scoreboard and menus drawn every frame.
package client

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"os"
	"strings"
	"time"

	"github.com/hajimehoshi/ebiten/v2"
	"github.com/hajimehoshi/ebiten/v2/inpututil"

	"tickshot/client/netclient"
	"tickshot/game"
	"tickshot/net/proto"
	"tickshot/shared"
)

// Options configure the game window.
type Options struct {
	// Addr is the server to join, host:port.
	Addr string
	// Config is the client's netcode configuration (name, rates, switches).
	Config netclient.Config
	// Title is the window title.
	Title string
	// Width and Height are the initial window size in pixels (default 1280x720).
	Width, Height int
	// NoSound disables audio.
	NoSound bool
	// ScreenshotPath, when set, saves a PNG of the screen after
	// ScreenshotAfter of play and then quits (for tests under Xvfb).
	ScreenshotPath  string
	ScreenshotAfter time.Duration
	// ReportPath, when set, receives a JSON Report when the window closes.
	ReportPath string
	// Host, when set, is the in-process listen server: its host's console
	// may run server commands and set sv_* cvars.
	Host interface{ Exec(line string) string }
	// ServerCvars are the names of the server's cvars (for the console).
	ServerCvars []string
	// ConfigFile, when set, is a file of console lines run at start.
	ConfigFile string
	// Cvars are set at start, after ConfigFile (from --cvar name=value).
	Cvars [][2]string
	// Quit, when closed, closes the window cleanly (e.g. on SIGINT).
	Quit <-chan struct{}
	// AutoPlay drives the local player with the bot brain (a demo mode,
	// and the way README's screenshots are taken).
	AutoPlay bool
	// Script, when set, replaces the keyboard and mouse (for tests).
	Script func(t time.Duration) (netclient.Input, bool)
}

type phase int

const (
	phaseConnecting phase = iota
	phasePlaying
	phaseError
)

// Game is the ebiten.Game of the window.
type Game struct {
	opt   Options
	phase phase
	err   error

	connCh chan connResult
	cancel context.CancelFunc
	c      *netclient.Client

	w, h      int
	started   time.Time
	lastFrame time.Time
	fps       float64
	menu      bool
	quit      bool
	shotSaved bool
	// fireCmd is the newest command that fired (predicted): the server's
	// spawn protection flag is stale until it has run that command.
	fireCmd    uint32
	playFrames int // frames drawn while playing (a screenshot waits for some)

	frames     int
	shotsFired int
	hitsDealt  int
	hitsTaken  int
	seen       map[uint16]bool // other players drawn at least once
	impactErrs []float64       // sv_showimpacts: client-drawn vs server-rewound distance
	impactRefd []bool          // whether the server refused that shot's claimed render time

	brain       *game.Bot
	con         console
	chat        chat
	netGraphUs  float64 // smoothed cost of drawing the net_graph, µs
	draw        drawState
	ngText      *ebiten.Image // cached net_graph text
	ngTextAt    time.Time
	ngTextLevel int
	ngMaxSize   float64
	cvars       map[string]*cvar
	fx          effects
	sound       *sounds
	aim         float64 // current aim, radians
	weapon      uint8   // weapon the player wants in hand
	// lastUpdate is when the previous update of play ran (real time).
	lastUpdate time.Time
	// moved is the path length of the local player's prediction, world
	// units; lastPX, lastPY its position at the previous update.
	moved          float64
	lastPX, lastPY float64
	havePos        bool
	// connectedOnce is set when the current connection attempt succeeds
	// (and cleared by a new attempt), so a later error reads "Disconnected"
	// rather than "Could not connect".
	connectedOnce bool
	// trouble is what the window showed of stalled snapshots (trouble.go).
	trouble trouble
	// resyncs counts clock resynchronisations after a stall (hidden tab).
	resyncs int
	bridge  bridge
}

type connResult struct {
	c   *netclient.Client
	err error
}

// Run opens the window, connects to opt.Addr and plays until the window is
// closed or the player quits. It returns the connection error if the game
// ended because of one.
func Run(opt Options) error {
	if opt.Width == 0 {
		opt.Width, opt.Height = 1280, 720
	}
	if opt.Title == "" {
		opt.Title = "Tickshot"
	}
	g := &Game{opt: opt, w: opt.Width, h: opt.Height, started: time.Now(), cvars: newCvars()}
	if err := g.initCvars(); err != nil {
		return err
	}
	if !opt.NoSound {
		g.sound = newSounds()
	}
	g.initBridge()
	g.connect()
	ebiten.SetWindowSize(opt.Width, opt.Height)
	ebiten.SetWindowTitle(opt.Title)
	ebiten.SetWindowResizingMode(ebiten.WindowResizingModeEnabled)
	// One Update per frame, whatever the frame rate: Frame turns the real
	// time that passed into ticks, and no frame's input is skipped (with a
	// fixed TPS Ebiten runs Update 0, 1 or more times per frame, and the
	// input of a frame without one is never seen).
	ebiten.SetTPS(ebiten.SyncWithFPS)
	g.applyVsync()
	ebiten.SetScreenClearedEveryFrame(false) // Draw covers the screen: one full-screen pass less
	err := ebiten.RunGame(g)
	if opt.ReportPath != "" {
		g.writeReport(opt.ReportPath)
	}
	if g.c != nil {
		g.c.Close("player quit")
	}
	if g.cancel != nil {
		g.cancel()
	}
	if errors.Is(err, ebiten.Termination) {
		err = nil
	}
	if err != nil {
		return err
	}
	if g.phase == phaseError && g.err != nil {
		return g.err
	}
	return nil
}

func (g *Game) connect() {
	g.phase = phaseConnecting
	g.err = nil
	g.connectedOnce = false
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	g.cancel = cancel
	ch := make(chan connResult, 1)
	g.connCh = ch
	go func() {
		c, err := netclient.Connect(ctx, netclient.Websocket, g.opt.Addr, g.opt.Config)
		ch <- connResult{c, err}
	}()
}

// Layout implements ebiten.Game: the screen is the window's size (text
// stays crisp), up to the view the server selects snapshots for
// (game.ViewWidth × game.ViewHeight world units, drawn 1:1): a larger window
// is scaled up rather than shown more of the arena, so every player it
// could draw is on the wire and nobody sees past what the server sends.
func (g *Game) Layout(outsideW, outsideH int) (int, int) {
	w, h := float64(max(outsideW, 320)), float64(max(outsideH, 200))
	if s := math.Max(w/game.ViewWidth, h/game.ViewHeight); s > 1 {
		w, h = w/s, h/s
	}
	g.w, g.h = int(w), int(h)
	return g.w, g.h
}

// Update implements ebiten.Game; it runs once per frame (SyncWithFPS).
func (g *Game) Update() error {
	if g.quit || (g.opt.ScreenshotPath != "" && g.shotSaved) {
		return ebiten.Termination
	}
	select {
	case <-g.opt.Quit:
		return ebiten.Termination
	default:
	}
	if g.sound != nil {
		g.sound.update()
	}
	g.bridgeUpdate()
	switch g.phase {
	case phaseConnecting:
		select {
		case r := <-g.connCh:
			if r.err != nil {
				g.phase, g.err = phaseError, r.err
				return nil
			}
			g.c = r.c
			g.phase = phasePlaying
			g.connectedOnce = true
			g.lastUpdate = time.Time{}
			g.c.SetFakeConditions(g.fakeConditions())
			g.con.print(fmt.Sprintf("connected to %s: map %s, %d ticks/s, you are #%d", g.opt.Addr, g.c.Map.Name, g.c.TickRate, g.c.ID))
		default:
		}
		if inpututil.IsKeyJustPressed(ebiten.KeyEscape) {
			return ebiten.Termination
		}
		return nil
	case phaseError:
		if inpututil.IsKeyJustPressed(ebiten.KeyEnter) {
			g.connect()
		}
		if inpututil.IsKeyJustPressed(ebiten.KeyEscape) || inpututil.IsKeyJustPressed(ebiten.KeyQ) {
			return ebiten.Termination
		}
		return nil
	}
	return g.updatePlaying()
}

func (g *Game) updatePlaying() error {
	c := g.c
	now := time.Now()
	if err := c.Poll(); err != nil {
		g.phase, g.err = phaseError, err
		g.c = nil
		return nil
	}
	for _, p := range c.TakePrints() {
		g.con.print(p)
	}
	consoleOpen := g.updateConsole()
	if g.c == nil || g.quit {
		return nil // the console disconnected or quit
	}
	// The chat line, like the console, has the keyboard while it is open.
	consoleOpen = consoleOpen || g.updateChat()
	// F3 as in Source; N too, since browsers may take F3 for "find".
	if (inpututil.IsKeyJustPressed(ebiten.KeyF3) || inpututil.IsKeyJustPressed(ebiten.KeyN)) && !consoleOpen {
		_ = g.setCvar("net_graph", fmt.Sprint((int(g.cvars["net_graph"].f())+1)%4))
	}
	if g.opt.Script == nil && !consoleOpen {
		if inpututil.IsKeyJustPressed(ebiten.KeyEscape) {
			g.menu = !g.menu
		}
		if g.menu && inpututil.IsKeyJustPressed(ebiten.KeyQ) {
			return ebiten.Termination
		}
	}
	if g.seen == nil {
		g.seen = map[uint16]bool{}
	}
	for id := range c.Entities {
		g.seen[id] = true
	}
	// The commands for the ticks that passed since the last frame. After
	// a stall of more than netclient.StallGap (a hidden browser tab) Frame
	// jumps the clock to the newest snapshot instead of sending a burst of
	// catch-up commands, which the server's command budget would refuse.
	resyncs := c.Stats.Resyncs
	if g.opt.AutoPlay && g.opt.Script == nil {
		c.FrameFunc(now, g.autoInput) // the brain thinks every tick
	} else {
		c.Frame(now, g.readInput())
	}
	g.resyncs += c.Stats.Resyncs - resyncs
	dt := time.Duration(0)
	if !g.lastUpdate.IsZero() {
		dt = min(max(now.Sub(g.lastUpdate), 0), netclient.StallGap)
	}
	g.lastUpdate = now
	if st := c.Predicted(); !st.Dead && c.HaveSnapshot() {
		// Further than running can take it in dt (plus the tick of time
		// a frame may carry over) is a respawn, not a move.
		reach := shared.MaxSpeed*(dt.Seconds()+1/float64(c.TickRate)) + 1
		if d := math.Hypot(st.X-g.lastPX, st.Y-g.lastPY); g.havePos && d <= reach {
			g.moved += d
		}
		g.lastPX, g.lastPY, g.havePos = st.X, st.Y, true
	} else {
		g.havePos = false
	}
	g.handleEvents()
	g.handleEffects()
	g.fx.update(dt)
	return nil
}

// readInput samples the keyboard and mouse (or the test script) into the
// input held over this frame's ticks, with the buttons pressed since the
// last frame (even if already released) in Pressed.
func (g *Game) readInput() netclient.Input {
	if g.opt.Script != nil {
		in, ok := g.opt.Script(time.Since(g.started))
		if !ok {
			g.quit = true
		}
		g.aim = float64(in.Angle)
		return in
	}
	var in netclient.Input
	if g.menu || g.con.open || g.chat.open {
		return netclient.Input{Angle: float32(g.aim), Weapon: g.weapon}
	}
	if ebiten.IsKeyPressed(ebiten.KeyA) || ebiten.IsKeyPressed(ebiten.KeyArrowLeft) {
		in.MoveX--
	}
	if ebiten.IsKeyPressed(ebiten.KeyD) || ebiten.IsKeyPressed(ebiten.KeyArrowRight) {
		in.MoveX++
	}
	if ebiten.IsKeyPressed(ebiten.KeyW) || ebiten.IsKeyPressed(ebiten.KeyArrowUp) {
		in.MoveY--
	}
	if ebiten.IsKeyPressed(ebiten.KeyS) || ebiten.IsKeyPressed(ebiten.KeyArrowDown) {
		in.MoveY++
	}
	// Aim from the player's on-screen position to the mouse.
	mx, my := ebiten.CursorPosition()
	px, py := g.worldToScreen(g.drawPos())
	if dx, dy := float64(mx)-px, float64(my)-py; dx*dx+dy*dy > 4 {
		g.aim = math.Atan2(dy, dx)
	}
	in.Angle = float32(g.aim)
	switch {
	case inpututil.IsKeyJustPressed(ebiten.Key1):
		g.weapon = 0
	case inpututil.IsKeyJustPressed(ebiten.Key2):
		g.weapon = 1
	case inpututil.IsKeyJustPressed(ebiten.KeyQ):
		g.weapon = (g.weapon + 1) % shared.NumWeapons
	}
	if _, wy := ebiten.Wheel(); wy != 0 {
		g.weapon = (g.weapon + 1) % shared.NumWeapons
	}
	in.Weapon = g.weapon
	// Buttons: a press seen for the first time is a tap (Pressed),
	// latched into the next command only; from the next frame on, if still
	// down, the button is held over every tick. A click shorter than a
	// frame shows as down in one frame (GLFW's sticky buttons), and its
	// release only in the next: held over a slow frame's dozen ticks it
	// would fire twice, where at 60 fps it fires once. Movement keys, by
	// contrast, count as held over the whole frame they are first seen in,
	// so that a run covers the same distance at any frame rate.
	button := func(b uint16, pressed, just bool) {
		switch {
		case just:
			in.Pressed |= b
		case pressed:
			in.Buttons |= b
		}
	}
	button(shared.ButtonAttack, ebiten.IsMouseButtonPressed(ebiten.MouseButtonLeft), inpututil.IsMouseButtonJustPressed(ebiten.MouseButtonLeft))
	button(shared.ButtonAttack2, ebiten.IsMouseButtonPressed(ebiten.MouseButtonRight), inpututil.IsMouseButtonJustPressed(ebiten.MouseButtonRight))
	button(shared.ButtonReload, ebiten.IsKeyPressed(ebiten.KeyR), inpututil.IsKeyJustPressed(ebiten.KeyR))
	return in
}

// handleEvents turns server events into kill feed entries, hit markers,
// damage flashes and other players' tracers.
func (g *Game) handleEvents() {
	c := g.c
	for _, e := range c.TakeEvents() {
		switch e.Kind {
		case proto.EvShot:
			if e.A != c.ID && (e.X != e.X2 || e.Y != e.Y2) {
				g.fx.addTracer(proto.FromFixed(e.X), proto.FromFixed(e.Y), proto.FromFixed(e.X2), proto.FromFixed(e.Y2), false)
			}
		case proto.EvHit:
			if e.A == c.ID {
				g.fx.hitMarker = hitMarkerTime
				g.sound.play(sndHit)
				g.hitsDealt++
			}
			if e.B == c.ID {
				g.hitsTaken++
				g.fx.damageFlash = 1
				g.sound.play(sndHurt)
			}
			g.fx.addImpact(proto.FromFixed(e.X2), proto.FromFixed(e.Y2))
		case proto.EvKill:
			g.fx.addKill(c.Name(e.A), c.Name(e.B), e.A == c.ID, e.B == c.ID)
			if e.A == c.ID {
				g.fx.killMarker = hitMarkerTime * 2
				g.sound.play(sndKill)
			}
			if e.B == c.ID {
				g.fx.killedBy = c.Name(e.A)
			}
		case proto.EvExplode:
			g.fx.addExplosion(proto.FromFixed(e.X), proto.FromFixed(e.Y), float64(e.Value))
			g.sound.play(sndBoom)
		case proto.EvImpact:
			if e.A != c.ID {
				continue
			}
			b := impactBox{serverX: proto.FromFixed(e.X), serverY: proto.FromFixed(e.Y), hit: e.Value&game.ImpactHit != 0, left: impactBoxTime}
			if v, ok := c.ShotViewOf(e.Cmd); ok {
				for _, o := range v.Others {
					if o.ID == e.B {
						b.clientX, b.clientY, b.haveClient = o.X, o.Y, true
					}
				}
			}
			if b.haveClient {
				d := math.Hypot(proto.FromFixed(proto.ToFixed(b.clientX))-b.serverX, proto.FromFixed(proto.ToFixed(b.clientY))-b.serverY)
				g.impactErrs = append(g.impactErrs, d)
				g.impactRefd = append(g.impactRefd, e.Value&game.ImpactRefused != 0)
			}
			g.fx.boxes = append(g.fx.boxes, b)
			if len(g.fx.boxes) > 12 {
				g.fx.boxes = g.fx.boxes[len(g.fx.boxes)-12:]
			}
		case proto.EvMatchEnd:
			g.fx.banner = "Draw"
			if e.A != 0 {
				g.fx.banner = e.Text + " wins the match"
			}
			if e.A == c.ID {
				g.fx.banner = "You win the match!"
			}
			g.fx.bannerLeft = time.Duration(e.Value) * time.Second
		case proto.EvMatchStart:
			g.fx.banner, g.fx.bannerLeft = "New match", 2*time.Second
			g.fx.killedBy = ""
		case proto.EvJoin:
			g.fx.addNotice(fmt.Sprintf("%s joined", e.Text))
		case proto.EvLeft:
			g.fx.addNotice(fmt.Sprintf("%s left", c.Name(e.A)))
		case proto.EvChat:
			g.onChat(&e)
		}
	}
}

// handleEffects plays the effects of commands predicted for the first time:
// tracer, muzzle flash, sound (once per command, Bernier 2001).
func (g *Game) handleEffects() {
	c := g.c
	for _, r := range c.TakeEffects() {
		if r.Fired {
			g.shotsFired++
			g.fireCmd = c.CommandNumber()
			sh := r.Shot
			def := &shared.Weapons[sh.Weapon]
			g.fx.muzzle = muzzleTime
			if def.Kind != shared.Hitscan {
				// Projectiles are the server's: only the firing is predicted.
				g.sound.play(sndLaunch)
				continue
			}
			ents := c.Rendered()
			boxes := make([]game.Hitbox, 0, len(ents))
			for _, e := range ents {
				boxes = append(boxes, game.Hitbox{ID: e.ID, X: e.X, Y: e.Y, R: shared.PlayerRadius, Alive: e.Alive})
			}
			tr := game.TraceShot(c.Map, sh.X, sh.Y, sh.DirX, sh.DirY, def.Range, boxes, c.ID)
			g.fx.addTracer(sh.X, sh.Y, tr.EndX, tr.EndY, true)
			g.fx.muzzle = muzzleTime
			g.sound.play(sndShot)
		}
		if r.ReloadStarted {
			g.sound.play(sndReload)
		}
	}
}

// Report is what --exit-report writes when the window closes: enough for a
// test that drives the window with xdotool to check what happened.
type Report struct {
	// Phase is "connecting", "playing" or "error".
	Phase string `json:"phase"`
	// ConnectedOnce tells an error after playing ("Disconnected") from a
	// failed connection attempt ("Could not connect").
	ConnectedOnce bool    `json:"connected_once"`
	Connected     bool    `json:"connected"`
	PlayerID      uint16  `json:"player_id,omitempty"`
	PingMs        int     `json:"ping_ms"`
	FPS           float64 `json:"fps"`
	PacketsSent   int     `json:"packets_sent"`
	// Resyncs counts clock resynchronisations after a stall (hidden tab).
	Resyncs  int     `json:"resyncs"`
	Error    string  `json:"error,omitempty"`
	X        float64 `json:"x"`
	Y        float64 `json:"y"`
	Health   int     `json:"health"`
	Commands uint32  `json:"commands"`
	// Moved is the path length of the local player's predicted position
	// in world units (respawns excluded): about 280 a second of running,
	// whatever the frame rate.
	Moved       float64 `json:"moved"`
	Snapshots   int     `json:"snapshots"`
	Corrections int     `json:"prediction_corrections"`
	ShotsFired  int     `json:"shots_fired"`
	Frames      int     `json:"frames"`
	// NetGraphUs is the mean CPU time to issue the net_graph's draw calls
	// per frame, in µs (0 when it was off).
	NetGraphUs float64 `json:"net_graph_us"`
	// LifeResets counts deaths and respawns: the server replaced the
	// predicted state, which is not a prediction error.
	LifeResets int `json:"life_resets"`
	// HitsDealt and HitsTaken count the server's hit events for this player.
	HitsDealt int `json:"hits_dealt"`
	HitsTaken int `json:"hits_taken"`
	// OthersSeen is the number of other players this client has drawn.
	OthersSeen int `json:"others_seen"`
	// ImpactErrors are, for each sv_showimpacts answer, the distance in
	// world units between where this client drew the target when firing
	// and where the server rewound it.
	ImpactErrors []float64 `json:"impact_errors,omitempty"`
	// ImpactRefused says, for each of ImpactErrors, whether the server
	// refused the shot's claimed render time as not credible and rewound
	// to its own estimate instead (game.ImpactRefused).
	ImpactRefused []bool `json:"impact_refused,omitempty"`

	// Error (above) is the reason on the error screen, a sentence
	// (netclient.Describe); ErrorDetail is the Go error behind it.
	ErrorDetail string `json:"error_detail,omitempty"`
	// ConnectionProblem is the warning on screen when the report was made
	// ("Connection problem, auto-disconnect in N s"), empty when none;
	// ProblemsShown counts its appearances, ProblemShownAfterMs is the
	// silence in ms when it last appeared, ProblemWorstMs the longest one.
	ConnectionProblem   string  `json:"connection_problem,omitempty"`
	ProblemsShown       int     `json:"problems_shown"`
	ProblemShownAfterMs float64 `json:"problem_shown_after_ms,omitempty"`
	ProblemWorstMs      float64 `json:"problem_worst_ms,omitempty"`
}

// report is the window's state as a Report.
func (g *Game) report() Report {
	r := Report{Frames: g.frames, ShotsFired: g.shotsFired, NetGraphUs: g.netGraphUs,
		HitsDealt: g.hitsDealt, HitsTaken: g.hitsTaken, OthersSeen: len(g.seen), ImpactErrors: g.impactErrs, ImpactRefused: g.impactRefd,
		Phase: [...]string{"connecting", "playing", "error"}[g.phase], ConnectedOnce: g.connectedOnce,
		FPS: math.Round(g.fps*10) / 10, Resyncs: g.resyncs}
	if g.err != nil {
		r.Error, r.ErrorDetail = g.errorText(), g.err.Error()
	}
	g.trouble.report(&r)
	if c := g.c; c != nil {
		st := c.Predicted()
		r.Connected = true
		r.PlayerID = c.ID
		r.X, r.Y, r.Health = st.X, st.Y, c.Health
		r.Commands = c.CommandNumber()
		r.Moved = math.Round(g.moved*10) / 10
		r.Snapshots = c.Stats.SnapshotsReceived
		r.Corrections = c.Stats.Corrections
		r.LifeResets = c.Stats.LifeResets
		r.PingMs = c.Stats.PingMs
		r.PacketsSent = c.Stats.PacketsSent
	}
	return r
}

func (g *Game) writeReport(path string) {
	b, _ := json.MarshalIndent(g.report(), "", "  ")
	_ = os.WriteFile(path, b, 0o644)
}

// initCvars takes the netcode settings from the options, then the config
// file, then --cvar flags.
func (g *Game) initCvars() error {
	cfg := g.opt.Config
	set := func(name string, v float64) { g.cvars[name].value = formatNumber(v) }
	b := func(x bool) float64 {
		if x {
			return 1
		}
		return 0
	}
	set("cl_updaterate", float64(cfg.UpdateRate))
	set("cl_interp", float64(cfg.InterpMs)/1000)
	set("cl_interp_ratio", cfg.InterpRatio)
	set("rate", float64(cfg.Rate))
	set("cl_predict", b(cfg.Predict))
	set("cl_nodelta", b(cfg.NoDelta))
	set("cl_interpolate", b(cfg.Interpolate))
	set("cl_smooth", b(cfg.Smooth))
	if g.opt.ConfigFile != "" {
		if err := g.loadConfig(g.opt.ConfigFile); err != nil {
			return fmt.Errorf("config: %w", err)
		}
	}
	for _, kv := range g.opt.Cvars {
		if out := g.exec(kv[0] + " " + kv[1]); strings.HasPrefix(out, "error") || strings.HasPrefix(out, "unknown") {
			return fmt.Errorf("--cvar %s=%s: %s", kv[0], kv[1], out)
		}
	}
	g.applyNetConfig()
	g.applyRates()
	return nil
}

// fakeConditions returns net_fakelag, net_fakejitter and net_fakeloss.
func (g *Game) fakeConditions() proto.FakeConditions {
	return proto.FakeConditions{LagMs: g.cvars["net_fakelag"].f(), JitterMs: g.cvars["net_fakejitter"].f(),
		LossPct: g.cvars["net_fakeloss"].f()}
}

// disconnect leaves the current server.
func (g *Game) disconnect(reason string) {
	if g.c != nil {
		g.c.Close(reason)
		g.c = nil
	}
	if g.cancel != nil {
		g.cancel()
	}
}

// autoInput lets the bot brain play for the local player (--autoplay).
func (g *Game) autoInput() netclient.Input {
	c := g.c
	if g.brain == nil {
		g.brain = game.NewBot(uint64(time.Now().UnixNano()))
	}
	ents := c.Rendered()
	boxes := make([]game.Hitbox, 0, len(ents))
	for _, e := range ents {
		boxes = append(boxes, game.Hitbox{ID: e.ID, X: e.X, Y: e.Y, R: shared.PlayerRadius, Alive: e.Alive})
	}
	in := g.brain.Think(c.Map, c.TickRate, c.Predicted(), c.Health, boxes)
	g.aim = float64(in.Angle)
	return netclient.Input{MoveX: in.MoveX, MoveY: in.MoveY, Angle: in.Angle, Buttons: in.Buttons, Weapon: g.weapon}
}

// drawPos returns where to draw the local player this frame: between its
// predicted positions before and after the newest tick, by the time since
// that tick (netclient.Client.DrawPos), so that a 60 or 144 Hz display
// shows smooth motion instead of steps. It is at most one tick behind the
// prediction.
func (g *Game) drawPos() (float64, float64) {
	if g.c == nil {
		return 0, 0
	}
	return g.c.DrawPos(time.Now())
}
