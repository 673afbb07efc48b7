package game

import "math"

// The view: the most of the world a client shows, in world units, whatever
// its window's size (a larger window is scaled up, not shown more). The
// server's interest management uses the same area, so a player the client
// could draw is in its snapshots and one it could not is not on the wire
// (the anti-maphack rule).
const (
	ViewWidth  = 1280 // world units
	ViewHeight = 720  // world units
	// ViewMargin is added on every side when the server selects what a
	// client receives, in world units: others are drawn up to about 0.35 s
	// in the past (interpolation, extrapolation, a snapshot interval), in
	// which they move at most about 70 units; a smaller client view may sit
	// up to cameraSlack (40) outside the server's; and an entity that
	// enters the view should already have history to interpolate from. 256
	// cost a fifth more bandwidth at 64 players than 160 for nothing seen.
	ViewMargin = 160
	// cameraSlack is how far past the map's edge the camera may look.
	cameraSlack = 40
)

// Rect is an axis-aligned rectangle in world units.
type Rect struct{ MinX, MinY, MaxX, MaxY float64 }

// Contains reports whether (x, y) is inside r (edges included).
func (r Rect) Contains(x, y float64) bool {
	return x >= r.MinX && x <= r.MaxX && y >= r.MinY && y <= r.MaxY
}

// Grow returns r with d added on every side.
func (r Rect) Grow(d float64) Rect { return Rect{r.MinX - d, r.MinY - d, r.MaxX + d, r.MaxY + d} }

// Camera returns the world position of the top-left corner of a w×h view
// (world units) that follows a player at (px, py) on a mapW×mapH map: the
// player is centred, but the view stops cameraSlack past the map's edges,
// and a map smaller than the view is centred. The client's drawing and the
// server's selection both use it.
func Camera(mapW, mapH, px, py, w, h float64) (float64, float64) {
	axis := func(p, size, view float64) float64 {
		if size > view {
			return math.Max(-cameraSlack, math.Min(p-view/2, size-view+cameraSlack))
		}
		return (size - view) / 2
	}
	return axis(px, mapW, w), axis(py, mapH, h)
}

// ViewRect is the full view (ViewWidth × ViewHeight) of a player at
// (px, py) on m, plus ViewMargin on every side: what the server sends a
// client. Any smaller view the client draws (a smaller window) lies inside
// it: Camera keeps a smaller view within cameraSlack of a larger one, far
// less than the margin.
func ViewRect(m *Map, px, py float64) Rect {
	cx, cy := Camera(m.Width, m.Height, px, py, ViewWidth, ViewHeight)
	return Rect{cx, cy, cx + ViewWidth, cy + ViewHeight}.Grow(ViewMargin)
}
