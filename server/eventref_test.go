package server

import (
	"cmp"
	"slices"

	"tickshot/game"
	"tickshot/net/proto"
)

// pickRef is eventQueue.pick as it was before the queue had its index
// (eventindex.go): a scan of every event after the client's
// acknowledgement. TestEventIndexMatchesScan holds pick to it.
func (q *eventQueue) pickRef(ss *session, tick uint32, view game.Rect, out []proto.Event) []proto.Event {
	out = q.appendLevel(ss, out)
	// Leaves skipped for ss that can no longer come up.
	oldest := q.nextID + 1
	if len(q.events) > 0 {
		oldest = q.events[0].ID
	}
	n := 0
	for n < len(ss.skipLeaves) && (ss.skipLeaves[n] <= ss.acks.ackEvent || ss.skipLeaves[n] < oldest) {
		n++
	}
	ss.skipLeaves = append(ss.skipLeaves[:0], ss.skipLeaves[n:]...)

	allowance := ss.rate.bytesPerSec / max(ss.rate.updateRate, 1)
	budget := allowance / EventBudgetDiv
	noticeBudget := max(allowance/NoticeBudgetDiv, MinNoticeBudget)
	picks := q.picks[:0]

	// Events up to the client's acknowledged one are settled (dueTo): the
	// IDs ascend, so the search starts past them, not at the oldest of
	// EventLifetime's worth of everyone's events.
	from, _ := slices.BinarySearchFunc(q.events, ss.acks.ackEvent+1, func(e proto.Event, id uint32) int { return cmp.Compare(e.ID, id) })

	// The others first, oldest first, until the budget or the count is
	// spent: the rest wait (cut is the first ID that waits).
	cut, used := uint32(0), 0
	for i := from; i < len(q.events); i++ {
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

	// Then the news older than cut, newest first.
	noticeUsed := 0
	for i := len(q.events) - 1; i >= from && len(picks)-nHigh < MaxNoticesPerSnapshot; i-- {
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
