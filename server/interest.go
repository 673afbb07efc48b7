package server

import (
	"cmp"
	"slices"

	"tickshot/game"
	"tickshot/net/proto"
)

// Interest management's spatial index (issue 23): each tick's frames are
// put into grids (game.PackedGrid) once, by their quantized positions, so that
// a client's selection (selectFor) visits only the cells its view touches
// instead of every player, projectile and pickup of the world. The grids
// return frame indices in ascending order and the exact test
// (game.Rect.Contains) is kept, so a snapshot holds what the loop over
// the whole frame chose, in the same order (players by ID).
type frameIndex struct {
	ents, projs, picks game.PackedGrid // rebuilt each tick: one slice of items each, not a slice a cell
	buf                []int32
	byID               []*session // the sessions by player ID (sortSessions)
}

// index puts this tick's frames into their grids (buildFrame).
func (sw *snapshotWriter) index() {
	m, ix := sw.w.Map, &sw.ix
	ix.ents.Build(m.Width, m.Height, len(sw.frame), func(i int) (float64, float64) {
		return proto.FromFixed(sw.frame[i].X), proto.FromFixed(sw.frame[i].Y)
	})
	ix.projs.Build(m.Width, m.Height, len(sw.projFrame), func(i int) (float64, float64) {
		return proto.FromFixed(sw.projFrame[i].X), proto.FromFixed(sw.projFrame[i].Y)
	})
	ix.picks.Build(m.Width, m.Height, len(sw.pickFrame), func(i int) (float64, float64) {
		return proto.FromFixed(sw.pickFrame[i].X), proto.FromFixed(sw.pickFrame[i].Y)
	})
}

// inView appends to snap the frame's players (but self), projectiles and
// pickups inside view, each kind in frame order.
func (sw *snapshotWriter) inView(snap *proto.Snapshot, view game.Rect, self uint16) {
	ix := &sw.ix
	ix.buf = ix.projs.Query(view, ix.buf)
	for _, i := range ix.buf {
		if pr := sw.projFrame[i]; view.Contains(proto.FromFixed(pr.X), proto.FromFixed(pr.Y)) {
			snap.Projectiles = append(snap.Projectiles, pr)
		}
	}
	ix.buf = ix.ents.Query(view, ix.buf)
	for _, i := range ix.buf {
		if e := sw.frame[i]; e.ID != self && view.Contains(proto.FromFixed(e.X), proto.FromFixed(e.Y)) {
			snap.Entities = append(snap.Entities, e)
		}
	}
	ix.buf = ix.picks.Query(view, ix.buf)
	for _, i := range ix.buf {
		if pk := sw.pickFrame[i]; view.Contains(proto.FromFixed(pk.X), proto.FromFixed(pk.Y)) {
			snap.Pickups = append(snap.Pickups, pk)
		}
	}
}

// sortSessions sorts a copy of sessions by player ID for session (the
// scoreboard's pings and colours: a binary search a row, not a scan of
// every session); stable, so that of two with one ID the first is found,
// as sessionOf finds it.
func (ix *frameIndex) sortSessions(sessions []*session) {
	ix.byID = append(ix.byID[:0], sessions...)
	slices.SortStableFunc(ix.byID, func(a, b *session) int { return cmp.Compare(a.player.ID, b.player.ID) })
}

// session is sessionOf over the sessions last sorted (sortSessions).
func (ix *frameIndex) session(id uint16) *session {
	i, ok := slices.BinarySearchFunc(ix.byID, id, func(ss *session, id uint16) int { return cmp.Compare(ss.player.ID, id) })
	if !ok {
		return nil
	}
	return ix.byID[i]
}
