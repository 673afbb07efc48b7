// Package game is Tickshot's world: map loading, collision geometry (wall
// boxes: ray and line-of-sight clipping), hitscan traces, rules (damage,
// death, respawn, score), the interpolation function shared by the client's
// rendering and the server's rewind, and the bot brain. Like shared/, it is
// deterministic: no wall clock, no goroutines, no unseeded randomness, and
// the same bits on every target (no fused multiply-add: see fpmath.go).
package game

import (
	"fmt"
	"io/fs"
	"math"
	"path"
	"slices"
	"sort"
	"strings"

	"github.com/lafriks/go-tiled"

	"tickshot/assets"
	"tickshot/shared"
)

// DefaultMap is the map a server runs when none is named: the first of
// DefaultMapCycle.
const DefaultMap = "arena"

// defaultMapCycle is the playable maps in the order a server plays them
// when it is given no map cycle (docs/MAPS.md gives each one's shape and
// player count). The other embedded maps are tools: "range" is the
// hit-registration benchmark's empty box, "lab" the lag lab's room.
var defaultMapCycle = []string{DefaultMap, "foundry", "plaza", "bunker", "sprawl"}

// DefaultMapCycle returns the default map cycle (a new slice each call):
// the playable maps, DefaultMap first; "range" and "lab" are not in it.
func DefaultMapCycle() []string { return slices.Clone(defaultMapCycle) }

// Point is a position in world units.
type Point struct{ X, Y float64 }

// Map is a loaded arena: its size, solid walls and spawn points, in world units.
type Map struct {
	Name          string
	Title         string
	Width, Height float64
	Walls         []shared.Box
	Spawns        []Point
	// Pickups are the items the map places (layer "pickups", pickup.go).
	Pickups []PickupSpot
	// Areas are the map's named regions (the optional object layer
	// "areas": "west base", "central square", ...), for the client's art
	// only (floor and landmarks, client/art.go); the simulation never
	// reads them.
	Areas []Area
	// wallGrid buckets Walls for movement (World) and, on maps of many
	// walls, LineOfSight (wallgrid.go); built when the map loads.
	wallGrid *shared.WallGrid
}

// Area is a named rectangle of a map (object layer "areas"), world units.
type Area struct {
	Name string
	Box  shared.Box
}

// MapNames lists the maps embedded in assets/maps, sorted.
func MapNames() []string {
	entries, _ := fs.ReadDir(assets.FS, "maps")
	var names []string
	for _, e := range entries {
		if strings.HasSuffix(e.Name(), ".tmx") {
			names = append(names, strings.TrimSuffix(e.Name(), ".tmx"))
		}
	}
	sort.Strings(names)
	return names
}

// LoadMap loads an embedded Tiled map by name (without ".tmx"). Walls are the
// rectangles of the object layer "walls", spawns the objects of the layer
// "spawns", areas the named rectangles of the optional layer "areas",
// pickups those of the optional layer "pickups". It fails when the map is
// unknown, has no walls or no spawns, has a wall that is not an
// axis-aligned rectangle, or a pickup of an unknown class.
func LoadMap(name string) (*Map, error) {
	if name == "" {
		name = DefaultMap
	}
	if strings.ContainsAny(name, "/\\.") {
		return nil, fmt.Errorf("map %q: invalid name", name)
	}
	tm, err := tiled.LoadFile(path.Join("maps", name+".tmx"), tiled.WithFileSystem(assets.FS))
	if err != nil {
		return nil, fmt.Errorf("map %q: %w (available: %s)", name, err, strings.Join(MapNames(), ", "))
	}
	return fromTiled(name, tm)
}

func fromTiled(name string, tm *tiled.Map) (*Map, error) {
	m := &Map{
		Name:   name,
		Title:  name,
		Width:  float64(tm.Width * tm.TileWidth),
		Height: float64(tm.Height * tm.TileHeight),
	}
	if tm.Properties != nil {
		if t := tm.Properties.GetString("title"); t != "" {
			m.Title = t
		}
	}
	for _, g := range tm.ObjectGroups {
		switch g.Name {
		case "walls":
			for _, o := range g.Objects {
				if o.Rotation != 0 || o.Width <= 0 || o.Height <= 0 || len(o.Ellipses) > 0 || len(o.Polygons) > 0 {
					return nil, fmt.Errorf("map %q: wall object %d is not an axis-aligned rectangle", name, o.ID)
				}
				m.Walls = append(m.Walls, shared.Box{MinX: o.X, MinY: o.Y, MaxX: o.X + o.Width, MaxY: o.Y + o.Height})
			}
		case "spawns":
			for _, o := range g.Objects {
				m.Spawns = append(m.Spawns, Point{o.X, o.Y})
			}
		case "areas":
			for _, o := range g.Objects {
				if o.Width > 0 && o.Height > 0 {
					m.Areas = append(m.Areas, Area{Name: o.Name, Box: shared.Box{MinX: o.X, MinY: o.Y, MaxX: o.X + o.Width, MaxY: o.Y + o.Height}})
				}
			}
		case "pickups":
			var err error
			if m.Pickups, err = loadPickups(name, g); err != nil {
				return nil, err
			}
		}
	}
	if len(m.Walls) == 0 || len(m.Spawns) == 0 {
		return nil, fmt.Errorf("map %q: needs object layers \"walls\" and \"spawns\" with at least one object each", name)
	}
	m.wallGrid = shared.NewWallGrid(m.Walls, m.Width, m.Height)
	return m, nil
}

