package e2e

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"image/png"
	"math"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"
)

// The browser end-to-end test drives Debian's Chromium, headless, through
// the DevTools protocol (github.com/chromedp/chromedp; no browser download:
// the system's chromium). WebGL runs on SwiftShader, Chromium's software
// renderer, so no GPU is needed.
//
// It skips, saying why, where Chromium or the built browser client is
// missing; with TICKSHOT_REQUIRE_BROWSER=1 (set by .ci/run) it fails instead.

// The browser's viewport in CSS pixels. Software WebGL is bound by fill
// rate, and below about 20 fps the client still makes one usercmd per frame
// (slow motion, the frame-rate issue), so the tests use a small viewport
// that keeps a loaded 2-core machine near full speed; the measurement uses
// a larger, more typical one.
const (
	browserW, browserH = 640, 360
	measureW, measureH = 960, 540
)

func needBrowser(t *testing.T, why string) {
	t.Helper()
	if os.Getenv("TICKSHOT_REQUIRE_BROWSER") == "1" {
		t.Fatalf("browser test required (TICKSHOT_REQUIRE_BROWSER=1) but %s", why)
	}
	t.Skipf("skipped: %s", why)
}

// findChromium returns the system Chromium's executable.
func findChromium(t *testing.T) string {
	t.Helper()
	if p := os.Getenv("CHROME_PATH"); p != "" {
		return p
	}
	// Debian's /usr/bin/chromium is a shell wrapper; the real binary is below.
	for _, p := range []string{"/usr/lib/chromium/chromium", "/usr/bin/chromium", "/usr/bin/chromium-browser", "/usr/bin/google-chrome"} {
		if _, err := os.Stat(p); err == nil {
			return p
		}
	}
	if p, err := exec.LookPath("chromium"); err == nil {
		return p
	}
	needBrowser(t, "no Chromium found (apt-get install chromium, or set CHROME_PATH)")
	return ""
}

// requireWasm checks that the browser client was built (make wasm) so the
// server binary embeds it.
func requireWasm(t *testing.T) {
	t.Helper()
	p := filepath.Join(repoRoot(t), "assets", "web", "dist", "tickshot.wasm.gz")
	if _, err := os.Stat(p); err != nil {
		needBrowser(t, "the browser client is not built (run make wasm, which make test does)")
	}
}

// browserSetup finds Chromium and the built client, builds the server
// binary and starts it with extra flags; the server's log is shown if the
// test fails.
func browserSetup(t *testing.T, extra ...string) (chrome, bin, addr string, hc *http.Client) {
	t.Helper()
	chrome = findChromium(t)
	requireWasm(t)
	bin = buildServer(t)
	hc = &http.Client{Timeout: 2 * time.Second}
	srv, addr := startServer(t, bin, hc, extra...)
	t.Cleanup(func() {
		if t.Failed() {
			t.Logf("server log:\n%s", srv.stderr.String())
		}
	})
	return chrome, bin, addr, hc
}

// consoleLog collects the page's console output and exceptions.
type consoleLog struct {
	mu    sync.Mutex
	lines []string
}

func (c *consoleLog) add(s string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if len(c.lines) < 200 {
		c.lines = append(c.lines, s)
	}
}

func (c *consoleLog) String() string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return strings.Join(c.lines, "\n")
}

// newBrowser starts a headless Chromium and returns a tab's context.
func newBrowser(t *testing.T, chrome string, timeout time.Duration) (context.Context, *consoleLog) {
	return newBrowserSized(t, chrome, timeout, browserW, browserH)
}

