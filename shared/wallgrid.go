package shared

import "math"

// WallGrid is a map's static walls bucketed into square cells of
// WallGridCell world units (a uniform grid, Ericson, "Real-Time Collision
// Detection", §7.1): the broad phase of movement (slideMove gathers the
// walls near a move from it) and of game's line of sight (game/wallgrid.go
// walks its cells along a segment). Every wall is in every cell that its
// box grown by WallGridSlack touches, in ascending wall order. Built once
// when a map loads (NewWallGrid) and never written after, so every
// goroutine may read it; a World or Map whose walls were replaced after it
// was built is not served by it (Serves).
type WallGrid struct {
	cols, rows int
	cells      [][]int32 // per cell (row-major), the walls in it, ascending
	// walls is the slice the grid was built from.
	walls []Box
}

const (
	// WallGridCell is the side of a wall grid's cell, world units.
	WallGridCell = 256
	// WallGridSlack is how far beyond a cell a wall is still put in it,
	// world units: far more than the rounding of a few operations on
	// coordinates of a map's size, which a walk over the cells relies on.
	WallGridSlack = 1.0
)

// NewWallGrid buckets walls for a width × height map (world units); nil
// when there are no walls, the size is not positive or a wall lies outside
// the map. The grid keeps walls (the same backing array): a World or Map
// must hand it the slice it holds.
func NewWallGrid(walls []Box, width, height float64) *WallGrid {
	if len(walls) == 0 || !(width > 0 && height > 0) || width > 1<<30 || height > 1<<30 {
		return nil
	}
	g := &WallGrid{cols: int(math.Ceil(width / WallGridCell)), rows: int(math.Ceil(height / WallGridCell)), walls: walls}
	g.cells = make([][]int32, g.cols*g.rows)
	for i, w := range walls {
		if !(w.MinX >= 0 && w.MinY >= 0 && w.MaxX <= width && w.MaxY <= height) {
			return nil
		}
		c0, c1 := g.Col(w.MinX-WallGridSlack), g.Col(w.MaxX+WallGridSlack)
		r0, r1 := g.Row(w.MinY-WallGridSlack), g.Row(w.MaxY+WallGridSlack)
		for r := r0; r <= r1; r++ {
			for c := c0; c <= c1; c++ {
				g.cells[r*g.cols+c] = append(g.cells[r*g.cols+c], int32(i))
			}
		}
	}
	return g
}

// Serves reports whether g was built from walls (the same slice: a copy or
// a replacement is not served). A nil grid serves nothing.
func (g *WallGrid) Serves(walls []Box) bool {
	return g != nil && len(walls) == len(g.walls) && len(walls) > 0 && &walls[0] == &g.walls[0]
}

// Cols is the grid's number of columns of cells.
func (g *WallGrid) Cols() int { return g.cols }

// Rows is the grid's number of rows of cells.
func (g *WallGrid) Rows() int { return g.rows }

// Col is the column of x (world units), clamped to the grid: cells on the
// grid's edge also hold what lies beyond the map.
func (g *WallGrid) Col(x float64) int { return ClampCell(x, WallGridCell, g.cols) }

// Row is the row of y (world units), clamped to the grid.
func (g *WallGrid) Row(y float64) int { return ClampCell(y, WallGridCell, g.rows) }

// Cell is the walls in the cell at column c, row r (indices into the walls
// the grid was built from, ascending). The caller must not write to it.
func (g *WallGrid) Cell(c, r int) []int32 { return g.cells[r*g.cols+c] }

// ClampCell is the cell of coordinate v on an axis of n cells of side
// size, clamped to 0..n-1 (NaN: 0). It is monotonic in v.
func ClampCell(v, size float64, n int) int {
	f := math.Floor(v / size)
	switch {
	case f >= float64(n-1):
		return n - 1
	case f > 0:
		return int(f)
	}
	return 0
}

// near writes into ids, ascending and without repeats, the index of every
// wall whose box overlaps q (closed boxes, compared as stored: no
// rounding), and returns how many; ok is false when there are more than
// len(ids). Each such wall has a point of q, and so is in the cell of that
// point (ClampCell is monotonic, and the wall was put in every cell its
// box touches): the cells q's corners fall in cover them all.
func (g *WallGrid) near(q Box, ids []int32) (n int, ok bool) {
	c0, c1 := g.Col(q.MinX), g.Col(q.MaxX)
	r0, r1 := g.Row(q.MinY), g.Row(q.MaxY)
	for r := r0; r <= r1; r++ {
		for c := c0; c <= c1; c++ {
			for _, id := range g.cells[r*g.cols+c] {
				b := &g.walls[id]
				if b.MinX > q.MaxX || b.MaxX < q.MinX || b.MinY > q.MaxY || b.MaxY < q.MinY {
					continue
				}
				// Insert id in order; a wall in several cells comes once.
				k := n
				for k > 0 && ids[k-1] > id {
					k--
				}
				if k > 0 && ids[k-1] == id {
					continue
				}
				if n == len(ids) {
					return n, false
				}
				copy(ids[k+1:n+1], ids[k:n])
				ids[k] = id
				n++
			}
		}
	}
	return n, true
}
