package server

import (
	"cmp"
	"slices"

	"tickshot/net/proto"
)

// Scoreboard deltas (issue 23). Every client keeps the whole scoreboard
// table; a snapshot's Scores carries only the rows that differ from the
// table the client acknowledged, as its entities are a delta against an
// acknowledged frame (Quake 3 writes entities so; docs/PROTOCOL.md §5.8).
// The full table at 1 024 players is about 10 kB (18 kB with the names):
// sent every second or two to every client, it alone broke the budget of
// 8 kB/s a client. A delta carries at most scoreBytesPerUpdate bytes of
// rows, most wanted first (the client's own row, rows of players who left, the players
// in its view and in its events, the leaders, then the others in a round
// by ID), so a scoreboard costs a client at most a fixed number of bytes a
// second whatever the number of players, and the table catches up over a
// few seconds when more rows changed than that: a 1 024-row table reaches
// a new client within about 22 s (some 45 rows with names a second), its
// own row, the players in its view and the top of the board in its first
// scoreboard.

const (
	// scoreBytesPerUpdate is the most bytes of rows a scoreboard delta
	// carries (rowBytes): about 20 rows with names, 45 without.
	scoreBytesPerUpdate = 512
	// scoreRowsPerUpdate is the most rows a scoreboard delta carries
	// (the wire's limit).
	scoreRowsPerUpdate = proto.MaxScoreRows
	// scoreLeaders is how many of the top rows come before the others.
	scoreLeaders = 8
	// scorePingSlack: a row whose only change is its ping is sent when the
	// ping moved by more than this many ms or a quarter of what the client
	// holds, whichever is more; smaller moves wait for another change.
	scorePingSlack = 10
)

// scoreBoard is the server's scoreboard as the deltas are written from it:
// the rows sorted by ID (names filled in), their IDs beside them, and each
// row's version. A row keeps its version (and the row itself, its ping
// included) from one board to the next (set) while it does not differ from
// it (differs: a ping moves by more than the slack, or any other field
// changes), and takes a new one, never given before, when it does: a
// client holding a row of the board's version holds that row exactly,
// which a comparison of two integers tells (scoreView.delta) without
// reading either row. So a ping on the board is within the slack of the
// session's, and a client's within the slack of the board's. The board is
// set at most once a tick, for all the clients: O(rows), where comparing
// every client's held table with the server's row by row was O(rows) a
// client a scoreboard, most of the scoreboard's cost at 1 024 players.
type scoreBoard struct {
	rows []proto.ScoreEntry
	ids  []uint16 // rows' IDs
	vers []uint32 // rows' versions
	// prev* are the board before the last set, their storage reused.
	prevRows []proto.ScoreEntry
	prevVers []uint32
	next     uint32 // the last version given
	// departed are the IDs that were on the board and are not now,
	// ascending: a row a client holds that the board lacks is one of them
	// (a client learns only rows that were on the board), so while they
	// are few beside the rows a client holds the leavers are looked up
	// among them (leavers), not found by a walk of every row. An ID back on
	// the board leaves the list; IDs are given in sequence (game.Roster),
	// so on a server with many joins and leaves the list grows, up to
	// every ID once (128 kB), and the walk takes over.
	departed []uint16
	// byVer are the indices of rows by version, ascending: the rows that
	// changed after a version are a suffix of it (changedSince). A row
	// that keeps its version keeps its place; the rows given new versions
	// follow all others, by ID, as their versions were given.
	byVer, prevByVer []int32
	remap            []int32 // set's: a previous row's index now, -1 if it took a new version
	cands            []int32 // scratch: set's rows given new versions, then changedSince's answer
	// wraps counts the times next wrapped past 2³²: versions of different
	// wraps do not compare (a view's synced is of one wrap).
	wraps uint32
}

