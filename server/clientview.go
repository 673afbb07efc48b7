package server

import (
	"tickshot/game"
	"tickshot/net/proto"
)

// ---- the client's view ----

// clientView is the server's copy of what a client has received, which
// lag compensation rewinds to: every other player's interpolation history
// (game.EntityView) as the client holds it, and the scoreboard it holds
// (scoreView, scoreboard.go), which scoreboard deltas are written against.
//
// The histories are evaluated lazily. Taking an ack only marks the
// snapshots it says arrived (ackState.reached, O(1) a snapshot); a shot
// rebuilds the history of just the players it can hit (entity), by
// replaying the marked snapshots oldest first with exactly the client's
// rules (replay). Before issue 23 every ack fed every entity of the acked
// snapshots into the views, O(entities) an ack and O(players²) a second
// for the server: half its CPU at 256 clients.
//
// The view takes a client's acks in the order of its commands, not of
// their arrival: a Cmds message's ack is held (hold) until the first
// command that message brought runs (catchUp), so that a command queued
// behind a burst is rewound with the snapshots its client had when it
// made it, not with those of later messages (a shot drawn by extrapolating
// past the newest snapshot would otherwise be traced by interpolating
// towards a newer one).
type clientView struct {
	scores scoreView
	held   []heldAck // oldest first
	// cut holds, for a player forgotten (it left the game), the newest
	// snapshot the view had taken then: older ones do not bring it back.
	cut   map[uint16]uint32
	cache viewCache
	run   []runSample // replay's scratch
	// past is the part of the view that left the sent ring.
	past pastView
}

// pastView is the part of a client's view that left the session's sent
// ring: the snapshots that reached the view, folded oldest first into a
// pastTail for each player the newest of them carries. A replay whose run
// goes on past the ring starts from the player's tail; a render tick
// within sv_maxunlag (1 s, at most 128 ticks) is no older than that newest
// snapshot (the ring holds 128, at most one a tick), so the tail's two
// samples are all History.At reads there. Folding is an integer compare
// and a copy a player, O(players) a snapshot leaving the ring. Keeping the
// two newest snapshots whole instead (before this) fell short when
// priority held a player in both: the fresh sample the client had before
// them was lost (TestLazyViewMatchesEager).
type pastView struct {
	seq   uint32              // the newest snapshot folded in; 0: none
	ents  []proto.EntityState // its players, in ID order: those the view held then
	tails []pastTail          // their tails, index for index
	spare []pastTail          // storage for the next fold
}

// pastTail is one player's part of a pastView: the two newest states the
// view took of it (n of them; 0: not held), in the order it took them.
//
// EntityView.Observe takes a state only when its Tick is newer than every
// state before it (older ones are held copies, ignored whole); after it
// takes one, the view's teleport counter is that state's. So whether the
// newest of them restarts the history (respawn or jump) is decided by the
// one before it alone, and observing just these two into an empty view
// (restore) leaves the view's two newest samples and its counter as
// observing the whole run did.
type pastTail struct {
	s [2]proto.EntityState
	n uint8
}

// take folds es, a state of the player a snapshot that left the ring
// carried, in: kept when newer than the states before it.
func (t *pastTail) take(es *proto.EntityState) {
	switch {
	case t.n == 0:
		t.s[0], t.n = *es, 1
	case es.Tick <= t.s[t.n-1].Tick:
		// A held copy: ignored, as Observe ignores it.
	case t.n == 1:
		t.s[1], t.n = *es, 2
	default:
		t.s[0], t.s[1] = t.s[1], *es
	}
}

// restore makes ev the view the tail stands for: its two newest samples
// and teleport counter (tickRate ticks/s, for Observe's jump rule).
func (t *pastTail) restore(ev *game.EntityView, tickRate int) {
	ev.Hist.Reset()
	ev.Teleport = t.s[0].Teleport
	for i := range int(t.n) {
		es := &t.s[i]
		ev.Observe(es.Sample(es.Tick), es.Teleport, tickRate)
	}
}

// viewCache holds the histories replay rebuilt, by player, while the view
// takes no further snapshot: one shot's rewind, and the commands after it
// until the next ack, replay each player at most once (again only for a
// render tick older than the replay reached).
type viewCache struct {
	seq   uint32 // ackState.appliedSeq they were rebuilt at
	valid bool
	ents  map[uint16]*replayed // the players the client holds, as far as asked
	free  []*replayed          // storage of cleared entries, reused
	// newest is the newest snapshot that reached the client (newestSeq;
	// 0: none): it carries every player the client holds.
	newest    []proto.EntityState
	newestSeq uint32
}

// replayed is one player's history as replay rebuilt it.
type replayed struct {
	ev game.EntityView
	// whole: ev is the whole history the client holds; else it is exact
	// for render ticks after from (replay stopped there).
	whole bool
	from  uint32
}

// runSample is one sample of a player's run of snapshots, for replay.
type runSample struct {
	s        game.Sample
	teleport uint8
}

// heldAck is a Cmds message's acknowledgement waiting for the commands it
// came with: it reaches the view before the command numbered before, or a
// later one, runs.
type heldAck struct {
	before    uint32
	seq, bits uint32
}