// newBrowserSized is newBrowser with a viewport of w×h CSS pixels.
func newBrowserSized(t *testing.T, chrome string, timeout time.Duration, w, h int64) (context.Context, *consoleLog) {
	t.Helper()
	opts := append([]chromedp.ExecAllocatorOption{}, chromedp.DefaultExecAllocatorOptions[:]...)
	opts = append(opts,
		chromedp.ExecPath(chrome),
		chromedp.NoSandbox, // CI runs as root
		chromedp.Flag("use-angle", "swiftshader"),
		chromedp.Flag("enable-unsafe-swiftshader", true),
		chromedp.WindowSize(int(w), int(h)),
	)
	actx, acancel := chromedp.NewExecAllocator(context.Background(), opts...)
	ctx, cancel := chromedp.NewContext(actx)
	ctx, tcancel := context.WithTimeout(ctx, timeout)
	t.Cleanup(func() { tcancel(); cancel(); acancel() })
	logs := &consoleLog{}
	chromedp.ListenTarget(ctx, func(ev any) {
		switch ev := ev.(type) {
		case *runtime.EventConsoleAPICalled:
			var parts []string
			for _, a := range ev.Args {
				parts = append(parts, strings.Trim(string(a.Value), `"`)+a.Description)
			}
			logs.add(fmt.Sprintf("console.%s: %s", ev.Type, strings.Join(parts, " ")))
		case *runtime.EventExceptionThrown:
			logs.add("exception: " + ev.ExceptionDetails.Error())
		}
	})
	if err := chromedp.Run(ctx); err != nil {
		t.Fatalf("start chromium %s: %v", chrome, err)
	}
	// Headless pages are unfocused; a player's tab has the focus. The
	// viewport is set exactly (the window's size includes its frame).
	if err := chromedp.Run(ctx, emulation.SetFocusEmulationEnabled(true),
		emulation.SetDeviceMetricsOverride(w, h, 1, false)); err != nil {
		t.Fatalf("focus emulation: %v", err)
	}
	return ctx, logs
}

// gameReport is the part of the game's client.Report (published as
// window.tickshot.state) this test reads; package client is not imported
// because Ebiten panics at start without a display.
type gameReport struct {
	Phase     string  `json:"phase"`
	Error     string  `json:"error"`
	PlayerID  uint16  `json:"player_id"`
	FPS       float64 `json:"fps"`
	X         float64 `json:"x"`
	Y         float64 `json:"y"`
	Health    int     `json:"health"`
	Commands  uint32  `json:"commands"`
	Snapshots int     `json:"snapshots"`
	// Transport and DatagramSnapshots: what carries the game (webrtc,
	// websocket) and the snapshots that came as datagrams.
	Transport         string `json:"transport"`
	DatagramSnapshots int    `json:"datagram_snapshots"`
	Corrections       int    `json:"prediction_corrections"`
	ShotsFired        int    `json:"shots_fired"`
	Frames            int    `json:"frames"`
	HitsDealt         int    `json:"hits_dealt"`
	HitsTaken         int    `json:"hits_taken"`
	OthersSeen        int    `json:"others_seen"`
	Resyncs           int    `json:"resyncs"`
}

// pageState reads window.tickshot.state, the game's report.
func pageState(ctx context.Context) (gameReport, error) {
	var s string
	var r gameReport
	if err := chromedp.Run(ctx, chromedp.Evaluate(`(window.tickshot && window.tickshot.state) || ""`, &s)); err != nil {
		return r, err
	}
	if s == "" {
		return r, fmt.Errorf("no state published yet")
	}
	err := json.Unmarshal([]byte(s), &r)
	return r, err
}

// waitState polls the game's state until ok or the timeout.
func waitState(t *testing.T, ctx context.Context, logs *consoleLog, what string, timeout time.Duration, ok func(gameReport) bool) gameReport {
	t.Helper()
	deadline := time.Now().Add(timeout)
	var last gameReport
	var lastErr error
	for time.Now().Before(deadline) {
		r, err := pageState(ctx)
		if err == nil {
			last = r
			if ok(r) {
				return r
			}
			if r.Phase == "error" {
				t.Fatalf("waiting for %s: the game shows an error: %s\nconsole:\n%s", what, r.Error, logs)
			}
		}
		lastErr = err
		time.Sleep(100 * time.Millisecond)
	}
	t.Fatalf("waiting for %s: timed out; last state %+v (%v)\nconsole:\n%s", what, last, lastErr, logs)
	return last
}

// holdKey presses a key, holds it for d and releases it. Ebiten reads
// KeyboardEvent.code, so the code is set ("KeyD").
func holdKey(ctx context.Context, key, code string, vk int64, d time.Duration) error {
	ev := func(typ input.KeyType) *input.DispatchKeyEventParams {
		return input.DispatchKeyEvent(typ).WithKey(key).WithCode(code).
			WithWindowsVirtualKeyCode(vk).WithNativeVirtualKeyCode(vk)
	}
	if err := chromedp.Run(ctx, ev(input.KeyDown)); err != nil {
		return err
	}
	time.Sleep(d)
	return chromedp.Run(ctx, ev(input.KeyUp))
}

