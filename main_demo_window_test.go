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
// would: Space pauses, ] doubles the speed, → jumps 5 s on; an interrupt
// closes the window (Esc goes to the menu: TestWindowDemoEscToMenu).
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
	if err := game.Process.Signal(os.Interrupt); err != nil {
		t.Fatal(err)
	}
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("tickshot playdemo: %v\n%s", err, stderr.String())
		}
	case <-time.After(30 * time.Second):
		_ = game.Process.Kill()
		t.Fatal("an interrupt did not close the demo")
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

// TestWindowDemoEnd plays a 3 s demo for longer than it lasts: it ends
// with "End of demo" in the middle of the screen, its clock stopped at its
// length, and no connection-problem warning (the clock ran on past the
// end, and the silence after the last snapshot raised "Connection
// problem, auto-disconnect in N s").
func TestWindowDemoEnd(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "short.dem")
	recordDemo(t, path, 3*time.Second)
	shot, rep := filepath.Join(dir, "end.png"), filepath.Join(dir, "report.json")
	cmd := exec.Command(binPath, "playdemo", path, "--nosound", "--screenshot", shot, "--screenshot-after", "8s",
		"--exit-report", rep, "--width", "1280", "--height", "720")
	if out, err := runWithTimeout(cmd, 60*time.Second); err != nil {
		t.Fatalf("tickshot playdemo: %v\n%s", err, out)
	}
	r := readReport(t, rep)
	if r.Demo == nil {
		t.Fatalf("no demo in the report: %+v", r)
	}
	d := *r.Demo
	t.Logf("at the end: %+v; warnings shown %d", d, r.ProblemsShown)
	if !d.Done || d.Error != "" || d.DurationMs < 2500 {
		t.Fatalf("the demo did not play to its end: %+v", d)
	}
	if d.TimeMs != d.DurationMs {
		t.Errorf("the demo clock reads %.1f ms at the end, want it stopped at the demo's length %.1f ms", d.TimeMs, d.DurationMs)
	}
	if r.ProblemsShown != 0 || r.ConnectionProblem != "" {
		t.Errorf("a connection problem was shown %d times during the demo (%q)", r.ProblemsShown, r.ConnectionProblem)
	}
	// "End of demo" in the demo bar's orange, in the middle of the screen
	// (above the bar): 40 px text, about 600 samples in steps of 2.
	img := readPNG(t, shot)
	W, H := img.Bounds().Dx(), img.Bounds().Dy()
	text := 0
	for y := (H-34)/2 - 60; y < (H-34)/2; y += 2 {
		for x := W/2 - 220; x < W/2+220; x += 2 {
			r, g, b, _ := img.At(x, y).RGBA()
			if near(r>>8, g>>8, b>>8, 0xf0, 0xa0, 0x30) {
				text++
			}
		}
	}
	t.Logf("End of demo text: %d samples", text)
	if text < 200 {
		t.Errorf("no \"End of demo\" in the middle of the screen (%d orange samples)", text)
	}
}

// TestWindowDemoEscToMenu: Esc in `tickshot playdemo` goes to the main
// menu, and the program goes on (it quit before).
func TestWindowDemoEscToMenu(t *testing.T) {
	if _, err := exec.LookPath("xdotool"); err != nil {
		t.Fatal("xdotool is not installed (make deps installs it)")
	}
	dir := t.TempDir()
	path := filepath.Join(dir, "esc.dem")
	recordDemo(t, path, 3*time.Second)
	rep := filepath.Join(dir, "report.json")
	cmd, out := startTickshot(t, t.TempDir(), "playdemo", path, "--nosound", "--exit-report", rep)
	wid := strings.Fields(xdo(t, "search", "--sync", "--name", "Tickshot - demo"))[0]
	waitScreen(t, wid, 20*time.Second, "the demo", isGame)
	xdo(t, "windowfocus", "--sync", wid)
	xdo(t, "key", "Escape")
	waitScreen(t, wid, 20*time.Second, "the menu after Esc", isMenu)
	time.Sleep(time.Second)
	if cmd.ProcessState != nil {
		t.Fatalf("the program ended after Esc\n%s", out.String())
	}
	if err := cmd.Process.Signal(os.Interrupt); err != nil {
		t.Fatal(err)
	}
	waitExit(t, cmd, out)
	if r := readReport(t, rep); r.Phase != "menu" || r.Demo != nil {
		t.Errorf("after Esc: phase %q, demo %+v; want the menu", r.Phase, r.Demo)
	}
}

// TestWindowPlaydemoInGame: `playdemo` typed in the console of a live
// game does not end it at once: it says that it would leave the game;
// typed again it leaves it for the demo, and Esc in the demo goes back to
// that game (the program went on neither quitting nor leaving silently).
func TestWindowPlaydemoInGame(t *testing.T) {
	if _, err := exec.LookPath("xdotool"); err != nil {
		t.Fatal("xdotool is not installed (make deps installs it)")
	}
	dir := t.TempDir()
	path := filepath.Join(dir, "ingame.dem")
	recordDemo(t, path, 3*time.Second)
	srv := testserver.Start(t, server.Config{TickRate: 64, Seed: 3})
	rep := filepath.Join(dir, "report.json")
	cmd, out := startTickshot(t, t.TempDir(), "connect", srv.Addr(), "--nosound", "--exit-report", rep, "--width", "960", "--height", "540")
	wid := strings.Fields(xdo(t, "search", "--sync", "--name", "Tickshot - "+srv.Addr()))[0]
	waitScreen(t, wid, 30*time.Second, "the game", isGame)
	xdo(t, "windowfocus", "--sync", wid)
	playdemo := func() {
		xdo(t, "type", "--delay", "30", "playdemo "+path)
		xdo(t, "key", "Return")
		time.Sleep(time.Second)
	}
	xdo(t, "key", "grave") // the console
	time.Sleep(300 * time.Millisecond)
	playdemo()
	playdemo()
	xdo(t, "key", "grave") // the console closed: Esc is the demo's
	time.Sleep(500 * time.Millisecond)
	xdo(t, "key", "Escape")
	time.Sleep(500 * time.Millisecond)
	waitScreen(t, wid, 30*time.Second, "the game after Esc", isGame)
	if err := cmd.Process.Signal(os.Interrupt); err != nil {
		t.Fatal(err)
	}
	waitExit(t, cmd, out)
	r := readReport(t, rep)
	t.Logf("console: %q", r.Console)
	if r.Phase != "playing" || !r.Connected || r.Demo != nil {
		t.Errorf("after Esc in the demo: phase %q, connected %v, demo %+v; want the game again", r.Phase, r.Connected, r.Demo)
	}
	// The console's lines, in order: asked, left for the demo, came back.
	want := []string{"playdemo: you are in a game at " + srv.Addr(), "left the game at " + srv.Addr(), "playing " + path, "back to the game at " + srv.Addr()}
	i := 0
	for _, l := range r.Console {
		if i < len(want) && strings.HasPrefix(l, want[i]) {
			i++
		}
	}
	if i < len(want) {
		t.Errorf("the console lacks %q (in this order after %q)", want[i], want[:i])
	}
}
