//go:build !headless

package client

import (
	"encoding/json"
	"errors"
	"fmt"
	"image"
	"image/png"
	"io"
	"math"
	"os"
	"time"

	"github.com/hajimehoshi/ebiten/v2"
	"github.com/hajimehoshi/ebiten/v2/inpututil"

	"tickshot/client/lab"
	"tickshot/client/netclient"
	"tickshot/shared"
)

// LabOptions configure the lag lab's window (RunLab).
type LabOptions struct {
	// Preset is the experiment to start with (a lab.Preset's Name), ""
	// for free play: default knobs, player 1 on the keyboard, player 2 a
	// bot.
	Preset string
	// Seed drives the links' jitter and loss and the bots.
	Seed uint64
	// Width and Height are the window's size in pixels (default 1280×720);
	// the lab is laid out at that size and scaled with the window.
	Width, Height int
	// Title is the window's title (default "Tickshot lag lab").
	Title string
	// ScreenshotPath, when set, runs the lab for ScreenshotAt of virtual
	// time as fast as it can (no real-time pacing), draws that moment, saves
	// a PNG of the window there and closes it.
	ScreenshotPath string
	// ScreenshotAt is when the screenshot is taken, virtual time since
	// the run began, both players joined (0: the preset's Duration, or
	// labScreenshotDefault without one).
	ScreenshotAt time.Duration
	// Speed is the starting slow motion, 0.1..1 (0: 1).
	Speed float64
	// Paused starts the lab paused.
	Paused bool
	// Open, when set, is a lab file saved before (the Save button,
	// lab.Lab.Save) to reopen instead of starting Preset: the run is
	// replayed to where it was saved and shown paused there, its last
	// seconds kept for scrubbing. With ScreenshotPath the picture is that
	// moment.
	Open string
	// Quit, when closed, closes the window.
	Quit <-chan struct{}
	// ReportPath, when set, receives a LabReport when the window closes
	// (tests that drive the window with xdotool read it).
	ReportPath string
	// ServerCvars set server knobs at start (lab.Knobs.SetServerCvar:
	// sv_unlag, sv_maxunlag, sv_mutualkills), over the preset's.
	ServerCvars [][2]string
	// Readout, when set, is given the figures of the frame shown
	// (lab.Frame.Readout) after every update that changed it: the browser
	// page exposes them as window.tickshotLab (main_js.go).
	Readout func(lab.Readout)
}

// LabReport is what LabOptions.ReportPath receives when the lab's window
// closes: the state its controls left.
type LabReport struct {
	Preset   string    `json:"preset"` // "" free play
	Paused   bool      `json:"paused"`
	Scrubbed bool      `json:"scrubbed"` // an earlier frame of History was shown
	Speed    float64   `json:"speed"`
	AtMs     float64   `json:"at_ms"` // the lab's virtual time
	Knobs    lab.Knobs `json:"knobs"`
	Drivers  [2]string `json:"drivers"` // keyboard, bot, script, idle
}

// labScreenshotDefault is how long a lab without a preset runs before
// --screenshot's picture.
const labScreenshotDefault = 5 * time.Second

// labSpeeds are the slow-motion steps, real time × speed.
var labSpeeds = []float64{0.1, 0.25, 0.5, 1}

// labMaxStep is the most real time one update advances the lab by (times
// speed): a longer stall of the window slows the lab down instead.
const labMaxStep = 100 * time.Millisecond