// click presses and releases the left button at (x, y), CSS pixels.
func click(ctx context.Context, x, y float64, hold time.Duration) error {
	if err := chromedp.Run(ctx, input.DispatchMouseEvent(input.MouseMoved, x, y)); err != nil {
		return err
	}
	if err := chromedp.Run(ctx, input.DispatchMouseEvent(input.MousePressed, x, y).WithButton(input.Left).WithClickCount(1)); err != nil {
		return err
	}
	time.Sleep(hold)
	return chromedp.Run(ctx, input.DispatchMouseEvent(input.MouseReleased, x, y).WithButton(input.Left).WithClickCount(1))
}

// TestBrowserClient is a new player's path: open the server's URL in
// Chromium, read the server's name on the page, type a name, press Play,
// and play: the server lists the browser player with a ping, it moves the
// way the keys say, it fires, its prediction is never corrected while
// nothing hits it, the canvas shows the arena, and a hidden tab coming
// back resynchronises instead of flooding the server.
func TestBrowserClient(t *testing.T) {
	if testing.Short() {
		t.Skip("e2e: builds the server and runs a browser")
	}
	chrome, _, addr, hc := browserSetup(t, "--map", "range", "--name", "Browser test server")
	ctx, logs := newBrowser(t, chrome, 4*time.Minute)

	// The page: the server's name from /status, then name and Play.
	t0 := time.Now()
	var serverName string
	err := chromedp.Run(ctx,
		chromedp.Navigate("http://"+addr+"/"),
		chromedp.WaitVisible("#play", chromedp.ByID),
		chromedp.Poll(`document.getElementById("server-name").textContent === "Browser test server"`, nil,
			chromedp.WithPollingTimeout(10*time.Second)),
		chromedp.Text("#server-name", &serverName, chromedp.ByID),
		chromedp.Evaluate(`document.getElementById("name").value = ""`, nil),
		chromedp.SendKeys("#name", "webby", chromedp.ByID),
	)
	if err != nil {
		t.Fatalf("index page: %v\nconsole:\n%s", err, logs)
	}
	var invite string
	if err := chromedp.Run(ctx, chromedp.Value("#invite", &invite, chromedp.ByID)); err != nil {
		t.Fatal(err)
	}
	if want := "http://" + addr + "/?name=webby"; invite != want {
		t.Errorf("invite link %q, want %q", invite, want)
	}
	saveScreenshot(t, ctx, "browser-menu.png")
	if err := chromedp.Run(ctx, chromedp.Click("#play", chromedp.ByID)); err != nil {
		t.Fatal(err)
	}
	playing := waitState(t, ctx, logs, "the game to join and receive snapshots", 90*time.Second, func(r gameReport) bool {
		return r.Phase == "playing" && r.Snapshots >= 20 && r.Health > 0
	})
	var firstFrameMs float64
	_ = chromedp.Run(ctx, chromedp.Evaluate(`(window.tickshot && window.tickshot.firstFrameMs) || 0`, &firstFrameMs))
	t.Logf("joined as #%d %v after Play; first frame %.0f ms after navigation", playing.PlayerID, time.Since(t0).Round(time.Millisecond), firstFrameMs)
	if firstFrameMs <= 0 {
		t.Error("the page never reported a first frame")
	}

	// The server lists the browser player, with a ping.
	var ping = -1
	deadline := time.Now().Add(10 * time.Second)
	for time.Now().Before(deadline) && ping <= 0 {
		st, err := getStatus(hc, addr)
		if err == nil {
			for _, p := range st.Players {
				if p.Name == "webby" && !p.Bot {
					ping = p.PingMs
				}
			}
		}
		time.Sleep(200 * time.Millisecond)
	}
	if ping <= 0 {
		t.Fatalf("/status does not list the browser player webby with a ping (ping %d)", ping)
	}
	t.Logf("/status: webby, ping %d ms", ping)

	// Hold D: the player moves right (+x), not up or down.
	before := waitState(t, ctx, logs, "a state", 5*time.Second, func(gameReport) bool { return true })
	if err := holdKey(ctx, "d", "KeyD", 68, 1500*time.Millisecond); err != nil {
		t.Fatal(err)
	}
	time.Sleep(300 * time.Millisecond)
	after := waitState(t, ctx, logs, "a state", 5*time.Second, func(gameReport) bool { return true })
	dx, dy := after.X-before.X, after.Y-before.Y
	t.Logf("D held 1.5 s: moved (%.1f, %.1f) units at %.1f fps", dx, dy, after.FPS)
	// Below about 20 fps the client makes one usercmd per frame (slow
	// motion, the frame-rate issue), so only the direction is asserted firmly.
	if dx < 8 || math.Abs(dy) > dx/4 {
		t.Errorf("holding D moved the player by (%.1f, %.1f): want mostly +x", dx, dy)
	}
	// Hold S: down the screen (+y).
	if err := holdKey(ctx, "s", "KeyS", 83, 1000*time.Millisecond); err != nil {
		t.Fatal(err)
	}
	time.Sleep(300 * time.Millisecond)
	after2 := waitState(t, ctx, logs, "a state", 5*time.Second, func(gameReport) bool { return true })
	if dy := after2.Y - after.Y; dy < 8 {
		t.Errorf("holding S moved the player %.1f units down, want more", dy)
	}

	// Click: the rifle fires.
	if err := click(ctx, browserW*0.75, browserH*0.5, 400*time.Millisecond); err != nil {
		t.Fatal(err)
	}
	fired := waitState(t, ctx, logs, "a shot", 10*time.Second, func(r gameReport) bool { return r.ShotsFired >= 1 })
	if fired.Corrections != 0 {
		t.Errorf("%d prediction corrections while nothing hit the player", fired.Corrections)
	}

	// The canvas shows the arena: many colours, no single one dominating.
	var shot []byte
	if err := chromedp.Run(ctx, chromedp.CaptureScreenshot(&shot)); err != nil {
		t.Fatal(err)
	}
	checkArenaScreenshot(t, shot)
	saveScreenshot(t, ctx, "browser-game.png")

	// A hidden tab coming back: no flood kick, no burst of
	// commands, the clock resynchronised.
	frozenAt := waitState(t, ctx, logs, "a state", 5*time.Second, func(gameReport) bool { return true })
	// Another tab in front hides the game's tab: no animation frames, so
	// no Update (focus emulation would keep it visible: off meanwhile).
	// (Freezing the page instead makes Chromium close its websockets.)
	other, closeOther := chromedp.NewContext(ctx)
	defer closeOther()
	if err := chromedp.Run(ctx, emulation.SetFocusEmulationEnabled(false)); err != nil {
		t.Fatal(err)
	}
	if err := chromedp.Run(other, chromedp.Navigate("about:blank"), page.BringToFront()); err != nil {
		t.Fatalf("open another tab: %v", err)
	}
	var hidden string
	_ = chromedp.Run(ctx, chromedp.Evaluate(`document.visibilityState`, &hidden))
	time.Sleep(3 * time.Second)
	if err := chromedp.Run(ctx, page.BringToFront(), emulation.SetFocusEmulationEnabled(true)); err != nil {
		t.Fatalf("back to the game's tab: %v", err)
	}
	closeOther()
	t.Logf("game tab was %s for 3 s", hidden)
	resumed := waitState(t, ctx, logs, "the game to run again after the hidden tab", 15*time.Second, func(r gameReport) bool {
		return r.Phase == "playing" && r.Frames > frozenAt.Frames+10
	})
	time.Sleep(2 * time.Second)
	later := waitState(t, ctx, logs, "a state", 5*time.Second, func(gameReport) bool { return true })
	if later.Phase != "playing" {
		t.Fatalf("after the hidden tab: phase %s, error %q", later.Phase, later.Error)
	}
	if later.Resyncs < 1 {
		t.Errorf("no clock resync after 3 s hidden (resyncs %d, tab was %s)", later.Resyncs, hidden)
	}
	// Commands made in the 3 s hidden plus ~2.5 s after: at most real time's worth.
	made := later.Commands - frozenAt.Commands
	t.Logf("hidden 3 s: %d commands made from freeze to 2 s after resume (state %d→%d), resyncs %d",
		made, frozenAt.Commands, later.Commands, later.Resyncs)
	if made > 64*7 {
		t.Errorf("%d commands around a 3 s hidden tab: a catch-up burst", made)
	}
	_ = resumed
	if later.Corrections != 0 {
		t.Errorf("%d prediction corrections after the hidden tab", later.Corrections)
	}
	t.Logf("browser client: %d snapshots, %d commands, %.1f fps, %d corrections", later.Snapshots, later.Commands, later.FPS, later.Corrections)
}

