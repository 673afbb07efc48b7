//go:build !headless

package client

import (
	"fmt"
	"image"
	"testing"

	"github.com/hajimehoshi/ebiten/v2"

	"tickshot/client/palette"
)

func TestShelfPacker(t *testing.T) {
	p := shelfPacker{w: 100, h: 60, top: 10}
	var got []image.Rectangle
	for _, s := range [][2]int{{30, 10}, {30, 10}, {30, 9}, {50, 20}, {60, 10}, {40, 20}, {100, 5}, {101, 1}, {10, 30}} {
		x, y, ok := p.alloc(s[0], s[1])
		if !ok {
			continue
		}
		r := image.Rect(x, y, x+s[0], y+s[1])
		if !r.In(image.Rect(0, 10, 100, 60)) {
			t.Errorf("%v placed at %v: outside the area below the top", s, r)
		}
		for _, o := range got {
			if r.Overlaps(o) {
				t.Errorf("%v placed at %v over %v", s, r, o)
			}
		}
		got = append(got, r)
	}
	if len(got) < 6 {
		t.Errorf("only %d of the rectangles that fit were placed: %v", len(got), got)
	}
	if _, _, ok := p.alloc(101, 1); ok {
		t.Errorf("a rectangle wider than the area was placed")
	}
}

// pixelsOf draws f onto a new w×h image in a frame of the test loop and
// returns its pixels.
func pixelsOf(w, h int, f func(dst *ebiten.Image)) *image.RGBA {
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	onFrame(func(*ebiten.Image) {
		dst := ebiten.NewImage(w, h)
		defer dst.Deallocate()
		f(dst)
		batch.use(dst)
		batch.flush()
		dst.ReadPixels(img.Pix)
	})
	return img
}

// TestTextFromAtlas: text drawn from the atlas is pixel for pixel the text
// laid out directly, including after the atlas filled up and its text was
// dropped and laid out again, and when the atlas overflows within one
// frame (drawn directly then).
func TestTextFromAtlas(t *testing.T) {
	const w, h = 400, 60
	same := func(label string, a, b *image.RGBA) {
		t.Helper()
		diff, ink := 0, 0
		for i := 0; i < len(a.Pix); i += 4 {
			if a.Pix[i+3] != 0 {
				ink++
			}
			if a.Pix[i] != b.Pix[i] || a.Pix[i+1] != b.Pix[i+1] || a.Pix[i+2] != b.Pix[i+2] || a.Pix[i+3] != b.Pix[i+3] {
				diff++
			}
		}
		if ink < 100 || diff != 0 {
			t.Errorf("%s: %d pixels differ from the laid-out text (%d inked)", label, diff, ink)
		}
	}
	direct := pixelsOf(w, h, func(dst *ebiten.Image) { layoutText(dst, "Player 17  > Héloïse", 24, true, 10, 10, 0, palette.Me) })
	cached := func() *image.RGBA {
		return pixelsOf(w, h, func(dst *ebiten.Image) { drawText(dst, "Player 17  > Héloïse", 24, true, 10, 10, 0, palette.Me) })
	}
	same("first draw", direct, cached())
	same("from the cache", direct, cached())

	// Fill the atlas over a few frames: it is emptied and the text laid out again.
	resets := atl.resets
	for f := 0; atl.resets == resets; f++ {
		if f > 50 {
			t.Fatalf("the atlas never filled")
		}
		pixelsOf(w, h, func(dst *ebiten.Image) {
			for i := range 300 {
				drawText(dst, fmt.Sprintf("filler %d-%d", f, i), 40, false, 0, 0, 0, palette.Text)
			}
		})
		txt.endFrame()
	}
	same("after the atlas was emptied", direct, cached())

	// More text in one frame than the atlas holds: what does not fit is
	// drawn directly, and the last string still shows right.
	txt.endFrame()
	resets = atl.resets
	over := pixelsOf(w, h, func(dst *ebiten.Image) {
		for i := range 4000 {
			drawText(dst, fmt.Sprintf("overflow %d", i), 40, false, 0, 0, 0, palette.Text)
		}
		batch.use(dst)
		batch.flush()
		dst.Clear()
		drawText(dst, "Player 17  > Héloïse", 24, true, 10, 10, 0, palette.Me)
	})
	if atl.resets > resets+1 {
		t.Errorf("the atlas was emptied %d times in one frame: want at most once", atl.resets-resets)
	}
	same("overflowing frame", direct, over)
	txt.endFrame()
}
