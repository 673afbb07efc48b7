package server

import (
	"slices"

	"tickshot/game"
	"tickshot/net/proto"
)

// The event queue: what happened in the world, in wire form (proto.Event),
// waiting to ride in snapshots. Every event is resent in each snapshot to
// a client until the client acknowledges a snapshot that carried or
// settled it (Quake 3 resends its reliable commands the same way, until
// the client's acknowledged sequence passes them), for EventLifetime
// seconds at most; the newest level change outlives that (levelEv).
//
// What events may cost a snapshot (issue 12, join/leave churn). Every
// event rides in every snapshot until the client acknowledges one that
// carried it, so a flood of events (one address joining and leaving 259
// times a second made two notices each time) once filled snapshots with
// up to MaxEventsPerSnapshot events: a default-rate player's download grew
// from 4.7 to 58 kB/s and a rate 20000 player, choked by its rate, fell
// from 20 snapshots/s to 1. Three rules bound it, per client and snapshot:
//
//   - Budget: events take at most 1/EventBudgetDiv of what the client's
//     rate allows a snapshot (rate / cl_updaterate bytes), so positions
//     keep the rest; the oldest event that is not news always goes, so
//     no budget is too small to make progress. Events over the budget wait
//     for the next snapshot, in order (a client applies an event only when
//     its ID is above every ID it has seen, so skipping one and sending a
//     newer would lose it).
//   - Priority: kills in view or of the client, hits, chat, match news and
//     effects come first; news (isNews: join and leave notices, EvJoin and
//     EvLeft, and kills far from the client) takes what is left, at most
//     MaxNoticesPerSnapshot of them and 1/NoticeBudgetDiv of the allowance
//     (at least MinNoticeBudget bytes), newest first: stale news not
//     chosen is dropped for that client. The scoreboard, sent at least
//     every 2 s and within 1 s of a change, stays the truth about who is
//     playing, their names, kills and deaths.
//   - Coalescing: a player who left while its join notice was still
//     queued is announced to nobody who had not been sent the join: the
//     join is not sent again, and the leave goes only to the clients that
//     may have received the join.
//
// Source's equivalent is its reliable stream, which shares the packet with
// entity updates and yields to them when the rate is exhausted
// (CNetChan::SendDatagram fills the unreliable part first).
const (
	EventBudgetDiv        = 2
	NoticeBudgetDiv       = 8
	MinNoticeBudget       = 64 // bytes
	MaxNoticesPerSnapshot = 8
)

// EventLifetime is how long an event is resent before it is dropped, in seconds.
const EventLifetime = 2

// MaxEventsPerSnapshot bounds the events one snapshot carries (with the
// byte budget above): 256 events of at most ~300 bytes stay under
// proto.MaxServerFrame.
const MaxEventsPerSnapshot = 256

// eventQueue owns the server's recent events, oldest first, with their
// recipients, the next event ID, the newest level change and the per
// snapshot budget that chooses which of them one client's snapshot carries
// (pick). The tick goroutine owns it. Per-client state (what was sent,
// acknowledged, skipped) lives in the session: eventQueue reads it and
// updates the client's skipped leaves and the snapshot's settled ID.
type eventQueue struct {
	events []proto.Event // recent events, oldest first
	to     []uint16      // recipient of each event, 0 for everyone
	gone   []bool        // a join notice coalesced with its leave: sent no more
	nextID uint32        // ID of the newest event queued
	// levelEv is the newest EvChangeLevel: resent to a client that has not
	// acked it even once it is older than EventLifetime (appendLevel).
	levelEv proto.Event
	// lifetime is EventLifetime in ticks.
	lifetime uint32
	// scratch and one size one event's encoding (size).
	scratch []byte
	one     [1]proto.Event
	picks   []int // scratch: indices into events one snapshot carries (pick)
	// index finds the events a view may see (eventindex.go).
	index eventIndex
}

// newEventQueue is an empty queue for a server running tickRate ticks/s.
func newEventQueue(tickRate int) eventQueue {
	return eventQueue{lifetime: uint32(EventLifetime * tickRate)}
}

