package game

import (
	"math/rand/v2"
	"testing"
	"time"

	"tickshot/shared"
)

// loopLineOfSight is LineOfSight's loop over every wall, without the grid.
func loopLineOfSight(m *Map, x0, y0, x1, y1 float64) bool {
	plain := *m
	plain.wallGrid = nil
	return plain.LineOfSight(x0, y0, x1, y1)
}

// TestWallGridMatchesLoop: on expanse (the map with a wall grid), the
// grid's line of sight answers as the loop over every wall on 200 000
// random segments: anywhere on the map, short and long, axis-aligned, a
// point, ending on cell edges and walls' edges, and reaching past the
// map's edges.
func TestWallGridMatchesLoop(t *testing.T) {
	m, err := LoadMap("expanse")
	if err != nil {
		t.Fatal(err)
	}
	if m.losGrid() == nil {
		t.Fatal("expanse has no wall grid")
	}
	rng := rand.New(rand.NewPCG(23, 5))
	coord := func(size float64) float64 {
		switch rng.IntN(5) {
		case 0:
			return float64(rng.IntN(int(size)/shared.WallGridCell+1)) * shared.WallGridCell // a cell's edge
		case 1:
			w := m.Walls[rng.IntN(len(m.Walls))]
			return []float64{w.MinX, w.MaxX, w.MinY, w.MaxY}[rng.IntN(4)] // a wall's edge
		case 2:
			return rng.Float64()*(size+400) - 200 // past the map's edges
		}
		return rng.Float64() * size
	}
	var blocked, diff int
	for i := range 200000 {
		x0, y0 := coord(m.Width), coord(m.Height)
		x1, y1 := coord(m.Width), coord(m.Height)
		switch i % 8 {
		case 1: // short
			x1, y1 = x0+rng.Float64()*300-150, y0+rng.Float64()*300-150
		case 2:
			x1 = x0
		case 3:
			y1 = y0
		case 4:
			x1, y1 = x0, y0
		}
		got, want := m.LineOfSight(x0, y0, x1, y1), loopLineOfSight(m, x0, y0, x1, y1)
		if got != want {
			diff++
			if diff <= 5 {
				t.Errorf("(%v, %v) → (%v, %v): grid %v, loop %v", x0, y0, x1, y1, got, want)
			}
		}
		if !want {
			blocked++
		}
	}
	if diff > 0 {
		t.Fatalf("%d of 200000 segments differ", diff)
	}
	if blocked < 20000 || blocked > 180000 {
		t.Fatalf("%d of 200000 segments blocked: the test's segments say little", blocked)
	}
}

// A map whose walls were replaced after loading is not served by the grid
// it loaded with.
func TestWallGridFollowsWalls(t *testing.T) {
	m, err := LoadMap("expanse")
	if err != nil {
		t.Fatal(err)
	}
	open := *m
	open.Walls = open.Walls[:4:4] // the border only
	if open.wallGrid.Serves(open.Walls) {
		t.Fatal("the grid serves walls it was not built from")
	}
	if !open.LineOfSight(100, 100, 8000, 6000) {
		t.Fatal("a map of its border only blocks a diagonal")
	}
}

// The grid's worth: lines of sight from random points to random points of
// expanse (a scale test, logged).
func TestWallGridCost(t *testing.T) {
	m, err := LoadMap("expanse")
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(1, 1))
	pts := make([][4]float64, 20000)
	for i := range pts {
		pts[i] = [4]float64{rng.Float64() * m.Width, rng.Float64() * m.Height, rng.Float64() * m.Width, rng.Float64() * m.Height}
	}
	t0 := time.Now()
	for _, p := range pts {
		m.LineOfSight(p[0], p[1], p[2], p[3])
	}
	grid := time.Since(t0)
	t0 = time.Now()
	for _, p := range pts {
		loopLineOfSight(m, p[0], p[1], p[2], p[3])
	}
	t.Logf("expanse, %d walls, %d random segments: grid %v, loop %v a line of sight", len(m.Walls), len(pts), grid/time.Duration(len(pts)), time.Since(t0)/time.Duration(len(pts)))
}
