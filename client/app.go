//go:build !headless

// Package client is Tickshot's Ebiten game window: input sampled every
// frame into usercmds for the ticks of real time that passed (Source's
// CL_Move, netclient.Client.Frame), the local player predicted and
// everyone else interpolated by package netclient, and the arena, players,
// tracers, HUD, kill feed, scoreboard and menus drawn every frame.
package client

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"os"
	"strings"
	"time"

	"github.com/hajimehoshi/ebiten/v2"

	"tickshot/client/config"
	"tickshot/client/netclient"
	"tickshot/game"
	"tickshot/internal/cvar"
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
	// ScreenshotOn, when "explosion", takes the screenshot at the first
	// explosion on screen (its fireball grown a little) after
	// ScreenshotAfter, or ScreenshotWait later if none comes. "": none to
	// wait for.
	ScreenshotOn string
	// ScreenshotWait is the longest wait for ScreenshotOn's event after
	// ScreenshotAfter (0: DefaultScreenshotWait).
	ScreenshotWait time.Duration
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
	// AutoPlay drives the local player with the bot brain (BotInput: a
	// demo mode, and the way README's screenshots are taken).
	AutoPlay bool
	// Input, when set, is the input source instead of the keyboard and
	// mouse or AutoPlay's brain (a ScriptedInput in tests).
	Input InputSource
	// Settings, when set, is config.cfg (the menu's settings and key
	// bindings), applied before ConfigFile as Source runs config.cfg
	// before autoexec.cfg.
	Settings *config.Config
	// Start, when set, makes the first scene instead of connecting to
	// Addr: the main menu, a demo's playback.
	Start func(ctx *SceneContext) Scene
	// Home, when set, makes the scene a player who leaves a game (or gives
	// up on the error screen) returns to: the main menu. Without it,
	// leaving closes the window.
	Home func(ctx *SceneContext) Scene
}

// Game is the ebiten.Game of the window: it owns the scene manager and
// what every scene shares (window size, console, cvars, sound, the
// frame-rate limit, the report); the scenes (scene.go) do the rest.
type Game struct {
	opt Options
	// clock, when set, is what the drawing reads as now (g.now) instead of
	// the wall clock: tests that count a frame's allocations freeze it, so
	// that no once-a-second text (fps, connection warning) changes while
	// they measure.
	clock  func() time.Time
	scenes *SceneManager
	ctx    *SceneContext
	// input is where the local player's input comes from (input.go).
	input InputSource
	// c is the connection of the game being played, nil outside one (set
	// by playScene): the console's commands act on it.
	c *netclient.Client
	// result is the error that ended the last game or attempt, which Run
	// returns when the window closes on the error screen.
	result error

	w, h      int
	started   time.Time
	lastFrame time.Time
	fps       float64
	quit      bool
	shotSaved bool

	// stats is what the report counts over the window's life.
	stats windowStats

	con      console
	chat     chat
	netGraph netGraph     // net_graph (netgraph.go)
	limiter  frameLimiter // fps_max
	cvars    *cvar.Registry
	cv       clientCvars // typed handles into cvars
	binds    *binds
	sound    *sounds
	bridge   bridge
	// rec is the demo being recorded, demo the one being played
	// (demo_scene.go).
	rec  recording
	demo *demoScene
	// demoAsk is the demo the console's playdemo asked about leaving the
	// game for (demo_scene.go): typed again, it leaves.
	demoAsk string
}

// windowStats are the counters of the report (Report) over every game the
// window played.
type windowStats struct {
	frames     int
	playFrames int // frames drawn in the game (a screenshot waits for some)
	shotsFired int
	hitsDealt  int
	hitsTaken  int
	seen       map[uint16]bool // other players drawn at least once
	impactErrs []float64       // sv_showimpacts: client-drawn vs server-rewound distance
	impactRefd []bool          // whether the server refused that shot's claimed render time
	impactLead []float64       // how far that claim led the newest snapshot less lerp, ms
	// moved is the path length of the local player's prediction, world units.
	moved float64
	// resyncs counts clock resynchronisations after a stall (hidden tab).
	resyncs int
	// trouble is what the window showed of stalled snapshots (trouble.go).
	trouble trouble
}