// set makes table (sorted by ID, names filled in; copied, not kept) the
// board: a row that does not differ from the previous board's row of its
// ID keeps that row and its version, any other takes a new version.
func (b *scoreBoard) set(table []proto.ScoreEntry) {
	b.prevRows, b.rows = b.rows, b.prevRows
	b.prevVers, b.vers = b.vers, b.prevVers
	b.prevByVer, b.byVer = b.byVer, b.prevByVer
	b.rows = append(b.rows[:0], table...)
	b.ids, b.vers = b.ids[:0], b.vers[:0]
	b.remap = slices.Grow(b.remap[:0], len(b.prevRows))[:len(b.prevRows)]
	for k := range b.remap {
		b.remap[k] = -1
	}
	b.cands = b.cands[:0] // the rows given new versions, by ID
	j := 0
	for i := range b.rows {
		r := &b.rows[i]
		for j < len(b.prevRows) && b.prevRows[j].ID < r.ID {
			b.depart(b.prevRows[j].ID)
			j++
		}
		switch {
		case j < len(b.prevRows) && b.prevRows[j].ID == r.ID:
			if !differs(r, &b.prevRows[j]) {
				*r = b.prevRows[j]
				b.vers = append(b.vers, b.prevVers[j])
				b.remap[j] = int32(i)
			} else {
				b.vers = append(b.vers, b.newVersion())
				b.cands = append(b.cands, int32(i))
			}
			j++
		default: // new on the board
			if k, found := slices.BinarySearch(b.departed, r.ID); found {
				b.departed = slices.Delete(b.departed, k, k+1)
			}
			b.vers = append(b.vers, b.newVersion())
			b.cands = append(b.cands, int32(i))
		}
		b.ids = append(b.ids, r.ID)
	}
	for ; j < len(b.prevRows); j++ {
		b.depart(b.prevRows[j].ID)
	}
	b.byVer = b.byVer[:0]
	for _, k := range b.prevByVer {
		if at := b.remap[k]; at >= 0 {
			b.byVer = append(b.byVer, at)
		}
	}
	b.byVer = append(b.byVer, b.cands...)
}

// changedSince returns the indices of the rows whose version is above
// ver, ascending (by ID), in b's scratch (valid until the next call); ok
// is false, and nothing returned, when they are more than a quarter of
// the rows (a walk of every row costs about as much then). Across a wrap
// of the versions (wraps) it returns more: every row given a version
// after ver, and maybe some older, which are then no candidates.
func (b *scoreBoard) changedSince(ver uint32) (rows []int32, ok bool) {
	k, _ := slices.BinarySearchFunc(b.byVer, ver, func(i int32, ver uint32) int {
		if b.vers[i] <= ver {
			return -1
		}
		return 1
	})
	if len(b.byVer)-k > len(b.byVer)/4 {
		return nil, false
	}
	b.cands = append(b.cands[:0], b.byVer[k:]...)
	slices.Sort(b.cands)
	return b.cands, true
}

// newVersion is a version never given before (until 2³² of them wrap),
// never 0: a gone row's (learn drops the rows of version 0).
func (b *scoreBoard) newVersion() uint32 {
	if b.next++; b.next == 0 {
		b.next = 1
		b.wraps++
	}
	return b.next
}

// depart adds id, gone from the board, to b.departed.
func (b *scoreBoard) depart(id uint16) {
	if k, found := slices.BinarySearch(b.departed, id); !found {
		b.departed = slices.Insert(b.departed, k, id)
	}
}

// leavers calls take with the ID of each row v holds that board b lacks,
// ascending, until take returns false: looked up among the IDs gone from
// the board (b.departed) while they are fewer than an eighth of the rows
// v holds, else by one walk of both tables' IDs. Both find the same IDs
// in the same order.
func (v *scoreView) leavers(b *scoreBoard, take func(id uint16) bool) {
	if len(b.departed) <= len(v.ids)/8 {
		for _, id := range b.departed {
			if _, held := findID(v.ids, id); held && !take(id) {
				return
			}
		}
		return
	}
	for i, j := 0, 0; j < len(v.ids); {
		switch {
		case i < len(b.ids) && b.ids[i] < v.ids[j]:
			i++
		case i < len(b.ids) && b.ids[i] == v.ids[j]:
			i++
			j++
		default:
			if !take(v.ids[j]) {
				return
			}
			j++
		}
	}
}

