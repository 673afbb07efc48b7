package game

import (
	"math"
	"math/bits"
	"slices"

	"tickshot/shared"
)

// GridCell is the side of a Grid's square cells, world units: about a
// fifth of the view's width (ViewWidth), so a client's view rectangle
// (ViewRect) covers some 9×6 cells, a bot's sight (botSightRange) some
// 12×12 and a rocket's splash (SplashRange plus the body) one to four.
const GridCell = 256

// Grid is a uniform grid over a map (a spatial hash with one bucket per
// cell, Ericson, "Real-Time Collision Detection", §7.1): items numbered
// 0..n-1 (an index into the caller's slice: World.Players, a snapshot
// frame) are put into the cell of their position, and Query returns the
// items of the cells a rectangle touches, in ascending order. The caller
// filters those candidates with its own exact test, so that what it finds
// is what a loop over every item finds, in the same order: Query's result
// holds every item whose position (as last given) lies in the rectangle.
//
// A position outside the map goes into the nearest edge cell and a
// rectangle is clamped the same way (both monotone), so nothing is ever
// missed, whatever the coordinates; NaN goes to cell 0 on both sides. No
// map iteration and no floating point but a division and a floor:
// deterministic, as game/ must be. Building is O(n + cells); a query is
// O(cells touched + k + n/64) for k candidates.
type Grid struct {
	cols, rows int
	cells      [][]int32 // per cell (row-major), the items in it, unordered
	at         []int32   // each item's cell, -1 while it has none
	marks      []uint64  // Query's set of candidates, a bit per item
}

// Reset sizes g to a width×height map (world units) and empties it for
// items 0..n-1, none of which is in a cell until Put.
func (g *Grid) Reset(width, height float64, n int) {
	g.cols = max(int(math.Ceil(width/GridCell)), 1)
	g.rows = max(int(math.Ceil(height/GridCell)), 1)
	g.cells = emptyCells(g.cells, g.cols*g.rows)
	if cap(g.at) < n {
		g.at = make([]int32, n)
	}
	g.at = g.at[:n]
	for i := range g.at {
		g.at[i] = -1
	}
	words := (n + 63) / 64
	if cap(g.marks) < words {
		g.marks = make([]uint64, words)
	}
	g.marks = g.marks[:words]
}

// emptyCells returns n empty cells in cells' storage (each keeps its own).
func emptyCells(cells [][]int32, n int) [][]int32 {
	if cap(cells) < n {
		cells = make([][]int32, n)
	}
	cells = cells[:n]
	for i := range cells {
		cells[i] = cells[i][:0]
	}
	return cells
}

// Len is the number of items g was Reset for.
func (g *Grid) Len() int { return len(g.at) }

// axis is the cell column (or row) of coordinate v on an axis of n cells,
// clamped to 0..n-1 (NaN: 0).
func axis(v float64, n int) int { return shared.ClampCell(v, GridCell, n) }

// cellOf is the index in g.cells of the cell holding (x, y).
func (g *Grid) cellOf(x, y float64) int32 {
	return int32(axis(y, g.rows)*g.cols + axis(x, g.cols))
}

// Put puts item i at (x, y), taking it out of the cell it was in (an item
// that moved: O(items in its old cell) when the cell changes, else O(1)).
func (g *Grid) Put(i int, x, y float64) {
	c := g.cellOf(x, y)
	old := g.at[i]
	if old == c {
		return
	}
	if old >= 0 {
		cell := g.cells[old]
		k := slices.Index(cell, int32(i))
		cell[k] = cell[len(cell)-1]
		g.cells[old] = cell[:len(cell)-1]
	}
	g.cells[c] = append(g.cells[c], int32(i))
	g.at[i] = c
}

// Query appends to dst[:0] the items in the cells r touches, in ascending
// order, and returns it (never nil): every item whose position lies in r
// (edges included), and others near it.
func (g *Grid) Query(r Rect, dst []int32) []int32 {
	clear(g.marks)
	g.mark(r)
	return g.marked(dst)
}

// QueryRects is Query over the union of rs: the items in the cells any of
// them touches, each once, in ascending order (never nil). A thin shape
// (a ray's corridor) asks it as a chain of small rectangles, touching
// cells in proportion to its length, not its bounding box's area.
func (g *Grid) QueryRects(rs []Rect, dst []int32) []int32 {
	clear(g.marks)
	for _, r := range rs {
		g.mark(r)
	}
	return g.marked(dst)
}

// cellSpan is the columns c0..c1 and rows r0..r1 of the cells of a
// cols×rows grid that r touches (clamped: axis); ok is false when it
// touches none (no grid, an inverted or NaN rectangle). Grid and
// PackedGrid both query by it.
func cellSpan(r Rect, cols, rows int) (c0, c1, r0, r1 int, ok bool) {
	if cols == 0 || !(r.MinX <= r.MaxX && r.MinY <= r.MaxY) {
		return 0, 0, 0, 0, false
	}
	return axis(r.MinX, cols), axis(r.MaxX, cols), axis(r.MinY, rows), axis(r.MaxY, rows), true
}