// RunLab opens the lag lab (issue 20, docs/LAB.md): the real server and two
// real clients in this process over in-memory links (package lab), drawn
// side by side as player 1's screen, the server's world and player 2's
// screen, with their knobs, overlays and presets. It returns when the
// window closes; an error when the lab could not start or the window
// failed.
func RunLab(opt LabOptions) error {
	if opt.Width == 0 {
		opt.Width, opt.Height = 1280, 720
	}
	if opt.Title == "" {
		opt.Title = "Tickshot lag lab"
	}
	w := &labWindow{opt: opt, speed: 1, scrub: -1, readAt: -1}
	if opt.Speed > 0 {
		w.speed = math.Max(0.1, math.Min(1, opt.Speed))
	}
	if err := w.begin(); err != nil {
		return err
	}
	ebiten.SetWindowSize(opt.Width, opt.Height)
	ebiten.SetWindowTitle(opt.Title)
	ebiten.SetWindowResizingMode(ebiten.WindowResizingModeEnabled)
	// One update per frame, advancing the lab by the real time that
	// passed: the lab keeps real time at whatever frame rate.
	ebiten.SetTPS(ebiten.SyncWithFPS)
	err := ebiten.RunGame(w)
	if errors.Is(err, ebiten.Termination) {
		err = nil
	}
	if opt.ReportPath != "" {
		if rerr := w.writeReport(opt.ReportPath); err == nil {
			err = rerr
		}
	}
	if err == nil {
		err = w.err
	}
	return err
}

// labWindow is the lag lab's ebiten.Game: it owns the running lab.Lab,
// the clock controls (pause, single step, slow motion, scrubbing through
// History) and the input of the keyboard seats; labPainter draws it.
type labWindow struct {
	opt    LabOptions
	lab    *lab.Lab
	preset *lab.Preset // the running experiment, nil in free play
	paint  labPainter

	paused bool
	speed  float64 // slow motion, labSpeeds
	// lastAdvance is when the lab was last advanced (zero: paused since);
	// owed the virtual time not run yet (under a millisecond).
	lastAdvance time.Time
	owed        time.Duration
	// hist is History as it was when the lab was paused; scrub the index
	// of the frame shown in it, -1 for the live frame.
	hist  []lab.Frame
	scrub int

	// msg is a line shown in the status bar for a while (msgUntil, real
	// time): a saved file, a knob that restarted the lab.
	msg      string
	msgUntil time.Time
	// p1Aim is player 1's aim, radians: towards the mouse while it is
	// over player 1's pane, kept while it works the controls.
	p1Aim float64
	// savePNG is where the next Draw saves the window ("" none).
	savePNG string
	// shot is the --screenshot state: the lab ran to its moment (ran),
	// the picture is saved (saved).
	shotRan, shotSaved bool
	// opened: the lab was reopened from a file (LabOptions.Open) and is
	// at the moment it was saved.
	opened bool
	// readAt is the time of the frame last given to LabOptions.Readout
	// (-1: none yet).
	readAt time.Duration
	// err ends RunLab with an error (a failed --screenshot).
	err error
}

// begin starts the lab the options ask for: a saved one reopened paused at
// its end, or the preset.
func (w *labWindow) begin() error {
	if w.opt.Open == "" {
		w.paused = w.opt.Paused
		if len(w.opt.ServerCvars) == 0 {
			return w.start(w.opt.Preset, nil)
		}
		k := lab.DefaultKnobs()
		if p := lab.PresetByName(w.opt.Preset); p != nil {
			k = p.Knobs
		}
		for _, kv := range w.opt.ServerCvars {
			if err := k.SetServerCvar(kv[0], kv[1]); err != nil {
				return err
			}
		}
		return w.start(w.opt.Preset, &k)
	}
	f, err := os.Open(w.opt.Open)
	if err != nil {
		return err
	}
	defer f.Close()
	l, err := lab.Open(f)
	if err != nil {
		return fmt.Errorf("%s: %w", w.opt.Open, err)
	}
	w.lab, w.preset, w.opened = l, l.Preset(), true
	w.paint.reset()
	w.paint.follow(l.Frame())
	w.paused = false
	w.togglePause() // paused at its end, History kept
	w.say("reopened " + w.opt.Open + ", paused where it was saved: Left/Right scrub back, Space runs on")
	return nil
}