// findID is slices.BinarySearch(ids, id) for IDs ascending without
// repeats, trying first where IDs without gaps from ids[0] would hold it:
// id is at most id-ids[0] places in, and there when the IDs below it have
// no gap, as the IDs of players who joined one after another are (IDs are
// given in sequence; leaves make gaps, and a guess that misses costs one
// read more than the search). A client's table is cold at 1 024 clients:
// the guess is one read where a binary search missed the cache at each
// step.
func findID(ids []uint16, id uint16) (int, bool) {
	n := len(ids)
	if n == 0 || id < ids[0] {
		return 0, false
	}
	g := min(int(id-ids[0]), n-1)
	switch {
	case ids[g] == id:
		return g, true
	case ids[g] < id: // g is the last: every ID is below id
		return n, false
	}
	return slices.BinarySearch(ids[:g], id)
}

// scoreRow is a row of a scoreboard delta as the client will hold it once
// the delta reaches it: the row (name filled in) and its version
// (scoreBoard); a gone row has version 0.
type scoreRow struct {
	proto.ScoreEntry
	ver uint32
}

// scoreView is the scoreboard as one client holds it: the rows (names
// filled in) of the scoreboard deltas that reached it, by the snapshots it
// acknowledged (ackState.reached), sorted by ID, with their IDs and
// versions beside them (a delta reads a row only where the versions
// differ); where the round of the rows that are not otherwise wanted
// resumes; and the deltas in flight.
type scoreView struct {
	rows []proto.ScoreEntry
	ids  []uint16 // rows' IDs
	vers []uint32 // rows' versions (scoreBoard)
	// cursor is the ID of the last row the round sent: it resumes after it.
	cursor uint16
	// pending: the last delta left changed rows out (the next comes sooner).
	pending bool
	taken   []uint16 // reused by delta: the IDs of the rows it took
	// flight are the deltas sent and not yet known to have arrived.
	flight scoreFlight
	// synced is the board version (of wrap syncWraps) the table is in
	// step with, 0 when none: every row on the board then, the client
	// holds at its version or one that does not differ from it (differs).
	// A row that has not changed since is no candidate, so a delta looks
	// for its round only among the rows changed after (changedSince), not
	// by a walk of every row: a calm client's scoreboard was O(rows).
	// It is the version of the last delta that arrived that took every
	// candidate (not pending) and was written with no other in flight: a
	// delta written before it that arrived after it was written could
	// have put back a row it did not resend (a row changed and changed
	// back).
	synced, syncWraps uint32
	// built is the sync version of the delta delta wrote last (0: none,
	// it cannot sync), of wrap builtWraps; sent keeps it with the delta.
	built, builtWraps uint32
}

// scoreFlightMax is the most scoreboard deltas a client has in flight
// (sent, not yet acknowledged) that the server keeps to learn: they go
// out at most twice a second, and the 128 snapshots of the sent ring span
// at most 12.8 s (at the lowest cl_updaterate, proto.MinUpdateRate 10), so
// at most 26 can still arrive; one dropped here would only be resent, as a
// lost one is. Only the slots of as many as are in flight at once grow.
const scoreFlightMax = 32

// scoreFlight is the scoreboard deltas sent to a client in flight, oldest
// first, by the Seq of the snapshot that carried each: the rows it learns
// when that snapshot reaches it (scoreView.arrived). They were kept in
// each snapshot's slot of the sent ring, 128 slots each holding the
// storage of the largest delta it ever carried (up to 2 kB): at 1 024
// players that storage grew to some 256 MB over a match; here a session
// keeps the few that are in flight.
type scoreFlight struct {
	// q are the deltas in flight; q[len(q):cap(q)] hold the storage of
	// those gone, for the next ones.
	q []sentScores
}

// sentScores is one scoreboard delta in flight.
type sentScores struct {
	seq  uint32
	rows []scoreRow
	// sync, of wrap wraps: the table is in step with this board version
	// once the delta arrives (scoreView.synced); 0 none.
	sync, wraps uint32
}

// push adds the delta of rows (copied) carried by snapshot seq, dropping
// the oldest when scoreFlightMax are in flight.
func (f *scoreFlight) push(seq uint32, rows []scoreRow, sync, wraps uint32) {
	if len(f.q) == scoreFlightMax {
		f.pop()
	}
	n := len(f.q)
	f.q = slices.Grow(f.q, 1)[:n+1] // the storage of a delta gone kept
	f.q[n].seq, f.q[n].sync, f.q[n].wraps = seq, sync, wraps
	f.q[n].rows = append(f.q[n].rows[:0], rows...)
}

