//go:build !headless && !js && unix

package main

import (
	"encoding/json"
	"image"
	"net/http"
	"os/exec"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"tickshot/client/netclient"
	"tickshot/server"
)

// TestWindowConnectionProblem joins a server process with the window,
// stops the server (SIGSTOP) and takes a screenshot a few seconds later:
// the window must show "Connection problem, auto-disconnect in N s" (the
// report carries what is on screen) and have shown it at the first frame
// past ProblemAfter (0.5 s) of silence.
func TestWindowConnectionProblem(t *testing.T) {
	_, headless := binaries(t)
	addr, srv := startServerProcess(t, headless, "--bots", "0")
	hc := &http.Client{Timeout: 2 * time.Second}
	dir := t.TempDir()
	shot, rep := filepath.Join(dir, "problem.png"), filepath.Join(dir, "report.json")
	const shotAfter = 12 * time.Second
	begin := time.Now()
	game := exec.Command(binPath, "connect", addr, "--nosound", "--name", "stalltest", "--screenshot", shot,
		"--screenshot-after", shotAfter.String(), "--exit-report", rep, "--width", "960", "--height", "540")
	var out syncBuffer
	game.Stdout, game.Stderr = &out, &out
	if err := game.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- game.Wait() }()
	defer func() {
		_ = game.Process.Kill()
	}()

	// Stop the server once the player is in and a little has been played.
	for joined := false; !joined; time.Sleep(100 * time.Millisecond) {
		if time.Since(begin) > shotAfter-5*time.Second {
			t.Fatalf("the window had not joined %v after start\n%s", time.Since(begin), out.String())
		}
		resp, err := hc.Get("http://" + addr + "/status")
		if err != nil {
			continue
		}
		var st server.Status
		_ = json.NewDecoder(resp.Body).Decode(&st)
		resp.Body.Close()
		for _, p := range st.Players {
			joined = joined || p.Name == "stalltest"
		}
	}
	// Past the first frames of play, which are slow under software GL.
	time.Sleep(1500 * time.Millisecond)
	if err := srv.Process.Signal(syscall.SIGSTOP); err != nil {
		t.Fatal(err)
	}
	stoppedAt := time.Since(begin)
	select {
	case <-done:
	case <-time.After(40 * time.Second):
		t.Fatalf("the window did not quit after its screenshot\n%s", out.String())
	}
	_ = srv.Process.Signal(syscall.SIGCONT)

	r := readReport(t, rep)
	t.Logf("server stopped %v after start; report: phase %s, warning %q, shown %d time(s), first after %.0f ms of silence (%.0f ms after the frame before)",
		stoppedAt.Round(time.Millisecond), r.Phase, r.ConnectionProblem, r.ProblemsShown, r.ProblemShownAfterMs, r.ProblemFrameGapMs)
	if r.Phase != "playing" {
		t.Fatalf("phase %q (%s), want still playing while the server is stopped", r.Phase, r.Error)
	}
	if m := problemRE.FindStringSubmatch(r.ConnectionProblem); m == nil {
		t.Errorf("on screen at the screenshot: %q, want %q", r.ConnectionProblem, problemRE)
	}
	if r.ProblemsShown > 1 {
		// A starved machine may stall the stream for half a second before
		// the stop too: said, not failed.
		t.Logf("the warning appeared %d times (once is the server's stop)", r.ProblemsShown)
	}
	// The last appearance is the one still on screen: the server's stop.
	// It came at the first frame past ProblemAfter (the frame before saw
	// at most that much silence), however long a busy machine made the
	// frames (ProblemFrameGapMs).
	after := float64(netclient.MinProblemAfter.Milliseconds())
	if r.ProblemsShown < 1 || r.ProblemShownAfterMs < after || r.ProblemShownAfterMs-r.ProblemFrameGapMs > after+1 {
		t.Errorf("the warning appeared after %.0f ms of silence, %.0f ms after the frame before: want the first frame past %.0f ms",
			r.ProblemShownAfterMs, r.ProblemFrameGapMs, after)
	}

	// The warning is drawn: its yellow text on a dark red panel, top centre.
	img := readPNG(t, shot)
	b := img.Bounds()
	yellow := countNear(img, image.Rect(b.Dx()/4, 60, b.Dx()*3/4, 110), 0xff, 0xd8, 0x60)
	if yellow < 100 {
		t.Errorf("%d pixels of the warning's text at the top centre: warning not drawn", yellow)
	}
	elsewhere := countNear(img, image.Rect(0, 200, b.Dx(), b.Dy()), 0xff, 0xd8, 0x60)
	t.Logf("warning text: %d pixels at the top centre, %d elsewhere", yellow, elsewhere)
}

// countNear counts the pixels of img in r within 6 of (R, G, B).
func countNear(img image.Image, r image.Rectangle, R, G, B uint32) int {
	n := 0
	r = r.Intersect(img.Bounds())
	for y := r.Min.Y; y < r.Max.Y; y++ {
		for x := r.Min.X; x < r.Max.X; x++ {
			cr, cg, cb, _ := img.At(x, y).RGBA()
			if near(cr>>8, cg>>8, cb>>8, R, G, B) {
				n++
			}
		}
	}
	return n
}