// maxHeldAcks bounds the acks a view holds: beyond it the oldest is taken
// at once (a client that acks without sending commands).
const maxHeldAcks = 64

// hold keeps h until the commands it came with run; a view that holds
// maxHeldAcks already takes its oldest first.
func (v *clientView) hold(h heldAck, a *ackState, tickRate int) {
	if h.seq <= a.appliedSeq {
		return // the view has it already
	}
	if n := len(v.held); n > 0 && v.held[n-1].seq >= h.seq {
		return // a held ack due no later has it
	}
	if len(v.held) == maxHeldAcks {
		v.catchUp(v.held[0].before, a, tickRate)
	}
	v.held = append(v.held, h)
}

// catchUp takes into the view every held ack due before command number
// next runs: the snapshots they say arrived are marked reached
// (a.reached) and the scoreboard rows they carried learnt.
func (v *clientView) catchUp(next uint32, a *ackState, tickRate int) {
	n := 0
	for ; n < len(v.held) && v.held[n].before <= next; n++ {
		a.reached(v.held[n].seq, v.held[n].bits, v.learn)
	}
	if n > 0 {
		v.held = append(v.held[:0], v.held[n:]...)
	}
}

// leave folds snap, a snapshot that reached the view and now leaves the
// sent ring (ackState.record), into the past view, oldest first: its
// players' states are taken (pastTail.take) and the players it does not
// carry forgotten, as the client's view took it; a player forgotten
// (forget) after snap was taken is not held, as the view dropped it then.
// Its entity storage is kept (swapped for the past's last).
func (v *clientView) leave(snap *sentSnap) {
	p := &v.past
	old, oldTails := p.ents, p.tails
	tails := p.spare[:0]
	i := 0
	for k := range snap.ents {
		es := &snap.ents[k]
		for i < len(old) && old[i].ID < es.ID {
			i++
		}
		var t pastTail
		if i < len(old) && old[i].ID == es.ID {
			t = oldTails[i]
		}
		if len(v.cut) == 0 || snap.seq > v.cut[es.ID] {
			t.take(es)
		} else {
			t.n = 0 // forgotten (forget) after snap was taken: not held
		}
		tails = append(tails, t)
	}
	p.seq, p.tails, p.spare = snap.seq, tails, oldTails
	p.ents, snap.ents = snap.ents, old
}

// tail returns player id's tail in the past view, or nil when the past
// view does not hold it (the newest snapshot folded in does not carry it,
// or that snapshot is no newer than cut).
func (p *pastView) tail(id uint16, cut uint32) *pastTail {
	if p.seq == 0 || p.seq <= cut {
		return nil
	}
	if i := findEntity(p.ents, id); i >= 0 && p.tails[i].n > 0 {
		return &p.tails[i]
	}
	return nil
}

// learn takes the scoreboard rows a snapshot that reached the client
// carried (scoreView.arrived).
func (v *clientView) learn(snap *sentSnap) { v.scores.arrived(snap.seq) }

// forget drops player id (it left the game) from a view that has taken
// the snapshots up to applied (ackState.appliedSeq).
func (v *clientView) forget(id uint16, applied uint32) {
	// Its scoreboard row goes by a gone row (scoreView.delta).
	if v.cut == nil {
		v.cut = map[uint16]uint32{}
	}
	v.cut[id] = applied
	v.cache.valid = false
}

// entity returns player id's interpolation history as the client holds
// it now (with the snapshots a marks reached), exact for History.At at
// render ticks after t (or all of it, when t is -Inf), or nil when the
// client does not hold the player. The result is cached until the view
// takes another snapshot or forgets a player; it must not be changed.
func (v *clientView) entity(id uint16, t float64, a *ackState, tickRate int) *game.EntityView {
	if !v.holds(id, a) {
		return nil
	}
	c := &v.cache
	r := c.ents[id]
	if r == nil {
		if c.ents == nil {
			c.ents = map[uint16]*replayed{}
		}
		if n := len(c.free); n > 0 {
			r, c.free = c.free[n-1], c.free[:n-1]
		} else {
			r = new(replayed)
		}
		v.replay(r, id, t, a, tickRate)
		c.ents[id] = r
	} else if !r.whole && t <= float64(r.from) {
		v.replay(r, id, t, a, tickRate) // deeper than the last replay went
	}
	return &r.ev
}

