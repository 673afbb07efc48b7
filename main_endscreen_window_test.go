//go:build !headless

package main

import (
	"image"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
)

// TestWindowEndOfMatchScreen plays a match to its end (mp_fraglimit 1,
// bots at full skill, at most 18 s) and takes the screenshot when the
// end-of-match screen shows its map vote (--screenshot-on endscreen). The
// screen is not blank, its panel is opaque (the panel's colour, not the
// arena through it, around the title), and OCR reads the winner's line
// ("... wins!", or "Draw" when the time ran out first), the table's
// headings, "Next map" and the first candidate after arena, foundry.
func TestWindowEndOfMatchScreen(t *testing.T) {
	dir := t.TempDir()
	shot := filepath.Join(dir, "end.png")
	cmd := exec.Command(binPath, "play", "--nosound", "--autoplay", "--bots", "5",
		"--sv", "mp_fraglimit=1", "--sv", "mp_timelimit=0.3", "--sv", "bot_difficulty=3", "--sv", "mp_chattime=60",
		"--screenshot", shot, "--screenshot-after", "2s", "--screenshot-on", "endscreen",
		"--width", "1280", "--height", "720")
	if out, err := runWithTimeout(cmd, 90*time.Second); err != nil {
		t.Fatalf("tickshot play: %v\n%s", err, out)
	}
	img := readPNG(t, shot)
	// The panel (client/endscreen.go) starts 70 px down, 760 px wide in the
	// middle: its top strip left of the title is the panel's colour.
	panel := 0
	for y := 74; y < 84; y++ {
		for x := 270; x < 400; x++ {
			r, g, b, _ := img.At(x, y).RGBA()
			if r>>8 == 0x0c && g>>8 == 0x0e && b>>8 == 0x12 {
				panel++
			}
		}
	}
	if panel < 1200 {
		t.Errorf("%d of 1300 pixels at the panel's top are its opaque colour: no panel, or the arena shows through", panel)
	}
	colours := map[[3]uint32]bool{}
	for y := 0; y < img.Bounds().Dy(); y += 7 {
		for x := 0; x < img.Bounds().Dx(); x += 7 {
			r, g, b, _ := img.At(x, y).RGBA()
			colours[[3]uint32{r >> 8, g >> 8, b >> 8}] = true
		}
	}
	if len(colours) < 20 {
		t.Fatalf("the screenshot is nearly blank: %d colours", len(colours))
	}
	if _, err := exec.LookPath("tesseract"); err != nil {
		t.Skip("tesseract is not installed (make test-deps installs tesseract-ocr): the screen's text is not read")
	}
	text := ocr(t, img, image.Rect(260, 70, 1020, 560), dir)
	t.Logf("the end screen reads %q", text)
	if !regexp.MustCompile(`\S+ wins!|Draw`).MatchString(text) {
		t.Errorf("no winner line (\"NAME wins!\" or \"Draw\") on the end screen: %q", text)
	}
	for _, want := range []string{"Kills", "Deaths", "Accuracy", "Next map", "foundry"} {
		if !strings.Contains(text, want) {
			t.Errorf("%q is not on the end screen (OCR read %q)", want, text)
		}
	}
}
