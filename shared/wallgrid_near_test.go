package shared

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// TestWallGridNearMatchesFilter: the walls WallGrid.near gathers for a box
// are exactly those the loop over every wall finds overlapping it, in
// ascending order, on random worlds and boxes (inside the map, across its
// edges, past it, on cell edges, degenerate); and it reports a set larger
// than its room instead of cutting it.
func TestWallGridNearMatchesFilter(t *testing.T) {
	rng := rand.New(rand.NewPCG(23, 16))
	var full, overflow int
	for world := range 200 {
		w, h := 64+rng.Float64()*4000, 64+rng.Float64()*4000
		walls := make([]Box, 1+rng.IntN(400))
		for j := range walls {
			x0, y0 := rng.Float64()*w, rng.Float64()*h
			size := []float64{4, 100, 1000}[rng.IntN(3)]
			walls[j] = Box{MinX: x0, MinY: y0, MaxX: min(w, x0+rng.Float64()*size), MaxY: min(h, y0+rng.Float64()*size)}
		}
		g := NewWallGrid(walls, w, h)
		if g == nil {
			t.Fatalf("world %d: no grid", world)
		}
		coord := func(size float64) float64 {
			switch rng.IntN(4) {
			case 0:
				return float64(rng.IntN(int(size)/WallGridCell+1)) * WallGridCell
			case 1:
				b := walls[rng.IntN(len(walls))]
				return []float64{b.MinX, b.MaxX, b.MinY, b.MaxY}[rng.IntN(4)]
			}
			return rng.Float64()*(size+600) - 300
		}
		for range 200 {
			x, y := coord(w), coord(h)
			q := Box{MinX: x, MinY: y, MaxX: x + rng.Float64()*[]float64{0, 80, 600}[rng.IntN(3)], MaxY: y + rng.Float64()*[]float64{0, 80, 600}[rng.IntN(3)]}
			var want []int32
			for i, b := range walls {
				if !(b.MinX > q.MaxX || b.MaxX < q.MinX || b.MinY > q.MaxY || b.MaxY < q.MinY) {
					want = append(want, int32(i))
				}
			}
			ids := make([]int32, nearMax)
			n, ok := g.near(q, ids)
			if len(want) > nearMax {
				overflow++
				if ok {
					t.Fatalf("world %d, box %+v: %d walls overlap it, near says %d fit in %d", world, q, len(want), n, nearMax)
				}
				continue
			}
			full++
			if !ok || !slices.Equal(ids[:n], want) {
				t.Fatalf("world %d, box %+v: near %v (ok %v), loop %v", world, q, ids[:n], ok, want)
			}
		}
	}
	if full < 1000 || overflow < 100 {
		t.Fatalf("%d sets gathered, %d too large: the test says little", full, overflow)
	}
}
