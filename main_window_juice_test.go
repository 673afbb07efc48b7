//go:build !headless && !js

package main

import (
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestWindowShowsExplosion plays `range` (a box that fits the 1280-wide
// window across) with no bots, takes the rocket launcher (2) and holds
// fire at the middle of the screen, so that rockets fly across the map
// into the far wall; --screenshot-on explosion takes the screenshot at the
// first explosion on screen. It must not be blank and must show the
// explosion's colours: the fireball's orange and yellow and the white-hot
// flash or core.
func TestWindowShowsExplosion(t *testing.T) {
	if _, err := exec.LookPath("xdotool"); err != nil {
		t.Fatal("xdotool is not installed (make deps installs it)")
	}
	dir := t.TempDir()
	shot, rep := filepath.Join(dir, "explosion.png"), filepath.Join(dir, "report.json")
	game := exec.Command(binPath, "play", "--nosound", "--map", "range", "--bots", "0", "--screenshot", shot,
		"--screenshot-after", "3s", "--screenshot-on", "explosion", "--exit-report", rep, "--width", "1280", "--height", "720")
	if err := game.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- game.Wait() }()
	wid := strings.Fields(xdo(t, "search", "--sync", "--name", "Tickshot"))[0]
	time.Sleep(2500 * time.Millisecond) // connected and spawned
	xdo(t, "windowfocus", "--sync", wid)
	xdo(t, "mousemove", "--window", wid, "640", "360")
	xdo(t, "key", "2")
	time.Sleep(600 * time.Millisecond) // the launcher drawn (its SwitchMs)
	xdo(t, "mousemove", "--window", wid, "640", "360")
	xdo(t, "mousedown", "1")
	var err error
	select {
	case err = <-done:
	case <-time.After(40 * time.Second):
		_ = game.Process.Kill()
		t.Fatal("game did not exit")
	}
	_ = exec.Command("xdotool", "mouseup", "1").Run() // the window may be gone
	if err != nil {
		t.Fatalf("tickshot play: %v", err)
	}
	r := readReport(t, rep)
	if !r.Connected || r.ShotsFired == 0 {
		t.Fatalf("did not play and fire: %+v", r)
	}
	img := readPNG(t, shot)
	colours := map[uint32]int{}
	var fire, hot int
	b := img.Bounds()
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			r, g, bl, _ := img.At(x, y).RGBA()
			r, g, bl = r>>8, g>>8, bl>>8
			colours[r<<16|g<<8|bl]++
			switch {
			case r > 200 && g >= 70 && g < 215 && bl < 110: // orange to yellow
				fire++
			case r > 235 && g > 225 && bl > 170: // the flash and the core
				hot++
			}
		}
	}
	t.Logf("%d colours; fireball %d px, white-hot %d px (report %+v)", len(colours), fire, hot, r)
	if len(colours) < 20 {
		t.Errorf("only %d distinct colours: blank frame?", len(colours))
	}
	if fire < 1500 {
		t.Errorf("fireball colours cover %d px: want an explosion (at least 1500)", fire)
	}
	if hot < 100 {
		t.Errorf("white-hot colours cover %d px: want the explosion's flash or core (at least 100)", hot)
	}
}
