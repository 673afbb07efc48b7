//go:build !headless

package client

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"tickshot/client/lab"
)

// TestLabWindowClock drives the lab window's clock controls on a real lab
// without drawing: pause keeps History, scrubbing shows earlier frames
// (back by whole frames, live again at the end), a single step runs the
// server to its next tick (the first frame that shows it) and stays paused, and a preset key restarts the lab on
// that preset (0: free play, player 2 a bot), and Restart keeps the knobs
// turned, as a tick-rate change does (a preset chosen takes its own).
func TestLabWindowClock(t *testing.T) {
	if len(lab.Presets()) == 0 {
		t.Skip("the lag lab's engine has no presets yet")
	}
	w := &labWindow{opt: LabOptions{Width: testScreenW, Height: testScreenH}, speed: 1, scrub: -1}
	if err := w.start("behind-wall", nil); err != nil {
		t.Fatal(err)
	}
	if err := w.lab.RunFor(2 * time.Second); err != nil {
		t.Fatal(err)
	}
	now := w.lab.Now()
	w.togglePause()
	if !w.paused || len(w.hist) == 0 || w.frame().At != now {
		t.Fatalf("paused %v with %d frames kept, showing %v (now %v)", w.paused, len(w.hist), w.frame().At, now)
	}
	w.scrubBy(-lab.FrameRate)
	if got := now - w.frame().At; got != time.Second {
		t.Errorf("a second back shows %v before now", got)
	}
	w.scrubBy(10 * lab.FrameRate)
	if w.scrub != -1 || w.frame().At != now {
		t.Errorf("scrubbing past the end: index %d, showing %v, want the live frame at %v", w.scrub, w.frame().At, now)
	}
	tick := w.lab.Frame().Server.Tick
	w.stepTick()
	// Frames come at 60/s: one may show two ticks of 64/s.
	if got := w.lab.Frame().Server.Tick; got < tick+1 || got > tick+2 || !w.paused {
		t.Errorf("a single step: tick %d → %d, paused %v; want the next tick shown and still paused", tick, got, w.paused)
	}
	w.choosePreset(0)
	if w.preset != nil || w.lab.Driver(lab.P2) != lab.DriveBot || w.lab.Now() != 0 {
		t.Errorf("free play: preset %v, player 2 driven by %v, at %v", w.preset, w.lab.Driver(lab.P2), w.lab.Now())
	}
	// Restart keeps the knobs turned; choosing a preset takes its own.
	w.choosePreset(1)
	k := w.lab.Knobs()
	k.Server.Unlag = false
	w.setKnobs(k)
	w.restart(w.presetName(), true)
	if w.lab.Knobs().Server.Unlag || w.presetName() != "behind-wall" || w.lab.Now() != 0 {
		t.Errorf("restart: sv_unlag %v, preset %q, at %v; want sv_unlag off kept, behind-wall from 0",
			w.lab.Knobs().Server.Unlag, w.presetName(), w.lab.Now())
	}
	k = w.lab.Knobs()
	k.Server.TickRate = 32
	if err := w.lab.RunFor(500 * time.Millisecond); err != nil {
		t.Fatal(err)
	}
	w.setKnobs(k)
	if got := w.lab.Knobs(); got.Server.TickRate != 32 || got.Server.Unlag || w.lab.Now() != 0 {
		t.Errorf("sv_tickrate 32: the lab runs at %d ticks/s, sv_unlag %v, at %v; want 32, off still, from 0",
			got.Server.TickRate, got.Server.Unlag, w.lab.Now())
	}
	w.choosePreset(2)
	if !w.lab.Knobs().Server.Unlag {
		t.Errorf("a preset chosen after a restart kept sv_unlag off")
	}
	if w.preset == nil || w.preset.Name != lab.Presets()[1].Name {
		t.Errorf("key 2 started %v, want %s", w.preset, lab.Presets()[1].Name)
	}
	w.cycleDriver(lab.P1)
	if d := w.lab.Driver(lab.P1); d == lab.DriveScript {
		t.Errorf("V left player 1 on its script")
	}
}