// add queues e at tick (unless e names its own) for every client (to ==
// 0) or for one player, under the next event ID, and returns that ID.
// sessions are the connected clients, for the coalescing of a leave with
// its join (coalesceLeave).
func (q *eventQueue) add(e proto.Event, to uint16, tick uint32, sessions []*session) uint32 {
	q.nextID++
	e.ID = q.nextID
	if e.Tick == 0 {
		e.Tick = tick
	}
	q.events = append(q.events, e)
	q.to = append(q.to, to)
	q.gone = append(q.gone, false)
	q.index.put(&e)
	switch e.Kind {
	case proto.EvLeft:
		q.coalesceLeave(len(q.events)-1, sessions)
	case proto.EvChangeLevel:
		q.levelEv = e
	}
	return e.ID
}

// trim drops the events older than EventLifetime at tick now.
func (q *eventQueue) trim(now uint32) {
	i := 0
	for i < len(q.events) && now-q.events[i].Tick > q.lifetime {
		i++
	}
	if i > 0 {
		q.events = append(q.events[:0], q.events[i:]...)
		q.to = append(q.to[:0], q.to[i:]...)
		q.gone = append(q.gone[:0], q.gone[i:]...)
		q.index.trim(q.oldest())
	}
}

// oldest is the ID of the oldest event queued; the next ID when none is.
func (q *eventQueue) oldest() uint32 {
	if len(q.events) > 0 {
		return q.events[0].ID
	}
	return q.nextID + 1
}

// isNews reports whether e is news to a client (player id) with view: the
// events that yield to all others, newest first, and may be dropped. They
// are the join and leave notices, and the kill feed's far kills: a kill
// that names neither the client nor happens in its view (the killer and
// the victim both outside it). At 1 024 players on expanse some 150
// players die a second, 5 kills a snapshot that every client was sent
// until it acknowledged them (O(players²) a second, a fifth of a
// snapshot's bytes); a feed that long is unreadable anyway. Kills in
// view, the client's own and a spectator's (whose view is everywhere) go
// first, as every kill did before; the scoreboard (within about 1.5 s of
// a change) keeps every player's kills and deaths.
func isNews(e *proto.Event, id uint16, view game.Rect) bool {
	switch e.Kind {
	case proto.EvJoin, proto.EvLeft:
		return true
	case proto.EvKill:
		return e.A != id && e.B != id &&
			!view.Contains(proto.FromFixed(e.X), proto.FromFixed(e.Y)) &&
			!view.Contains(proto.FromFixed(e.X2), proto.FromFixed(e.Y2))
	}
	return false
}

// coalesceLeave is called when the leave notice at q.events[i] is queued:
// if the leaver's join notice is still queued, it is sent to no one any
// more, and the clients that cannot have been sent it (no snapshot carried
// an event with its ID or a later one) will not be sent the leave either.
func (q *eventQueue) coalesceLeave(i int, sessions []*session) {
	leave := &q.events[i]
	for j := i - 1; j >= 0; j-- {
		e := &q.events[j]
		if e.A != leave.A {
			continue
		}
		if e.Kind == proto.EvLeft {
			return // an earlier leave of a reused ID: its join is not this one's
		}
		if e.Kind != proto.EvJoin {
			continue
		}
		q.gone[j] = true
		for _, ss := range sessions {
			if e.ID > ss.evSentMax {
				ss.skipLeaves = append(ss.skipLeaves, leave.ID)
			}
		}
		return
	}
}

// dueTo reports whether q.events[i] is due to ss: not yet acknowledged,
// newer than its admission, addressed and visible to it, and not
// coalesced away.
func (q *eventQueue) dueTo(ss *session, i int, view game.Rect) bool {
	e := &q.events[i]
	if e.ID <= ss.acks.ackEvent || e.Tick <= ss.since || q.gone[i] {
		return false
	}
	if to := q.to[i]; to != 0 && to != ss.player.ID {
		return false
	}
	if e.Kind == proto.EvLeft {
		if _, skip := slices.BinarySearch(ss.skipLeaves, e.ID); skip {
			return false
		}
	}
	return eventVisible(e, ss.player.ID, view)
}

// size is an upper bound on the bytes e adds to a snapshot's EventData
// (its ID is written whole rather than as a difference).
func (q *eventQueue) size(tick uint32, e *proto.Event) int {
	q.one[0] = *e
	q.scratch = proto.AppendEvents(q.scratch[:0], tick, q.one[:])
	return len(q.scratch)
}