// pop drops the oldest delta, its storage kept past the end for reuse.
func (f *scoreFlight) pop() {
	first := f.q[0]
	copy(f.q, f.q[1:])
	f.q[len(f.q)-1] = first
	f.q = f.q[:len(f.q)-1]
}

// sent records the delta of rows (full rows, with their versions) that
// snapshot seq carries: the one delta wrote last.
func (v *scoreView) sent(seq uint32, rows []scoreRow) {
	v.flight.push(seq, rows, v.built, v.builtWraps)
	v.built = 0
}

// arrived learns the delta snapshot seq carried, if any, once it reached
// the client; deltas of older snapshots still in flight were lost (the
// acks are applied oldest first: ackState.reached) and are dropped.
func (v *scoreView) arrived(seq uint32) {
	f := &v.flight
	for len(f.q) > 0 && f.q[0].seq < seq {
		f.pop()
	}
	if len(f.q) > 0 && f.q[0].seq == seq {
		v.learn(f.q[0].rows)
		if f.q[0].sync != 0 {
			v.synced, v.syncWraps = f.q[0].sync, f.q[0].wraps
		}
		f.pop()
	}
}

// scoreChange is one row of a delta before it is chosen: the server's
// row (at of the table) or, when gone, the ID of a row to remove.
type scoreChange struct {
	at   int // index in the server's table; -1: gone
	id   uint16
	name bool // the client does not hold this name
}

// byID compares a row with an ID.
func byID(r proto.ScoreEntry, id uint16) int { return cmp.Compare(r.ID, id) }

// learn takes the rows of a scoreboard delta that reached the client
// (full rows, names filled in, with their versions; each ID once), oldest
// delta first. A row held is changed in place; the rows gone leave in
// one pass and the new ones come in by one merge from the end, where an
// insertion a row moved the table's tail each time (a client learning a
// 1 024-row table moved some 40 kB a row).
func (v *scoreView) learn(rows []scoreRow) {
	for len(rows) > 0 {
		n := min(len(rows), scoreRowsPerUpdate)
		v.learnSome(rows[:n])
		rows = rows[n:]
	}
}

// learnSome is learn of at most scoreRowsPerUpdate rows.
func (v *scoreView) learnSome(rows []scoreRow) {
	var adds [scoreRowsPerUpdate]scoreRow
	n, gone := 0, false
	for _, r := range rows {
		i, found := findID(v.ids, r.ID)
		switch {
		case r.Team == proto.ScoreGone:
			if found {
				v.vers[i], gone = 0, true // no row has version 0: it goes below
			}
		case found:
			v.rows[i], v.vers[i] = r.ScoreEntry, r.ver
		default:
			adds[n] = r
			n++
		}
	}
	if gone {
		k := 0
		for i, ver := range v.vers {
			if ver != 0 {
				v.rows[k], v.ids[k], v.vers[k] = v.rows[i], v.ids[i], ver
				k++
			}
		}
		clear(v.rows[k:]) // the names gone
		v.rows, v.ids, v.vers = v.rows[:k], v.ids[:k], v.vers[:k]
	}
	if n == 0 {
		return
	}
	add := adds[:n]
	slices.SortFunc(add, func(a, b scoreRow) int { return cmp.Compare(a.ID, b.ID) })
	old := len(v.ids)
	v.rows = slices.Grow(v.rows, n)[:old+n]
	v.ids = slices.Grow(v.ids, n)[:old+n]
	v.vers = slices.Grow(v.vers, n)[:old+n]
	i, k := old-1, n-1
	for w := old + n - 1; k >= 0; w-- {
		if i >= 0 && v.ids[i] > add[k].ID {
			v.rows[w], v.ids[w], v.vers[w] = v.rows[i], v.ids[i], v.vers[i]
			i--
		} else {
			v.rows[w], v.ids[w], v.vers[w] = add[k].ScoreEntry, add[k].ID, add[k].ver
			k--
		}
	}
}

