package server

import (
	"slices"

	"tickshot/game"
	"tickshot/net/proto"
)

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
//     keep the rest; the oldest event that is not a notice always goes, so
//     no budget is too small to make progress. Events over the budget wait
//     for the next snapshot, in order (a client applies an event only when
//     its ID is above every ID it has seen, so skipping one and sending a
//     newer would lose it).
//   - Priority: the kill feed, hits, chat, match news and effects come
//     first; join and leave notices (EvJoin, EvLeft) take what is left, at
//     most MaxNoticesPerSnapshot of them and 1/NoticeBudgetDiv of the
//     allowance (at least MinNoticeBudget bytes), newest first: a stale
//     notice not chosen is dropped for that client. The scoreboard, sent
//     at least every 2 s and within 1 s of a change, stays the truth about
//     who is playing and their names.
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

// isNotice reports whether e is a join or leave notice: the events that
// yield to all others and may be dropped.
func isNotice(e *proto.Event) bool { return e.Kind == proto.EvJoin || e.Kind == proto.EvLeft }

// coalesceLeave is called when the leave notice at s.events[i] is queued
// (tick goroutine): if the leaver's join notice is still queued, it is
// sent to no one any more, and the clients that cannot have been sent it
// (no snapshot carried an event with its ID or a later one) will not be
// sent the leave either.
func (s *Server) coalesceLeave(i int) {
	leave := &s.events[i]
	for j := i - 1; j >= 0; j-- {
		e := &s.events[j]
		if e.A != leave.A {
			continue
		}
		if e.Kind == proto.EvLeft {
			return // an earlier leave of a reused ID: its join is not this one's
		}
		if e.Kind != proto.EvJoin {
			continue
		}
		s.eventGone[j] = true
		for _, ss := range s.sessions {
			if e.ID > ss.evSentMax {
				ss.skipLeaves = append(ss.skipLeaves, leave.ID)
			}
		}
		return
	}
}

// eventFor reports whether s.events[i] is due to ss: not yet acknowledged,
// newer than its admission, addressed and visible to it, and not
// coalesced away.
func (s *Server) eventFor(ss *session, i int, view game.Rect) bool {
	e := &s.events[i]
	if e.ID <= ss.acks.ackEvent || e.Tick <= ss.since || s.eventGone[i] {
		return false
	}
	if to := s.eventTo[i]; to != 0 && to != ss.player.ID {
		return false
	}
	if e.Kind == proto.EvLeft {
		if _, skip := slices.BinarySearch(ss.skipLeaves, e.ID); skip {
			return false
		}
	}
	return eventVisible(e, ss.player.ID, view)
}

// eventSize is an upper bound on the bytes e adds to a snapshot's
// EventData (its ID is written whole rather than as a difference).
func (ss *session) eventSize(tick uint32, e *proto.Event) int {
	ss.out.evOne[0] = *e
	ss.out.evScratch = proto.AppendEvents(ss.out.evScratch[:0], tick, ss.out.evOne[:])
	return len(ss.out.evScratch)
}

// pickEvents appends to out the events the snapshot of this tick carries
// to ss within its budget, in ID order, and records in ss.out.evDone the
// newest event ID this snapshot settles: every event up to it is carried,
// dropped or not for ss, so an acknowledgement of the snapshot stops them
// being resent.
func (s *Server) pickEvents(ss *session, view game.Rect, out []proto.Event) []proto.Event {
	// Leaves skipped for ss that can no longer come up.
	oldest := s.nextEventID + 1
	if len(s.events) > 0 {
		oldest = s.events[0].ID
	}
	n := 0
	for n < len(ss.skipLeaves) && (ss.skipLeaves[n] <= ss.acks.ackEvent || ss.skipLeaves[n] < oldest) {
		n++
	}
	ss.skipLeaves = append(ss.skipLeaves[:0], ss.skipLeaves[n:]...)

	tick := s.w.Tick
	allowance := ss.rate.bytesPerSec / max(ss.rate.updateRate, 1)
	budget := allowance / EventBudgetDiv
	noticeBudget := max(allowance/NoticeBudgetDiv, MinNoticeBudget)
	picks := ss.out.evPick[:0]

	// The others first, oldest first, until the budget or the count is
	// spent: the rest wait (cut is the first ID that waits).
	cut, used := uint32(0), 0
	for i := range s.events {
		e := &s.events[i]
		if isNotice(e) || !s.eventFor(ss, i, view) {
			continue
		}
		size := ss.eventSize(tick, e)
		if len(picks) > 0 && (used+size > budget || len(picks) >= MaxEventsPerSnapshot-MaxNoticesPerSnapshot) {
			cut = e.ID
			break
		}
		picks = append(picks, i)
		used += size
	}
	nHigh := len(picks)

	// Then the notices older than cut, newest first.
	noticeUsed := 0
	for i := len(s.events) - 1; i >= 0 && len(picks)-nHigh < MaxNoticesPerSnapshot; i-- {
		e := &s.events[i]
		if !isNotice(e) || (cut != 0 && e.ID >= cut) || !s.eventFor(ss, i, view) {
			continue
		}
		size := ss.eventSize(tick, e)
		if noticeUsed+size > noticeBudget || used+size > max(budget, noticeBudget) {
			break
		}
		picks = append(picks, i)
		noticeUsed += size
		used += size
	}
	ss.out.evPick = picks
	slices.Sort(picks)
	for _, i := range picks {
		out = append(out, s.events[i])
	}
	ss.out.evDone = s.nextEventID
	if cut != 0 {
		ss.out.evDone = cut - 1
	}
	return out
}
