package game

import (
	"math"

	"tickshot/shared"
)

// Hitbox is a player's hit volume at one moment: a circle in world units.
type Hitbox struct {
	ID    uint16
	X, Y  float64
	R     float64
	Alive bool
	// Team is the player's team (bots leave teammates alone); sources that
	// do not know it leave it TeamNone.
	Team Team
}

// NewHitbox returns the hitbox of player id centred at (x, y) in world
// units: a circle of shared.PlayerRadius, the body's radius, so that what a
// shot hits is what moves. alive false makes it transparent to shots; team is
// TeamNone where the source does not know it (only bots read it). The world,
// the server's rewind, the bots and the client's predicted tracers all build
// their hitboxes here.
func NewHitbox(id uint16, x, y float64, alive bool, team Team) Hitbox {
	return Hitbox{ID: id, X: x, Y: y, R: shared.PlayerRadius, Alive: alive, Team: team}
}

// TraceResult is the outcome of a hitscan trace.
type TraceResult struct {
	// Hit is the index into the hitboxes of the first one struck, or -1.
	Hit int
	// EndX, EndY is where the shot stopped: the hitbox, a wall or full range.
	EndX, EndY float64
}

// TraceShot traces a hitscan shot from (x, y) along the unit direction
// (dx, dy) for rng world units: walls stop it (cp/v2 segment query), and the
// nearest live hitbox in front of the wall is hit. The hitbox with ID skip
// (the shooter) is ignored.
func TraceShot(m *Map, x, y, dx, dy, rng float64, boxes []Hitbox, skip uint16) TraceResult {
	ex, ey := x+float64(dx*rng), y+float64(dy*rng)
	frac := m.RayWalls(x, y, ex, ey)
	best := frac * rng
	res := TraceResult{Hit: -1, EndX: x + float64(dx*best), EndY: y + float64(dy*best)}
	for i := range boxes {
		b := &boxes[i]
		if !b.Alive || b.ID == skip {
			continue
		}
		if t, ok := RayCircle(x, y, dx, dy, b.X, b.Y, b.R); ok && t < best {
			best = t
			res = TraceResult{Hit: i, EndX: x + float64(dx*t), EndY: y + float64(dy*t)}
		}
	}
	return res
}

// RayCircle returns the distance t >= 0 along the unit ray (x, y)+(dx, dy)t
// at which it enters the circle at (cx, cy) with radius r.
func RayCircle(x, y, dx, dy, cx, cy, r float64) (float64, bool) {
	fx, fy := x-cx, y-cy
	b := float64(fx*dx) + float64(fy*dy)
	c := float64(fx*fx) + float64(fy*fy) - float64(r*r)
	if c <= 0 {
		return 0, true // the ray starts inside
	}
	if b > 0 {
		return 0, false
	}
	disc := float64(b*b) - c
	if disc < 0 {
		return 0, false
	}
	return -b - math.Sqrt(disc), true
}

// DistToRay returns the distance from (px, py) to the ray's supporting line.
func DistToRay(x, y, dx, dy, px, py float64) float64 {
	return math.Abs(float64((px-x)*dy) - float64((py-y)*dx))
}