// newGame returns the window's Game with its cvars at their defaults and
// no scene.
func newGame(opt Options) *Game {
	g := &Game{opt: opt, w: opt.Width, h: opt.Height, started: time.Now(), binds: newBinds()}
	g.bindCvars()
	g.con.exec, g.con.names = g.exec, g.completionNames
	g.ctx = &SceneContext{Game: g}
	switch {
	case opt.Input != nil:
		g.input = opt.Input
	case opt.AutoPlay:
		g.input = &BotInput{}
	default:
		g.input = &KeyboardMouse{g: g}
	}
	g.scenes = NewSceneManager(g.ctx)
	return g
}

// Run opens the window, connects to opt.Addr (or opens opt.Start) and
// plays until the window is closed or the player quits. It returns the
// connection error if the window closed on the error screen.
func Run(opt Options) error {
	if opt.Width == 0 {
		opt.Width, opt.Height = 1280, 720
	}
	if opt.Title == "" {
		opt.Title = "Tickshot"
	}
	g := newGame(opt)
	if err := g.initCvars(); err != nil {
		return err
	}
	if !opt.NoSound {
		g.sound = newSounds()
		g.applyVolume()
	}
	g.bridge.init()
	if opt.Start != nil {
		g.scenes.Switch(opt.Start(g.ctx))
	} else {
		g.scenes.Switch(newConnectScene(opt.Addr))
	}
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
	var shown error
	if s, ok := g.scenes.Current().(*connectScene); ok {
		shown = s.err
	}
	g.disconnect("player quit")
	g.scenes.Close()
	if errors.Is(err, ebiten.Termination) {
		err = nil
	}
	if err != nil {
		return err
	}
	return shown
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

// Update implements ebiten.Game; it runs once per frame (SyncWithFPS):
// the current scene's Update.
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
	g.bridge.update(g)
	if err := g.scenes.Update(); err != nil {
		return err
	}
	if g.quit {
		// A scene closed the window (Home without a menu, after leaving
		// its game): end before drawing a scene whose client is gone.
		return ebiten.Termination
	}
	return nil
}

// Report is what --exit-report writes when the window closes: enough for a
// test that drives the window with xdotool to check what happened.
type Report struct {
	// Phase is "connecting", "playing", "error" or "menu".
	Phase string `json:"phase"`
	// Spectator: the client watches without a body; SpecTarget is the
	// player its camera follows (0: none, or free-fly).
	Spectator  bool   `json:"spectator"`
	SpecTarget uint16 `json:"spec_target,omitempty"`
	// Menu is the main menu's page when Phase is "menu" (main, host, join,
	// settings, password).
	Menu string `json:"menu,omitempty"`
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
	Moved     float64 `json:"moved"`
	Snapshots int     `json:"snapshots"`
	// Transport is what carries the game now (webrtc, websocket);
	// DatagramSnapshots counts the snapshots that came as datagrams.
	Transport         string `json:"transport,omitempty"`
	DatagramSnapshots int    `json:"datagram_snapshots"`
	Corrections       int    `json:"prediction_corrections"`
	ShotsFired        int    `json:"shots_fired"`
	Frames            int    `json:"frames"`
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
	// ImpactLeadMs says, for each of ImpactErrors, how far the shot's
	// claimed render time led the newest snapshot this client had when it
	// made the command, less its lerp (netclient.ShotView.AckLeadMs), ms: a
	// claim within server.CrossCheckMs of it is credible to the server.
	ImpactLeadMs []float64 `json:"impact_lead_ms,omitempty"`

	// Error (above) is the reason on the error screen, a sentence
	// (netclient.Describe); ErrorDetail is the Go error behind it.
	ErrorDetail string `json:"error_detail,omitempty"`
	// ConnectionProblem is the warning on screen when the report was made
	// ("Connection problem, auto-disconnect in N s"), empty when none;
	// ProblemsShown counts its appearances, ProblemShownAfterMs is the
	// silence in ms when it last appeared, ProblemWorstMs the longest one.
	// ProblemFrameGapMs is the time from the frame before that appearance
	// to it: the warning came at the first frame past ProblemAfter when
	// ProblemShownAfterMs - ProblemFrameGapMs is at most ProblemAfter.
	ConnectionProblem   string  `json:"connection_problem,omitempty"`
	ProblemsShown       int     `json:"problems_shown"`
	ProblemShownAfterMs float64 `json:"problem_shown_after_ms,omitempty"`
	ProblemFrameGapMs   float64 `json:"problem_frame_gap_ms,omitempty"`
	ProblemWorstMs      float64 `json:"problem_worst_ms,omitempty"`
	// Demo is the playback's state while a demo plays (demo_scene.go).
	Demo *DemoReport `json:"demo,omitempty"`
	// Console is the console's last lines (at most 20), oldest first.
	Console []string `json:"console,omitempty"`
}

