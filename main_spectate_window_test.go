//go:build !headless && !js

package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestWindowSpectator starts `tickshot play --spectate` with three bots and
// clicks once, as a person would: the window watches without a body (no
// local player drawn, no shot fired, nothing predicted), receives every
// bot, and the click moved the camera from the first bot to another.
func TestWindowSpectator(t *testing.T) {
	if _, err := exec.LookPath("xdotool"); err != nil {
		t.Fatal("xdotool is not installed (make deps installs it)")
	}
	dir := t.TempDir()
	shot, rep := filepath.Join(dir, "shot.png"), filepath.Join(dir, "report.json")
	game := exec.Command(binPath, "play", "--nosound", "--spectate", "--bots", "3", "--screenshot", shot,
		"--screenshot-after", "6s", "--exit-report", rep, "--width", "1280", "--height", "720")
	if err := game.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- game.Wait() }()
	wid := strings.Fields(xdo(t, "search", "--sync", "--name", "Tickshot"))[0]
	time.Sleep(3 * time.Second) // connected, following the first bot
	xdo(t, "windowfocus", "--sync", wid)
	xdo(t, "mousemove", "--window", wid, "640", "360")
	xdo(t, "click", "1")
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("tickshot play --spectate: %v", err)
		}
	case <-time.After(60 * time.Second):
		_ = game.Process.Kill()
		t.Fatal("game did not exit")
	}
	r := readReport(t, rep)
	t.Logf("report: %+v", r)
	if !r.Connected || !r.Spectator {
		t.Fatalf("connected %v, spectator %v: want a spectator", r.Connected, r.Spectator)
	}
	if r.OthersSeen != 3 {
		t.Errorf("the spectator saw %d players, want the 3 bots", r.OthersSeen)
	}
	if r.ShotsFired != 0 || r.Corrections != 0 || r.Moved != 0 {
		t.Errorf("a spectator fired %d shots, had %d prediction errors, moved %.0f units: want none", r.ShotsFired, r.Corrections, r.Moved)
	}
	// The bots are players 1..3; the camera starts on the first living one
	// and a left click moves it to the next.
	if r.SpecTarget < 2 || r.SpecTarget > 3 {
		t.Errorf("following player %d after one click, want the next bot (2 or 3)", r.SpecTarget)
	}
	img := readPNG(t, shot)
	if keep := os.Getenv("TICKSHOT_KEEP_SHOT"); keep != "" {
		b, _ := os.ReadFile(shot)
		_ = os.WriteFile(keep, b, 0o644)
	}
	var floor, me int
	for y := 0; y < img.Bounds().Dy(); y += 2 {
		for x := 0; x < img.Bounds().Dx(); x += 2 {
			r, g, b, _ := img.At(x, y).RGBA()
			r, g, b = r>>8, g>>8, b>>8
			switch {
			case near(r, g, b, 0x22, 0x26, 0x2d):
				floor++
			case near(r, g, b, 0x3c, 0xd6, 0xf0):
				me++
			}
		}
	}
	if floor < 640*360/5 || me > 10 {
		t.Errorf("screenshot: floor %d samples, local player colour %d: want the arena and no body of our own", floor, me)
	}
}