// start (re)starts the lab on preset name ("" free play: default knobs,
// player 1 on the keyboard, player 2 a bot), with knobs when not nil
// (Restart: the same experiment with the knobs turned), else the preset's.
func (w *labWindow) start(name string, knobs *lab.Knobs) error {
	cfg := lab.Config{Seed: w.opt.Seed, Preset: name}
	if name == "" {
		cfg.Knobs = lab.DefaultKnobs()
		cfg.Drivers = [2]lab.Driver{lab.DriveKeyboard, lab.DriveBot}
	}
	if knobs != nil {
		k := *knobs
		cfg.Tweak = func(to *lab.Knobs) { *to = k }
	}
	l, err := lab.New(cfg)
	if err != nil {
		return err
	}
	w.lab, w.preset, w.opened = l, l.Preset(), false
	w.hist, w.scrub = nil, -1
	w.paint.reset()
	return nil
}

// frame returns the Frame to draw: the scrubbed one, or the live one.
func (w *labWindow) frame() lab.Frame {
	if w.scrub >= 0 && w.scrub < len(w.hist) {
		return w.hist[w.scrub]
	}
	return w.lab.Frame()
}

// say shows msg in the status bar for a few seconds.
func (w *labWindow) say(msg string) { w.msg, w.msgUntil = msg, time.Now().Add(4*time.Second) }

// Layout implements ebiten.Game: the lab is laid out at its own size,
// scaled with the window.
func (w *labWindow) Layout(int, int) (int, int) { return w.opt.Width, w.opt.Height }

// Update implements ebiten.Game, once a frame: the controls, the keyboard
// seats' input, and the lab advanced by the real time that passed × speed
// (nothing when paused).
func (w *labWindow) Update() error {
	select {
	case <-w.opt.Quit:
		return ebiten.Termination
	default:
	}
	if w.opt.ScreenshotPath != "" {
		return w.screenshotUpdate()
	}
	if inpututil.IsKeyJustPressed(ebiten.KeyEscape) {
		return ebiten.Termination
	}
	defer w.readout()
	w.keys()
	w.mouse()
	if w.paused {
		w.lastAdvance = time.Time{}
		return nil
	}
	f := w.lab.Frame()
	w.lab.SetInput(lab.P1, w.p1Input(&f.Seats[lab.P1]))
	w.lab.SetInput(lab.P2, w.p2Input(&f.Seats[lab.P2]))
	w.advance(time.Now())
	w.paint.follow(w.lab.Frame())
	return nil
}

// advance runs the lab for the real time since the last update (at most
// labMaxStep; a 60th of a second the first time) × speed. Lab.Advance
// runs whole milliseconds: the rest is carried to the next update, so
// that slow motion keeps its rate.
func (w *labWindow) advance(now time.Time) {
	dt := time.Second / 60
	if !w.lastAdvance.IsZero() {
		dt = min(max(now.Sub(w.lastAdvance), 0), labMaxStep)
	}
	w.lastAdvance = now
	w.owed += time.Duration(float64(dt) * w.speed)
	run := w.owed.Truncate(time.Millisecond)
	w.owed -= run
	w.lab.Advance(run)
}

// screenshotUpdate runs --screenshot: the lab to its moment at once, then
// the window closes after the Draw that saved it.
func (w *labWindow) screenshotUpdate() error {
	if w.shotSaved {
		return ebiten.Termination
	}
	if w.shotRan {
		return nil
	}
	if w.opened {
		w.shotRan, w.savePNG = true, w.opt.ScreenshotPath
		return nil
	}
	at := w.opt.ScreenshotAt
	if at <= 0 {
		at = labScreenshotDefault
		if w.preset != nil && w.preset.Duration > 0 {
			at = w.preset.Duration
		}
	}
	// RunFor steps the lab's frames itself; the panes' effects follow the
	// last second of it.
	if err := w.lab.RunFor(max(at-time.Second, 0)); err != nil {
		w.err, w.shotSaved = err, true
		return ebiten.Termination
	}
	const step = time.Second / lab.FrameRate
	for w.lab.RunTime() < at && w.lab.Err() == nil {
		w.lab.Advance(step)
		w.paint.follow(w.lab.Frame())
	}
	if err := w.lab.Err(); err != nil {
		w.err, w.shotSaved = err, true
		return ebiten.Termination
	}
	w.paused, w.shotRan = true, true
	w.savePNG = w.opt.ScreenshotPath
	return nil
}

