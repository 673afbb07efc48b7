//go:build !headless && !js

package main

import (
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
