//go:build !headless

package client

import (
	"image"
	"testing"
	"time"

	"github.com/hajimehoshi/ebiten/v2"

	"tickshot/game"
)

// Pickups on screen (issue 21): each kind in its colour where the
// snapshot puts it, a taken one as a faint ring only, the HUD's double
// damage countdown, and all of it in the frame's one batch.

// pickupFrame draws the game on w (64 players at the arena's centre,
// where its armour and double damage are in view) twice and returns the
// second frame, the batch's DrawTriangles calls it took, and where the
// camera was.
func pickupFrame(t *testing.T, w fakeWorld) (img *image.RGBA, calls int, camX, camY float64) {
	t.Helper()
	w.others, w.selfX, w.selfY = 63, 1024, 768
	g := newDrawGame(newFakeClient(t, w), testScreenW, testScreenH, 0)
	frozen := time.Now()
	g.clock = func() time.Time { return frozen }
	p := g.scenes.Current().(*playScene)
	onFrame(func(*ebiten.Image) {
		dst := ebiten.NewImage(testScreenW, testScreenH)
		defer dst.Deallocate()
		g.Draw(dst) // the text laid out
		c := batch.calls
		g.Draw(dst)
		calls = batch.calls - c
		img = image.NewRGBA(dst.Bounds())
		dst.ReadPixels(img.Pix)
		camX, camY = p.frame.camX, p.frame.camY
	})
	return img, calls, camX, camY
}

// countNear counts the pixels within r of screen point (x, y) that match.
func countNear(img *image.RGBA, x, y, r float64, match func(r, g, b uint8) bool) int {
	n := 0
	for py := int(y - r); py <= int(y+r); py++ {
		for px := int(x - r); px <= int(x+r); px++ {
			if !image.Pt(px, py).In(img.Bounds()) || (float64(px)-x)*(float64(px)-x)+(float64(py)-y)*(float64(py)-y) > r*r {
				continue
			}
			c := img.RGBAAt(px, py)
			if match(c.R, c.G, c.B) {
				n++
			}
		}
	}
	return n
}

func magenta(r, g, b uint8) bool { return r > 160 && b > 160 && g < 120 }

func armourBlue(r, g, b uint8) bool { return b > 180 && r < 130 && g > 100 }

func TestPickupsDrawn(t *testing.T) {
	m, err := game.LoadMap("arena")
	if err != nil {
		t.Fatal(err)
	}
	at := func(k game.PickupKind) game.Point {
		for _, sp := range m.Pickups {
			if sp.Kind == k {
				return sp.At
			}
		}
		t.Fatalf("arena has no %s", k)
		return game.Point{}
	}
	dd, ar := at(game.PickupDamage), at(game.PickupArmour)

	bare, bareCalls, cx, cy := pickupFrame(t, fakeWorld{})
	shown, calls, _, _ := pickupFrame(t, fakeWorld{pickups: true})
	away, _, _, _ := pickupFrame(t, fakeWorld{pickups: true, awayKind: game.PickupArmour})
	if calls != bareCalls {
		t.Errorf("pickups add batch calls: %d with, %d without (the one-batch budget)", calls, bareCalls)
	}
	ddMag := countNear(shown, dd.X-cx, dd.Y-cy, 24, magenta)
	arBlue := countNear(shown, ar.X-cx, ar.Y-cy, 24, armourBlue)
	awayBlue := countNear(away, ar.X-cx, ar.Y-cy, 24, armourBlue)
	t.Logf("magenta pixels at the double damage %d (none drawn: %d); blue at the armour %d, taken %d (none drawn: %d)",
		ddMag, countNear(bare, dd.X-cx, dd.Y-cy, 24, magenta), arBlue, awayBlue, countNear(bare, ar.X-cx, ar.Y-cy, 24, armourBlue))
	if ddMag < 150 || countNear(bare, dd.X-cx, dd.Y-cy, 24, magenta) > 0 {
		t.Errorf("the double damage is not drawn in its colour: %d magenta pixels", ddMag)
	}
	if arBlue < 150 || countNear(bare, ar.X-cx, ar.Y-cy, 24, armourBlue) > 0 {
		t.Errorf("the armour is not drawn in its colour: %d blue pixels", arBlue)
	}
	if awayBlue == 0 || awayBlue > arBlue/2 {
		t.Errorf("a taken armour shows %d blue pixels, want its ring and respawn arc only (present: %d)", awayBlue, arBlue)
	}
	// The HUD: the double damage's bar in the bottom bar's centre.
	bar := countNear(shown, testScreenW/2, testScreenH-hudBottom+33, 100, magenta)
	if bar < 300 || countNear(bare, testScreenW/2, testScreenH-hudBottom+33, 100, magenta) > 0 {
		t.Errorf("the HUD's double damage countdown: %d magenta pixels in the bottom bar", bar)
	}
}
