package server

import (
	"math/bits"
	"slices"

	"tickshot/game"
	"tickshot/net/proto"
	"tickshot/shared"
)

// The event queue's spatial index (issue 23): which queued events a
// client's view may see, so that a snapshot's pick visits those and not
// every event since the client's acknowledgement. At 1 024 players that
// was some 50 events a snapshot, against 3 at 64 (everyone's shots and
// hits, 1 024 clients each scanning them: O(N²) a second).
//
// An event positioned in the world (eventVisible: a shot, a hit, an
// explosion) goes into the buckets of the cells of side eventCell that
// its points touch, and into the lists of the players it names (A, B: a
// client sees its own events wherever they are). A kill goes there as a
// shot does (either end) and into news, with the join and leave notices:
// what may be news to a client (isNews), which pick walks newest first
// apart from the rest. Any other event (chat, match news, impacts) goes
// into anywhere. A view's candidates are anywhere, its player's list and
// the buckets of the cells the view touches: every event eventVisible
// finds in the view and isNews does not call news is among them
// (ClampCell is monotonic, so a point inside the view lies in a cell the
// view touches, and an explosion's box that meets the view shares a cell
// with it), and others near it, which pick's exact test (dueTo) drops.
// The cells are hashed into eventBuckets buckets (a spatial hash,
// Ericson, "Real-Time Collision Detection", §7.1.6), so the index needs no
// map size; two cells in one bucket add candidates, never lose one.
//
// Each list holds event IDs ascending (events are added in ID order);
// trim drops the IDs the queue dropped. The tick goroutine owns it, as it
// owns the queue.
type eventIndex struct {
	buckets  [eventBuckets][]uint32
	anywhere []uint32
	// news holds the events that may be news (isNews: notices and kills),
	// which pick walks newest first apart from the candidates.
	news  []uint32
	named [][]uint32 // by player ID
	// active are the player IDs whose named list is not empty, in no
	// order: trim visits those, not every ID ever named (IDs are given in
	// sequence, up to 65 535).
	active []uint16
	// Scratch of candidates: the candidates as bits (bit d: ID after+1+d),
	// then as IDs, and the buckets one view touches.
	marks []uint64
	ids   []uint32
	seen  []int
}

const (
	// eventCell is the side of the index's cells, world units: a view
	// (game.ViewRect) touches two or three cells across and two down.
	eventCell = 1024
	// eventCellsMax bounds the cells one axis of the index counts: the
	// coordinates past it (some 1.6 × 10⁷ units) share the last.
	eventCellsMax = 1 << 14
	// eventBuckets is how many buckets the cells hash into (a power of 2).
	eventBuckets = 256
	// eventSpanMax is the most cells across an explosion's box is put
	// into; a larger one goes into anywhere.
	eventSpanMax = 8
	// eventViewCells is the most cells a view's candidates are gathered
	// from cell by cell; a larger view takes every bucket.
	eventViewCells = 16
)

// eventCellOf is the cell column (or row) of coordinate v, world units.
func eventCellOf(v float64) int { return shared.ClampCell(v, eventCell, eventCellsMax) }

// eventBucket is the bucket of cell (cx, cy).
func eventBucket(cx, cy int) int {
	h := uint32(cx)*0x9E3779B1 ^ uint32(cy)*0x85EBCA77
	return int((h ^ h>>15) % eventBuckets)
}

// put indexes event e (its ID, kind and points).
func (ix *eventIndex) put(e *proto.Event) {
	var x0, y0, x1, y1 float64 // the box of cells it goes into
	switch e.Kind {
	case proto.EvShot: // either end
		ix.putCell(e.ID, proto.FromFixed(e.X), proto.FromFixed(e.Y))
		ix.putCell(e.ID, proto.FromFixed(e.X2), proto.FromFixed(e.Y2))
		ix.putNamed(e)
		return
	case proto.EvHit:
		ix.putCell(e.ID, proto.FromFixed(e.X2), proto.FromFixed(e.Y2))
		ix.putNamed(e)
		return
	case proto.EvKill: // news (isNews) unless either end is in view or it names the client
		ix.news = appendID(ix.news, e.ID)
		ix.putCell(e.ID, proto.FromFixed(e.X), proto.FromFixed(e.Y))
		ix.putCell(e.ID, proto.FromFixed(e.X2), proto.FromFixed(e.Y2))
		ix.putNamed(e)
		return
	case proto.EvJoin, proto.EvLeft: // news to everyone
		ix.news = appendID(ix.news, e.ID)
		return
	case proto.EvExplode: // seen from a view within Value of the point
		r := max(float64(e.Value), 0) + 1 // a unit more: the view's Grow rounds
		x, y := proto.FromFixed(e.X), proto.FromFixed(e.Y)
		x0, y0, x1, y1 = x-r, y-r, x+r, y+r
	default:
		ix.anywhere = appendID(ix.anywhere, e.ID)
		return
	}
	c0, c1, r0, r1 := eventCellOf(x0), eventCellOf(x1), eventCellOf(y0), eventCellOf(y1)
	if c1-c0 >= eventSpanMax || r1-r0 >= eventSpanMax {
		ix.anywhere = appendID(ix.anywhere, e.ID)
		return
	}
	for cy := r0; cy <= r1; cy++ {
		for cx := c0; cx <= c1; cx++ {
			b := eventBucket(cx, cy)
			ix.buckets[b] = appendID(ix.buckets[b], e.ID)
		}
	}
	ix.putNamed(e)
}