// TestLabWindowReadout: LabOptions.Readout (the page's window.tickshotLab)
// gets the figures of the frame shown once per change: the three panes
// titled, the run's time, and nothing new while the frame stays.
func TestLabWindowReadout(t *testing.T) {
	if len(lab.Presets()) == 0 {
		t.Skip("the lag lab's engine has no presets yet")
	}
	var got []lab.Readout
	w := &labWindow{opt: LabOptions{Preset: "behind-wall", Readout: func(r lab.Readout) { got = append(got, r) }},
		speed: 1, scrub: -1, readAt: -1}
	if err := w.begin(); err != nil {
		t.Fatal(err)
	}
	if err := w.lab.RunFor(time.Second); err != nil {
		t.Fatal(err)
	}
	w.readout()
	w.readout()
	if len(got) != 1 {
		t.Fatalf("%d readouts of one frame, want 1", len(got))
	}
	r := got[0]
	if r.Preset != "behind-wall" || r.RunMs < 990 || r.Panes[0].Title != "Player 1" || r.Panes[1].Title != "Server" ||
		r.Panes[2].Title != "Player 2" || r.Panes[1].Tick == 0 {
		t.Errorf("readout: %+v", r)
	}
}

// TestLabWindowSaveAndOpen saves a run with the window's Save run (F5)
// and reopens it as tickshot lab --open does: the reopened lab is paused
// at the moment saved, showing the same frame, with History to scrub.
func TestLabWindowSaveAndOpen(t *testing.T) {
	if len(lab.Presets()) == 0 {
		t.Skip("the lag lab's engine has no presets yet")
	}
	w := &labWindow{opt: LabOptions{Preset: "behind-wall"}, speed: 1, scrub: -1}
	if err := w.begin(); err != nil {
		t.Fatal(err)
	}
	if err := w.lab.RunFor(1500 * time.Millisecond); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "run.lab")
	w.saveRun(path)
	if !strings.Contains(w.msg, path) {
		t.Fatalf("after saving: %q", w.msg)
	}
	o := &labWindow{opt: LabOptions{Open: path}, speed: 1, scrub: -1}
	if err := o.begin(); err != nil {
		t.Fatal(err)
	}
	a, b := w.lab.Frame(), o.frame()
	if !o.paused || !o.opened || len(o.hist) == 0 || b.At != a.At || b.Seats[lab.P1].SelfX != a.Seats[lab.P1].SelfX ||
		o.presetName() != "behind-wall" {
		t.Errorf("reopened: paused %v, %d frames kept, at %v (saved at %v), player 1 at x %v (saved %v), preset %q",
			o.paused, len(o.hist), b.At, a.At, b.Seats[lab.P1].SelfX, a.Seats[lab.P1].SelfX, o.presetName())
	}
	bad := filepath.Join(t.TempDir(), "bad.lab")
	if err := os.WriteFile(bad, []byte("not a lab"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := (&labWindow{opt: LabOptions{Open: bad}, scrub: -1}).begin(); err == nil || !strings.Contains(err.Error(), bad) {
		t.Errorf("opening a file that is no lab run: %v", err)
	}
}

// TestLabWindowAdvancesRealTime: each update advances the lab by the real
// time since the last one × the slow motion, carrying what Lab.Advance's
// whole milliseconds leave over (at ×0.1 a 60 Hz update is 1.67 ms of lab
// time: without the carry it would run 1 ms), and a stall counts as at
// most labMaxStep.
func TestLabWindowAdvancesRealTime(t *testing.T) {
	if len(lab.Presets()) == 0 {
		t.Skip("the lag lab's engine has no presets yet")
	}
	w := &labWindow{opt: LabOptions{Preset: "behind-wall"}, speed: 0.1, scrub: -1}
	if err := w.begin(); err != nil {
		t.Fatal(err)
	}
	t0 := time.Unix(1000, 0)
	w.advance(t0)
	start := w.lab.Now()
	frame := time.Second / 60
	for i := 1; i <= 60; i++ {
		w.advance(t0.Add(time.Duration(i) * frame))
	}
	if got := w.lab.Now() - start; got < 99*time.Millisecond || got > 100*time.Millisecond {
		t.Errorf("a second of real time at ×0.1 ran %v of lab time, want 100 ms", got)
	}
	w.speed = 1
	start = w.lab.Now()
	w.advance(t0.Add(time.Second + 5*time.Second)) // a 5 s stall
	if got := w.lab.Now() - start; got > labMaxStep+time.Millisecond {
		t.Errorf("a 5 s stall ran %v of lab time, want at most %v", got, labMaxStep)
	}
}
