package server

import (
	"slices"

	"tickshot/net/proto"
	"tickshot/net/rtc"
)

// Priority and rate by relevance (docs/PROTOCOL.md §5.9, "Priority"):
// every snapshot keeps to a byte budget (snapshotBudget), and the other
// players in a client's view that do not all fit go by priority. The
// NearestFresh nearest are always sent fresh; every other one has a
// priority, its nearness to the client's player times one plus the
// snapshots it has waited, that grows each snapshot it is not sent
// (Unreal's actor replication priority, which accumulates while an actor
// waits; Quake 3's snapshot entity limit), and one that has waited
// MaxHeldSnapshots-1 snapshots goes before all others, so that an entity in
// view is sent at least once every MaxHeldSnapshots snapshots whenever the
// budget holds that many. The budget is filled in priority order with each
// candidate's record length (proto.AppendEntityRecord, against the client's
// baseline), so the delta is written once. A player not chosen is held: the
// frame keeps the client's own copy from its baseline, state and Tick,
// which costs no bytes (no record, delta.go) and adds no interpolation
// sample on either side; one the client has never had is left out until its
// turn. The baseline is the newest snapshot acked, so a held copy may be
// older than a fresh state a snapshot in flight brought: the client and
// the server's replay of its view ignore it whole (game.EntityView.Observe),
// and one held maxHeldTicks goes fresh whatever the budget, so that lag
// compensation still finds the state it came from.

const (
	// NearestFresh is how many of the nearest players in view every
	// snapshot carries fresh, whatever the budget (the "K" of the scheme).
	NearestFresh = 8
	// MaxHeldSnapshots is the "N" of the scheme: a player in view waits at
	// most MaxHeldSnapshots-1 snapshots between two fresh states while
	// the budget holds the waiting ones (20 snapshots: 1 s at the default
	// cl_updaterate 20).
	MaxHeldSnapshots = 20
	// DefaultMaxRate is sv_maxrate's default, bytes/s: at the default
	// cl_updaterate 20, snapshots of at most 400 bytes.
	DefaultMaxRate = 8000
	// maxHeldTicks bounds how old a held player's state may be, in ticks
	// (snapshot tick - EntityState.Tick): one older goes fresh whatever the
	// budget, as the nearest do. Lag compensation stays exact only while
	// the fresh snapshot a held copy came from, and every fresh one after
	// it, are still in the session's sent ring when a shot replays the
	// client's view (clientView.replay); at most one snapshot a tick, half
	// the ring (sentRing) leaves the other half for the snapshots in flight
	// and sv_maxunlag. At 64 ticks/s and cl_updaterate 20 it is the 20
	// snapshots of MaxHeldSnapshots; at 128 ticks/s, 10.
	maxHeldTicks = sentRing / 2
	// nearScale is the distance (world units) at which a player's
	// nearness is 1/2 (1 at the client's own player).
	nearScale = 256
)

// snapshotBudget is the bytes a snapshot to ss is planned for: the rate it
// may use per snapshot, min(rate, sv_maxrate) / cl_updaterate (maxRate 0:
// the client's rate alone), and never more than one datagram
// (rtc.MaxDatagram), so that it also fits a WebRTC data channel
// unfragmented. A snapshot that took more (the nearest players alone, many
// events) leaves the following ones less until the excess is paid back
// (priorityState.debt), so that the client's bytes per second stay within
// the rate. The scoreboard delta (scoreboard.go: at most 512 bytes of rows,
// up to twice a second) is not fitted, it goes whole, but its bytes count
// in the debt like the rest: the snapshots after it carry fewer far
// players (at 1 024 players about 1 kB/s of a client's 8).
func snapshotBudget(ss *session, maxRate int) int {
	rate := ss.rate.bytesPerSec
	if maxRate > 0 {
		rate = min(rate, maxRate)
	}
	return min(rtc.MaxDatagram, rate/max(ss.rate.updateRate, 1))
}

// priorityState is a session's state for choosing the players its
// snapshots carry fresh: how many snapshots each waited, and scratch.
type priorityState struct {
	// debt is the bytes sent beyond the budgets of the snapshots so far
	// (never below 0: an unused budget is not banked); the next
	// snapshots' budgets are less by it.
	debt   int
	waited []heldFor // by player ID
	cands  []candidate
	order  []int // indices into cands, by priority
	pick   []proto.EntityState
	rec    []byte // scratch: one record, for its length
}

// budget is the bytes the next snapshot may take, of a per-snapshot
// budget of planned bytes: less the debt.
func (ps *priorityState) budget(planned int) int { return planned - ps.debt }

// charge counts a snapshot of n bytes sent against planned.
func (ps *priorityState) charge(n, planned int) { ps.debt = max(0, ps.debt+n-planned) }

// heldFor is how many snapshots a player waited (was in view, not sent
// fresh), valid when seq is the Seq of the snapshot before.
type heldFor struct {
	seq    uint32
	waited uint16
}