// putCell puts id into the bucket of the cell of (x, y).
func (ix *eventIndex) putCell(id uint32, x, y float64) {
	b := eventBucket(eventCellOf(x), eventCellOf(y))
	ix.buckets[b] = appendID(ix.buckets[b], id)
}

// putNamed puts e into the lists of the players it names.
func (ix *eventIndex) putNamed(e *proto.Event) {
	for _, p := range [2]uint16{e.A, e.B} {
		if p == 0 {
			continue
		}
		if int(p) >= len(ix.named) {
			ix.named = append(ix.named, make([][]uint32, int(p)+1-len(ix.named))...)
		}
		if len(ix.named[p]) == 0 {
			ix.active = append(ix.active, p)
		}
		ix.named[p] = appendID(ix.named[p], e.ID)
	}
}

// appendID appends id to the ascending list l unless it ends with it.
func appendID(l []uint32, id uint32) []uint32 {
	if n := len(l); n > 0 && l[n-1] == id {
		return l
	}
	return append(l, id)
}

// trim drops the IDs below oldest (the queue's oldest event).
func (ix *eventIndex) trim(oldest uint32) {
	for b := range ix.buckets {
		ix.buckets[b] = dropBelow(ix.buckets[b], oldest)
	}
	ix.anywhere = dropBelow(ix.anywhere, oldest)
	ix.news = dropBelow(ix.news, oldest)
	for k := 0; k < len(ix.active); {
		p := ix.active[k]
		if l := dropBelow(ix.named[p], oldest); len(l) > 0 {
			ix.named[p] = l
			k++
			continue
		}
		ix.named[p] = nil // its storage goes: the player may not come back
		ix.active[k] = ix.active[len(ix.active)-1]
		ix.active = ix.active[:len(ix.active)-1]
	}
}

// dropBelow removes the IDs below oldest from the front of the ascending
// list l, in place.
func dropBelow(l []uint32, oldest uint32) []uint32 {
	if len(l) == 0 || l[0] >= oldest {
		return l
	}
	k, _ := slices.BinarySearch(l, oldest)
	return append(l[:0], l[k:]...)
}

// candidates returns the IDs above after and up to last (the newest
// event's), ascending and each once, of the events the view of player id
// may see: every such event eventVisible finds in view, and others near
// it. The slice is ix's scratch, valid until the next call. It costs the
// lists' binary searches and one bit per ID after after: no sort.
func (ix *eventIndex) candidates(view game.Rect, id uint16, after, last uint32) []uint32 {
	if last <= after {
		return ix.ids[:0]
	}
	words := int((last-after-1)/64) + 1
	ix.marks = slices.Grow(ix.marks[:0], words)[:words]
	clear(ix.marks)
	from := func(l []uint32) {
		k, _ := slices.BinarySearch(l, after+1)
		for _, e := range l[k:] {
			d := e - after - 1
			ix.marks[d>>6] |= 1 << (d & 63)
		}
	}
	from(ix.anywhere)
	if int(id) < len(ix.named) {
		from(ix.named[id])
	}
	// The cells between the view's corners, whichever way round: an
	// inverted view holds no point, but grown by an explosion's radius
	// (eventVisible) it may, and the explosion's box then spans it. NaN
	// corners take cell 0 (ClampCell): candidates, never a loss, as
	// eventVisible finds nothing in such a view.
	c0, c1 := eventCellOf(min(view.MinX, view.MaxX)), eventCellOf(max(view.MinX, view.MaxX))
	r0, r1 := eventCellOf(min(view.MinY, view.MaxY)), eventCellOf(max(view.MinY, view.MaxY))
	if (c1-c0+1)*(r1-r0+1) > eventViewCells { // a view of much of the world: every bucket
		for b := range ix.buckets {
			from(ix.buckets[b])
		}
		r1 = r0 - 1
	}
	ix.seen = ix.seen[:0]
	for cy := r0; cy <= r1; cy++ {
		for cx := c0; cx <= c1; cx++ {
			b := eventBucket(cx, cy)
			if slices.Contains(ix.seen, b) {
				continue
			}
			ix.seen = append(ix.seen, b)
			from(ix.buckets[b])
		}
	}
	ids := ix.ids[:0]
	for w, m := range ix.marks {
		for m != 0 {
			ids = append(ids, after+1+uint32(w<<6+bits.TrailingZeros64(m)))
			m &= m - 1
		}
	}
	ix.ids = ids
	return ids
}
