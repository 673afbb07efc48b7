//go:build !headless

package client

import (
	"fmt"
	"image"
	"image/color"
	"math"
	"testing"

	"github.com/hajimehoshi/ebiten/v2"

	"tickshot/client/palette"
)

// TestNetGraphLossMarkGeometry: at any scale the packet graph's columns
// are whole pixels, and a loss mark covers a whole column at least 2
// pixels wide and tall, inside the graph (at 1280×720 it was 0.9 px wide
// at a fractional x, and covered no pixel).
func TestNetGraphLossMarkGeometry(t *testing.T) {
	for _, sc := range []float64{0.3, 0.5, 0.75, 1, 1.1, 1.25, 1.5, 2} {
		for _, x0 := range []float64{0, 12.25, 828, 829.6} {
			w := ngWidth * sc
			col, count, right := packetColumns(x0, w, sc)
			if col < 2 || col != math.Trunc(col) || right != math.Trunc(right) {
				t.Errorf("scale %v, x0 %v: columns %v px wide from %v: want whole pixels, at least 2", sc, x0, col, right)
			}
			prevX := math.Inf(1)
			for i := 0; i < count; i++ {
				x := right - float64(i+1)*col
				m := lossMark(x, col, 100, 100+44*sc)
				if m.w < 2 || m.h < 2 || m.x != math.Trunc(m.x) || m.w != math.Trunc(m.w) {
					t.Fatalf("scale %v, column %d: loss mark %+v: want whole pixels, at least 2×2", sc, i, m)
				}
				if m.x < x0 || m.x+m.w > x0+w+0.001 || m.x+m.w > prevX {
					t.Fatalf("scale %v, column %d: loss mark %+v outside the graph %v..%v or over the next column", sc, i, m, x0, x0+w)
				}
				prevX = m.x
			}
		}
	}
}

// readScreen draws one frame of g onto a new offscreen image of g's size
// and returns its pixels.
func readScreen(g *Game) *image.RGBA {
	img := image.NewRGBA(image.Rect(0, 0, g.w, g.h))
	onFrame(func(*ebiten.Image) {
		dst := ebiten.NewImage(g.w, g.h)
		defer dst.Deallocate()
		g.Draw(dst)
		dst.ReadPixels(img.Pix)
	})
	return img
}

func isColor(c color.RGBA, want color.RGBA) bool {
	return c.R == want.R && c.G == want.G && c.B == want.B
}

// TestNetGraphShowsLoss: snapshots lost on the way show as red marks in
// the drawn net_graph, one for each gap, at every window size.
func TestNetGraphShowsLoss(t *testing.T) {
	losses := []int{10, 20, 30, 40, 50}
	c := newFakeClient(t, fakeWorld{lossAt: losses})
	for _, size := range [][2]int{{1280, 720}, {960, 540}, {640, 360}} {
		t.Run(fmt.Sprintf("%dx%d", size[0], size[1]), func(t *testing.T) {
			g := newDrawGame(c, size[0], size[1], 2)
			img := readScreen(g)
			px, py := g.worldToScreen(g.drawPos())
			l := netGraphPlace(float64(g.w), float64(g.h), 2, px, py, 0)
			// Under the legend (which writes "lost" in red), above the bars.
			top, bottom := int(l.y0+16*l.sc), int(l.y0+l.graphH)
			cols := map[int]bool{}
			red := 0
			for y := top; y < bottom; y++ {
				for x := int(l.panel.x); x < int(l.panel.x+l.panel.w); x++ {
					if isColor(img.RGBAAt(x, y), ngLoss) {
						red++
						cols[x] = true
					}
				}
			}
			// Marks are whole columns at least 2 px wide: count runs of red columns.
			marks := 0
			for x := int(l.panel.x); x < int(l.panel.x+l.panel.w); x++ {
				if cols[x] && !cols[x-1] {
					marks++
				}
			}
			t.Logf("%d red pixels in %d marks (scale %.2f)", red, marks, l.sc)
			if marks != len(losses) {
				t.Errorf("%d loss marks drawn, want %d (%d red pixels)", marks, len(losses), red)
			}
			if red < len(losses)*2*10 {
				t.Errorf("%d red pixels for %d marks: want at least 2×10 px each", red, len(losses))
			}
		})
	}
}