// differs reports whether the client must be sent row cur, holding held:
// any field but the ping changed, or the ping moved by more than
// scorePingSlack ms and a quarter of held's.
func differs(cur, held *proto.ScoreEntry) bool {
	if cur.Name != held.Name || cur.Kills != held.Kills || cur.Deaths != held.Deaths ||
		cur.Bot != held.Bot || cur.Team != held.Team || cur.Color != held.Color {
		return true
	}
	d := int(cur.PingMs) - int(held.PingMs)
	return max(d, -d) > max(scorePingSlack, int(held.PingMs)/4)
}

// delta appends to full the rows the client is to be sent from board b
// (the server's scoreboard), with their versions, and to wire the same
// rows as they go on the wire (Name "" where the client holds the name; a
// gone row has only its ID and Team proto.ScoreGone): at most
// scoreBytesPerUpdate bytes of rows and scoreRowsPerUpdate rows, chosen in
// this order: the client's own row (self), rows of players who left, rows
// wanted (wanted: IDs ascending, each once, of the players in the client's
// view or named by its events: snapNames.ids), the leaders' rows (leaders:
// IDs of the top rows), then the others in a round by ID from after the
// last one sent. Only rows that differ from what the client holds are
// candidates (change). It sets pending when a candidate is left out.
//
// The candidates are found as they are wanted, not all first: a row by
// its ID (findID in both tables), the leavers among the IDs gone from the
// board or by one walk of the IDs (leavers), the
// round by a walk of the two tables' IDs from the cursor that takes rows
// until the delta is full, then goes on only to find whether a candidate
// is left (pending). A client learning the table (every row a candidate,
// some 22 s at 1 024 players) or in a match where many rows change takes
// its 45 rows from about as many; a calm one in step with the board
// (synced) looks only at the rows changed since (roundChanged), else it
// walks the IDs and versions once. Listing every candidate first, as it
// once did, cost O(rows) a client a scoreboard in appends
// (TestScoreDeltaMatchesReference holds the two to the same rows).
func (v *scoreView) delta(full []scoreRow, wire []proto.ScoreEntry, b *scoreBoard, self uint16, wanted, leaders []uint16) ([]scoreRow, []proto.ScoreEntry) {
	n, size := 0, 0
	v.taken = v.taken[:0]
	take := func(c scoreChange) {
		if v.full(n, size) || slices.Contains(v.taken, c.id) {
			return
		}
		row := scoreRow{ScoreEntry: proto.ScoreEntry{ID: c.id, Team: proto.ScoreGone}}
		if c.at >= 0 {
			row = scoreRow{b.rows[c.at], b.vers[c.at]}
		}
		wired := row.ScoreEntry
		if !c.name {
			wired.Name = ""
		}
		rb := rowBytes(&wired)
		if n > 0 && size+rb > scoreBytesPerUpdate {
			size = scoreBytesPerUpdate // full: nothing more this time
			return
		}
		size += rb
		v.taken = append(v.taken, c.id)
		n++
		full, wire = append(full, row), append(wire, wired)
	}
	byID := func(id uint16) {
		i, onBoard := findID(b.ids, id)
		j, held := findID(v.ids, id)
		if c, ok := v.change(b, i, j, onBoard, held); ok {
			take(c)
		}
	}
	byID(self)
	v.leavers(b, func(id uint16) bool {
		take(scoreChange{at: -1, id: id})
		return !v.full(n, size)
	})
	for _, id := range wanted {
		byID(id)
	}
	for _, id := range leaders {
		byID(id)
	}
	// The round: the rows after the cursor, then from the first, once
	// round; once the delta is full, on only until a candidate is left.
	from := uint32(v.cursor) + 1
	if from > 0xffff {
		from = 0
	}
	v.pending = false
	if v.synced != 0 && v.syncWraps == b.wraps {
		if changed, ok := b.changedSince(v.synced); ok {
			v.roundChanged(b, changed, uint16(from), func() bool { return v.full(n, size) }, take)
			v.settle(b)
			return full, wire
		}
	}
	i0, _ := findID(b.ids, uint16(from))
	j0, _ := findID(v.ids, uint16(from))
	i, j := i0, j0
	wrapped := false
	for {
		if i == len(b.ids) && j == len(v.ids) { // past the last ID: from the first
			if wrapped {
				break
			}
			i, j, wrapped = 0, 0, true
		}
		if wrapped && i >= i0 && j >= j0 {
			break // back where it started
		}
		onBoard := i < len(b.ids) && (j == len(v.ids) || b.ids[i] <= v.ids[j])
		held := j < len(v.ids) && (i == len(b.ids) || v.ids[j] <= b.ids[i])
		c, ok := v.change(b, i, j, onBoard, held)
		if onBoard {
			i++
		}
		if held {
			j++
		}
		if !ok || slices.Contains(v.taken, c.id) {
			continue
		}
		if v.full(n, size) {
			v.pending = true
			break
		}
		if take(c); slices.Contains(v.taken, c.id) {
			v.cursor = c.id
		} else {
			v.pending = true
			break
		}
	}
	v.settle(b)
	return full, wire
}