// pick appends to out the events the snapshot of tick carries to ss with
// view: first the level change the queue no longer holds (appendLevel),
// then the queued events due to ss within its budget, in ID order. It
// records in ss.out.evDone the newest event ID this snapshot settles:
// every event up to it is carried, dropped or not for ss, so an
// acknowledgement of the snapshot stops them being resent.
func (q *eventQueue) pick(ss *session, tick uint32, view game.Rect, out []proto.Event) []proto.Event {
	out = q.appendLevel(ss, out)
	// Leaves skipped for ss that can no longer come up.
	oldest := q.oldest()
	n := 0
	for n < len(ss.skipLeaves) && (ss.skipLeaves[n] <= ss.acks.ackEvent || ss.skipLeaves[n] < oldest) {
		n++
	}
	ss.skipLeaves = append(ss.skipLeaves[:0], ss.skipLeaves[n:]...)

	allowance := ss.rate.bytesPerSec / max(ss.rate.updateRate, 1)
	budget := allowance / EventBudgetDiv
	noticeBudget := max(allowance/NoticeBudgetDiv, MinNoticeBudget)
	picks := q.picks[:0]

	// Events up to the client's acknowledged one are settled (dueTo), and
	// one its view cannot see is not for it: the index (eventindex.go)
	// gives the others, IDs ascending, instead of every event since the
	// acknowledgement. It starts at the oldest queued, so a client that
	// never acknowledged (ack 0) costs what the queue holds, not every ID
	// since the start. An event's index in q.events is its ID less oldest.
	after := max(ss.acks.ackEvent, oldest-1)
	cands := q.index.candidates(view, ss.player.ID, after, q.nextID)

	// The others first, oldest first, until the budget or the count is
	// spent: the rest wait (cut is the first ID that waits).
	cut, used := uint32(0), 0
	for _, id := range cands {
		i := int(id - oldest)
		e := &q.events[i]
		if isNews(e, ss.player.ID, view) || !q.dueTo(ss, i, view) {
			continue
		}
		size := q.size(tick, e)
		if len(picks) > 0 && (used+size > budget || len(picks) >= MaxEventsPerSnapshot-MaxNoticesPerSnapshot) {
			cut = e.ID
			break
		}
		picks = append(picks, i)
		used += size
	}
	nHigh := len(picks)

	// Then the news older than cut, newest first, from the index's list
	// of what may be news (a kill in view is in it too, and went above).
	noticeUsed := 0
	news := q.index.news
	for k := len(news) - 1; k >= 0 && news[k] > after && len(picks)-nHigh < MaxNoticesPerSnapshot; k-- {
		i := int(news[k] - oldest)
		e := &q.events[i]
		if !isNews(e, ss.player.ID, view) || (cut != 0 && e.ID >= cut) || !q.dueTo(ss, i, view) {
			continue
		}
		size := q.size(tick, e)
		if noticeUsed+size > noticeBudget || used+size > max(budget, noticeBudget) {
			break
		}
		picks = append(picks, i)
		noticeUsed += size
		used += size
	}
	q.picks = picks
	slices.Sort(picks)
	for _, i := range picks {
		out = append(out, q.events[i])
	}
	ss.out.evDone = q.nextID
	if cut != 0 {
		ss.out.evDone = cut - 1
	}
	return out
}

// appendLevel appends the newest EvChangeLevel to out when the client has
// not had it settled by an acknowledgement and the queue no longer holds
// it (it is older than EventLifetime): a client that acknowledged nothing
// for that long must still learn the map. It goes first, as the oldest
// event; the snapshot settles it with the rest (pick's evDone is above
// its ID).
func (q *eventQueue) appendLevel(ss *session, out []proto.Event) []proto.Event {
	lv := &q.levelEv
	if lv.ID == 0 || lv.ID <= ss.acks.ackEvent || lv.Tick <= ss.since || (len(q.events) > 0 && q.events[0].ID <= lv.ID) {
		return out
	}
	return append(out, *lv)
}

// eventVisible reports whether a client (player id) with view should get
// event e: everything about itself, kills, joins, leaves and match news
// always (far kills and notices as news, which may be dropped: isNews);
// shots, hits and explosions of others only when they happen in view.
func eventVisible(e *proto.Event, id uint16, view game.Rect) bool {
	if e.A == id || e.B == id {
		return true
	}
	in := func(x, y int32) bool { return view.Contains(proto.FromFixed(x), proto.FromFixed(y)) }
	switch e.Kind {
	case proto.EvShot:
		return in(e.X, e.Y) || in(e.X2, e.Y2)
	case proto.EvHit:
		return in(e.X2, e.Y2)
	case proto.EvExplode:
		return view.Grow(float64(e.Value)).Contains(proto.FromFixed(e.X), proto.FromFixed(e.Y))
	}
	return true
}
