//go:build !headless

package client

import (
	"image"
	"image/color"
	"testing"

	"github.com/hajimehoshi/ebiten/v2"

	"tickshot/client/netclient"
	"tickshot/client/palette"
	"tickshot/game"
)

// nearColour tells whether c is within 24 of want in each channel.
func nearColour(c, want color.RGBA) bool {
	d := func(a, b uint8) bool { return int(a)-int(b) < 24 && int(b)-int(a) < 24 }
	return d(c.R, want.R) && d(c.G, want.G) && d(c.B, want.B)
}

// TestWorldPaneFitsMap draws a View made by hand (no client) with a
// worldPane, as the lag lab draws each seat: the whole map scaled into the
// pane's rectangle with its aspect kept, the floor, a wall, the local
// player (predicted colour) and another player where toScreen puts them,
// and nothing outside the rectangle; drawn again from its image (the same
// key), it shows the same.
func TestWorldPaneFitsMap(t *testing.T) {
	m, err := game.LoadMap("arena")
	if err != nil {
		t.Fatal(err)
	}
	view := netclient.View{ID: 1, TickRate: 64, Map: m, HaveSnapshot: true,
		Rendered: []netclient.RenderedEntity{{ID: 2, X: 600, Y: 400, Alive: true, Health: 100}}}
	r := image.Rect(20, 40, 440, 400)
	var p worldPane
	px, py := 1500.0, 900.0
	var img *image.RGBA
	onFrame(func(*ebiten.Image) {
		dst := ebiten.NewImage(testScreenW, testScreenH)
		defer dst.Deallocate()
		// Twice, the second time from the image drawn the first (the same
		// key: a paused lab), each over a background in the batch, as the
		// lab draws its panes.
		for range 2 {
			batch.use(dst)
			batch.rect(float32(r.Min.X), float32(r.Min.Y), float32(r.Dx()), float32(r.Dy()), palette.BG)
			p.draw(dst, r, worldView{view: view, px: px, py: py}, false, 7)
		}
		batch.flush()
		img = image.NewRGBA(dst.Bounds())
		dst.ReadPixels(img.Pix)
	})
	at := func(x, y float64) color.RGBA { return img.RGBAAt(int(x), int(y)) }
	// 2048×1536 into 420×360: the width fits, the height is centred.
	if want := 420.0 / m.Width; p.scale != want {
		t.Fatalf("scale %v, want %v", p.scale, want)
	}
	if x, y := p.toScreen(0, 0); x != 20 || y != 40+(360-m.Height*p.scale)/2 {
		t.Fatalf("the map's corner at %v,%v", x, y)
	}
	if c := at(p.toScreen(px, py)); !nearColour(c, palette.Me) {
		t.Errorf("the local player's centre is %v, want %v", c, palette.Me)
	}
	if c := at(p.toScreen(600, 400)); !nearColour(c, palette.Enemy) {
		t.Errorf("the other player's centre is %v, want %v", c, palette.Enemy)
	}
	w := m.Walls[0]
	if c := at(p.toScreen((w.MinX+w.MaxX)/2, (w.MinY+w.MaxY)/2)); !nearColour(c, palette.Wall) && !nearColour(c, palette.WallEdge) {
		t.Errorf("the middle of wall %+v is %v", w, c)
	}
	if c := at(p.toScreen(100, 700)); !nearColour(c, palette.Floor) && !nearColour(c, palette.Grid) {
		t.Errorf("the floor at 100,700 is %v", c)
	}
	for _, q := range []image.Point{{10, 200}, {450, 200}, {200, 30}, {200, 410}} {
		if c := img.RGBAAt(q.X, q.Y); c.A != 0 {
			t.Errorf("%v outside the pane is drawn: %v", q, c)
		}
	}
}