// keys handles the clock, preset, driver and file keys.
func (w *labWindow) keys() {
	pressed := inpututil.IsKeyJustPressed
	switch {
	case pressed(ebiten.KeySpace) || pressed(ebiten.KeyP):
		w.togglePause()
	case pressed(ebiten.KeyN) || pressed(ebiten.KeyPeriod):
		w.stepTick()
	case pressed(ebiten.KeyBracketLeft):
		w.speed = stepIn(w.speed, labSpeeds, -1)
	case pressed(ebiten.KeyBracketRight):
		w.speed = stepIn(w.speed, labSpeeds, 1)
	case pressed(ebiten.KeyR):
		w.restart(w.presetName(), true)
	case pressed(ebiten.KeyV):
		w.cycleDriver(lab.P1)
	case pressed(ebiten.KeyB):
		w.cycleDriver(lab.P2)
	case pressed(ebiten.KeyF12):
		w.savePNG = time.Now().Format("lab-20060102-150405.png")
	case pressed(ebiten.KeyF5):
		w.saveRun(time.Now().Format("lab-20060102-150405.lab"))
	}
	for i, k := range []ebiten.Key{ebiten.Key0, ebiten.Key1, ebiten.Key2, ebiten.Key3, ebiten.Key4, ebiten.Key5,
		ebiten.Key6, ebiten.Key7, ebiten.Key8, ebiten.Key9} {
		if pressed(k) {
			w.choosePreset(i)
		}
	}
	if w.paused {
		n := 1
		if ebiten.IsKeyPressed(ebiten.KeyShift) {
			n = lab.FrameRate / 2
		}
		if repeating(ebiten.KeyLeft) {
			w.scrubBy(-n)
		}
		if repeating(ebiten.KeyRight) {
			w.scrubBy(n)
		}
	}
}

// repeating tells whether key was pressed this update, or is held past 15
// updates (a quarter of a second at 60 frames/s; then it repeats every
// update).
func repeating(k ebiten.Key) bool {
	d := inpututil.KeyPressDuration(k)
	return d == 1 || d > 15
}

// presetName is the running preset's name, "" in free play.
func (w *labWindow) presetName() string {
	if w.preset == nil {
		return ""
	}
	return w.preset.Name
}

// choosePreset starts preset i of the list (1-based; 0 is free play).
func (w *labWindow) choosePreset(i int) {
	ps := lab.Presets()
	switch {
	case i == 0:
		w.restart("", false)
	case i <= len(ps):
		w.restart(ps[i-1].Name, false)
	}
}

// restart starts the lab again on preset name (keep: with the knobs as
// they are), saying why it could not.
func (w *labWindow) restart(name string, keep bool) {
	var k *lab.Knobs
	if keep {
		k = new(lab.Knobs)
		*k = w.lab.Knobs()
	}
	if err := w.start(name, k); err != nil {
		w.say(err.Error())
	}
}

// togglePause pauses (keeping History for scrubbing) or resumes the live
// lab.
func (w *labWindow) togglePause() {
	w.paused = !w.paused
	w.scrub = -1
	w.hist = nil
	if w.paused {
		w.hist = w.lab.History()
	}
}

// stepTick runs the lab to the server's next tick and on to the first
// client frame that shows it (Frames are made at the clients' frame rate:
// at 64 ticks/s against 60 frames/s one shows two ticks now and then), and
// stays paused there.
func (w *labWindow) stepTick() {
	t0 := w.lab.Frame().Server.Tick
	w.lab.StepTick()
	for i := 0; i < 1000 && w.lab.Frame().Server.Tick == t0 && w.lab.Err() == nil; i++ {
		w.lab.Advance(time.Millisecond)
	}
	w.paint.follow(w.lab.Frame())
	w.paused, w.scrub, w.hist = true, -1, w.lab.History()
}

