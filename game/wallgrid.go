package game

import (
	"math"

	"tickshot/shared"
)

// wallGrid is a map's static walls bucketed into square cells (a uniform
// grid, Ericson, "Real-Time Collision Detection", §7.1), so that a line of
// sight on a map of hundreds of walls (expanse: 420) tests the walls near
// the segment, cell by cell from its start, instead of every wall: the
// first wall that blocks it ends the walk. It answers exactly what the loop
// over every wall answers: the cells it walks cover the segment with a
// margin (wallGridSlack) larger than any rounding of the walk, every wall
// is in every cell its box (grown by the same margin) touches, and each
// candidate is tested by the same segmentHitsBox; TestWallGridMatchesLoop
// compares the two on random segments. Built once when the map loads
// (fromTiled) and never written after, so every goroutine may read it.
type wallGrid struct {
	cols, rows int
	cells      [][]int32 // per cell (row-major), the walls in it, ascending
	// walls is the slice the grid was built from: a Map whose Walls were
	// replaced afterwards (a test's copy) is not served by it.
	walls []shared.Box
}

const (
	// wallGridCell is the side of a cell, world units.
	wallGridCell = 256
	// wallGridSlack is how far beyond a cell a wall or a segment's
	// stretch is still taken as in it, world units: far more than the
	// rounding of the walk's few operations.
	wallGridSlack = 1.0
	// wallGridMinWalls: maps with fewer walls keep the plain loop (its
	// bounding-box test is cheaper than a walk over a handful of walls).
	wallGridMinWalls = 128
)

// newWallGrid buckets walls for a width × height map; nil when there are
// too few walls to gain from it or a wall lies outside the map.
func newWallGrid(walls []shared.Box, width, height float64) *wallGrid {
	if len(walls) < wallGridMinWalls || !(width > 0 && height > 0) {
		return nil
	}
	g := &wallGrid{cols: int(math.Ceil(width / wallGridCell)), rows: int(math.Ceil(height / wallGridCell)), walls: walls}
	g.cells = make([][]int32, g.cols*g.rows)
	for i, w := range walls {
		if w.MinX < 0 || w.MinY < 0 || w.MaxX > width || w.MaxY > height {
			return nil
		}
		c0, c1 := g.col(w.MinX-wallGridSlack), g.col(w.MaxX+wallGridSlack)
		r0, r1 := g.row(w.MinY-wallGridSlack), g.row(w.MaxY+wallGridSlack)
		for r := r0; r <= r1; r++ {
			for c := c0; c <= c1; c++ {
				g.cells[r*g.cols+c] = append(g.cells[r*g.cols+c], int32(i))
			}
		}
	}
	return g
}

// col is the column of x, clamped to the grid.
func (g *wallGrid) col(x float64) int { return clampCell(x, wallGridCell, g.cols) }

// row is the row of y, clamped to the grid.
func (g *wallGrid) row(y float64) int { return clampCell(y, wallGridCell, g.rows) }

// clampCell is the cell of coordinate v on an axis of n cells of side
// size, clamped to 0..n-1 (NaN: 0).
func clampCell(v, size float64, n int) int {
	f := math.Floor(v / size)
	switch {
	case f >= float64(n-1):
		return n - 1
	case f > 0:
		return int(f)
	}
	return 0
}

// serves reports whether g was built from walls (the map's current ones).
func (g *wallGrid) serves(walls []shared.Box) bool {
	return g != nil && len(walls) == len(g.walls) && len(walls) > 0 && &walls[0] == &g.walls[0]
}

// blocked reports whether the segment from (x0, y0) to (x1, y1) meets a
// wall: the walk goes along the segment's longer axis one column (or row)
// of cells at a time from (x0, y0), and in each takes the cells the
// segment's stretch over it touches.
func (g *wallGrid) blocked(x0, y0, x1, y1 float64) bool {
	dx, dy := x1-x0, y1-y0
	if math.Abs(dx) >= math.Abs(dy) {
		return g.walk(x0, y0, dx, dy, false)
	}
	return g.walk(y0, x0, dy, dx, true)
}

// walk is blocked along axis u (x, or y when swapped), the other axis v:
// the segment is (u0, v0) + t·(du, dv), t in [0, 1], |du| ≥ |dv|.
func (g *wallGrid) walk(u0, v0, du, dv float64, swapped bool) bool {
	uCells, vCells := g.cols, g.rows
	if swapped {
		uCells, vCells = g.rows, g.cols
	}
	u1 := u0 + du
	first, last := clampCell(u0, wallGridCell, uCells), clampCell(u1, wallGridCell, uCells)
	step := 1
	if last < first {
		step = -1
	}
	loU, hiU := math.Min(u0, u1), math.Max(u0, u1)
	for c := first; ; c += step {
		// The stretch of the segment over column c, and the v it spans.
		a := math.Max(loU, float64(c)*wallGridCell)
		b := math.Min(hiU, float64(c+1)*wallGridCell)
		if c == 0 {
			a = loU // the first and last columns hold what lies beyond the map too
		}
		if c == uCells-1 {
			b = hiU
		}
		va, vb := v0, v0
		if du != 0 {
			// float64(): no fused multiply-add (game/interp.go's Lerp says why).
			va = v0 + float64((a-u0)/du*dv)
			vb = v0 + float64((b-u0)/du*dv)
		}
		r0 := clampCell(math.Min(va, vb)-wallGridSlack, wallGridCell, vCells)
		r1 := clampCell(math.Max(va, vb)+wallGridSlack, wallGridCell, vCells)
		// A wall within the slack of the stretch is in these cells too: it
		// was put into every cell its grown box touches.
		for r := r0; r <= r1; r++ {
			cell := c*vCells + r // swapped: u is y, so c is the row and r the column
			if !swapped {
				cell = r*g.cols + c
			}
			if g.hitsAny(g.cells[cell], u0, v0, du, dv, swapped) {
				return true
			}
		}
		if c == last {
			return false
		}
	}
}

// hitsAny reports whether the segment meets one of the walls numbered ids.
func (g *wallGrid) hitsAny(ids []int32, u0, v0, du, dv float64, swapped bool) bool {
	x0, y0, dx, dy := u0, v0, du, dv
	if swapped {
		x0, y0, dx, dy = v0, u0, dv, du
	}
	for _, i := range ids {
		if segmentHitsBox(x0, y0, dx, dy, &g.walls[i]) {
			return true
		}
	}
	return false
}