// replay rebuilds into r player id's history as the client holds it (a
// player it holds: entity checked), as far back as History.At at render ticks after t needs. It is what feeding
// every snapshot that reached the client to the view, oldest first, gives
// (netclient's rules, which the server's eager views followed before
// issue 23): a snapshot that carries the player is observed
// (game.EntityView.Observe: teleport and jump resets), one that does not
// forgets it (it left the game or the client's view; coming back starts a
// new history).
//
// So it replays the player's run: the snapshots that reached the client
// and carry it, back from the newest to the first reached one that does
// not carry it (or the one it was forgotten at), at most HistorySize
// distinct ticks (all a History keeps), and no further than the first two
// samples and one older than t (History.At interpolates between the
// samples around t, extrapolates from the newest two). Observe decides
// from the newest sample and the teleport counter alone, so a replay that
// starts within the run ends with the same samples, except those older
// than its start. The run is read from the sent ring; one that goes on
// past it starts from the player's tail in the past view (pastView), all
// History.At reads at a render tick within sv_maxunlag (1 s, at most 128
// ticks: no older than the newest snapshot folded there), so the rewind
// is exact. O(the samples replayed) a player, each a binary search of a
// snapshot's entities.
func (v *clientView) replay(r *replayed, id uint16, t float64, a *ackState, tickRate int) {
	run := v.run[:0]
	cut := v.cut[id]
	distinct := 0
	r.whole = true
	var tail *pastTail // where the run starts when it goes on past the ring
	for c := a.reachedNewest(); distinct < game.HistorySize; {
		seq, tick, ents, ok := c.next()
		if !ok {
			tail = v.past.tail(id, cut)
			break
		}
		if seq <= cut {
			break
		}
		i := findEntity(ents, id)
		if i < 0 {
			break // the client forgot the player here
		}
		es := &ents[i]
		smp := es.Sample(es.Tick) // its own tick: held ones keep an older one (priority.go)
		run = append(run, runSample{smp, es.Teleport})
		if es.Tick != tick {
			// Held: a copy of a state of a snapshot before, which Observe
			// ignores unless it starts the run; it neither counts nor ends
			// the replay (a start there would keep it in place of the
			// fresh samples it came after).
			continue
		}
		distinct++
		if distinct >= 2 && float64(smp.Tick) < t {
			r.whole, r.from = false, smp.Tick
			break
		}
	}
	v.run = run
	switch {
	case tail != nil:
		tail.restore(&r.ev, tickRate)
	case len(run) == 0:
		r.ev.Hist.Reset() // not held (entity checks holds first)
		return
	default:
		r.ev.Hist.Reset()
		r.ev.Teleport = run[len(run)-1].teleport
	}
	for i := len(run) - 1; i >= 0; i-- {
		r.ev.Observe(run[i].s, run[i].teleport, tickRate)
	}
}

// findEntity returns the index of entity id in ents (in ID order, as
// snapshots carry them), or -1.
func findEntity(ents []proto.EntityState, id uint16) int {
	lo, hi := 0, len(ents)
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		if ents[m].ID < id {
			lo = m + 1
		} else {
			hi = m
		}
	}
	if lo < len(ents) && ents[lo].ID == id {
		return lo
	}
	return -1
}

// reachedCursor walks the snapshots of the sent ring that reached the
// view, newest first: those up to appliedSeq marked reached.
type reachedCursor struct {
	a   *ackState
	seq uint32 // next ring seq to look at; below lo: the ring is done
	lo  uint32 // oldest seq the ring still holds (at least 1)
}

// reachedNewest starts a walk of the snapshots that reached the view.
func (a *ackState) reachedNewest() reachedCursor {
	lo := uint32(1)
	if a.nextSeq >= sentRing {
		lo = a.nextSeq - sentRing + 1
	}
	return reachedCursor{a: a, seq: a.appliedSeq, lo: lo}
}

// next returns the next older snapshot of the ring that reached the view;
// ok is false when there is none left.
func (c *reachedCursor) next() (seq, tick uint32, ents []proto.EntityState, ok bool) {
	for ; c.seq >= c.lo; c.seq-- {
		if snap := &c.a.sent[c.seq%sentRing]; snap.seq == c.seq && snap.reached {
			c.seq--
			return snap.seq, snap.tick, snap.ents, true
		}
	}
	return 0, 0, nil, false
}

// holds reports whether the client holds player id now (entity is not
// nil): the newest snapshot that reached it carries the player, and came
// after the player was forgotten. It refreshes the cache first.
func (v *clientView) holds(id uint16, a *ackState) bool {
	c := v.refresh(a)
	return c.newestSeq != 0 && findEntity(c.newest, id) >= 0 && c.newestSeq > v.cut[id]
}

// newest returns the players of the newest snapshot that reached the
// client (in ID order; nil: none): every player it holds (holds), and
// perhaps some it forgot since. It refreshes the cache first.
func (v *clientView) newest(a *ackState) []proto.EntityState {
	if c := v.refresh(a); c.newestSeq != 0 {
		return c.newest
	}
	return nil
}

// refresh empties the cache when the view took another snapshot (or
// forgot a player) since it was filled, and returns it.
func (v *clientView) refresh(a *ackState) *viewCache {
	c := &v.cache
	if !c.valid || c.seq != a.appliedSeq {
		for k, r := range c.ents {
			c.free = append(c.free, r)
			delete(c.ents, k)
		}
		c.seq, c.valid = a.appliedSeq, true
		cur := a.reachedNewest()
		if seq, _, ents, ok := cur.next(); ok {
			c.newestSeq, c.newest = seq, ents
		} else {
			c.newestSeq, c.newest = v.past.seq, v.past.ents // the ring holds none
		}
	}
	return c
}