// mark sets the bits of the items in the cells r touches.
func (g *Grid) mark(r Rect) {
	c0, c1, r0, r1, ok := cellSpan(r, g.cols, g.rows)
	if !ok {
		return
	}
	for row := r0; row <= r1; row++ {
		for _, cell := range g.cells[row*g.cols+c0 : row*g.cols+c1+1] {
			for _, i := range cell {
				g.marks[i>>6] |= 1 << (i & 63)
			}
		}
	}
}

// marked appends to dst[:0] the items marked, in ascending order (a bit
// per item, then the bits in order: ascending without a sort).
func (g *Grid) marked(dst []int32) []int32 { return appendMarked(dst, g.marks) }

// appendMarked appends to dst[:0] the items whose bits are set in marks,
// ascending, and returns it (never nil).
func appendMarked(dst []int32, marks []uint64) []int32 {
	dst = dst[:0]
	if dst == nil {
		dst = make([]int32, 0, 64)
	}
	for w, m := range marks {
		for m != 0 {
			dst = append(dst, int32(w<<6+bits.TrailingZeros64(m)))
			m &= m - 1
		}
	}
	return dst
}

// Covers reports whether r touches every cell: Query(r) returns every item.
func (g *Grid) Covers(r Rect) bool {
	return axis(r.MinX, g.cols) == 0 && axis(r.MinY, g.rows) == 0 &&
		axis(r.MaxX, g.cols) == g.cols-1 && axis(r.MaxY, g.rows) == g.rows-1
}

// Around is the square of half-side d+1 centred on (x, y): what Query
// takes to find every item within distance d of a point (the extra unit
// covers the rounding of a distance computed in floating point).
func Around(x, y, d float64) Rect { return Rect{x - d, y - d, x + d, y + d}.Grow(1) }

// PackedGrid is a Grid built in one go from every item's position (Build)
// and queried until the next Build: the items sorted by cell (a counting
// sort) into one slice, each cell a range of it (compressed sparse rows),
// so that a query reads each row of the cells it touches as one run of
// that slice, and the whole index is two small arrays instead of a slice
// a cell. It is for what is rebuilt every tick and never moved (the
// snapshot frames' interest grids, server/interest.go); Grid keeps items
// that move (Put). Query answers as Grid's does: the items of the cells a
// rectangle touches, ascending, the same cells for the same coordinates.
type PackedGrid struct {
	cols, rows int
	start      []int32  // cell c's items are items[start[c]:start[c+1]]
	items      []int32  // the items, by cell, ascending within a cell
	cell       []int32  // Build's scratch: each item's cell
	marks      []uint64 // Query's set of candidates, a bit per item
}

// Build sizes g to a width×height map (world units) and fills it with
// items 0..n-1, item i at pos(i). O(n + cells).
func (g *PackedGrid) Build(width, height float64, n int, pos func(i int) (x, y float64)) {
	g.cols = max(int(math.Ceil(width/GridCell)), 1)
	g.rows = max(int(math.Ceil(height/GridCell)), 1)
	cells := g.cols * g.rows
	g.start = slices.Grow(g.start[:0], cells+1)[:cells+1]
	clear(g.start)
	g.cell = slices.Grow(g.cell[:0], n)[:n]
	for i := range n {
		x, y := pos(i)
		c := int32(axis(y, g.rows)*g.cols + axis(x, g.cols))
		g.cell[i] = c
		g.start[c+1]++
	}
	for c := 1; c <= cells; c++ {
		g.start[c] += g.start[c-1]
	}
	g.items = slices.Grow(g.items[:0], n)[:n]
	next := g.start[:cells] // each cell's next free slot, counted back below
	for i, c := range g.cell {
		g.items[next[c]] = int32(i)
		next[c]++
	}
	// next was start[0:cells]: each is now the start of the cell after it.
	copy(g.start[1:], g.start[:cells])
	g.start[0] = 0
	words := (n + 63) / 64
	g.marks = slices.Grow(g.marks[:0], words)[:words]
}

// Len is the number of items g was built with.
func (g *PackedGrid) Len() int { return len(g.items) }

// Query appends to dst[:0] the items in the cells r touches, in ascending
// order, and returns it (never nil): every item whose position lies in r
// (edges included), and others near it.
func (g *PackedGrid) Query(r Rect, dst []int32) []int32 {
	clear(g.marks)
	if c0, c1, r0, r1, ok := cellSpan(r, g.cols, g.rows); ok {
		for row := r0; row <= r1; row++ {
			for _, i := range g.items[g.start[row*g.cols+c0]:g.start[row*g.cols+c1+1]] {
				g.marks[i>>6] |= 1 << (i & 63)
			}
		}
	}
	return appendMarked(dst, g.marks)
}
