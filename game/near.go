package game

// Near is the world's grid of its players by position (a Grid, item i =
// Players[i]), and the spatial queries of the tick that read it (the table
// in docs/ARCHITECTURE.md, "Spatial queries"): a bot's sight and target
// (Squad.think, botQuery), a rocket's flight and splash (Flight.step,
// blast), a bot's hitscan shot (presentHitboxes) and the players a
// lag-compensated shot may hit (Within, for the server's rewinder). The
// World owns one (World.Near) and hands it itself at NewWorld.
//
// The grid is rebuilt (index) where players stand still until the queries
// are done, and kept where every player is as they move: each command
// (World.RunCommand) puts its player again (moved) while the grid is
// current, that is, built at this tick (World.Tick) for this roster
// (Roster.gen: a join, a leave or a move to the spectators renumbers the
// items) and not made stale since (a spawn: stale).
type Near struct {
	w     *World
	grid  Grid
	buf   []int32  // in's result
	boxes []Hitbox // presentHitboxes' result
	one   [1]Rect  // Within's one rectangle, for NearAny
	// bruteForce makes in answer every player, the loop the grid replaced:
	// tests run a world with it beside one without.
	bruteForce bool
	// live: the grid holds every player where it is (while the bots think).
	live bool
	// current: the grid holds every player where it is, at tick for the
	// roster of generation gen (Within, moved).
	current bool
	tick    uint32
	gen     uint64
}

// index rebuilds the grid from the players' positions now: item i is
// Players[i]. The tick's spatial queries read it (bots' sight, a rocket's
// flight and splash); whoever moves a player between a rebuild and a query
// puts it again (Squad.think; World.RunCommand through moved).
func (n *Near) index() {
	w := n.w
	n.grid.Reset(w.Map.Width, w.Map.Height, len(w.Players))
	for i, p := range w.Players {
		n.grid.Put(i, p.State.X, p.State.Y)
	}
	n.current, n.tick, n.gen = true, w.Tick, w.gen
}

// put puts Players[i] again at (x, y), where it moved.
func (n *Near) put(i int, x, y float64) { n.grid.Put(i, x, y) }

// moved puts p again where it is now, when the grid is current (a command
// moved it); else nothing: the next Within rebuilds.
func (n *Near) moved(p *Player) {
	if !n.isCurrent() {
		return
	}
	if i := n.w.PlayerIndex(p.ID); i >= 0 {
		n.grid.Put(i, p.State.X, p.State.Y)
	}
}

// stale says a player moved without a put (a spawn): the next Within
// rebuilds.
func (n *Near) stale() { n.current = false }

// isCurrent reports whether the grid holds every player where it is.
func (n *Near) isCurrent() bool {
	return n.current && n.tick == n.w.Tick && n.gen == n.w.gen && n.grid.Len() == len(n.w.Players)
}

// in is the indices in Players, ascending, of the players the grid holds
// in or near r (Grid.Query); the slice is reused by the next call.
func (n *Near) in(r Rect) []int32 {
	if n.bruteForce {
		n.buf = n.everyone(n.buf)
		return n.buf
	}
	n.buf = n.grid.Query(r, n.buf)
	return n.buf
}

// everyone appends to dst[:0] every index in Players (Near.bruteForce's
// answer to any question) and returns it.
func (n *Near) everyone(dst []int32) []int32 {
	dst = dst[:0]
	for i := range n.w.Players {
		dst = append(dst, int32(i))
	}
	return dst
}

// covers reports whether in(r) answers every player.
func (n *Near) covers(r Rect) bool { return n.bruteForce || n.grid.Covers(r) }

// NearAny is Within for the union of rs: the indices in Players,
// ascending, each once, of every player standing in any of the rectangles
// now, and others near (Grid.QueryRects). Lag compensation asks it for
// the corridor of a shot's rays (server/lagreach.go).
func (n *Near) NearAny(rs []Rect, dst []int32) []int32 {
	if !n.isCurrent() {
		n.index()
	}
	if n.bruteForce {
		return n.everyone(dst)
	}
	return n.grid.QueryRects(rs, dst)
}

// Within appends to dst[:0] the indices in Players, ascending, of the
// players that may stand within d world units of (x, y) now, and returns
// it: every one that does, and others near (Around, Grid.Query). It
// rebuilds the grid first unless it is current, so a caller may ask it at
// any time: between two commands of a tick it costs O(cells touched + k +
// players/64) for k answers, once a tick O(players) more. Lag compensation
// takes its candidates from it (server/lagreach.go).
func (n *Near) Within(x, y, d float64, dst []int32) []int32 {
	return n.NearAny(append(n.one[:0], Around(x, y, d)), dst)
}

// presentHitboxes returns the present hitboxes a shot from (x, y) can
// strike within reach (its range plus a body: a circle the ray enters
// within range has its centre that near): while the grid is live (the
// bots' shots, Squad.think) only those of the players it holds near, in
// Players order; otherwise every player's (World.PresentHitboxes).
// TraceShot finds the same hitbox in either, so a bot's shot no longer
// tests every player. The slice is reused by the next call.
func (n *Near) presentHitboxes(x, y, reach float64) []Hitbox {
	if !n.live {
		return n.w.PresentHitboxes()
	}
	boxes := n.boxes[:0]
	for _, i := range n.in(Around(x, y, reach)) {
		boxes = append(boxes, n.w.Players[i].Hitbox())
	}
	n.boxes = boxes
	return boxes
}
