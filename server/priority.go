package server

import (
	"math"
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
// candidate's record length (proto.EntityRecordLen, against the client's
// baseline), so the delta is written once. A player not chosen is held: the
// frame keeps the client's own copy from its baseline, state and Tick,
// which costs no bytes (no record, delta.go) and adds no interpolation
// sample on either side; one the baseline lacks is left out until its
// turn. That would drop, for a snapshot, a player the client does hold: one
// a snapshot after the baseline brought, not yet acked (the view filling,
// acks late or lost), and the client would draw it vanish and come back.
// So a player in the previous snapshot's frame that the baseline lacks
// (carried) goes first after the nearest and the stale, past the budget as
// long as the snapshot still fits one datagram (priorityState.shares; the
// debt repays the excess), and only what is left of the budget brings
// others. Once a player is in a client's frames it stays in every delta
// snapshot while it is in view (as long as the nearest and the carried fit
// a datagram), and since every snapshot after the first that brought it has
// it, so does any baseline acked later. The carried cost about what brought them, a budget
// and the nearest, so a view fills a budget a round trip; acks that stay
// seconds late while new players come near cost up to a datagram a
// snapshot, then flicker. A full snapshot (a client that has acked none
// yet, cl_nodelta) carries no one: with nothing acked every player it
// brings would be carried, and a client that never acked would see the
// same players forever. The baseline is the newest snapshot acked, so a
// held copy may be older than a fresh state a snapshot in flight brought:
// the client and the server's replay of its view ignore it whole
// (game.EntityView.Observe), and one held maxHeldTicks goes fresh whatever
// the budget, so that lag compensation still finds the state it came from.

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
// snapshots carry fresh: how many snapshots each waited, and the debt.
// What one snapshot's choice needs and no later one does is the writer's
// (prioScratch), so that a session keeps only the little it must between
// snapshots: at 1 024 players the sessions' state outgrows the caches,
// and each snapshot read its scratch back from memory.
type priorityState struct {
	// debt is the bytes sent beyond the budgets of the snapshots so far
	// (never below 0: an unused budget is not banked); the next
	// snapshots' budgets are less by it.
	debt int
	// lastSeq is the Seq of the snapshot prioritized last; lastIDs are
	// the players in its view (ascending) and lastWaited how many
	// snapshots each had waited after it (the bits below inFrameBit; 0:
	// sent fresh), its top bit (inFrameBit) whether the player was in that
	// snapshot's frame, fresh or held. A player in view of the snapshot
	// after it (Seq lastSeq+1) has waited its lastWaited; any other, 0.
	// Kept as the frame's own sorted list and walked beside it (not a
	// table by player ID: at 1 024 players that table's reads missed the
	// cache at every candidate).
	lastSeq    uint32
	lastIDs    []uint16
	lastWaited []uint16
}

// inFrameBit marks a priorityState.lastWaited whose player was in the
// frame (fresh or held, not left out); the bits below it are the wait
// (at most maxWaited).
const inFrameBit = 1 << 15

// maxWaited caps a candidate's count of snapshots waited, so that it fits
// below inFrameBit and in prioKey's 15 bits (any wait of
// MaxHeldSnapshots-1 or more is forced already).
const maxWaited = inFrameBit - 1

// prioScratch is the storage prioritize reuses from one snapshot to the
// next, whoever's: the snapshot writer owns one.
type prioScratch struct {
	cands   []candidate
	nearest []int     // indices into cands of the NearestFresh nearest, by d2
	order   []prioKey // the candidates left, by priority
	pick    []proto.EntityState
}

// budget is the bytes the next snapshot may take, of a per-snapshot
// budget of planned bytes: less the debt.
func (ps *priorityState) budget(planned int) int { return planned - ps.debt }

// shares are the next snapshot's bytes for its players (prioritize's
// entBudget and carryBudget), of a per-snapshot budget of planned bytes,
// when the rest of the snapshot takes envelope bytes without its
// scoreboard and whole with it: the budget less the debt and envelope for
// all; for the carried, whatever keeps the snapshot, scoreboard included,
// within one datagram (rtc.MaxDatagram), and never less than the others'
// (a scoreboard and a rate near a datagram a snapshot leave less room in
// the datagram than in the budget). The debt repays what the carried
// took past the budget once the acks catch up (the carried are then in the
// baseline, held at no cost); a client whose acks stay seconds late may get
// up to a datagram a snapshot meanwhile.
func (ps *priorityState) shares(planned, envelope, whole int) (ent, carry int) {
	ent = ps.budget(planned) - envelope
	return ent, max(ent, rtc.MaxDatagram-whole)
}

// charge counts a snapshot of n bytes sent against planned.
func (ps *priorityState) charge(n, planned int) { ps.debt = max(0, ps.debt+n-planned) }

// candidate is a player in view of one snapshot.
type candidate struct {
	base   int     // index into the baseline frame; -1 when the client lacks it
	d2     float64 // squared distance to the client's player, world units²
	cost   int     // bytes of its fresh record
	waited uint16  // snapshots waited before this one
	prio   float32 // nearness × (1 + waited), rounded to float32 (prioKey)
	carry  bool    // in the last frame, not in the baseline: first, past the budget within a datagram
	forced bool    // waited MaxHeldSnapshots-1: goes before the others
	stale  bool    // its baseline copy is maxHeldTicks old: goes whatever the budget
	fresh  bool    // chosen
}

// prioKey orders the candidates not yet chosen, ascending: those carried
// first, then those that waited MaxHeldSnapshots-1, the longest waited of
// them first, then the rest; within each by priority, higher first; equal
// ones by index (player ID), lower first. It packs that order into one
// integer (from the top: 2 bits the class (0 carried, 1 forced, 2 the
// rest), 15 bits maxWaited less the wait of a forced one, 32 bits the
// complement of the priority's float32 bits, which order as the positive
// floats do, 15 bits the index), so the candidates sort as integers
// (slices.Sort): no comparison function called a pair, which cost the sort
// most of its time.
type prioKey uint64

// prioIndexBits is the width of prioKey's index: a candidate is a player.
const prioIndexBits = 15

// The candidates' indices fit prioKey's.
const _ = uint(1<<prioIndexBits - MaxPlayersLimit)

// makePrioKey is candidate i's key.
func makePrioKey(c *candidate, i int) prioKey {
	var k uint64 // carried: class 0
	switch {
	case c.carry:
	case c.forced:
		k = 1<<62 | uint64(maxWaited-c.waited)<<47
	default:
		k = 2 << 62
	}
	return prioKey(k | uint64(^math.Float32bits(c.prio))<<prioIndexBits | uint64(i))
}

// index is the candidate's index.
func (k prioKey) index() int { return int(k & (1<<prioIndexBits - 1)) }

// prioritize replaces snap.Entities (every player in view, fresh, sorted by
// ID) with the frame whose entity delta against the baseline base (nil for
// a full snapshot; snap.Baseline says which) fits entBudget bytes, the
// players' share of the snapshot's budget (less the debt and the other
// bytes), and for the carried carryBudget, up to one datagram
// (priorityState.shares). The chosen players go fresh, the others are held
// at base's state or left out; it returns the new frame (sc.pick, valid until
// sc's next use) and counts the waits by snap.Seq. Its cost is linear in
// the players in view but for one sort of those the nearest leave.
func (ps *priorityState) prioritize(sc *prioScratch, ss *session, snap *proto.Snapshot, base []proto.EntityState, entBudget, carryBudget int) {
	fresh := snap.Entities
	sc.cands = sc.cands[:0]
	p := ss.player.State
	bi := 0
	left, carryLeft := entBudget, carryBudget
	li := 0 // into lastIDs
	follows := ps.lastSeq == snap.Seq-1
	delta := snap.Baseline != 0 // a full snapshot holds no one: nothing is carried
	for _, e := range fresh {
		for bi < len(base) && base[bi].ID < e.ID {
			n := proto.RemovedRecordLen(base[bi].ID) // out of view: removed
			left, carryLeft = left-n, carryLeft-n
			bi++
		}
		c := candidate{base: -1}
		if bi < len(base) && base[bi].ID == e.ID {
			c.base = bi
			c.stale = snap.Tick-base[bi].Tick >= maxHeldTicks
			c.cost = proto.EntityRecordLen(base[bi], e, true)
			bi++
		} else {
			c.cost = proto.EntityRecordLen(proto.EntityState{}, e, false)
		}
		dx, dy := proto.FromFixed(e.X)-p.X, proto.FromFixed(e.Y)-p.Y
		c.d2 = dx*dx + dy*dy
		if follows {
			for li < len(ps.lastIDs) && ps.lastIDs[li] < e.ID {
				li++
			}
			if li < len(ps.lastIDs) && ps.lastIDs[li] == e.ID {
				w := ps.lastWaited[li]
				c.waited = w &^ inFrameBit
				c.carry = delta && c.base < 0 && w&inFrameBit != 0
			}
		}
		c.prio = priority(c.waited, c.d2)
		c.forced = int(c.waited) >= MaxHeldSnapshots-1
		sc.cands = append(sc.cands, c)
	}
	for ; bi < len(base); bi++ {
		n := proto.RemovedRecordLen(base[bi].ID)
		left, carryLeft = left-n, carryLeft-n
	}
	// The nearest NearestFresh go whatever the budget (kept in an array
	// sorted by d2, equal ones by index: one pass, no sort of all), and
	// so do those held maxHeldTicks.
	sc.nearest = sc.nearest[:0]
	for i := range sc.cands {
		d2 := sc.cands[i].d2
		if len(sc.nearest) == NearestFresh && d2 >= sc.cands[sc.nearest[NearestFresh-1]].d2 {
			continue
		}
		j := len(sc.nearest)
		if j < NearestFresh {
			sc.nearest = append(sc.nearest, i)
		} else {
			j--
		}
		for ; j > 0 && sc.cands[sc.nearest[j-1]].d2 > d2; j-- {
			sc.nearest[j] = sc.nearest[j-1]
		}
		sc.nearest[j] = i
	}
	for _, i := range sc.nearest {
		sc.cands[i].fresh = true
		left, carryLeft = left-sc.cands[i].cost, carryLeft-sc.cands[i].cost
	}
	for i := range sc.cands { // held too long to stay exact for lag compensation
		if c := &sc.cands[i]; c.stale && !c.fresh {
			c.fresh = true
			left, carryLeft = left-c.cost, carryLeft-c.cost
		}
	}
	// Then the rest in prioKey's order, each that still fits: the carried
	// first, while the snapshot fits one datagram (held by the client and
	// not in the baseline: left out, they would vanish), then those waited
	// too long, the longest waited of them first (by priority a far one
	// would lose to the near ones that come round again and again while
	// the budget holds fewer than wait: the scoreboard's debt), then the
	// others, in the share.
	sc.order = sc.order[:0]
	for i := range sc.cands {
		if c := &sc.cands[i]; !c.fresh {
			sc.order = append(sc.order, makePrioKey(c, i))
		}
	}
	slices.Sort(sc.order)
	for _, k := range sc.order {
		c := &sc.cands[k.index()]
		room := left
		if c.carry {
			room = carryLeft
		}
		if c.cost <= room {
			c.fresh = true
			left, carryLeft = left-c.cost, carryLeft-c.cost
		}
	}
	sc.pick = sc.pick[:0]
	// The first loop has read lastIDs: they are rewritten in place.
	ps.lastIDs, ps.lastWaited = ps.lastIDs[:0], ps.lastWaited[:0]
	for i, e := range fresh { // by ID, as the frame must be
		c := &sc.cands[i]
		switch {
		case c.fresh:
			sc.pick = append(sc.pick, e)
		case c.base >= 0:
			sc.pick = append(sc.pick, base[c.base]) // the client's own copy: no bytes
		}
		w := uint16(0)
		if !c.fresh {
			w = min(c.waited+1, maxWaited)
		}
		if c.fresh || c.base >= 0 {
			w |= inFrameBit
		}
		ps.lastIDs = append(ps.lastIDs, e.ID)
		ps.lastWaited = append(ps.lastWaited, w)
	}
	ps.lastSeq = snap.Seq
	snap.Entities = sc.pick
}

// priority is a candidate's priority: its nearness (1 at the client's own
// player, 1/2 at nearScale; d2 the squared distance, world units²) times
// one plus the snapshots it waited, rounded to float32 (prioKey).
func priority(waited uint16, d2 float64) float32 {
	return float32(float64(1+waited) / (1 + d2/(nearScale*nearScale)))
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
