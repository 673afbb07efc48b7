package server

import (
	"math"
	"slices"

	"tickshot/game"
	"tickshot/shared"
)

// The lag-compensation candidate set (issue 23): a shot rewinds only the
// players it can possibly hit. A player is left out (rewoundHitboxes skips
// it: no rewind, no box) only when the server can prove that no rewind of
// it is within the reach of the shot, from facts that cost O(1) a player:
//
//   - its rewind would come from its tick record (lagRing.at: the client
//     holds no interpolation history of it, clientView), not from what
//     the client was sent, which may be old and is extrapolated;
//   - its record holds no irregular step (note: a respawn's teleport, a
//     jump, a burst of commands: more than stepLimit in a tick) since the
//     tick before the rewind's, so every record the rewind interpolates
//     between lies within stepLimit a tick of where it is now;
//   - and where it is now lies farther from the shooter than the longest
//     hitscan range, a body, and that walk back to the rewind's tick.
//
// Everyone else is rewound as before, in Players order, so the trace hits
// what it hit with every player rewound (TestLagCandidatesHoldEveryHittable).
// With sv_showimpacts (the nearest box to a miss, at any range) or on a
// Local server that judges shots (every box recorded) nobody is left out.
//
// The test is not asked of every player (O(players) a shot, O(players²) a
// second): the players it can pass are gathered first (candidates), from
// the world's grid of present positions (game.Near.Within, current
// between commands) round the shooter, the players of the client's newest
// snapshot, and the irregular records of the last irregularKeep ticks, so
// a shot costs O(the players near it), whatever the players on the map.

// stepLimit is the farthest a player's record moves in one tick without
// being irregular, world units: half as much again as a dash's speed.
func stepLimit(tickRate int) float64 { return 1.5 * shared.DashSpeed / float64(tickRate) }

// note marks rec irregular (r.irregular) when it is not one tick's walk of
// at most stepLimit from the newest record, or is the first, and reports
// whether it did; the caller records it next.
func (r *lagRing) note(rec lagRecord, tickRate int) bool {
	if r.n == 0 {
		r.irregular = rec.Tick
		return true
	}
	last := r.get(r.n - 1)
	if rec.Tick != last.Tick+1 || rec.teleport != last.teleport || math.Hypot(rec.X-last.X, rec.Y-last.Y) > stepLimit(tickRate) {
		r.irregular = rec.Tick
		return true
	}
	return false
}

// irregularNote is a player's record marked irregular at tick (note).
type irregularNote struct {
	id   uint16
	tick uint32
}

// irregularKeep is how many ticks the rewinder keeps its irregularNotes: a
// shot rewound deeper than that (sv_maxunlag above 1 s at 128 ticks/s)
// asks every player.
const irregularKeep = MaxUnlagTicks + 2

// candidates returns the indices in Players, ascending, each once, of
// every player rc.mayHit can pass for ss's shot: the players the grid
// holds in the corridor of the shot's rays (reach.corridor; without a
// shot, within rc.dist of either place it may come from), the players of
// the client's newest snapshot (whom it may hold), the players
// whose record turned irregular after rc.since, and the shooter. all is
// true (and the slice nil) when every player is to be asked: rc.all, a
// roster changed since the records (a player without one), or a rewind
// older than the notes kept.
func (r *rewinder) candidates(ss *session, rc *reach) (cands []int32, all bool) {
	w := r.w
	if rc.all || r.recorded != w.Generation() || rc.since+irregularKeep < w.Tick {
		return nil, true
	}
	var c []int32
	if rc.shot != nil {
		// The corridor of its rays: mayHit passes no one farther from
		// every ray than rc.slack, and the corridor's cells are far fewer
		// than the square's round the shooter (a rifle's: some 20 cells
		// against 190).
		r.rects = rc.corridor(r.rects[:0])
		c = w.Near.NearAny(r.rects, r.cand)
	} else {
		c = w.Near.Within(rc.x, rc.y, rc.dist, r.cand)
		if rc.x2 != rc.x || rc.y2 != rc.y {
			r.cand2 = w.Near.Within(rc.x2, rc.y2, rc.dist, r.cand2)
			c = append(c, r.cand2...)
		}
	}
	for _, e := range ss.view.newest(&ss.acks) {
		if i := w.PlayerIndex(e.ID); i >= 0 {
			c = append(c, int32(i))
		}
	}
	for k := len(r.irregular) - 1; k >= 0 && r.irregular[k].tick > rc.since; k-- {
		if i := w.PlayerIndex(r.irregular[k].id); i >= 0 {
			c = append(c, int32(i))
		}
	}
	if i := w.PlayerIndex(ss.player.ID); i >= 0 {
		c = append(c, int32(i))
	}
	slices.Sort(c)
	c = slices.Compact(c)
	r.cand = c
	return c, false
}