// saveScreenshot writes the page to TICKSHOT_SCREENSHOT_DIR/name when
// that is set (README's pictures: scripts/screenshots.sh).
func saveScreenshot(t *testing.T, ctx context.Context, name string) {
	t.Helper()
	dir := os.Getenv("TICKSHOT_SCREENSHOT_DIR")
	if dir == "" {
		return
	}
	var b []byte
	if err := chromedp.Run(ctx, chromedp.CaptureScreenshot(&b)); err != nil {
		t.Errorf("screenshot %s: %v", name, err)
		return
	}
	if err := os.WriteFile(filepath.Join(dir, name), b, 0o644); err != nil {
		t.Error(err)
	}
}

// checkArenaScreenshot asserts a PNG shows a drawn scene, not a blank or
// one-colour frame.
func checkArenaScreenshot(t *testing.T, b []byte) {
	t.Helper()
	img, err := png.Decode(bytes.NewReader(b))
	if err != nil {
		t.Fatalf("screenshot: %v", err)
	}
	counts := map[uint32]int{}
	bounds := img.Bounds()
	total := 0
	for y := bounds.Min.Y; y < bounds.Max.Y; y += 2 {
		for x := bounds.Min.X; x < bounds.Max.X; x += 2 {
			r, g, bl, _ := img.At(x, y).RGBA()
			counts[(r>>11)<<10|(g>>11)<<5|bl>>11]++
			total++
		}
	}
	most := 0
	for _, n := range counts {
		most = max(most, n)
	}
	t.Logf("screenshot %dx%d: %d colours, the commonest covers %.0f%%", bounds.Dx(), bounds.Dy(), len(counts), 100*float64(most)/float64(total))
	if len(counts) < 8 || float64(most)/float64(total) > 0.97 {
		t.Errorf("the canvas looks blank: %d colours, the commonest covers %.0f%%", len(counts), 100*float64(most)/float64(total))
	}
}

