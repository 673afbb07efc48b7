package e2e

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"net/http"
	"os"
	"sort"
	"strconv"
	"testing"
	"time"

	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/chromedp"
)

// The touch tests (issue 22): a phone in Chromium's mobile emulation
// (Emulation.setDeviceMetricsOverride with mobile set,
// Emulation.setTouchEmulationEnabled), played with touches sent through
// Input.dispatchTouchEvent, the way DevTools' device mode does it.

// The phone: an iPhone 12-14's viewport, CSS pixels; the tablet: an iPad
// Air's.
const (
	phoneW, phoneH   = 390, 844
	tabletW, tabletH = 820, 1180
)

// emulateDevice makes the tab a touch device of w×h CSS pixels (portrait
// when h > w), at device pixel ratio dpr.
func emulateDevice(ctx context.Context, w, h int64, dpr float64) error {
	o := &emulation.ScreenOrientation{Type: emulation.OrientationTypePortraitPrimary}
	if w > h {
		o = &emulation.ScreenOrientation{Type: emulation.OrientationTypeLandscapePrimary, Angle: 90}
	}
	return chromedp.Run(ctx,
		emulation.SetDeviceMetricsOverride(w, h, dpr, true).WithScreenOrientation(o),
		emulation.SetTouchEmulationEnabled(true).WithMaxTouchPoints(5))
}

// touch sends one touch event with the fingers now on the glass (none
// for the last touchEnd).
func touch(ctx context.Context, typ input.TouchType, points ...*input.TouchPoint) error {
	if points == nil {
		points = []*input.TouchPoint{}
	}
	return chromedp.Run(ctx, input.DispatchTouchEvent(typ, points))
}

// drag puts finger id down at (x, y), waits for the game to see it (the
// stick's base is where the game first sees the finger: the game's state
// published anew since, frames later, however slow the machine), slides
// it by (dx, dy) in steps, holds it there for hold, and lifts it.
func drag(ctx context.Context, id, x, y, dx, dy float64, hold time.Duration) error {
	if err := touch(ctx, input.TouchStart, &input.TouchPoint{X: x, Y: y, ID: id}); err != nil {
		return err
	}
	if err := waitDrawn(ctx); err != nil {
		return err
	}
	const steps = 5
	for i := 1; i <= steps; i++ {
		k := float64(i) / steps
		if err := touch(ctx, input.TouchMove, &input.TouchPoint{X: x + dx*k, Y: y + dy*k, ID: id}); err != nil {
			return err
		}
		time.Sleep(16 * time.Millisecond)
	}
	time.Sleep(hold)
	return touch(ctx, input.TouchEnd)
}

// waitDrawn waits until the game has run an Update after the input
// just sent: its state published anew, frames later.
func waitDrawn(ctx context.Context) error {
	r0, err := pageState(ctx) // published before or after the input
	if err != nil {
		return err
	}
	for end := time.Now().Add(10 * time.Second); ; time.Sleep(50 * time.Millisecond) {
		if r, err := pageState(ctx); err == nil && r.Frames >= r0.Frames+2 {
			return nil // published after the input: an Update has seen it
		}
		if time.Now().After(end) {
			return fmt.Errorf("the game drew no frames in 10 s after the input")
		}
	}
}

// tapGame taps the game's canvas at (x, y), the game seeing the finger
// down and then up.
func tapGame(ctx context.Context, x, y float64) error {
	if err := touch(ctx, input.TouchStart, &input.TouchPoint{X: x, Y: y, ID: 4}); err != nil {
		return err
	}
	if err := waitDrawn(ctx); err != nil {
		return err
	}
	if err := touch(ctx, input.TouchEnd); err != nil {
		return err
	}
	return waitDrawn(ctx)
}