// maxHitscanRange is the longest range of a hitscan weapon, world units.
var maxHitscanRange = func() float64 {
	rng := 0.0
	for i := range shared.Weapons {
		if shared.Weapons[i].Kind == shared.Hitscan {
			rng = math.Max(rng, shared.Weapons[i].Range)
		}
	}
	return rng
}()

// reach is one shot's bound: from where it may be fired (the shooter now
// and, for a shot of sv_mutualkills after its death, before it died), how
// far a player can be now and still be rewound into its range.
type reach struct {
	all          bool // nobody is left out
	x, y, x2, y2 float64
	dist         float64
	since        uint32 // the record's steps after this tick must be regular
	// slack is how far a player's centre now may lie from a ray of the
	// shot and its rewind still touch that ray: a body, the walk back to
	// the rewind's tick and 2 units of rounding (dist less the range).
	slack float64
	// shot is the shot the boxes are for, its rays traced from its origin
	// (shared.Shot.Ray); nil: only the disk of dist round the shooter
	// bounds who may be hit.
	shot *shared.Shot
}

// shotReach is the reach of ss's shot rewound to tick t; shot, when not
// nil, narrows it to the players near the shot's rays.
func (r *rewinder) shotReach(ss *session, t float64, shot *shared.Shot) reach {
	p := ss.player
	rc := reach{all: r.judged != nil || r.vars.showImpacts.Get(), x: p.State.X, y: p.State.Y, x2: p.State.X, y2: p.State.Y, shot: shot}
	if p.State.Dead {
		rc.x2, rc.y2 = p.PreDeath.X, p.PreDeath.Y
	}
	back := math.Max(float64(r.w.Tick)-math.Floor(t)+1, 0) // ticks to the record before t
	rc.since = r.w.Tick - uint32(math.Min(back, float64(r.w.Tick)))
	// 2 units: the muzzle's rounding against the state's, and the sums'.
	rc.slack = shared.PlayerRadius + stepLimit(r.tickRate)*back + 2
	rc.dist = maxHitscanRange + rc.slack
	return rc
}

// mayHit reports whether o is to be rewound for the shot: the shooter,
// anyone the client holds a history of, anyone without a regular record
// since rc.since, and anyone within rc.dist; with rc.shot, of those
// within rc.dist only the ones within rc.slack of one of its rays (a ray
// is the segment of the weapon's range from the shot's origin: a box
// farther from every ray than its radius cannot be struck, and its
// rewind lies within the walk back of where it is now).
func (rc *reach) mayHit(r *rewinder, ss *session, o *game.Player) bool {
	if rc.all || o.ID == ss.player.ID || ss.view.holds(o.ID, &ss.acks) {
		return true
	}
	ring := r.lag[o.ID]
	if ring == nil || ring.n == 0 || ring.irregular > rc.since {
		return true
	}
	if math.Hypot(o.State.X-rc.x, o.State.Y-rc.y) > rc.dist && math.Hypot(o.State.X-rc.x2, o.State.Y-rc.y2) > rc.dist {
		return false
	}
	return rc.shot == nil || rc.nearRay(o.State.X, o.State.Y)
}

// corridor appends to dst the rectangles that cover every point within
// rc.slack of one of rc.shot's rays (nearRay's test): each ray, the
// segment of its weapon's range from the shot's origin, cut into pieces of
// at most game.GridCell, each piece's bounding box grown by rc.slack and a
// unit for rounding.
func (rc *reach) corridor(dst []game.Rect) []game.Rect {
	s := rc.shot
	rng := shared.Weapons[s.Weapon].Range
	pieces := max(int(math.Ceil(rng/game.GridCell)), 1)
	for i := range s.NumRays() {
		ry := s.Ray(i)
		for k := range pieces {
			u0, u1 := rng*float64(k)/float64(pieces), rng*float64(k+1)/float64(pieces)
			x0, y0 := s.X+u0*ry.DirX, s.Y+u0*ry.DirY
			x1, y1 := s.X+u1*ry.DirX, s.Y+u1*ry.DirY
			dst = append(dst, game.Rect{MinX: math.Min(x0, x1), MinY: math.Min(y0, y1),
				MaxX: math.Max(x0, x1), MaxY: math.Max(y0, y1)}.Grow(rc.slack+1))
		}
	}
	return dst
}

// nearRay reports whether (x, y) lies within rc.slack of one of rc.shot's
// rays, each the segment of its weapon's range from the shot's origin.
func (rc *reach) nearRay(x, y float64) bool {
	s := rc.shot
	rng := shared.Weapons[s.Weapon].Range
	for i := range s.NumRays() {
		ry := s.Ray(i)
		// The projection of (x, y) on the ray, clamped to the segment
		// (the directions are unit vectors).
		u := math.Min(math.Max((x-s.X)*ry.DirX+(y-s.Y)*ry.DirY, 0), rng)
		if math.Hypot(x-(s.X+u*ry.DirX), y-(s.Y+u*ry.DirY)) <= rc.slack {
			return true
		}
	}
	return false
}