// scrubBy moves the frame shown n frames through the History kept at the
// pause (negative: back), live at its end.
func (w *labWindow) scrubBy(n int) {
	if !w.paused {
		w.togglePause()
	}
	i := w.scrub
	if i < 0 {
		i = len(w.hist) - 1
	}
	w.scrubTo(i + n)
}

// scrubTo shows History frame i (clamped; its last is the live frame).
func (w *labWindow) scrubTo(i int) {
	if !w.paused {
		w.togglePause()
	}
	if len(w.hist) == 0 {
		return
	}
	i = max(0, min(i, len(w.hist)-1))
	w.scrub = i
	if i == len(w.hist)-1 {
		w.scrub = -1
	}
}

// labDrivers is the order V and B cycle a seat's driver in.
var labDrivers = []lab.Driver{lab.DriveKeyboard, lab.DriveBot, lab.DriveScript, lab.DriveIdle}

// cycleDriver gives seat the next driver.
func (w *labWindow) cycleDriver(seat int) {
	d := w.lab.Driver(seat)
	for i, x := range labDrivers {
		if x == d {
			w.lab.SetDriver(seat, labDrivers[(i+1)%len(labDrivers)])
			return
		}
	}
	w.lab.SetDriver(seat, lab.DriveKeyboard)
}

// setKnobs applies a knob change. The tick rate is the server's from its
// start: a change starts the run again with the knobs as they are.
func (w *labWindow) setKnobs(k lab.Knobs) {
	if k.Server.TickRate == w.lab.Knobs().Server.TickRate {
		w.lab.SetKnobs(k)
		return
	}
	if err := w.start(w.presetName(), &k); err != nil {
		w.say(err.Error())
		return
	}
	w.say(fmt.Sprintf("sv_tickrate %d: the run starts again", k.Server.TickRate))
}

// mouse handles clicks on the panel's controls (labPainter's hit
// regions of the last Draw).
func (w *labWindow) mouse() {
	left := inpututil.IsMouseButtonJustPressed(ebiten.MouseButtonLeft)
	right := inpututil.IsMouseButtonJustPressed(ebiten.MouseButtonRight)
	if !left && !right {
		return
	}
	dir := 1
	if right {
		dir = -1
	}
	x, y := ebiten.CursorPosition()
	if h, ok := w.paint.ui.at(x, y); ok {
		h.do(w, dir)
	}
}

// p1Input is player 1's input (sf: its seat as last drawn): WASD to move,
// the mouse over player 1's pane to aim (from where its client draws it)
// and the left button to fire there; elsewhere the mouse works the
// controls and the aim stays.
func (w *labWindow) p1Input(sf *lab.SeatFrame) netclient.Input {
	var in netclient.Input
	in.MoveX, in.MoveY = keyAxes(ebiten.KeyA, ebiten.KeyD, ebiten.KeyW, ebiten.KeyS)
	cx, cy := ebiten.CursorPosition()
	if image.Pt(cx, cy).In(w.paint.paneRect[0]) {
		wx, wy := w.paint.panes[0].toWorld(float64(cx), float64(cy))
		w.p1Aim = math.Atan2(wy-sf.SelfY, wx-sf.SelfX)
		if ebiten.IsMouseButtonPressed(ebiten.MouseButtonLeft) {
			in.Buttons |= shared.ButtonAttack
		}
		if inpututil.IsMouseButtonJustPressed(ebiten.MouseButtonLeft) {
			in.Pressed |= shared.ButtonAttack
		}
	}
	in.Angle = float32(w.p1Aim)
	return in
}

// p2Input is player 2's input from the keyboard (sf: its seat as last drawn): IJKL to move, Enter to
// fire, aimed at player 1 where player 2's client draws it.
func (w *labWindow) p2Input(sf *lab.SeatFrame) netclient.Input {
	var in netclient.Input
	in.MoveX, in.MoveY = keyAxes(ebiten.KeyJ, ebiten.KeyL, ebiten.KeyI, ebiten.KeyK)
	if sf.OtherSeen {
		in.Angle = float32(math.Atan2(sf.OtherDrawnY-sf.SelfY, sf.OtherDrawnX-sf.SelfX))
	}
	if ebiten.IsKeyPressed(ebiten.KeyEnter) {
		in.Buttons |= shared.ButtonAttack
	}
	if inpututil.IsKeyJustPressed(ebiten.KeyEnter) {
		in.Pressed |= shared.ButtonAttack
	}
	return in
}