// lagCompShots reads the server's count of lag-compensated shots
// (/status lag_compensation.shots).
func lagCompShots(t *testing.T, hc *http.Client, addr string) uint64 {
	t.Helper()
	resp, err := hc.Get("http://" + addr + "/status")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var st struct {
		LagComp struct {
			Shots uint64 `json:"shots"`
		} `json:"lag_compensation"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&st); err != nil {
		t.Fatal(err)
	}
	return st.LagComp.Shots
}

// pageLayout is what checkReadable measures of the join page.
type pageLayout struct {
	TouchClass   bool    `json:"touch"`
	Coarse       bool    `json:"coarse"`
	KeysTouch    string  `json:"keys_touch"`
	KeysDesktop  string  `json:"keys_desktop"`
	MinFontPx    float64 `json:"min_font_px"`
	MinFontText  string  `json:"min_font_text"`
	ScrollWidth  float64 `json:"scroll_width"`
	InnerWidth   float64 `json:"inner_width"`
	PlayHeightPx float64 `json:"play_height"`
}

// readLayout measures the join page: the touch class, which instructions
// show, the smallest font of any visible text, whether the page is wider
// than the viewport, the Play button's height.
func readLayout(ctx context.Context) (pageLayout, error) {
	var s string
	var l pageLayout
	err := chromedp.Run(ctx, chromedp.Evaluate(`(() => {
  const shown = (el) => el.offsetParent !== null || getComputedStyle(el).position === "fixed";
  let min = 1e9, minText = "";
  const walk = document.createTreeWalker(document.getElementById("menu"), NodeFilter.SHOW_TEXT);
  for (let n = walk.nextNode(); n; n = walk.nextNode()) {
    if (!n.textContent.trim() || !shown(n.parentElement)) continue;
    const px = parseFloat(getComputedStyle(n.parentElement).fontSize);
    if (px < min) { min = px; minText = n.textContent.trim().slice(0, 40); }
  }
  for (const el of document.querySelectorAll("#menu input")) {
    const px = parseFloat(getComputedStyle(el).fontSize);
    if (shown(el) && px < min) { min = px; minText = "input#" + el.id; }
  }
  return JSON.stringify({
    touch: document.body.classList.contains("touch"),
    coarse: matchMedia("(pointer: coarse)").matches,
    keys_touch: getComputedStyle(document.getElementById("keys-touch")).display,
    keys_desktop: getComputedStyle(document.getElementById("keys-desktop")).display,
    min_font_px: min, min_font_text: minText,
    scroll_width: document.documentElement.scrollWidth, inner_width: innerWidth,
    play_height: document.getElementById("play").getBoundingClientRect().height,
  });
})()`, &s))
	if err == nil {
		err = json.Unmarshal([]byte(s), &l)
	}
	return l, err
}

// checkPhoneLayout asserts the join page on a touch device of w×h: the
// touch instructions and not the keys', text of 16 px or more, nothing
// wider than the screen, a Play button a thumb high.
func checkPhoneLayout(t *testing.T, ctx context.Context, w, h int64) {
	t.Helper()
	l, err := readLayout(ctx)
	if err != nil {
		t.Fatalf("%d×%d: %v", w, h, err)
	}
	t.Logf("%d×%d: %+v", w, h, l)
	if !l.TouchClass || l.KeysTouch == "none" || l.KeysDesktop != "none" {
		t.Errorf("%d×%d: the page does not show the touch instructions instead of WASD (touch %v, pointer coarse %v, touch keys %q, desktop keys %q)",
			w, h, l.TouchClass, l.Coarse, l.KeysTouch, l.KeysDesktop)
	}
	if l.MinFontPx < 16 {
		t.Errorf("%d×%d: text at %.1f px (%q): want 16 px or more, readable without zoom", w, h, l.MinFontPx, l.MinFontText)
	}
	if l.ScrollWidth > l.InnerWidth {
		t.Errorf("%d×%d: the page is %.0f px wide in a %.0f px viewport", w, h, l.ScrollWidth, l.InnerWidth)
	}
	if l.PlayHeightPx < 44 {
		t.Errorf("%d×%d: the Play button is %.0f px high, want a thumb's 44 or more", w, h, l.PlayHeightPx)
	}
}

// tapElement taps the centre of the element with the given id.
func tapElement(ctx context.Context, id string) error {
	var r []float64
	if err := chromedp.Run(ctx, chromedp.Evaluate(fmt.Sprintf(
		`(() => { const b = document.getElementById(%q).getBoundingClientRect(); return [b.x + b.width/2, b.y + b.height/2]; })()`, id), &r)); err != nil {
		return err
	}
	if err := touch(ctx, input.TouchStart, &input.TouchPoint{X: r[0], Y: r[1], ID: 1}); err != nil {
		return err
	}
	time.Sleep(60 * time.Millisecond)
	return touch(ctx, input.TouchEnd)
}

// displayOf returns an element's computed display.
func displayOf(ctx context.Context, id string) string {
	var d string
	_ = chromedp.Run(ctx, chromedp.Evaluate(fmt.Sprintf(`getComputedStyle(document.getElementById(%q)).display`, id), &d))
	return d
}

// TestBrowserTouchPhone is a friend opening the invite page on a phone:
// the page says how to play by touch (not WASD) in text readable without
// zoom on a phone and a tablet; a tap on Play joins; held upright the
// game asks to be turned sideways; a drag on the left half moves the
// player in the dragged direction; a push on the right half past the fire
// threshold fires, and the server counts the shot.
func TestBrowserTouchPhone(t *testing.T) {
	if testing.Short() {
		t.Skip("e2e: builds the server and runs a browser")
	}
	chrome, _, addr, hc := browserSetup(t, "--map", "range", "--name", "Touch test server")
	ctx, logs := newBrowserSized(t, chrome, 4*time.Minute, phoneW, phoneH)

	// The join page, upright on a phone, then on a tablet.
	if err := emulateDevice(ctx, phoneW, phoneH, 1); err != nil {
		t.Fatal(err)
	}
	err := chromedp.Run(ctx,
		chromedp.Navigate("http://"+addr+"/"),
		chromedp.WaitVisible("#play", chromedp.ByID),
		chromedp.Poll(`document.getElementById("server-name").textContent === "Touch test server"`, nil,
			chromedp.WithPollingTimeout(10*time.Second)))
	if err != nil {
		t.Fatalf("index page: %v\nconsole:\n%s", err, logs)
	}
	checkPhoneLayout(t, ctx, phoneW, phoneH)
	saveScreenshot(t, ctx, "browser-phone-menu.png")
	if err := emulateDevice(ctx, tabletW, tabletH, 1); err != nil {
		t.Fatal(err)
	}
	checkPhoneLayout(t, ctx, tabletW, tabletH)

	// Sideways, a name, a tap on Play.
	if err := emulateDevice(ctx, phoneH, phoneW, 1); err != nil {
		t.Fatal(err)
	}
	err = chromedp.Run(ctx,
		chromedp.Evaluate(`document.getElementById("name").value = ""`, nil),
		chromedp.SendKeys("#name", "thumbs", chromedp.ByID))
	if err != nil {
		t.Fatal(err)
	}
	if err := tapElement(ctx, "play"); err != nil {
		t.Fatal(err)
	}
	waitState(t, ctx, logs, "the tap on Play to join", 90*time.Second, func(r gameReport) bool {
		return r.Phase == "playing" && r.Snapshots >= 20 && r.Health > 0
	})
	var fullscreen bool
	_ = chromedp.Run(ctx, chromedp.Evaluate(`document.fullscreenElement !== null`, &fullscreen))
	var canvas []float64
	if err := chromedp.Run(ctx, chromedp.Evaluate(
		`(() => { const b = document.querySelector("canvas").getBoundingClientRect(); return [b.width, b.height]; })()`, &canvas)); err != nil {
		t.Fatal(err)
	}
	// The download showed its progress on the phone's page: the bar
	// filled (the streamed path, not the size-less fallback) in text
	// readable without zoom.
	var progress struct {
		Bar  float64 `json:"bar"` // percent
		Text string  `json:"text"`
		Font float64 `json:"font"`
	}
	var ps string
	if err := chromedp.Run(ctx, chromedp.Evaluate(`JSON.stringify({bar: parseFloat(document.querySelector("#bar div").style.width),
  text: document.getElementById("progress-text").textContent,
  font: parseFloat(getComputedStyle(document.getElementById("progress-text")).fontSize)})`, &ps)); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal([]byte(ps), &progress); err != nil {
		t.Fatal(err)
	}
	if progress.Bar < 99.9 || progress.Font < 16 {
		t.Errorf("the download's progress: bar at %.1f%%, text %q at %.0f px; want the bar full and 16 px text", progress.Bar, progress.Text, progress.Font)
	}
	t.Logf("joined; full screen %v; canvas %.0f×%.0f CSS px; progress bar at %.0f%%, %q", fullscreen, canvas[0], canvas[1], progress.Bar, progress.Text)
	if !fullscreen {
		t.Error("the tap on Play did not take the page full screen")
	}
	if canvas[0] < phoneH-1 || canvas[1] < phoneW-1 {
		t.Errorf("the canvas is %.0f×%.0f in a %d×%d screen: want it to fill the screen", canvas[0], canvas[1], phoneH, phoneW)
	}

	// Upright, the game asks to be turned; sideways again, it goes.
	if err := emulateDevice(ctx, phoneW, phoneH, 1); err != nil {
		t.Fatal(err)
	}
	if d := displayOf(ctx, "rotate"); d == "none" {
		t.Error("held upright in the game: no prompt to turn the phone sideways")
	}
	if err := emulateDevice(ctx, phoneH, phoneW, 1); err != nil {
		t.Fatal(err)
	}
	if d := displayOf(ctx, "rotate"); d != "none" {
		t.Errorf("sideways: the turn prompt still shows (display %s)", d)
	}

	// The left stick, dragged right: the player runs right (+x).
	before := waitState(t, ctx, logs, "a state", 5*time.Second, func(gameReport) bool { return true })
	if err := drag(ctx, 1, 150, 260, 110, 0, 1500*time.Millisecond); err != nil {
		t.Fatal(err)
	}
	time.Sleep(300 * time.Millisecond)
	after := waitState(t, ctx, logs, "a state", 5*time.Second, func(gameReport) bool { return true })
	dx, dy := after.X-before.X, after.Y-before.Y
	t.Logf("left stick dragged right 1.5 s: moved (%.1f, %.1f) units at %.1f fps", dx, dy, after.FPS)
	if dx < 8 || math.Abs(dy) > dx/4 {
		t.Errorf("the left stick dragged right moved the player by (%.1f, %.1f): want mostly +x", dx, dy)
	}
	// Dragged down: down the screen (+y).
	if err := drag(ctx, 1, 150, 200, 0, 110, 1000*time.Millisecond); err != nil {
		t.Fatal(err)
	}
	time.Sleep(300 * time.Millisecond)
	after2 := waitState(t, ctx, logs, "a state", 5*time.Second, func(gameReport) bool { return true })
	dx, dy = after2.X-after.X, after2.Y-after.Y
	t.Logf("left stick dragged down 1 s: moved (%.1f, %.1f) units", dx, dy)
	if dy < 8 || math.Abs(dx) > dy/4 {
		t.Errorf("the left stick dragged down moved the player by (%.1f, %.1f): want mostly +y", dx, dy)
	}

	// The right stick pushed to its rim: the rifle fires, and the server
	// runs the shot (its lag-compensated shots count up).
	shots0 := lagCompShots(t, hc, addr)
	if err := drag(ctx, 2, 560, 200, 100, 0, 800*time.Millisecond); err != nil {
		t.Fatal(err)
	}
	fired := waitState(t, ctx, logs, "a shot from the right stick", 10*time.Second, func(r gameReport) bool { return r.ShotsFired >= 1 })
	var shots uint64
	for end := time.Now().Add(5 * time.Second); time.Now().Before(end); time.Sleep(100 * time.Millisecond) {
		if shots = lagCompShots(t, hc, addr); shots > shots0 {
			break
		}
	}
	t.Logf("right stick: %d shots fired by the page, the server ran %d", fired.ShotsFired, shots-shots0)
	if shots <= shots0 {
		t.Errorf("the server counted no shot (lag_compensation.shots %d → %d)", shots0, shots)
	}
	if fired.Corrections != 0 {
		t.Errorf("%d prediction corrections while nothing hit the player: the sticks' usercmds and the prediction disagree", fired.Corrections)
	}
	saveScreenshot(t, ctx, "browser-phone-game.png")
	if os.Getenv("TICKSHOT_SCREENSHOT_DIR") != "" {
		// The SCORES button, top of the column at the right edge
		// (client.layoutTouch on 844×390): the scoreboard, toggled on.
		if err := touch(ctx, input.TouchStart, &input.TouchPoint{X: phoneH - 45, Y: 85, ID: 3}); err != nil {
			t.Fatal(err)
		}
		time.Sleep(100 * time.Millisecond)
		if err := touch(ctx, input.TouchEnd); err != nil {
			t.Fatal(err)
		}
		time.Sleep(500 * time.Millisecond)
		saveScreenshot(t, ctx, "browser-phone-scores.png")
	}
	st, err := getStatus(hc, addr)
	if err != nil {
		t.Fatal(err)
	}
	found := false
	for _, p := range st.Players {
		found = found || (p.Name == "thumbs" && !p.Bot)
	}
	if !found {
		t.Errorf("/status does not list the phone player: %+v", st.Players)
	}

	// MENU, then the pause screen's QUIT: the game ends and the page says
	// so (client.layoutTouch on 844×390: MENU at the left below the top
	// bar, QUIT right of the centre under the pause screen's text).
	if err := tapGame(ctx, 45, 85); err != nil {
		t.Fatal(err)
	}
	saveScreenshot(t, ctx, "browser-phone-pause.png")
	if err := touch(ctx, input.TouchStart, &input.TouchPoint{X: phoneH/2 + 45, Y: 300, ID: 5}); err != nil {
		t.Fatal(err)
	}
	time.Sleep(100 * time.Millisecond)
	if err := touch(ctx, input.TouchEnd); err != nil {
		t.Fatal(err)
	}
	var title string
	if err := chromedp.Run(ctx, chromedp.Poll(`document.getElementById("overlay").style.display === "flex"`, nil,
		chromedp.WithPollingTimeout(10*time.Second)), chromedp.Text("#overlay-title", &title, chromedp.ByID)); err != nil {
		t.Fatalf("MENU then QUIT: the page shows no overlay: %v\nconsole:\n%s", err, logs)
	}
	if title != "Game closed" {
		t.Errorf("MENU then QUIT: the page says %q, want \"Game closed\"", title)
	}
}

// TestBrowserTouchFrameRate is the phone figure in docs/MEASUREMENTS.md,
// run by `make measure-touch` (TICKSHOT_BROWSER_MEASURE=1; skipped
// otherwise): a phone held sideways (844×390 CSS px, device pixel ratio
// TICKSHOT_TOUCH_DPR, default 2) in Chromium's mobile emulation with the
// CPU slowed 4× (Emulation.setCPUThrottlingRate; TICKSHOT_TOUCH_SLOWDOWN
// sets another factor, 1 for none), against a server with 3
// bots, playing with the sticks (the move stick circling, the aim stick
// pushed to fire) for 30 s; the page's fps sampled every 5 s.
func TestBrowserTouchFrameRate(t *testing.T) {
	if os.Getenv("TICKSHOT_BROWSER_MEASURE") != "1" {
		t.Skip("skipped: a 30 s measurement; run make measure-touch (TICKSHOT_BROWSER_MEASURE=1)")
	}
	envFloat := func(name string, def float64) float64 {
		s := os.Getenv(name)
		if s == "" {
			return def
		}
		v, err := strconv.ParseFloat(s, 64)
		if err != nil || v <= 0 {
			t.Fatalf("%s=%q: want a positive number", name, s)
		}
		return v
	}
	dpr, slowdown := envFloat("TICKSHOT_TOUCH_DPR", 2), envFloat("TICKSHOT_TOUCH_SLOWDOWN", 4)
	chrome, _, addr, _ := browserSetup(t, "--bots", "3")
	ctx, logs := newBrowserSized(t, chrome, 3*time.Minute, phoneH, phoneW)
	if err := emulateDevice(ctx, phoneH, phoneW, dpr); err != nil {
		t.Fatal(err)
	}
	if err := chromedp.Run(ctx, emulation.SetCPUThrottlingRate(slowdown)); err != nil {
		t.Fatal(err)
	}
	if err := chromedp.Run(ctx, chromedp.Navigate("http://"+addr+"/?name=phone")); err != nil {
		t.Fatal(err)
	}
	waitState(t, ctx, logs, "the game to start", 120*time.Second, func(r gameReport) bool {
		return r.Phase == "playing" && r.Snapshots > 0
	})
	begin := time.Now()
	var fps []float64
	last := waitState(t, ctx, logs, "a state", 10*time.Second, func(gameReport) bool { return true })
	lastAt := time.Now()
	cx, cy := 160.0, 250.0
	for i := 0; time.Since(begin) < 30*time.Second; i++ {
		// Both thumbs down: the move stick swept round, the aim stick at
		// its rim (firing), for 5 s; then a sample.
		a := float64(i)
		move := &input.TouchPoint{X: cx, Y: cy, ID: 1}
		aim := &input.TouchPoint{X: 560, Y: 220, ID: 2}
		if err := touch(ctx, input.TouchStart, move, aim); err != nil {
			t.Fatal(err)
		}
		for s, t0 := 0, time.Now(); time.Since(t0) < 5*time.Second; s++ {
			ang := a + float64(s)/8
			move = &input.TouchPoint{X: cx + 80*math.Cos(ang), Y: cy + 80*math.Sin(ang), ID: 1}
			aim = &input.TouchPoint{X: 560 + 90*math.Cos(-ang), Y: 220 + 90*math.Sin(-ang), ID: 2}
			if err := touch(ctx, input.TouchMove, move, aim); err != nil {
				t.Fatal(err)
			}
			time.Sleep(100 * time.Millisecond)
		}
		if err := touch(ctx, input.TouchEnd); err != nil {
			t.Fatal(err)
		}
		r := waitState(t, ctx, logs, "a state", 10*time.Second, func(gameReport) bool { return true })
		if r.Phase != "playing" {
			t.Fatalf("phase %s: %s", r.Phase, r.Error)
		}
		// The frames drawn over the stretch (the page's frame counter),
		// not the game's smoothed fps figure.
		fps = append(fps, float64(r.Frames-last.Frames)/time.Since(lastAt).Seconds())
		last, lastAt = r, time.Now()
	}
	sort.Float64s(fps)
	t.Logf("phone 844×390 at DPR %g, CPU %g× slowed, 3 bots, %.0f s of touch play in %d stretches: fps min %.1f median %.1f max %.1f (the game's smoothed figure at the end %.1f); %d shots fired, %d prediction corrections",
		dpr, slowdown, time.Since(begin).Seconds(), len(fps), fps[0], fps[len(fps)/2], fps[len(fps)-1], last.FPS, last.ShotsFired, last.Corrections)
}