// roundChanged is delta's round for a table in step with the board at
// v.synced: the candidates are among the rows changed after it (changed:
// board indices, ascending) and the leavers, which delta took before it
// unless the delta filled first. From the first ID at or after from, once
// round, as the walk of every row goes; full and take are delta's.
func (v *scoreView) roundChanged(b *scoreBoard, changed []int32, from uint16, full func() bool, take func(scoreChange)) {
	if full() {
		// Full already: pending if any candidate is left, a leaver first.
		v.leavers(b, func(id uint16) bool {
			v.pending = v.pending || !slices.Contains(v.taken, id)
			return !v.pending
		})
		if v.pending {
			return
		}
	}
	k0, _ := slices.BinarySearchFunc(changed, from, func(i int32, id uint16) int { return cmp.Compare(b.ids[i], id) })
	for m := range changed {
		i := int(changed[(k0+m)%len(changed)])
		j, held := findID(v.ids, b.ids[i])
		c, ok := v.change(b, i, j, true, held)
		if !ok || slices.Contains(v.taken, c.id) {
			continue
		}
		if full() {
			v.pending = true
			return
		}
		if take(c); !slices.Contains(v.taken, c.id) {
			v.pending = true // it did not fit
			return
		}
		v.cursor = c.id
	}
}

// settle notes whether the delta just written can put the table in step
// with the board (v.built, kept with the delta by sent): when it left no
// candidate out and no other delta is in flight.
func (v *scoreView) settle(b *scoreBoard) {
	v.built, v.builtWraps = 0, 0
	if !v.pending && len(v.flight.q) == 0 {
		v.built, v.builtWraps = b.next, b.wraps
	}
}

// change reports whether the row of one ID is a candidate for a delta
// from board b, and which: i its index in b (onBoard: b has the ID), j in
// the view's rows (held: the client holds it). A row on the board the
// client lacks, a row it holds that left the board (at -1), and a row of
// another version than the client's that differs from it are candidates.
func (v *scoreView) change(b *scoreBoard, i, j int, onBoard, held bool) (scoreChange, bool) {
	switch {
	case onBoard && !held:
		return scoreChange{at: i, id: b.ids[i], name: true}, true
	case held && !onBoard:
		return scoreChange{at: -1, id: v.ids[j]}, true
	case onBoard && held && b.vers[i] != v.vers[j] && differs(&b.rows[i], &v.rows[j]):
		return scoreChange{at: i, id: b.ids[i], name: b.rows[i].Name != v.rows[j].Name}, true
	}
	return scoreChange{}, false
}

// full reports whether a delta of n rows of size bytes takes no more.
func (v *scoreView) full(n, size int) bool {
	return n == scoreRowsPerUpdate || size >= scoreBytesPerUpdate
}

// rowBytes is the size of r's msgpack encoding (an array of 8): its
// integers in their compact forms, its name with its length.
func rowBytes(r *proto.ScoreEntry) int {
	uintBytes := func(v uint64) int {
		switch {
		case v < 128:
			return 1
		case v < 256:
			return 2
		case v < 65536:
			return 3
		}
		return 5
	}
	intBytes := func(v int16) int {
		if v >= -32 && v < 128 {
			return 1
		}
		if v >= 0 {
			return uintBytes(uint64(v))
		}
		if v >= -128 {
			return 2
		}
		return 3
	}
	name := len(r.Name) + 1
	if len(r.Name) > 31 {
		name++
	}
	return 1 + uintBytes(uint64(r.ID)) + name + intBytes(r.Kills) + intBytes(r.Deaths) + uintBytes(uint64(r.PingMs)) +
		1 + uintBytes(uint64(r.Team)) + uintBytes(uint64(r.Color))
}

