package e2e

import (
	"bytes"
	"context"
	"encoding/json"
	"image"
	"image/png"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"tickshot/client/lab"
)

// The lag lab's layout at 1280×720 (client/lab_draw.go): three panes side by
// side, each a third of the width, the worlds between these rows.
const labPaneTop, labPaneBottom = 108, 372

// labShotColours are the colours the lab links a shot's drawings by across
// the panes (client/lab_draw.go's labShotColours, shots #1 to #6).
var labShotColours = [][3]uint32{
	{0xff, 0x3c, 0xc8}, {0xff, 0xe0, 0x30}, {0xa0, 0xff, 0x40},
	{0xa8, 0x78, 0xff}, {0xff, 0x58, 0x70}, {0x40, 0xff, 0xc8},
}

// TestBrowserLab opens the lag lab at /lab?preset=behind-wall on a real
// server in headless Chromium at 1280×720: the page starts the embedded
// wasm with the lab's config, and the lab runs the preset with its own
// server in the page (the real server package over in-memory links). It
// asserts what the page shows: the lab started (its canvas, no error), and
// the preset's shot is drawn in all three panes (player 1, the server,
// player 2) in one linked colour, at least 30 pixels in each, as the
// window's test does for `tickshot lab --screenshot`.
func TestBrowserLab(t *testing.T) {
	if testing.Short() {
		t.Skip("e2e: builds the server and runs a browser")
	}
	chrome, _, addr, _ := browserSetup(t)
	ctx, logs := newBrowserSized(t, chrome, 4*time.Minute, 1280, 720)

	var title string
	err := chromedp.Run(ctx,
		chromedp.Navigate("http://"+addr+"/lab?preset=behind-wall"),
		chromedp.Title(&title),
		// The wasm is downloaded, compiled and running (the page hid its
		// introduction and Ebiten made its canvas), or the page says why not.
		chromedp.Poll(`(document.querySelector("canvas") !== null && document.getElementById("intro").style.display === "none") ||
			document.getElementById("error").textContent !== ""`, nil, chromedp.WithPollingTimeout(90*time.Second)),
	)
	if err != nil {
		t.Fatalf("the lab did not start: %v\nconsole:\n%s", err, logs)
	}
	checkLabRunning(t, ctx, logs)
	if title != "Tickshot lag lab" {
		t.Errorf("page title %q, want %q", title, "Tickshot lag lab")
	}

	// The preset's shot, seen from the three seats. Software WebGL on a busy
	// machine runs the lab slowly, but a shot stays drawn for 2 s of the
	// lab's time (lab.ShotShowTime), so screenshots a second apart catch it.
	deadline := time.Now().Add(2 * time.Minute)
	linked, tries := -1, 0
	var counts [3]int
	for linked < 0 && time.Now().Before(deadline) {
		checkLabRunning(t, ctx, logs)
		var b []byte
		if err := chromedp.Run(ctx, chromedp.CaptureScreenshot(&b)); err != nil {
			t.Fatalf("screenshot: %v", err)
		}
		tries++
		img, err := png.Decode(bytes.NewReader(b))
		if err != nil {
			t.Fatalf("screenshot: %v", err)
		}
		if img.Bounds().Dx() != 1280 || img.Bounds().Dy() != 720 {
			t.Fatalf("screenshot is %v, want 1280x720", img.Bounds())
		}
		for n, c := range labShotColours {
			counts = [3]int{}
			for i := range counts {
				counts[i] = countColour(img, image.Rect(i*1280/3, labPaneTop, (i+1)*1280/3, labPaneBottom), c)
			}
			if counts[0] >= 30 && counts[1] >= 30 && counts[2] >= 30 {
				linked = n + 1
				saveScreenshot(t, ctx, "browser-lab.png")
				break
			}
		}
		if linked < 0 {
			time.Sleep(time.Second)
		}
	}
	if linked < 0 {
		saveScreenshot(t, ctx, "browser-lab.png")
		t.Fatalf("in %d screenshots over 2 minutes, no shot colour was drawn in all three panes\nconsole:\n%s", tries, logs)
	}
	t.Logf("shot #%d drawn in all three panes (%v pixels of its colour), screenshot %d", linked, counts, tries)
	// The page exposes the figures of the frame shown (window.tickshotLab,
	// lab.Readout): read until they hold player 1's shot, then check the
	// three panes' figures of that frame against the preset (player 1 at
	// 200 ms RTT, player 2 at 20 ms, lag compensation on).
	var r lab.Readout
	var raw string
	shot := -1
	for deadline := time.Now().Add(2 * time.Minute); shot < 0; time.Sleep(100 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("in 2 minutes window.tickshotLab never held player 1's shot; last: %s\nconsole:\n%s", raw, logs)
		}
		checkLabRunning(t, ctx, logs)
		if err := chromedp.Run(ctx, chromedp.Evaluate(`JSON.stringify(window.tickshotLab || null)`, &raw)); err != nil {
			t.Fatal(err)
		}
		r = lab.Readout{}
		if err := json.Unmarshal([]byte(raw), &r); err != nil {
			t.Fatalf("window.tickshotLab: %v: %s", err, raw)
		}
		for i, s := range r.Shots {
			if s.Shooter == 1 {
				shot = i
			}
		}
	}
	t.Logf("window.tickshotLab: %s", raw)
	p1, sv, p2 := r.Panes[0], r.Panes[1], r.Panes[2]
	if r.Preset != "behind-wall" || r.RunMs <= 0 || r.AtMs < r.RunMs {
		t.Errorf("preset %q, run %v ms, at %v ms: want behind-wall, run > 0, at >= run", r.Preset, r.RunMs, r.AtMs)
	}
	if p1.Title != "Player 1" || sv.Title != "Server" || p2.Title != "Player 2" {
		t.Errorf("pane titles %q, %q, %q", p1.Title, sv.Title, p2.Title)
	}
	if p1.RTTMs != 200 || p2.RTTMs != 20 {
		t.Errorf("RTT %d and %d ms, want the preset's 200 and 20", p1.RTTMs, p2.RTTMs)
	}
	// The server in the page ran both clients' commands, and each client
	// heard back: a client's last acknowledged command is one the server
	// has received.
	if sv.Tick == 0 || len(sv.LastCmds) != 2 {
		t.Fatalf("server pane: tick %d, last commands %v", sv.Tick, sv.LastCmds)
	}
	for i, p := range []lab.PaneFigure{p1, p2} {
		if p.InterpMs <= 0 || p.LastAcked == 0 || p.LastAcked > sv.LastCmds[i] {
			t.Errorf("%s: interp %v ms, last acked #%d, the server's last received #%d: want interp > 0 and 0 < acked <= received",
				p.Title, p.InterpMs, p.LastAcked, sv.LastCmds[i])
		}
	}
	// The shot: a hit, its hitbox rewound past player 1's interpolation
	// delay, to exactly where player 1 saw player 2.
	s := r.Shots[shot]
	if s.Verdict != lab.VerdictHit || s.RewindMs <= p1.InterpMs || s.RewindErr != 0 {
		t.Errorf("player 1's shot: %s, rewound %v ms, rewind error %v: want a hit, rewound over %v ms, error 0",
			s.Verdict, s.RewindMs, s.RewindErr, p1.InterpMs)
	}
	if s := logs.String(); strings.Contains(s, "exception") {
		t.Errorf("the page threw:\n%s", s)
	}
}

// checkLabRunning fails the test when the page shows an error: the lab
// stopped or could not start (an unknown preset, a failed download).
func checkLabRunning(t *testing.T, ctx context.Context, logs *consoleLog) {
	t.Helper()
	var pageErr string
	if err := chromedp.Run(ctx, chromedp.Evaluate(`document.getElementById("error").textContent`, &pageErr)); err != nil {
		t.Fatal(err)
	}
	if pageErr != "" {
		t.Fatalf("the page says: %s\nconsole:\n%s", pageErr, logs)
	}
}

// countColour counts the pixels of r in img within 16 of c on each channel.
func countColour(img image.Image, r image.Rectangle, c [3]uint32) int {
	n := 0
	for y := r.Min.Y; y < r.Max.Y; y++ {
		for x := r.Min.X; x < r.Max.X; x++ {
			cr, cg, cb, _ := img.At(x, y).RGBA()
			if absDiff(int(cr>>8), int(c[0])) <= 16 && absDiff(int(cg>>8), int(c[1])) <= 16 && absDiff(int(cb>>8), int(c[2])) <= 16 {
				n++
			}
		}
	}
	return n
}