// candidate is a player in view of one snapshot.
type candidate struct {
	base    int     // index into the baseline frame; -1 when the client lacks it
	d2      float64 // squared distance to the client's player, world units²
	cost    int     // bytes of its fresh record
	waited  uint16  // snapshots waited before this one
	prio    float64 // nearness × (1 + waited)
	forced  bool    // waited MaxHeldSnapshots-1: goes before the others
	nearest bool    // among the NearestFresh nearest: goes whatever the budget
	stale   bool    // its baseline copy is maxHeldTicks old: goes whatever the budget
	fresh   bool    // chosen
}

// prioritize replaces snap.Entities (every player in view, fresh, sorted by
// ID) with the frame that fits entBudget bytes of entity delta against the
// baseline base (nil for a full snapshot): the chosen players fresh, the
// others held at base's state or left out; it returns the new frame
// (ps.pick) and counts the waits by snap.Seq.
func (ps *priorityState) prioritize(ss *session, snap *proto.Snapshot, base []proto.EntityState, entBudget int) {
	fresh := snap.Entities
	ps.cands = ps.cands[:0]
	p := ss.player.State
	bi := 0
	left := entBudget
	for _, e := range fresh {
		for bi < len(base) && base[bi].ID < e.ID {
			left -= proto.RemovedRecordLen(base[bi].ID) // out of view: removed
			bi++
		}
		c := candidate{base: -1}
		if bi < len(base) && base[bi].ID == e.ID {
			c.base = bi
			c.stale = snap.Tick-base[bi].Tick >= maxHeldTicks
			ps.rec = proto.AppendEntityRecord(ps.rec[:0], base[bi], e, true)
			bi++
		} else {
			ps.rec = proto.AppendEntityRecord(ps.rec[:0], proto.EntityState{}, e, false)
		}
		c.cost = len(ps.rec)
		dx, dy := proto.FromFixed(e.X)-p.X, proto.FromFixed(e.Y)-p.Y
		c.d2 = dx*dx + dy*dy
		c.waited = ps.waitedOf(e.ID, snap.Seq)
		c.prio = float64(1+c.waited) / (1 + c.d2/(nearScale*nearScale))
		c.forced = int(c.waited) >= MaxHeldSnapshots-1
		ps.cands = append(ps.cands, c)
	}
	for ; bi < len(base); bi++ {
		left -= proto.RemovedRecordLen(base[bi].ID)
	}
	// The nearest NearestFresh go whatever the budget, and so do those held
	// maxHeldTicks.
	ps.order = ps.order[:0]
	for i := range ps.cands {
		ps.order = append(ps.order, i)
	}
	if len(ps.order) > NearestFresh {
		slices.SortFunc(ps.order, func(a, b int) int { return cmpFloat(ps.cands[a].d2, ps.cands[b].d2) })
	}
	for _, i := range ps.order[:min(NearestFresh, len(ps.order))] {
		ps.cands[i].nearest = true
		ps.cands[i].fresh = true
		left -= ps.cands[i].cost
	}
	for i := range ps.cands { // held too long to stay exact for lag compensation
		if c := &ps.cands[i]; c.stale && !c.fresh {
			c.fresh = true
			left -= c.cost
		}
	}
	// Then the rest in priority order, each that still fits; those waited
	// too long first, the longest waited of them first (by priority a far
	// one would lose to the near ones that come round again and again
	// while the budget holds fewer than wait: the scoreboard's debt).
	slices.SortFunc(ps.order, func(a, b int) int {
		ca, cb := &ps.cands[a], &ps.cands[b]
		if ca.forced != cb.forced {
			if ca.forced {
				return -1
			}
			return 1
		}
		if ca.forced && ca.waited != cb.waited {
			return int(cb.waited) - int(ca.waited)
		}
		return cmpFloat(cb.prio, ca.prio)
	})
	for _, i := range ps.order {
		if c := &ps.cands[i]; !c.fresh && c.cost <= left {
			c.fresh = true
			left -= c.cost
		}
	}
	ps.pick = ps.pick[:0]
	for i, e := range fresh { // by ID, as the frame must be
		c := &ps.cands[i]
		switch {
		case c.fresh:
			ps.pick = append(ps.pick, e)
		case c.base >= 0:
			ps.pick = append(ps.pick, base[c.base]) // the client's own copy: no bytes
		}
		w := uint16(0)
		if !c.fresh {
			w = min(c.waited+1, 1<<15)
		}
		ps.setWaited(e.ID, snap.Seq, w)
	}
	snap.Entities = ps.pick
}

// waitedOf is how many snapshots player id has waited before snapshot seq:
// 0 unless it was in view of the snapshot before.
func (ps *priorityState) waitedOf(id uint16, seq uint32) uint16 {
	if int(id) < len(ps.waited) && ps.waited[id].seq == seq-1 {
		return ps.waited[id].waited
	}
	return 0
}

// setWaited records that player id, in view of snapshot seq, has waited w
// snapshots (0: sent fresh).
func (ps *priorityState) setWaited(id uint16, seq uint32, w uint16) {
	if int(id) >= len(ps.waited) {
		ps.waited = append(ps.waited, make([]heldFor, int(id)+1-len(ps.waited))...)
	}
	ps.waited[id] = heldFor{seq: seq, waited: w}
}

func cmpFloat(a, b float64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}
