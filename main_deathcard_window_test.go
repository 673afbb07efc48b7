//go:build !headless && !js

package main

import (
	"image"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestWindowShowsDeathCard plays `bunker` (tight rooms) against five
// expert bots with the bot brain at the keys (--autoplay: it fights, so it
// dies within seconds) and takes the screenshot when the death card is up
// (--screenshot-on deathcard; a death comes after 2-20 s, so the wait for
// it is a generous 80 s: under load 20 s once ended with the player
// alive). The card must be there: its opaque panel
// under the middle of the screen with the red stripe along its top, and,
// read by OCR (tesseract), who killed ("Killed by", or "You killed
// yourself"), from how far ("units away") and the damage each way
// ("dealt"). TICKSHOT_KEEP_SHOT=FILE keeps the picture.
func TestWindowShowsDeathCard(t *testing.T) {
	dir := t.TempDir()
	shot, rep := filepath.Join(dir, "deathcard.png"), filepath.Join(dir, "report.json")
	out, err := runWithTimeout(exec.Command(binPath, "play", "--nosound", "--autoplay", "--map", "bunker", "--bots", "5",
		"--sv", "bot_difficulty=3", "--screenshot", shot, "--screenshot-after", "1s", "--screenshot-on", "deathcard",
		"--screenshot-wait", "80s", "--exit-report", rep, "--width", "1280", "--height", "720"), 120*time.Second)
	if err != nil {
		t.Fatalf("tickshot play: %v\n%s", err, out)
	}
	if keep := os.Getenv("TICKSHOT_KEEP_SHOT"); keep != "" {
		if b, err := os.ReadFile(shot); err == nil {
			_ = os.WriteFile(keep, b, 0o644)
		}
	}
	r := readReport(t, rep)
	if !r.Connected || r.LifeResets == 0 {
		t.Fatalf("the player did not die before the screenshot: %+v", r)
	}
	img := readPNG(t, shot)
	if b := img.Bounds(); b.Dx() != 1280 || b.Dy() != 720 {
		t.Fatalf("screenshot is %v, want 1280x720", b)
	}
	// The card: 560 pixels wide, centred, its top 50 pixels under the
	// middle (client/deathcard.go, hud.go).
	card := image.Rect(640-280, 360+50, 640+280, 360+50+190)
	stripe, panel := 0, 0
	for x := card.Min.X + 4; x < card.Max.X-4; x += 4 {
		if r, g, b, _ := img.At(x, card.Min.Y+1).RGBA(); r>>8 > 0xc0 && g>>8 < 0x70 && b>>8 < 0x70 {
			stripe++
		}
		if r, g, b, _ := img.At(x, card.Min.Y+8).RGBA(); r>>8 < 0x20 && g>>8 < 0x20 && b>>8 < 0x24 {
			panel++
		}
	}
	t.Logf("card: red stripe %d of %d samples, dark panel %d", stripe, (card.Dx()-8)/4, panel)
	if stripe < (card.Dx()-8)/4*9/10 || panel < (card.Dx()-8)/4*9/10 {
		t.Errorf("no death card at %v: red stripe %d, panel %d of %d samples", card, stripe, panel, (card.Dx()-8)/4)
	}
	if _, err := exec.LookPath("tesseract"); err != nil {
		t.Skip("tesseract is not installed (make test-deps installs tesseract-ocr): the card's text is not read")
	}
	text := ocr(t, img, card, dir)
	t.Logf("the card reads %q", text)
	killed := strings.Contains(text, "Killed by") && strings.Contains(text, "units away")
	if !killed && !strings.Contains(text, "killed yourself") {
		t.Errorf("the card says neither who killed from how far nor a suicide: %q", text)
	}
	if !strings.Contains(text, "dealt") || !strings.Contains(text, "damage") {
		t.Errorf("the card gives no damage: %q", text)
	}
}
