package game

import (
	"math"

	"tickshot/shared"
)

// A map's walls are bucketed once, when it loads (fromTiled), into a
// shared.WallGrid: the one wall grid, which movement (shared.slideMove)
// and line of sight share. Line of sight walks its cells along a segment
// (blocked), cell by cell from its start, instead of testing every wall:
// on a map of hundreds of walls (expanse: 420) the first wall that blocks
// the segment ends the walk. It answers exactly what the loop over every
// wall answers: the cells it walks cover the segment with a margin
// (shared.WallGridSlack) larger than any rounding of the walk, every wall
// is in every cell its box (grown by the same margin) touches, and each
// candidate is tested by the same segmentHitsBox; TestWallGridMatchesLoop
// compares the two on random segments.

// wallGridMinWalls: maps with fewer walls keep the plain loop for line of
// sight (its bounding-box test is cheaper than a walk over a handful of
// walls); movement uses the grid on every map.
const wallGridMinWalls = 128

// losGrid is m's wall grid when line of sight should walk it: a grid
// built from m's current walls, and enough of them.
func (m *Map) losGrid() *shared.WallGrid {
	if len(m.Walls) < wallGridMinWalls || !m.wallGrid.Serves(m.Walls) {
		return nil
	}
	return m.wallGrid
}

// blocked reports whether the segment from (x0, y0) to (x1, y1) meets a
// wall: the walk goes along the segment's longer axis one column (or row)
// of cells at a time from (x0, y0), and in each takes the cells the
// segment's stretch over it touches.
func blocked(g *shared.WallGrid, walls []shared.Box, x0, y0, x1, y1 float64) bool {
	dx, dy := x1-x0, y1-y0
	if math.Abs(dx) >= math.Abs(dy) {
		return walk(g, walls, x0, y0, dx, dy, false)
	}
	return walk(g, walls, y0, x0, dy, dx, true)
}

// walk is blocked along axis u (x, or y when swapped), the other axis v:
// the segment is (u0, v0) + t·(du, dv), t in [0, 1], |du| ≥ |dv|.
func walk(g *shared.WallGrid, walls []shared.Box, u0, v0, du, dv float64, swapped bool) bool {
	uCells, vCells := g.Cols(), g.Rows()
	if swapped {
		uCells, vCells = g.Rows(), g.Cols()
	}
	u1 := u0 + du
	first, last := shared.ClampCell(u0, shared.WallGridCell, uCells), shared.ClampCell(u1, shared.WallGridCell, uCells)
	step := 1
	if last < first {
		step = -1
	}
	loU, hiU := math.Min(u0, u1), math.Max(u0, u1)
	for c := first; ; c += step {
		// The stretch of the segment over column c, and the v it spans.
		a := math.Max(loU, float64(c)*shared.WallGridCell)
		b := math.Min(hiU, float64(c+1)*shared.WallGridCell)
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
		r0 := shared.ClampCell(math.Min(va, vb)-shared.WallGridSlack, shared.WallGridCell, vCells)
		r1 := shared.ClampCell(math.Max(va, vb)+shared.WallGridSlack, shared.WallGridCell, vCells)
		// A wall within the slack of the stretch is in these cells too: it
		// was put into every cell its grown box touches.
		for r := r0; r <= r1; r++ {
			col, row := c, r
			if swapped { // u is y, so c is the row and r the column
				col, row = r, c
			}
			if hitsAny(walls, g.Cell(col, row), u0, v0, du, dv, swapped) {
				return true
			}
		}
		if c == last {
			return false
		}
	}
}

// hitsAny reports whether the segment meets one of the walls numbered ids.
func hitsAny(walls []shared.Box, ids []int32, u0, v0, du, dv float64, swapped bool) bool {
	x0, y0, dx, dy := u0, v0, du, dv
	if swapped {
		x0, y0, dx, dy = v0, u0, dv, du
	}
	for _, i := range ids {
		if segmentHitsBox(x0, y0, dx, dy, &walls[i]) {
			return true
		}
	}
	return false
}