// keyAxes are the movement axes of four keys held, each in [-1, 1].
func keyAxes(left, right, up, down ebiten.Key) (x, y float32) {
	axis := func(neg, pos ebiten.Key) float32 {
		var v float32
		if ebiten.IsKeyPressed(neg) {
			v--
		}
		if ebiten.IsKeyPressed(pos) {
			v++
		}
		return v
	}
	return axis(left, right), axis(up, down)
}

// Draw implements ebiten.Game: labPainter draws the frame; a PNG asked
// for is saved from it.
func (w *labWindow) Draw(screen *ebiten.Image) {
	w.paint.draw(screen, w.shown())
	if w.savePNG == "" {
		return
	}
	path := w.savePNG
	w.savePNG = ""
	err := savePNG(screen, path)
	switch {
	case w.opt.ScreenshotPath != "":
		w.err, w.shotSaved = err, true
	case err != nil:
		w.say(err.Error())
	default:
		w.say("saved " + path)
	}
}

// readout gives LabOptions.Readout the frame shown, when it changed.
func (w *labWindow) readout() {
	if w.opt.Readout == nil {
		return
	}
	f := w.frame()
	if f.At == w.readAt {
		return
	}
	w.readAt = f.At
	w.opt.Readout(f.Readout(w.preset, w.lab.Started()))
}

// shown is what Draw shows now.
func (w *labWindow) shown() *labShown {
	st := &labShown{W: w.opt.Width, H: w.opt.Height, f: w.frame(), knobs: w.lab.Knobs(), now: w.lab.Now(), started: w.lab.Started(),
		preset: w.preset, paused: w.paused, speed: w.speed, state: "running", fps: ebiten.ActualFPS()}
	st.drivers = [2]lab.Driver{w.lab.Driver(lab.P1), w.lab.Driver(lab.P2)}
	switch {
	case w.opt.ScreenshotPath != "":
		st.state, st.fps = "PAUSED (--screenshot)", 0
	case w.scrub >= 0:
		st.state = fmt.Sprintf("PAUSED, %.2f s back", (st.now - st.f.At).Seconds())
	case w.paused:
		st.state = "PAUSED"
	}
	if time.Now().Before(w.msgUntil) {
		st.msg = w.msg
	}
	return st
}

// writeReport writes the LabReport to path.
func (w *labWindow) writeReport(path string) error {
	r := LabReport{Preset: w.presetName(), Paused: w.paused, Scrubbed: w.scrub >= 0, Speed: w.speed,
		AtMs: float64(w.lab.Now()) / float64(time.Millisecond), Knobs: w.lab.Knobs(),
		Drivers: [2]string{driverName(w.lab.Driver(lab.P1)), driverName(w.lab.Driver(lab.P2))}}
	return writeFile(path, func(f io.Writer) error { return json.NewEncoder(f).Encode(&r) })
}

// saveRun saves the lab's run to path (lab.Lab.Save), for tickshot lab
// --open to replay, and says where.
func (w *labWindow) saveRun(path string) {
	err := writeFile(path, w.lab.Save)
	if err != nil {
		w.say(err.Error())
		return
	}
	w.say("saved the run to " + path + " (tickshot lab --open " + path + ")")
}

// savePNG writes what img shows to a PNG file at path.
func savePNG(img *ebiten.Image, path string) error {
	rgba := image.NewRGBA(img.Bounds())
	img.ReadPixels(rgba.Pix)
	return writeFile(path, func(f io.Writer) error { return png.Encode(f, rgba) })
}

// writeFile creates the file at path and writes it with write.
func writeFile(path string, write func(io.Writer) error) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	if err := write(f); err != nil {
		_ = f.Close()
		return err
	}
	return f.Close()
}
