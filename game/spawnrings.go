package game

import (
	"math"
	"slices"

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
	close      []int32   // nearest's scratch: the enemies near its least
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
	ranks   []spawnRank
	cands   []int
	// batch holds, during one respawn pass (World.respawn: inPass), each
	// enemy set's nearest-enemy distance of every spawn (spawnScores).
	batch  []spawnScores
	inPass bool
	// noBatch: every choice measures afresh (tests compare the two).
	noBatch bool
}

// spawnRank is a spawn's place in a choice's order (chooseSpawn): the
// complement of its distance's bits (farthest first), then its index.
type spawnRank struct {
	key uint64
	i   int32
}

// spawnScores is, for one enemy set of a respawn pass, the distance from
// every spawn to its nearest enemy (enemyRings.nearest), for the choices
// after the first: nobody moves between two respawns of one pass, so the
// set changes only by the players the pass spawns, and each spawned one
// lowers a spawn's distance to it when it is nearer (add). The minimum of
// the same distances in another order is the same number, so a choice from
// these is the choice from the measures afresh, bit for bit. On expanse
// (316 spawns) that is one walk of the rings a spawn per pass and enemy
// set, not one a respawn.
type spawnScores struct {
	key   int // enemyKey of the set
	score []float64
}

// enemyKey names the enemy set of a dead player of team t: -1 every live
// player (deathmatch, or a player on no playing team), else t's number
// (every live player not on team t).
func enemyKey(teamPlay bool, t Team) int {
	if !teamPlay || !t.Playing() {
		return -1
	}
	return int(t)
}

// beginBatch starts a respawn pass: the choices until endBatch share their
// sets' distances.
func (sc *spawnChoice) beginBatch() {
	sc.batch, sc.inPass = sc.batch[:0], !sc.noBatch
}

// endBatch ends a respawn pass: its distances are stale once players move.
func (sc *spawnChoice) endBatch() {
	sc.batch, sc.inPass = sc.batch[:0], false
}

// scores is the batch's distances of enemy set key, nil when the pass has
// none yet (or there is no pass).
func (sc *spawnChoice) scores(key int) []float64 {
	if !sc.inPass {
		return nil
	}
	for i := range sc.batch {
		if sc.batch[i].key == key {
			return sc.batch[i].score
		}
	}
	return nil
}

// keep stores score as the distances of enemy set key for the rest of the
// pass (copied); nothing outside a pass.
func (sc *spawnChoice) keep(key int, score []float64) {
	if !sc.inPass {
		return
	}
	n := len(sc.batch)
	sc.batch = slices.Grow(sc.batch, 1)[:n+1] // the storage of a slot used before kept
	sc.batch[n].key = key
	sc.batch[n].score = append(sc.batch[n].score[:0], score...)
}

// add counts a player the pass just spawned at p, of team t, in every
// set it is an enemy of: a spawn nearer to it than to that set's nearest
// enemy takes its distance.
func (sc *spawnChoice) add(m *Map, teamPlay bool, t Team, p Point) {
	if !sc.inPass {
		return
	}
	for i := range sc.batch {
		b := &sc.batch[i]
		if b.key >= 0 && enemyKey(teamPlay, t) == b.key {
			continue // a teammate of that set
		}
		for j, s := range m.Spawns {
			b.score[j] = math.Min(b.score[j], hypot(p.X-s.X, p.Y-s.Y))
		}
	}
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
// least (farther than any rounding of either computation) decides. Those
// are kept as the walk goes (every enemy within a part in 10⁹ of the least
// so far: the least only falls), so the rings are walked once.
func (e *enemyRings) nearest(s Point) float64 {
	if len(e.enemies) == 0 {
		return 1e9
	}
	least := math.Inf(1)
	nearby := e.close[:0]
	e.rings(s, e.maxRing(), func(r int, ids []int32) bool {
		if !math.IsInf(least, 1) && float64(r-1)*enemyRingCell > math.Sqrt(least)+1 {
			return false
		}
		for _, i := range ids {
			dx, dy := e.enemies[i].X-s.X, e.enemies[i].Y-s.Y
			d2 := float64(dx*dx) + float64(dy*dy)
			if d2 < least { // as math.Min: a sum of squares is never -0, and positions are finite
				least = d2
			}
			if d2 <= least*(1+1e-9) {
				nearby = append(nearby, i)
			}
		}
		return true
	})
	e.close = nearby
	cut := least * (1 + 1e-9)
	d := math.Inf(1)
	for _, i := range nearby {
		dx, dy := e.enemies[i].X-s.X, e.enemies[i].Y-s.Y
		if float64(dx*dx)+float64(dy*dy) <= cut {
			d = math.Min(d, hypot(dx, dy))
		}
	}
	return d
}

// seen reports whether any enemy sees s (Map.Sees, as Map.seenByAny),
// nearest rings first, up to sightRing: an enemy farther off cannot have
// s in its view.
func (e *enemyRings) seen(m *Map, s Point) bool {
	seen := false
	e.rings(s, min(sightRing, e.maxRing()), func(_ int, ids []int32) bool {
		for _, i := range ids {
			if m.Sees(e.enemies[i], s) {
				seen = true
				return false
			}
		}
		return true
	})
	return seen
}

// sightRing is the farthest ring of cells that may hold an enemy that
// sees a point: a view (ViewRect) reaches at most its width (or height)
// and the margin from its player, when the camera stops at the map's
// edge, so the enemy's cell lies at most that over enemyRingCell cells,
// rounded up, from the point's (⌊a⌋ - ⌊b⌋ ≤ ⌈a - b⌉); cameraSlack is
// added to be safe. An enemy past the map's edge is clamped into an edge
// cell (cell), which only brings it nearer.
var sightRing = int(math.Ceil(float64(max(ViewWidth, ViewHeight)+ViewMargin+cameraSlack) / enemyRingCell))