// TestBrowserAndNativeClientPlayTogether puts a browser player and a native
// one in one match on the open range map: the browser tab joins through an
// invite link (/?name=...) with the bot brain playing for it (autoplay=1),
// the native player is `tickshot bot`, the real client netcode in its own
// process. Both must see the other and both must land hits on the other.
func TestBrowserAndNativeClientPlayTogether(t *testing.T) {
	if testing.Short() {
		t.Skip("e2e: builds the server and runs a browser")
	}
	chrome, bin, addr, _ := browserSetup(t, "--map", "range")
	ctx, logs := newBrowser(t, chrome, 4*time.Minute)
	// The invite link joins at once, without pressing Play.
	if err := chromedp.Run(ctx, chromedp.Navigate("http://"+addr+"/?name=webbot&autoplay=1")); err != nil {
		t.Fatal(err)
	}
	waitState(t, ctx, logs, "the invite link to join", 90*time.Second, func(r gameReport) bool {
		return r.Phase == "playing" && r.Snapshots >= 10
	})
	const rounds = 3
	var web gameReport
	var native Summary
	for round := 1; round <= rounds; round++ {
		bot := start(t, bin, "bot", "--server", addr, "--count", "1", "--duration", "20s", "--json", "--name", "native")
		select {
		case <-bot.done:
		case <-time.After(60 * time.Second):
			t.Fatal("the native bot did not finish")
		}
		if bot.err != nil {
			t.Fatalf("bot: %v\n%s", bot.err, bot.stderr.String())
		}
		if err := json.Unmarshal([]byte(strings.TrimSpace(bot.stdout.String())), &native); err != nil {
			t.Fatalf("bot summary %q: %v", bot.stdout.String(), err)
		}
		web = waitState(t, ctx, logs, "a state", 5*time.Second, func(gameReport) bool { return true })
		t.Logf("round %d: native: seen %d others, %d hits dealt, %d taken, %d shots; browser: seen %d, %d hits dealt, %d taken, %d shots, %.1f fps",
			round, native.OthersSeen, native.HitsDealt, native.HitsTaken, native.ShotsFired,
			web.OthersSeen, web.HitsDealt, web.HitsTaken, web.ShotsFired, web.FPS)
		if native.HitsDealt >= 1 && native.HitsTaken >= 1 {
			break
		}
	}
	if web.Phase != "playing" {
		t.Fatalf("browser: phase %s, error %q", web.Phase, web.Error)
	}
	if native.OthersSeen < 1 || web.OthersSeen < 1 {
		t.Errorf("they did not see each other: native saw %d others, browser %d", native.OthersSeen, web.OthersSeen)
	}
	if native.HitsDealt < 1 || native.HitsTaken < 1 {
		t.Errorf("no exchange of hits in %d rounds: the native player dealt %d and took %d", rounds, native.HitsDealt, native.HitsTaken)
	}
	if web.HitsDealt < 1 || web.HitsTaken < 1 {
		t.Errorf("the browser player dealt %d hits and took %d", web.HitsDealt, web.HitsTaken)
	}
}

