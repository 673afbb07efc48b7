//go:build !headless && !js

package main

import (
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"tickshot/client/demo"
	"tickshot/client/netclient"
	"tickshot/internal/tool/testserver"
	"tickshot/net/proto"
	"tickshot/server"
)

// recordDemo records d of a scripted player among bots over loopback
// websockets into path, from the connection on. The player runs about
// without firing under 10 s of spawn protection, so the bots (which fight
// each other) leave it alone: nothing in the demo hits it, and no damage
// flash tints the screen a test looks at (TestWindowPlaydemo counts the
// arena's floor colour; a hit in the 0.3 s before its screenshot turned
// the floor red).
func recordDemo(t *testing.T, path string, d time.Duration) {
	t.Helper()
	if d > 10*time.Second {
		t.Fatalf("recordDemo of %v: spawn protection lasts 10 s at most", d)
	}
	srv := testserver.Start(t, server.Config{TickRate: 64, Bots: 3, Seed: 11, Cvars: [][2]string{{"mp_spawnprotection", "10"}}})
	c := testserver.Connect(t, srv.Addr(), netclient.DefaultConfig("demoman"))
	r, err := demo.StartRecording(c, path)
	if err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	for now := start; now.Sub(start) < d; now = time.Now() {
		if err := c.Poll(); err != nil {
			t.Fatal(err)
		}
		s := now.Sub(start).Seconds()
		c.Frame(now, netclient.Input{MoveX: float32(math.Cos(s)), MoveY: float32(math.Sin(s * 0.7)), Angle: float32(s)})
		for _, e := range c.Match().TakeEvents() {
			if e.Kind == proto.EvHit && e.B == c.View().ID {
				t.Fatalf("the recorded player was hit at %.1f s despite its spawn protection", s)
			}
		}
		time.Sleep(8 * time.Millisecond)
	}
	if err := r.Stop(c, "done"); err != nil {
		t.Fatal(err)
	}
}

// TestWindowPlaydemo records a demo, plays it with `tickshot playdemo`
// under Xvfb with net_graph 2, and checks the screenshot: the arena as
// recorded, and the demo bar with its progress along the bottom.
func TestWindowPlaydemo(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "match.dem")
	recordDemo(t, path, 6*time.Second)
	shot, rep := filepath.Join(dir, "shot.png"), filepath.Join(dir, "report.json")
	cmd := exec.Command(binPath, "playdemo", path, "--nosound", "--screenshot", shot, "--screenshot-after", "3s",
		"--exit-report", rep, "--width", "1280", "--height", "720", "--cvar", "net_graph=2")
	out, err := runWithTimeout(cmd, 60*time.Second)
	if err != nil {
		t.Fatalf("tickshot playdemo: %v\n%s", err, out)
	}
	if !strings.Contains(out, "playing "+path) {
		t.Errorf("playdemo did not say what it plays: %s", out)
	}
	r := readReport(t, rep)
	if r.Phase != "demo" || r.Snapshots < 20 || r.Commands < 100 {
		t.Fatalf("playback: %+v", r)
	}
	if keep := os.Getenv("TICKSHOT_KEEP_SHOT"); keep != "" {
		if b, err := os.ReadFile(shot); err == nil {
			_ = os.WriteFile(keep, b, 0o644) // to look at it
		}
	}
	img := readPNG(t, shot)
	var floor, fill, bar int
	W, H := img.Bounds().Dx(), img.Bounds().Dy()
	for y := 0; y < H; y += 2 {
		for x := 0; x < W; x += 2 {
			r, g, b, _ := img.At(x, y).RGBA()
			r, g, b = r>>8, g>>8, b>>8
			switch {
			case near(r, g, b, 0x22, 0x26, 0x2d):
				floor++
			case y >= H-34 && near(r, g, b, 0xf0, 0xa0, 0x30):
				fill++
			case y >= H-34 && r < 0x20 && g < 0x20 && b < 0x24:
				bar++
			}
		}
	}
	t.Logf("floor %d samples, demo bar %d, its progress and text %d", floor, bar, fill)
	if floor < W*H/4/5 {
		t.Errorf("floor covers %d samples: the arena is not drawn", floor)
	}
	if bar < W/2*8 {
		t.Errorf("the demo bar covers %d samples of the bottom", bar)
	}
	// Three seconds into a demo of six, the progress line is about half
	// way: 4 px high, about 300 samples wide in steps of 2, plus the text.
	if fill < 150 {
		t.Errorf("the demo bar's progress and text cover %d samples", fill)
	}
}

// TestPlaydemoRefusesDamagedFile: a damaged demo is refused on the command
// line with the file and offset, before any window opens.
func TestPlaydemoRefusesDamagedFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "bad.dem")
	if err := os.WriteFile(path, []byte("TSDEMO\r\n\x07\x00"), 0o644); err != nil {
		t.Fatal(err)
	}
	out, err := runWithTimeout(exec.Command(binPath, "playdemo", path), 30*time.Second)
	if err == nil || !strings.Contains(out, "demo "+path+": at byte ") || !strings.Contains(out, "truncated") {
		t.Fatalf("playdemo of a damaged file: %v\n%s", err, out)
	}
}

// TestWindowDemoKeys plays a demo and drives it with xdotool as a person
// would: Space pauses, ] doubles the speed, → jumps 5 s on; Esc leaves.
func TestWindowDemoKeys(t *testing.T) {
	if _, err := exec.LookPath("xdotool"); err != nil {
		t.Fatal("xdotool is not installed (make deps installs it)")
	}
	dir := t.TempDir()
	path := filepath.Join(dir, "keys.dem")
	recordDemo(t, path, 9*time.Second)
	rep := filepath.Join(dir, "report.json")
	game := exec.Command(binPath, "playdemo", path, "--nosound", "--exit-report", rep, "--width", "640", "--height", "360")
	var stderr strings.Builder
	game.Stderr = &stderr
	if err := game.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- game.Wait() }()
	wid := strings.Fields(xdo(t, "search", "--sync", "--name", "Tickshot - demo"))[0]
	time.Sleep(1500 * time.Millisecond)
	xdo(t, "windowfocus", "--sync", wid)
	xdo(t, "key", "space")
	time.Sleep(300 * time.Millisecond)
	xdo(t, "key", "bracketright")
	time.Sleep(300 * time.Millisecond)
	xdo(t, "key", "Right")
	time.Sleep(1500 * time.Millisecond) // paused: the clock stays
	xdo(t, "key", "Escape")
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("tickshot playdemo: %v\n%s", err, stderr.String())
		}
	case <-time.After(30 * time.Second):
		_ = game.Process.Kill()
		t.Fatal("Esc did not close the demo")
	}
	r := readReport(t, rep)
	if r.Demo == nil {
		t.Fatalf("no demo in the report: %+v", r)
	}
	d := *r.Demo
	t.Logf("demo state at the end: %+v", d)
	if !d.Paused || d.Scale != 2 || d.Error != "" {
		t.Errorf("after Space and ]: paused %v, speed ×%v, error %q", d.Paused, d.Scale, d.Error)
	}
	// Paused after some play (a second or two; longer when a busy machine
	// starts the window slowly), then 5 s on from where it was paused, the
	// clock still while paused.
	if d.SeekFromMs <= 0 || math.Abs(d.TimeMs-(d.SeekFromMs+5000)) > 0.01 || d.Tick == 0 {
		t.Errorf("after → the demo is at %.0f ms (tick %d), want 5 s past the pause at %.0f ms", d.TimeMs, d.Tick, d.SeekFromMs)
	}
}