// World returns the shared.World for RunCommand at tickRate, with the
// map's wall grid as movement's broad phase (shared.World.WallGrid).
func (m *Map) World(tickRate int) *shared.World {
	return &shared.World{TickRate: tickRate, Walls: m.Walls, WallGrid: m.wallGrid}
}

// RayWalls returns the fraction in [0, 1] of the segment from (x0, y0) to
// (x1, y1) that is free of walls (1 when nothing is hit; 0 when it starts
// inside a wall): the smallest entry fraction over the wall boxes, each
// found by Liang–Barsky clipping (Liang and Barsky, "A New Concept and
// Method for Line Clipping", ACM TOG 3(1), 1984). Hit traces and rockets
// stop where it says. It used cp/v2's SegmentQueryFirst until issue 12:
// cp/v2's vector products compile to fused multiply-adds on arm64 and other
// FMA targets, so the same shot stopped a last bit apart on an arm64 client
// and an amd64 server; this one subtracts and divides only (each correctly
// rounded, never fused), and so gives the same bits on every target.
// TestRayWallsMatchesCp checks it against cp/v2.
func (m *Map) RayWalls(x0, y0, x1, y1 float64) float64 {
	dx, dy := x1-x0, y1-y0
	loX, hiX := min(x0, x1), max(x0, x1)
	loY, hiY := min(y0, y1), max(y0, y1)
	best := 1.0
	for i := range m.Walls {
		w := &m.Walls[i]
		if w.MinX > hiX || w.MaxX < loX || w.MinY > hiY || w.MaxY < loY {
			continue
		}
		if t, ok := segmentEntersBox(x0, y0, dx, dy, w); ok && t < best {
			best = t
		}
	}
	return best
}

// LineOfSight reports whether the segment between two points crosses no
// wall. It clips the segment against each wall box (Liang–Barsky) instead
// of asking cp/v2: the bots and splash damage ask it thousands of times a
// tick, and cp's query allocated four times per call and cost three times
// as much (FINDINGS: 64 % of a 64-bot tick). TestLineOfSightMatchesCp
// checks both give the same answers. On a map of many walls (expanse) the
// walls come from the cells along the segment (wallGrid), the same answer
// (TestWallGridMatchesLoop).
func (m *Map) LineOfSight(x0, y0, x1, y1 float64) bool {
	if g := m.losGrid(); g != nil && finite(x0, y0, x1, y1) {
		return !blocked(g, m.Walls, x0, y0, x1, y1)
	}
	dx, dy := x1-x0, y1-y0
	loX, hiX := min(x0, x1), max(x0, x1)
	loY, hiY := min(y0, y1), max(y0, y1)
	for i := range m.Walls {
		w := &m.Walls[i]
		// Boxes clear of the segment's bounding box cannot meet it.
		if w.MinX > hiX || w.MaxX < loX || w.MinY > hiY || w.MaxY < loY {
			continue
		}
		if segmentHitsBox(x0, y0, dx, dy, w) {
			return false
		}
	}
	return true
}

// finite reports whether every one of vs is a finite number.
func finite(vs ...float64) bool {
	for _, v := range vs {
		if math.IsInf(v, 0) || math.IsNaN(v) {
			return false
		}
	}
	return true
}

// segmentHitsBox reports whether the segment from (x0, y0) to
// (x0+dx, y0+dy) meets box b.
func segmentHitsBox(x0, y0, dx, dy float64, b *shared.Box) bool {
	_, ok := segmentEntersBox(x0, y0, dx, dy, b)
	return ok
}

// segmentEntersBox clips the segment from (x0, y0) to (x0+dx, y0+dy)
// against box b (Liang–Barsky): ok tells whether they meet, t in [0, 1] is
// the fraction at which the segment enters the box (0 when it starts
// inside).
func segmentEntersBox(x0, y0, dx, dy float64, b *shared.Box) (t float64, ok bool) {
	t0, t1 := 0.0, 1.0
	ps := [4]float64{-dx, dx, -dy, dy}
	qs := [4]float64{x0 - b.MinX, b.MaxX - x0, y0 - b.MinY, b.MaxY - y0}
	for i, p := range ps {
		q := qs[i]
		if p == 0 {
			if q < 0 {
				return 0, false // parallel to this side and outside it
			}
			continue
		}
		r := q / p
		if p < 0 {
			if r > t1 {
				return 0, false
			}
			t0 = max(t0, r)
		} else {
			if r < t0 {
				return 0, false
			}
			t1 = min(t1, r)
		}
	}
	return t0, t0 <= t1
}

// Solid reports whether a circle of radius r at (x, y) overlaps a wall.
func (m *Map) Solid(x, y, r float64) bool {
	for _, w := range m.Walls {
		cx := min(max(x, w.MinX), w.MaxX)
		cy := min(max(y, w.MinY), w.MaxY)
		if float64((x-cx)*(x-cx))+float64((y-cy)*(y-cy)) < float64(r*r) {
			return true
		}
	}
	return false
}