// TestBrowserServerFullThenReconnect: a browser player who meets a full
// server is told so on the page, with a Reconnect button; once a slot is
// free, Reconnect joins.
func TestBrowserServerFullThenReconnect(t *testing.T) {
	if testing.Short() {
		t.Skip("e2e: builds the server and runs a browser")
	}
	// No spectator slots: a full server would otherwise admit the
	// latecomer as a spectator (sv_maxspectators) instead of refusing it.
	chrome, bin, addr, hc := browserSetup(t, "--maxplayers", "1", "--cvar", "sv_maxspectators=0")
	// A native player takes the only slot for 15 s.
	occupant := start(t, bin, "bot", "--server", addr, "--count", "1", "--duration", "15s", "--name", "occupant")
	deadline := time.Now().Add(10 * time.Second)
	for {
		st, err := getStatus(hc, addr)
		if err == nil && len(st.Players) == 1 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the native player never joined: %v %s", err, occupant.stderr.String())
		}
		time.Sleep(100 * time.Millisecond)
	}

	ctx, logs := newBrowser(t, chrome, 3*time.Minute)
	if err := chromedp.Run(ctx, chromedp.Navigate("http://"+addr+"/?name=latecomer")); err != nil {
		t.Fatal(err)
	}
	var title, text string
	err := chromedp.Run(ctx,
		chromedp.WaitVisible("#overlay", chromedp.ByID),
		chromedp.Text("#overlay-title", &title, chromedp.ByID),
		chromedp.Text("#overlay-text", &text, chromedp.ByID),
	)
	if err != nil {
		t.Fatalf("no error overlay: %v\nconsole:\n%s", err, logs)
	}
	t.Logf("page says: %s: %s", title, text)
	if title != "Could not connect" || !strings.Contains(text, "server is full") {
		t.Errorf("overlay %q / %q, want \"Could not connect\" and the server's reason \"server is full\"", title, text)
	}
	// The slot frees up; Reconnect joins.
	select {
	case <-occupant.done:
	case <-time.After(30 * time.Second):
		t.Fatal("the native player did not leave")
	}
	if err := chromedp.Run(ctx, chromedp.Click("#reconnect", chromedp.ByID)); err != nil {
		t.Fatal(err)
	}
	// The published state still shows the old error until the game runs
	// its next update.
	for end := time.Now().Add(5 * time.Second); time.Now().Before(end); time.Sleep(50 * time.Millisecond) {
		if r, err := pageState(ctx); err == nil && r.Phase != "error" {
			break
		}
	}
	r := waitState(t, ctx, logs, "Reconnect to join", 30*time.Second, func(r gameReport) bool {
		return r.Phase == "playing" && r.Snapshots > 5
	})
	var overlayShown bool
	_ = chromedp.Run(ctx, chromedp.Evaluate(`document.getElementById("overlay").style.display !== "none"`, &overlayShown))
	if overlayShown {
		t.Error("the error overlay is still shown after joining")
	}
	t.Logf("after Reconnect: playing as #%d", r.PlayerID)
}

