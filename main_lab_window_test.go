//go:build !headless && !js

package main

import (
	"encoding/json"
	"image"
	"image/color"
	"image/draw"
	"image/png"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"tickshot/client"
	"tickshot/client/lab"
)

// The lag lab's layout at 1280×720 (client/lab_draw.go): three panes side
// by side, each about a third of the width, with their titles above them
// and the world from labPaneTop to labPaneBottom.
const (
	labTitleTop, labTitleBottom = 74, 110
	labPaneTop, labPaneBottom   = 108, 372
)

// labShotColours are the colours the lab links a shot's drawings by across
// the panes (client/lab_draw.go's labShotColours, shots #1 to #6).
var labShotColours = []color.RGBA{
	{0xff, 0x3c, 0xc8, 0xff}, {0xff, 0xe0, 0x30, 0xff}, {0xa0, 0xff, 0x40, 0xff},
	{0xa8, 0x78, 0xff, 0xff}, {0xff, 0x58, 0x70, 0xff}, {0x40, 0xff, 0xc8, 0xff},
}

// TestWindowLabScreenshot runs `tickshot lab --preset behind-wall
// --screenshot FILE` under Xvfb and reads the picture: the three pane
// titles ("Player 1", "Server", "Player 2") by OCR (tesseract), and the
// preset's shot drawn in all three panes in one colour (the shooter's
// tracer, the server's trace through the rewound hitbox, the victim's own
// position): some shot colour covers at least 30 pixels of each pane.
// TICKSHOT_KEEP_SHOT=FILE keeps the picture.
func TestWindowLabScreenshot(t *testing.T) {
	if len(lab.Presets()) == 0 {
		t.Skip("the lag lab's engine (client/lab) is not built yet: it has no presets")
	}
	dir := t.TempDir()
	shot := filepath.Join(dir, "lab.png")
	out, err := runWithTimeout(exec.Command(binPath, "lab", "--preset", "behind-wall", "--screenshot", shot), 120*time.Second)
	if err != nil {
		t.Fatalf("tickshot lab --screenshot: %v\n%s", err, out)
	}
	if keep := os.Getenv("TICKSHOT_KEEP_SHOT"); keep != "" {
		if b, err := os.ReadFile(shot); err == nil {
			_ = os.WriteFile(keep, b, 0o644)
		}
	}
	img := readPNG(t, shot)
	b := img.Bounds()
	if b.Dx() != 1280 || b.Dy() != 720 {
		t.Fatalf("screenshot is %v, want 1280x720", b)
	}
	third := b.Dx() / 3
	panes := [3]image.Rectangle{}
	for i := range panes {
		panes[i] = image.Rect(i*third, labPaneTop, (i+1)*third, labPaneBottom)
	}
	linked := -1
	for n, c := range labShotColours {
		var counts [3]int
		for i, r := range panes {
			counts[i] = countNear(img, r, uint32(c.R), uint32(c.G), uint32(c.B))
		}
		t.Logf("shot #%d's colour: %v pixels in the three panes", n+1, counts)
		if counts[0] >= 30 && counts[1] >= 30 && counts[2] >= 30 && linked < 0 {
			linked = n + 1
		}
	}
	if linked < 0 {
		t.Errorf("no shot colour is drawn in all three panes")
	}

	if _, err := exec.LookPath("tesseract"); err != nil {
		t.Skip("tesseract is not installed (make test-deps installs tesseract-ocr): the pane titles are not read")
	}
	text := ocr(t, img, image.Rect(0, labTitleTop, b.Dx(), labTitleBottom), dir)
	t.Logf("the title band reads %q", text)
	for _, title := range []string{"Player 1", "Server", "Player 2"} {
		if !strings.Contains(text, title) {
			t.Errorf("the pane title %q is not on the screenshot (OCR read %q)", title, text)
		}
	}
}

