package game

import (
	"math"

	"tickshot/shared"
)

// enemyRings buckets the live enemies of one spawn choice into square
// cells over the map, so that ChooseSpawn visits them from a spawn outward,
// ring of cells by ring: the nearest enemy is found without measuring to
// the far ones, and the enemy that sees a spawn is most often a near one,
// found first. Both answers are those of a loop over every enemy (the
// nearest distance bit for bit; "seen by any" is the same whatever the
// order). Built per choice (reset): O(enemies + cells), its storage
// reused by the next.
type enemyRings struct {
	enemies    []Point
	cols, rows int
	cells      [][]int32 // per cell (row-major), indexes into enemies
}

// enemyRingCell is the side of a cell, world units.
const enemyRingCell = 512

// reset buckets enemies over m's cells, emptying e first.
func (e *enemyRings) reset(m *Map, enemies []Point) {
	e.enemies = enemies
	e.cols, e.rows = max(int(math.Ceil(m.Width/enemyRingCell)), 1), max(int(math.Ceil(m.Height/enemyRingCell)), 1)
	e.cells = emptyCells(e.cells, e.cols*e.rows)
	for i, p := range enemies {
		c := e.cell(p)
		e.cells[c] = append(e.cells[c], int32(i))
	}
}

// spawnChoice is the storage of spawn choices (Map.chooseSpawn), reused
// from one to the next: a World keeps one, so that a respawn allocates
// nothing once the slices have grown.
type spawnChoice struct {
	enemies []Point
	rings   enemyRings
	score   []float64
	order   []int
	cands   []int
}

// cell is p's cell, clamped to the grid: an enemy beyond the map's edge is
// put in the edge cell, nearer a spawn (inside the map) in rings than it
// is, so it is visited no later than its distance asks.
func (e *enemyRings) cell(p Point) int {
	return clampRing(p.Y, e.rows)*e.cols + clampRing(p.X, e.cols)
}

// clampRing is shared.ClampCell on the rings' cells.
func clampRing(v float64, n int) int { return shared.ClampCell(v, enemyRingCell, n) }

// rings calls visit with the enemies of each ring of cells round s, ring 0
// (s's cell) first, up to ring maxRing or until visit returns false.
func (e *enemyRings) rings(s Point, maxRing int, visit func(ring int, ids []int32) bool) {
	cx, cy := clampRing(s.X, e.cols), clampRing(s.Y, e.rows)
	for r := 0; r <= maxRing; r++ {
		for y := cy - r; y <= cy+r; y++ {
			if y < 0 || y >= e.rows {
				continue
			}
			for x := cx - r; x <= cx+r; x++ {
				if x < 0 || x >= e.cols || (y != cy-r && y != cy+r && x != cx-r && x != cx+r) {
					continue // inside the ring, visited before
				}
				if ids := e.cells[y*e.cols+x]; len(ids) > 0 && !visit(r, ids) {
					return
				}
			}
		}
	}
}

// maxRing is the ring that holds the grid's farthest cell from any spawn.
func (e *enemyRings) maxRing() int { return max(e.cols, e.rows) }

// nearest is the distance (hypot) from s to the nearest enemy, 1e9 when
// there is none: the least hypot over every enemy, bit for bit. The
// squared distances find the least; the rings stop once the next ring
// lies farther than it (a point of ring r+1 is at least r cells from s);
// the hypot of the enemies whose square is within a part in 10⁹ of the
// least (farther than any rounding of either computation) decides.
func (e *enemyRings) nearest(s Point) float64 {
	if len(e.enemies) == 0 {
		return 1e9
	}
	least, upTo := math.Inf(1), e.maxRing()
	e.rings(s, e.maxRing(), func(r int, ids []int32) bool {
		if !math.IsInf(least, 1) && float64(r-1)*enemyRingCell > math.Sqrt(least)+1 {
			upTo = r - 1
			return false
		}
		for _, i := range ids {
			dx, dy := e.enemies[i].X-s.X, e.enemies[i].Y-s.Y
			least = math.Min(least, float64(dx*dx)+float64(dy*dy))
		}
		return true
	})
	cut := least * (1 + 1e-9)
	d := math.Inf(1)
	e.rings(s, upTo, func(_ int, ids []int32) bool {
		for _, i := range ids {
			dx, dy := e.enemies[i].X-s.X, e.enemies[i].Y-s.Y
			if float64(dx*dx)+float64(dy*dy) <= cut {
				d = math.Min(d, hypot(dx, dy))
			}
		}
		return true
	})
	return d
}

// seen reports whether any enemy has a line of sight to s (from the
// enemy's position to s, as Map.seenByAny), nearest rings first.
func (e *enemyRings) seen(m *Map, s Point) bool {
	seen := false
	e.rings(s, e.maxRing(), func(_ int, ids []int32) bool {
		for _, i := range ids {
			if p := e.enemies[i]; m.LineOfSight(p.X, p.Y, s.X, s.Y) {
				seen = true
				return false
			}
		}
		return true
	})
	return seen
}
