//go:build !headless

package client

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/hajimehoshi/ebiten/v2"
	"github.com/hajimehoshi/ebiten/v2/inpututil"

	"tickshot/client/demo"
	"tickshot/client/netclient"
	"tickshot/client/palette"
)

// Demos in the window (Source's record, stop, playdemo, demo_timescale,
// demo_gototick, demo_pause, demo_resume, demo_togglepause): recording
// the game being played into the config directory, and playing a demo
// back through the game scene's drawing, driven by the demo's clock.

// demoScales are the speeds [ and ] step through.
var demoScales = []float64{0.25, 0.5, 1, 2, 4}

// now is the real time the game is drawn at: the demo's clock during
// playback, else the wall clock.
func (g *Game) now() time.Time {
	if g.demo != nil {
		return g.demo.p.Now()
	}
	if g.clock != nil {
		return g.clock()
	}
	return time.Now()
}

// playDemo is the console's playdemo: the demo name (in the demos folder,
// or a path) played in place of the current scene. In a live game it asks
// first: the first playdemo says that it would leave the game, the same
// one typed again leaves it (Esc in the demo comes back to it).
func playDemo(g *Game, name string) string {
	leaving := g.c != nil && g.demo == nil
	if leaving && g.demoAsk != name {
		g.demoAsk = name
		return "playdemo: you are in a game at " + g.opt.Addr + ": disconnect first, or type 'playdemo " + name + "' again to leave it"
	}
	g.demoAsk = ""
	d, path, err := loadDemo(name)
	if err != nil {
		return "playdemo: " + err.Error()
	}
	s, err := newDemoScene(g, d, path)
	if err != nil {
		return "playdemo: " + err.Error()
	}
	msg := "playing " + d.Describe()
	switch {
	case leaving:
		s.back = g.opt.Addr
		msg = "left the game at " + s.back + " to play a demo (Esc in the demo goes back to it)\n" + msg
	case g.demo != nil:
		s.back = g.demo.back // the same way out as the demo it replaces
	}
	g.ctx.Switch(s)
	return msg
}