// TestNetGraphPanelAvoidsPlayer: wherever the local player is on screen,
// at any window size and net_graph level, the panel lies inside the window
// and keeps ngClearance pixels around the player free; with the player in
// the middle it is at the bottom right, as in Source; and it does not move
// while it is clear of the player.
func TestNetGraphPanelAvoidsPlayer(t *testing.T) {
	sizes := [][2]float64{{320, 200}, {480, 270}, {640, 360}, {800, 600}, {1024, 768}, {1280, 720}, {1920, 1080}, {2560, 1440}}
	for _, s := range sizes {
		W, H := s[0], s[1]
		for level := 1; level <= 3; level++ {
			if l := netGraphPlace(W, H, level, W/2, H/2, 0); l.corner != 0 {
				t.Errorf("%vx%v level %d: player in the middle, panel in corner %d, want 0 (bottom right)", W, H, level, l.corner)
			}
			for _, prev := range []int{0, 1} {
				for py := 0.0; py <= H; py += 4 {
					for px := 0.0; px <= W; px += 4 {
						l := netGraphPlace(W, H, level, px, py, prev)
						p := l.panel
						if p.touchesDisc(px, py, ngClearance) {
							t.Fatalf("%vx%v level %d, player at (%v, %v): panel %+v covers it", W, H, level, px, py, p)
						}
						if p.x < 0 || p.y < 0 || p.x+p.w > W || p.y+p.h > H || p.w <= 0 || p.h <= 0 {
							t.Fatalf("%vx%v level %d: panel %+v outside the window", W, H, level, p)
						}
						if l.x0 < p.x || l.y0 < p.y || l.x0+ngWidth*l.sc > p.x+p.w+1 || l.y0+l.graphH+l.textH > p.y+p.h+1 {
							t.Fatalf("%vx%v level %d: content at (%v, %v) scale %v outside the panel %+v", W, H, level, l.x0, l.y0, l.sc, p)
						}
						if clear := netGraphPlace(W, H, level, -1000, -1000, prev); !clear.panel.touchesDisc(px, py, ngClearance) && l.corner != prev {
							t.Fatalf("%vx%v level %d: the panel left corner %d for %d although the player at (%v, %v) was clear of it", W, H, level, prev, l.corner, px, py)
						}
					}
				}
			}
		}
	}
	// At the usual size the text stays at its size.
	if l := netGraphPlace(1280, 720, 3, 640, 360, 0); l.sc != 1 {
		t.Errorf("1280x720: scale %v, want 1", l.sc)
	}
}

// TestNetGraphDrawnAwayFromPlayer: the local player near the arena's
// bottom-right corner (the camera stops at the edge, so it is drawn in
// the lower right of the window, where the panel was) stays visible with
// net_graph 3: the panel is drawn at the bottom left instead.
func TestNetGraphDrawnAwayFromPlayer(t *testing.T) {
	c := newFakeClient(t, fakeWorld{selfX: 2048 - 100, selfY: 1536 - 100})
	g := newDrawGame(c, 1280, 720, 3)
	px, py := g.worldToScreen(g.drawPos())
	if px < 1000 || py < 450 {
		t.Fatalf("the player is drawn at (%.0f, %.0f): want the lower right for this test", px, py)
	}
	img := readScreen(g)
	if got := img.RGBAAt(int(math.Round(px)), int(math.Round(py))); !isColor(got, palette.Me) {
		t.Errorf("at the player's centre (%.0f, %.0f): %v, want the player's colour %v (covered by the net_graph?)", px, py, got, palette.Me)
	}
	// The panel is there, at the bottom left: dark pixels.
	dark := 0
	for y := 360; y < 720; y++ {
		for x := 0; x < 640; x++ {
			if c := img.RGBAAt(x, y); c.R < 0x14 && c.G < 0x14 && c.B < 0x14 {
				dark++
			}
		}
	}
	if dark < 40000 {
		t.Errorf("%d dark pixels in the bottom-left quarter: the panel is not there", dark)
	}
}