// ocr reads the text in r of img with tesseract: the band cut out, scaled
// up twice (nearest pixel) for tesseract's sake, as one block of text.
func ocr(t *testing.T, img image.Image, r image.Rectangle, dir string) string {
	t.Helper()
	band := image.NewRGBA(image.Rect(0, 0, 2*r.Dx(), 2*r.Dy()))
	for y := 0; y < band.Bounds().Dy(); y++ {
		for x := 0; x < band.Bounds().Dx(); x++ {
			band.Set(x, y, img.At(r.Min.X+x/2, r.Min.Y+y/2))
		}
	}
	// Light text on dark is read best inverted, dark on white.
	inv := image.NewRGBA(band.Bounds())
	draw.Draw(inv, inv.Bounds(), band, image.Point{}, draw.Src)
	for i := 0; i < len(inv.Pix); i += 4 {
		inv.Pix[i], inv.Pix[i+1], inv.Pix[i+2] = 255-inv.Pix[i], 255-inv.Pix[i+1], 255-inv.Pix[i+2]
	}
	path := filepath.Join(dir, "band.png")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := png.Encode(f, inv); err != nil {
		t.Fatal(err)
	}
	_ = f.Close()
	out, err := exec.Command("tesseract", path, "stdout", "--psm", "6").Output()
	if err != nil {
		t.Fatalf("tesseract: %v", err)
	}
	return strings.Join(strings.Fields(string(out)), " ")
}

// TestWindowLabControls drives `tickshot lab` with xdotool as a person
// would: Space pauses, [ halves the speed, Left scrubs back, a left click
// on player 1's RTT knob raises it a step, a right click on the server's
// sv_unlag turns lag compensation off, B hands player 2 from its script to
// the next driver (idle), Esc closes; the exit report has it all.
func TestWindowLabControls(t *testing.T) {
	if len(lab.Presets()) == 0 {
		t.Skip("the lag lab's engine (client/lab) is not built yet: it has no presets")
	}
	if _, err := exec.LookPath("xdotool"); err != nil {
		t.Fatal("xdotool is not installed (make deps installs it)")
	}
	rep := filepath.Join(t.TempDir(), "report.json")
	game := exec.Command(binPath, "lab", "--preset", "behind-wall", "--exit-report", rep)
	var stderr strings.Builder
	game.Stderr = &stderr
	if err := game.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- game.Wait() }()
	wid := strings.Fields(xdo(t, "search", "--sync", "--name", "Tickshot lag lab"))[0]
	time.Sleep(1500 * time.Millisecond)
	xdo(t, "windowfocus", "--sync", wid)
	for _, k := range []string{"space", "bracketleft", "Left", "Left", "Left"} {
		xdo(t, "key", k)
		time.Sleep(200 * time.Millisecond)
	}
	// The knob cells at 1280×720 (client/lab_draw.go): the first row at
	// y 446, player 1's RTT at x 8, the server's sv_unlag at x 640.
	xdo(t, "mousemove", "--window", wid, "60", "453")
	time.Sleep(200 * time.Millisecond)
	xdo(t, "click", "1")
	time.Sleep(200 * time.Millisecond)
	xdo(t, "mousemove", "--window", wid, "700", "453")
	time.Sleep(200 * time.Millisecond)
	xdo(t, "click", "3")
	time.Sleep(200 * time.Millisecond)
	xdo(t, "key", "b")
	time.Sleep(300 * time.Millisecond)
	xdo(t, "key", "Escape")
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("tickshot lab: %v\n%s", err, stderr.String())
		}
	case <-time.After(30 * time.Second):
		_ = game.Process.Kill()
		t.Fatal("Esc did not close the lab")
	}
	b, err := os.ReadFile(rep)
	if err != nil {
		t.Fatalf("no exit report: %v", err)
	}
	var r client.LabReport
	if err := json.Unmarshal(b, &r); err != nil {
		t.Fatal(err)
	}
	t.Logf("report: %s", b)
	p1 := r.Knobs.Seats[lab.P1]
	if !r.Paused || !r.Scrubbed || r.Speed != 0.5 || r.Preset != "behind-wall" {
		t.Errorf("after Space, [ and Left: paused %v, scrubbed %v, speed ×%v, preset %q", r.Paused, r.Scrubbed, r.Speed, r.Preset)
	}
	if rtt := p1.Up.LagMs + p1.Down.LagMs; rtt != 250 {
		t.Errorf("player 1's RTT after a click on its knob: %d ms, want 250 (a step up from the preset's 200)", rtt)
	}
	if r.Knobs.Server.Unlag {
		t.Errorf("sv_unlag is still on after a click on it")
	}
	if r.Drivers[lab.P2] != "idle" {
		t.Errorf("player 2 driven by %q after B, want idle (the next after its script)", r.Drivers[lab.P2])
	}
}