// sceneReporter is a scene that fills the report's phase and its own parts
// (connecting, error, playing; other scenes may name their own phase, such
// as "menu").
type sceneReporter interface{ report(r *Report) }

// report is the window's state as a Report.
func (g *Game) report() Report {
	s := &g.stats
	r := Report{Frames: s.frames, ShotsFired: s.shotsFired, NetGraphUs: g.netGraph.us,
		HitsDealt: s.hitsDealt, HitsTaken: s.hitsTaken, OthersSeen: len(s.seen), ImpactErrors: s.impactErrs, ImpactRefused: s.impactRefd, ImpactLeadMs: s.impactLead,
		FPS: math.Round(g.fps*10) / 10, Resyncs: s.resyncs}
	if sr, ok := g.scenes.Current().(sceneReporter); ok {
		sr.report(&r)
	}
	s.trouble.report(&r)
	r.Console = g.con.lines[max(len(g.con.lines)-20, 0):]
	if c := g.c; c != nil {
		st := c.View().Predicted
		r.Connected = true
		r.PlayerID = c.View().ID
		r.X, r.Y, r.Health = st.X, st.Y, c.View().Health
		r.Commands = c.View().CommandNumber
		r.Moved = math.Round(s.moved*10) / 10
		r.Snapshots = c.View().Stats.SnapshotsReceived
		r.Transport, r.DatagramSnapshots = c.Net().Transport, c.Net().DatagramSnapshots
		r.Corrections = c.View().Stats.Corrections
		r.LifeResets = c.View().Stats.LifeResets
		r.PingMs = c.View().Stats.PingMs
		r.PacketsSent = c.View().Stats.PacketsSent
		r.Spectator = c.View().Spectating
		r.SpecTarget = c.Spec().Target()
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
	set := func(name string, v float64) { _ = g.cvars.Set(name, formatNumber(v)) }
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
	_ = g.cv.password.Set(cfg.Password)
	if cfg.Transport != "" {
		_ = g.cvars.Set("cl_transport", string(cfg.Transport))
	}
	if s := g.opt.Settings; s != nil {
		g.applySettings(s)
	}
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

// disconnect leaves the current server.
func (g *Game) disconnect(reason string) {
	g.demoAsk = ""
	if g.rec.rec != nil {
		g.con.print(g.rec.stop(reason))
	}
	if g.c != nil {
		g.c.Close(reason)
		g.c = nil
	}
}

// drawPos returns where to draw the local player this frame: between its
// predicted positions before and after the newest tick, by the time since
// that tick (netclient.View.DrawPos), so that a 60 or 144 Hz display
// shows smooth motion instead of steps. It is at most one tick behind the
// prediction.
func (g *Game) drawPos() (float64, float64) {
	if g.c == nil {
		return 0, 0
	}
	if g.c.View().Spectating {
		x, y, _ := g.c.Spec().Centre(g.c.View()) // the camera follows a player or flies (spectate.go)
		return x, y
	}
	return g.c.View().DrawPos(g.now())
}
