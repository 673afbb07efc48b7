package proto

// Encode once, send many. A server writes one snapshot per client per
// update, each a delta against the frame that client acknowledged
// (delta.go); but the clients that acked the same tick hold the same state
// of an entity, so the record that brings that entity to this tick's state
// is the same bytes for all of them. A delta cache writes each distinct
// record once per tick (appendRecord, the one owner of the record format)
// and copies it into every client's delta that needs it, as Quake 3 keeps
// one frame per tick (svs.snapshotEntities) that every client's delta is
// written from. Records are keyed on the whole baseline and current
// values (==), not on ticks or IDs alone, so a field added to EntityState
// or PickupState is part of the key without more code here, and an entity
// that did not move between two baselines shares its record across them.

// DeltaCacheStats counts a cache's records since it was made: Hits were
// copied from a record already written, Misses were written (and kept).
// Unchanged entities, which have no record, count in neither.
type DeltaCacheStats struct {
	Hits, Misses uint64
}

// DeltaCache writes frame deltas (AppendEntityDelta, AppendPickupDelta)
// from records shared between the deltas written since its last Reset.
// The zero value is ready; a nil *DeltaCache writes every record afresh.
// The server resets it once a tick. Not safe for concurrent use.
type DeltaCache[T deltaRecord[T]] struct {
	// The records are found by the current record's ID, then by the whole
	// (baseline, current, new) key among the few of that ID.
	head    []int32 // by ID: 1 + index in entries of the newest record of that ID; 0 none
	entries []cacheEntry[T]
	buf     []byte // the records written since Reset, back to back
	stats   DeltaCacheStats
}

// EntityDeltaCache writes entity deltas (AppendEntityDelta).
type EntityDeltaCache = DeltaCache[EntityState]

// PickupDeltaCache writes pickup deltas (AppendPickupDelta).
type PickupDeltaCache = DeltaCache[PickupState]

// Append appends to dst the delta that turns base into cur (both sorted by
// ID, strictly increasing): exactly AppendEntityDelta's (or
// AppendPickupDelta's) bytes (TestDeltaCacheMatchesDirect), each record
// copied when it was written before since Reset. It allocates only while
// the cache or dst grows.
func (c *DeltaCache[T]) Append(dst []byte, base, cur []T) []byte {
	return appendDelta(dst, base, cur, c)
}

// Reset forgets the records (keeping their storage): call it when the
// frame changes, once a tick. A nil cache has none.
func (c *DeltaCache[T]) Reset() {
	if c == nil {
		return
	}
	for i := range c.entries {
		c.head[c.entries[i].cur.key()] = 0
	}
	c.entries = c.entries[:0]
	c.buf = c.buf[:0]
}

// Stats returns the counts since the cache was made (none for nil).
func (c *DeltaCache[T]) Stats() DeltaCacheStats {
	if c == nil {
		return DeltaCacheStats{}
	}
	return c.stats
}

// cacheEntry is one record written: cur against base (isNew: against the
// all-zero record, as a record new to the frame).
type cacheEntry[T any] struct {
	base, cur T
	isNew     bool
	off, end  int32 // the record is buf[off:end]
	next      int32 // 1 + index of the next older entry of the same ID; 0 none
}

// record appends cur's record (ID key) against b (appendRecord's bytes),
// copied from the cache when written before; a nil cache writes it.
func (c *DeltaCache[T]) record(dst []byte, key uint16, b, cur T, isNew bool) []byte {
	if c == nil {
		return appendRecord(dst, key, b, cur, isNew)
	}
	id := int(key)
	if id >= len(c.head) {
		c.head = append(c.head, make([]int32, id+1-len(c.head))...)
	}
	for k := c.head[id]; k != 0; {
		e := &c.entries[k-1]
		if e.base == b && e.cur == cur && e.isNew == isNew {
			c.stats.Hits++
			return append(dst, c.buf[e.off:e.end]...)
		}
		k = e.next
	}
	c.stats.Misses++
	off := len(c.buf)
	c.buf = appendRecord(c.buf, key, b, cur, isNew)
	c.entries = append(c.entries, cacheEntry[T]{base: b, cur: cur, isNew: isNew, off: int32(off), end: int32(len(c.buf)), next: c.head[id]})
	c.head[id] = int32(len(c.entries))
	return append(dst, c.buf[off:]...)
}
