package game

import (
	"math/rand/v2"
	"testing"
)

// A client's view, whatever its size up to the full view, lies inside the
// rectangle the server selects for it: on maps larger and smaller than the
// view, with the player anywhere, near edges included.
func TestClientViewInsideServerRect(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for i := 0; i < 20000; i++ {
		m := &Map{Width: 200 + rng.Float64()*4000, Height: 200 + rng.Float64()*3000}
		px, py := rng.Float64()*m.Width, rng.Float64()*m.Height
		w, h := 320+rng.Float64()*(ViewWidth-320), 200+rng.Float64()*(ViewHeight-200)
		cx, cy := Camera(m.Width, m.Height, px, py, w, h)
		// Nested up to cameraSlack (a map between the two view sizes), well
		// inside the margin.
		r := ViewRect(m, px, py).Grow(cameraSlack - ViewMargin)
		const eps = 1e-9
		if cx < r.MinX-eps || cy < r.MinY-eps || cx+w > r.MaxX+eps || cy+h > r.MaxY+eps {
			t.Fatalf("map %.0fx%.0f, player (%.0f, %.0f), view %.0fx%.0f at (%.1f, %.1f) is not inside the server's %+v",
				m.Width, m.Height, px, py, w, h, cx, cy, r)
		}
		if !r.Contains(px, py) && m.Width > ViewWidth && m.Height > ViewHeight {
			t.Fatalf("the player (%.0f, %.0f) is outside its own view %+v", px, py, r)
		}
	}
}