// loadDemo reads the demo name: a path, or a name in the demos folder.
func loadDemo(name string) (*demo.Demo, string, error) {
	path := name
	if _, err := os.Stat(name); err != nil || !strings.ContainsAny(name, `/\`) && !strings.HasSuffix(name, ".dem") {
		p, err := demo.Path(name)
		if err != nil {
			return nil, "", err
		}
		path = p
	}
	d, err := demo.Load(path)
	return d, path, err
}

// listDemos is the console's listdemos: the demos in the demos folder.
func listDemos() string {
	dir, err := demo.Dir()
	if err != nil {
		return err.Error()
	}
	m, _ := filepath.Glob(filepath.Join(dir, "*.dem"))
	sort.Strings(m)
	if len(m) == 0 {
		return "no demos in " + dir
	}
	for i := range m {
		m[i] = strings.TrimSuffix(filepath.Base(m[i]), ".dem")
	}
	return dir + ": " + strings.Join(m, ", ")
}

// withDemo runs f, a demo_* console command, on the demo being played, s;
// without one it says so.
func withDemo(s *demoScene, f func(s *demoScene) string) string {
	if s == nil {
		return "no demo is playing (playdemo NAME)"
	}
	return f(s)
}

// gotoTick is the console's demo_gototick: a jump to server tick tick.
func (s *demoScene) gotoTick(tick string) string {
	n, err := strconv.ParseUint(tick, 10, 32)
	if err != nil {
		return fmt.Sprintf("demo_gototick: %q is not a tick", tick)
	}
	s.seek(func() error { return s.p.GotoTick(uint32(n)) })
	return fmt.Sprintf("at tick %d", s.p.Tick())
}

// recording is the demo being recorded of the game being played (record,
// stop), with the mark drawn while it lasts.
type recording struct {
	rec  *demo.Recorder
	c    *netclient.Client // the client recorded
	name string            // "REC NAME", drawn while recording
}

// start starts recording the game played on c into name; c is nil
// outside a game (and during a demo's playback).
func (rc *recording) start(c *netclient.Client, name string) string {
	if c == nil {
		return "record: not in a game"
	}
	if rc.rec != nil {
		return "record: already recording " + rc.rec.Path() + " (stop first)"
	}
	if err := demo.CheckName(name); err != nil {
		return "record: " + err.Error()
	}
	path, err := demo.Path(name)
	if err != nil {
		return "record: " + err.Error()
	}
	r, err := demo.StartRecording(c, path)
	if err != nil {
		return "record: " + err.Error()
	}
	*rc = recording{rec: r, c: c, name: "REC " + name}
	if c.View().HaveSnapshot {
		return "recording to " + path + " (from the next full snapshot)"
	}
	return "recording to " + path
}

// stop ends the recording, if any, and says where it went.
func (rc *recording) stop(reason string) string {
	r, c := rc.rec, rc.c
	if r == nil {
		return ""
	}
	*rc = recording{}
	err := r.Stop(c, reason)
	if err != nil {
		return fmt.Sprintf("recording %s failed: %v", r.Path(), err)
	}
	return fmt.Sprintf("recorded %s: %d records, %d bytes", r.Path(), r.Records, r.Bytes)
}

// PlayDemo is an Options.Start that plays d, read from path (demo.Load):
// `tickshot playdemo`, which reads the file once to check it before the
// window opens.
func PlayDemo(d *demo.Demo, path string) func(ctx *SceneContext) Scene {
	return func(ctx *SceneContext) Scene {
		s, err := newDemoScene(ctx.Game, d, path)
		if err != nil {
			return newErrorScene("demo "+path, err, false)
		}
		return s
	}
}

// demoScene plays a demo back: the game scene's drawing on the playback
// client, the demo bar, and the playback keys.
type demoScene struct {
	*playScene
	p     *demo.Player
	last  time.Time
	err   error
	shown time.Duration // demo time of the previous frame, for effects
	// seekFrom is the demo time when the last seek was asked (report).
	seekFrom time.Duration
	// back is the address of the game the console's playdemo left, which
	// Esc goes back to; "" when it was not started from a game.
	back string
}

// newDemoScene starts playing d, read from path.
func newDemoScene(g *Game, d *demo.Demo, path string) (*demoScene, error) {
	cfg := g.opt.Config
	cfg.Name = "" // the recorded player's (demo.NewPlayer)
	p, err := demo.NewPlayer(d, cfg)
	if err != nil {
		return nil, err
	}
	p.SetScale(g.cv.demoScale.Get())
	return &demoScene{playScene: newPlayScene(g, p.C, "demo "+filepath.Base(path)), p: p}, nil
}

// leave is Esc: back to where the player came from, never out of the
// program: the game the console's playdemo left, else the main menu, else
// the server the window was opened for. Only a window with none of them
// closes.
func (s *demoScene) leave(ctx *SceneContext) {
	g := s.g
	switch {
	case s.back != "":
		g.con.print("back to the game at " + s.back)
		ctx.Connect(s.back)
	case g.opt.Home != nil:
		ctx.Home()
	case g.opt.Addr != "":
		ctx.Connect(g.opt.Addr)
	default:
		ctx.Quit()
	}
}

// OnEnter makes the playback client the window's.
func (s *demoScene) OnEnter(*SceneContext) {
	s.g.disconnect("playing a demo")
	s.g.demo = s
	s.g.c = s.p.C
	s.fx = effects{}
}

// OnLeave ends playback.
func (s *demoScene) OnLeave(*SceneContext) {
	if s.g.demo == s {
		s.g.demo = nil
	}
	if s.g.c == s.p.C {
		s.g.c = nil
	}
	s.p.Close()
}

// DemoReport is the state of demo playback in a Report.
type DemoReport struct {
	File   string  `json:"file"`
	TimeMs float64 `json:"time_ms"` // the demo clock
	Tick   uint32  `json:"tick"`    // the newest snapshot played
	Scale  float64 `json:"scale"`   // demo_timescale
	Paused bool    `json:"paused"`
	Done   bool    `json:"done"`
	// DurationMs is the demo's length (Demo.Duration), ms: where its
	// clock stops.
	DurationMs float64 `json:"duration_ms"`
	Error      string  `json:"error,omitempty"`
	// SeekFromMs is the demo clock when the last seek (←/→,
	// demo_gototick) was asked, ms; 0 before any.
	SeekFromMs float64 `json:"seek_from_ms,omitempty"`
}

// report names the phase and the playback's state.
func (s *demoScene) report(r *Report) {
	r.Phase = "demo"
	p := s.p
	r.Demo = &DemoReport{File: p.Demo.File, TimeMs: float64(p.T.Microseconds()) / 1000, Tick: p.Tick(), Scale: p.Scale, Paused: p.Paused, Done: p.Done(),
		DurationMs: float64(p.Demo.Duration.Microseconds()) / 1000,
		SeekFromMs: float64(s.seekFrom.Microseconds()) / 1000}
	if s.err != nil {
		r.Demo.Error = s.err.Error()
	}
}

// seek runs a seek and takes the client it leaves (a new one after a
// seek backwards), dropping the events and effects it ran through.
func (s *demoScene) seek(f func() error) {
	s.seekFrom = s.p.T
	if err := f(); err != nil {
		s.fail(err)
	}
	s.adopt()
	s.c.Match().TakeEvents()
	s.c.Shots().TakeEffects()
	s.fx = effects{}
	s.shown = s.p.T
}

// adopt makes the player's current client the one drawn.
func (s *demoScene) adopt() {
	if s.c != s.p.C {
		s.c = s.p.C
		s.g.c = s.p.C
	}
}

func (s *demoScene) fail(err error) {
	if s.err == nil {
		s.err = err
		s.g.con.print(err.Error())
	}
	s.p.Paused = true
}

// Update implements Scene: the playback keys, the demo clock, then the
// events and effects of what played.
func (s *demoScene) Update(ctx *SceneContext) error {
	g := s.g
	now := time.Now()
	dt := time.Duration(0)
	if !s.last.IsZero() {
		dt = min(max(now.Sub(s.last), 0), netclient.StallGap)
	}
	s.last = now
	typing := g.con.update(float64(g.h))
	if g.demo != s || g.c != s.c || g.quit {
		return nil // the console left the demo (playdemo, disconnect, connect) or quit
	}
	if !typing {
		if s.keys(ctx) {
			return nil
		}
	}
	if s.err == nil {
		if err := s.p.Advance(dt); err != nil {
			s.fail(err)
		}
	}
	s.adopt()
	if cmd := s.c.View().LastCommand; cmd.CommandNumber != 0 {
		s.aim = float64(cmd.ViewAngle)
	}
	for _, p := range s.c.Match().TakePrints() {
		g.con.print(p)
	}
	s.handleEvents()
	s.handleEffects()
	s.fx.update(max(s.p.T-s.shown, 0))
	s.shown = s.p.T
	return nil
}

// keys handles the playback keys; it reports whether the scene was left.
func (s *demoScene) keys(ctx *SceneContext) bool {
	g, p := s.g, s.p
	just := inpututil.IsKeyJustPressed
	switch {
	case just(ebiten.KeyEscape):
		s.leave(ctx)
		return true
	case just(ebiten.KeySpace) || just(ebiten.KeyP):
		p.Paused = !p.Paused
	case just(ebiten.KeyBracketLeft) || just(ebiten.KeyMinus) || just(ebiten.KeyKPSubtract):
		s.stepScale(-1)
	case just(ebiten.KeyBracketRight) || just(ebiten.KeyEqual) || just(ebiten.KeyKPAdd):
		s.stepScale(+1)
	case just(ebiten.KeyArrowLeft):
		s.seek(func() error { return p.Seek(p.T - 5*time.Second) })
	case just(ebiten.KeyArrowRight):
		s.seek(func() error { return p.Seek(p.T + 5*time.Second) })
	case just(ebiten.KeyF3) || just(ebiten.KeyN):
		_ = g.cvars.Set("net_graph", fmt.Sprint((g.cv.netGraph.Get()+1)%4))
	case just(ebiten.KeyTab):
		s.held |= KeyScores
	}
	if ebiten.IsKeyPressed(ebiten.KeyTab) {
		s.held |= KeyScores
	} else {
		s.held &^= KeyScores
	}
	return false
}

// stepScale moves demo_timescale one step of demoScales.
func (s *demoScene) stepScale(dir int) {
	i := sort.SearchFloat64s(demoScales, s.p.Scale)
	if i < len(demoScales) && demoScales[i] == s.p.Scale || dir < 0 {
		i += dir
	}
	i = min(max(i, 0), len(demoScales)-1)
	_ = s.g.cvars.Set("demo_timescale", formatNumber(demoScales[i]))
}

// demoBarH is the height of the demo bar, pixels.
const demoBarH = 34

// Draw implements Scene: the game as recorded above the demo bar (drawn
// as in a window the bar's height shorter, so the HUD stays whole), then
// the bar.
func (s *demoScene) Draw(screen *ebiten.Image) {
	if s.g.c != s.c { // left in this frame's Update (Esc)
		screen.Fill(palette.BG)
		return
	}
	h := s.g.h
	s.g.h = max(h-demoBarH, 100)
	s.playScene.Draw(screen)
	s.g.h = h
	s.drawEnd(screen)
	s.drawBar(screen)
}

// ended reports whether the demo was played to its end (without error):
// its clock stands at its length.
func (s *demoScene) ended() bool { return s.err == nil && s.p.Done() }

// drawEnd says "End of demo" in the middle of the screen once the demo
// has played to its end, with the ways on (as the bar says END).
func (s *demoScene) drawEnd(screen *ebiten.Image) {
	if !s.ended() {
		return
	}
	W, H := float64(s.g.w), float64(s.g.h-demoBarH)
	b := &batch
	b.use(screen)
	b.rect(float32(W/2-220), float32(H/2-60), 440, 110, palette.DemoBar)
	drawText(screen, "End of demo", 40, true, W/2, H/2-50, 1, palette.DemoFill)
	drawText(screen, s.escText()+"    ←: 5 s back", 16, false, W/2, H/2+14, 1, palette.Dim)
}

// escText says where Esc goes (leave).
func (s *demoScene) escText() string {
	switch g := s.g; {
	case s.back != "":
		return "Esc: back to the game"
	case g.opt.Home != nil:
		return "Esc: back to the menu"
	case g.opt.Addr != "":
		return "Esc: back to the server"
	}
	return "Esc: close"
}

// drawBar draws the demo bar at the bottom: progress, time, tick, speed,
// pause, and the keys.
func (s *demoScene) drawBar(screen *ebiten.Image) {
	p := s.p
	W, H := float64(s.g.w), float64(s.g.h)
	y := H - demoBarH
	b := &batch
	b.use(screen)
	b.rect(0, float32(y), float32(W), demoBarH, palette.DemoBar)
	total := max(p.Demo.Duration, time.Millisecond)
	frac := min(max(float64(p.T)/float64(total), 0), 1)
	b.rect(8, float32(y+4), float32(W-16), 4, palette.DemoTrack)
	b.rect(8, float32(y+4), float32((W-16)*frac), 4, palette.DemoFill)
	state := fmt.Sprintf("×%s", formatNumber(p.Scale))
	switch {
	case s.err != nil:
		state = "ERROR (see console)"
	case p.Done():
		state = "END"
	case p.Paused:
		state = "PAUSED"
	}
	left := fmt.Sprintf("DEMO  %s / %s   tick %d   %s", clockText(p.T), clockText(p.Demo.Duration), p.Tick(), state)
	drawText(screen, left, 15, true, 10, y+12, 0, palette.DemoFill)
	drawText(screen, "Space pause  [ ] speed  ←/→ 5 s  Esc leave", 13, false, W-10, y+14, 2, palette.Dim)
}

// draw marks a recording in the top left corner: a red dot and
// the demo's name (Source shows nothing; a player should know).
func (rc *recording) draw(screen *ebiten.Image) {
	if rc.rec == nil {
		return
	}
	b := &batch
	b.use(screen)
	b.rect(12, 40, 10, 10, palette.HPBad)
	drawText(screen, rc.name, 14, true, 28, 37, 0, palette.HPBad)
}

// clockText writes d as m:ss.s.
func clockText(d time.Duration) string {
	d = max(d, 0)
	m := int(d / time.Minute)
	return fmt.Sprintf("%d:%04.1f", m, (d - time.Duration(m)*time.Minute).Seconds())
}