// TestBrowserMinuteOfPlay is the measurement behind docs/MEASUREMENTS.md's
// browser figures, run by `make measure-browser` (TICKSHOT_BROWSER_MEASURE=1;
// skipped otherwise: it takes over a minute). A browser player joins a
// server with 3 bots through an invite link, the bot brain playing for it
// (autoplay=1), for 60 s. It reports the download size, the time from
// navigation to the first frame, fps, snapshot and command rates, ping,
// and the prediction corrections against the deaths that cause them (one
// correction at a death and one at the respawn is expected; any other is a
// misprediction).
func TestBrowserMinuteOfPlay(t *testing.T) {
	if os.Getenv("TICKSHOT_BROWSER_MEASURE") != "1" {
		t.Skip("skipped: a 60 s measurement; run make measure-browser (TICKSHOT_BROWSER_MEASURE=1)")
	}
	chrome, _, addr, hc := browserSetup(t, "--bots", "3")
	req, _ := http.NewRequest(http.MethodGet, "http://"+addr+"/tickshot.wasm", nil)
	req.Header.Set("Accept-Encoding", "gzip") // as browsers send it; keeps the body compressed
	resp, err := hc.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	t.Logf("wasm: %s bytes raw, %d sent gzip-compressed", resp.Header.Get("X-Uncompressed-Length"), resp.ContentLength)

	ctx, logs := newBrowserSized(t, chrome, 4*time.Minute, measureW, measureH)
	if os.Getenv("TICKSHOT_SCREENSHOT_DIR") != "" {
		// README's picture of the page: the server's players above Play.
		if err := chromedp.Run(ctx, chromedp.Navigate("http://"+addr+"/"),
			chromedp.WaitVisible("#players", chromedp.ByID),
			chromedp.SendKeys("#name", "Alice", chromedp.ByID)); err != nil {
			t.Fatal(err)
		}
		saveScreenshot(t, ctx, "browser-menu.png")
	}
	t0 := time.Now()
	if err := chromedp.Run(ctx, chromedp.Navigate("http://"+addr+"/?name=measure&autoplay=1")); err != nil {
		t.Fatal(err)
	}
	start := waitState(t, ctx, logs, "the game to start", 90*time.Second, func(r gameReport) bool {
		return r.Phase == "playing" && r.Snapshots > 0
	})
	var firstFrameMs float64
	_ = chromedp.Run(ctx, chromedp.Evaluate(`window.tickshot.firstFrameMs || 0`, &firstFrameMs))
	t.Logf("first frame %.0f ms after navigation (page load, wasm download and compile, Go start); playing %v after navigation",
		firstFrameMs, time.Since(t0).Round(time.Millisecond))
	begin := time.Now()
	var fps []float64
	var last gameReport
	shot := false
	for time.Since(begin) < 60*time.Second {
		time.Sleep(5 * time.Second)
		r := waitState(t, ctx, logs, "a state", 5*time.Second, func(gameReport) bool { return true })
		if r.Phase != "playing" {
			t.Fatalf("phase %s after %v: %s", r.Phase, time.Since(begin), r.Error)
		}
		fps = append(fps, r.FPS)
		last = r
		if !shot && r.Health > 0 && len(fps) >= 2 {
			saveScreenshot(t, ctx, "browser-game.png")
			shot = true
		}
	}
	el := time.Since(begin).Seconds()
	st, err := getStatus(hc, addr)
	if err != nil {
		t.Fatal(err)
	}
	deaths, kills, ping := -1, 0, 0
	for _, p := range st.Players {
		if p.Name == "measure" {
			deaths, kills, ping = p.Deaths, p.Kills, p.PingMs
		}
	}
	sort := append([]float64(nil), fps...)
	for i := range sort {
		for j := i + 1; j < len(sort); j++ {
			if sort[j] < sort[i] {
				sort[i], sort[j] = sort[j], sort[i]
			}
		}
	}
	t.Logf("60 s vs 3 bots at %dx%d: fps min %.1f median %.1f max %.1f; %.1f snapshots/s, %.1f commands/s; ping %d ms; %d kills, %d deaths; %d prediction corrections; %d hits dealt, %d taken",
		measureW, measureH, sort[0], sort[len(sort)/2], sort[len(sort)-1],
		float64(last.Snapshots-start.Snapshots)/el, float64(last.Commands-start.Commands)/el, ping,
		kills, deaths, last.Corrections, last.HitsDealt, last.HitsTaken)
	if deaths < 0 {
		t.Fatal("/status does not list the browser player")
	}
	if last.Snapshots-start.Snapshots < int(el*15) {
		t.Errorf("%d snapshots in %.0f s, want about 20/s", last.Snapshots-start.Snapshots, el)
	}
	if last.Corrections > 2*deaths+2 {
		t.Errorf("%d prediction corrections with %d deaths: more than death and respawn explain", last.Corrections, deaths)
	}
}