// leadersOf appends to ids the IDs of the top n rows of table: most kills,
// then fewest deaths, then lowest ID (the scoreboard screen's order among
// players; spectators are not leaders).
func leadersOf(ids []uint16, table []proto.ScoreEntry, n int) []uint16 {
	ids = ids[:0]
	better := func(a, b *proto.ScoreEntry) bool {
		if a.Kills != b.Kills {
			return a.Kills > b.Kills
		}
		if a.Deaths != b.Deaths {
			return a.Deaths < b.Deaths
		}
		return a.ID < b.ID
	}
	var top [scoreLeaders]*proto.ScoreEntry
	k := 0
	for i := range table {
		r := &table[i]
		if r.Team == proto.TeamSpectator {
			continue
		}
		// Insertion into the kept top n.
		if k < n {
			k++
		} else if !better(r, top[k-1]) {
			continue
		}
		at := k - 1
		for at > 0 && better(r, top[at-1]) {
			top[at] = top[at-1]
			at--
		}
		top[at] = r
	}
	for _, r := range top[:k] {
		ids = append(ids, r.ID)
	}
	return ids
}

// scoreSlot is the number of the half-second slot (tickRate/2 ticks) that
// tick t falls in for the client of player id. A client's scoreboards
// after its first go only in its first snapshot of a slot, and client id's
// slots begin id mod tickRate/2 ticks before the multiples of tickRate/2.
// A kill marks the scoreboard changed for every client on the same tick,
// and clients who joined together (a server's start, a map change, a load
// test's) wait their intervals in step: without the slots their
// scoreboards went on the same few ticks, and those ticks cost twice the
// others (BenchmarkServerTick at 1 024 players: the tick's p99 about
// 10 ms, under 7 ms with the slots; docs/MEASUREMENTS.md). The schedule
// is scoreDue's.
func scoreSlot(t uint32, id uint16, tickRate int) uint32 {
	p := max(uint32(tickRate)/2, 1)
	return (t + uint32(id)%p) / p
}

// scoreDue reports whether the snapshot at tick to the client of player id
// carries a scoreboard: its first (lastScor 0: none sent yet), then only
// the client's first snapshot of a slot (lastSnap: the tick of its
// snapshot before), two slots after the last scoreboard (lastScor) when
// the board changed since (changed), one while the last left changed rows
// out (pending), four in any case; and never within half a slot of the
// last (the first may go late in its slot, and the next slot's first
// snapshot can be a few ticks on). The intervals are counted in slots,
// not ticks: the client's first snapshot of a slot is not on the same
// tick of every slot (a snapshot every 3.2 ticks at 64 ticks/s), and one
// a tick short of an interval would wait a whole slot more.
func scoreDue(tick, lastSnap, lastScor uint32, id uint16, tickRate int, changed, pending bool) bool {
	if lastScor == 0 {
		return true
	}
	cur := scoreSlot(tick, id, tickRate)
	if cur == scoreSlot(lastSnap, id, tickRate) {
		return false // not the client's first snapshot of this slot
	}
	if tick-lastScor < max(uint32(tickRate)/4, 1) {
		return false // the first, late in the slot before
	}
	slots := cur - scoreSlot(lastScor, id, tickRate)
	return (changed && slots >= 2) || (pending && slots >= 1) || slots >= 4
}

// snapNames says which players a snapshot names: those in its entities
// (the client's view) and in its events (the kill feed, hits): their
// scoreboard rows, and with them their names, are wanted first.
type snapNames struct{ snap *proto.Snapshot }

// ids appends to dst[:0] the IDs the snapshot names, ascending, each once:
// its entities' (in ID order already) and its events' A and B.
func (n snapNames) ids(dst []uint16) []uint16 {
	dst = dst[:0]
	for i := range n.snap.Entities {
		dst = append(dst, n.snap.Entities[i].ID)
	}
	for i := range n.snap.Events {
		dst = append(dst, n.snap.Events[i].A, n.snap.Events[i].B)
	}
	if len(n.snap.Events) > 0 {
		slices.Sort(dst)
		dst = slices.Compact(dst)
	}
	return dst
}
