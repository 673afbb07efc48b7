//go:build !headless

package client

import (
	"testing"
	"time"

	"tickshot/client/lab"
)

// TestLabWindowClock drives the lab window's clock controls on a real lab
// without drawing: pause keeps History, scrubbing shows earlier frames
// (back by whole frames, live again at the end), a single step runs the
// server to its next tick (the first frame that shows it) and stays paused, and a preset key restarts the lab on
// that preset (0: free play, player 2 a bot).
func TestLabWindowClock(t *testing.T) {
	if len(lab.Presets()) == 0 {
		t.Skip("the lag lab's engine has no presets yet")
	}
	w := &labWindow{opt: LabOptions{Width: testScreenW, Height: testScreenH}, speed: 1, scrub: -1}
	if err := w.start("behind-wall"); err != nil {
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
	w.choosePreset(2)
	if w.preset == nil || w.preset.Name != lab.Presets()[1].Name {
		t.Errorf("key 2 started %v, want %s", w.preset, lab.Presets()[1].Name)
	}
	w.cycleDriver(lab.P1)
	if d := w.lab.Driver(lab.P1); d == lab.DriveScript {
		t.Errorf("V left player 1 on its script")
	}
}
