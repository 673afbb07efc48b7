package proto

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"math/bits"

	"tickshot/shared"
)

// Delta compression of the entity list of a snapshot against a baseline
// frame the client has acknowledged, as Quake 3 (MSG_WriteDeltaEntity
// against frames[deltaMessage & PACKET_MASK]) and Teeworlds
// (CSnapshotDelta::CreateDelta) do. The delta rides inside the msgpack
// envelope as one bin field (Snapshot.EntityDelta): a compact byte string is
// 41 % of the size of a msgpack array of the same records (a field mask and
// zigzag varints instead of a type byte and a full-width integer per value;
// TestDeltaBinSmallerThanMsgpackRecords).
//
// Both entity lists are sorted by ID, strictly increasing. The delta is a
// sequence of records, in increasing ID order:
//
//	uvarint  ID
//	byte     mask: bit 0 X, 1 Y, 2 Angle, 3 Health, 4 Flags, 5 Teleport,
//	         6 Weapon changed; bit 7 removed (no field follows)
//	fields present, in bit order:
//	  X, Y    zigzag varint: new value - baseline value (int32 fixed point)
//	  Angle   zigzag varint: new value - baseline value (int16)
//	  Health, Flags, Teleport, Weapon   one byte each: the new value
//	          (Weapon below shared.NumWeapons)
//
// An entity of the new frame absent from the baseline is added: its record
// holds every field that is not zero, against an all-zero baseline entity.
// An entity of the baseline absent from the new frame gets a removed
// record. A full snapshot is a delta against the empty baseline
// (Snapshot.Baseline 0).
//
// Fresh and held entities (EntityState.Tick, not on the wire): every entity
// with a record is fresh, its state that of the snapshot's tick; an entity
// that is fresh but unchanged since the baseline gets an empty record (its
// ID and mask 0, two or three bytes). An entity of both frames without a
// record is held: the server did not update it in this snapshot (its
// priority did not reach the byte budget, server/priority.go) and it keeps
// the baseline's state and Tick. The writer tells the two apart by Tick: a
// current entity whose Tick differs from its baseline's gets a record.

// Entity delta mask bits.
const (
	DeltaX        = 1 << 0
	DeltaY        = 1 << 1
	DeltaAngle    = 1 << 2
	DeltaHealth   = 1 << 3
	DeltaFlags    = 1 << 4
	DeltaTeleport = 1 << 5
	DeltaWeapon   = 1 << 6
	DeltaRemoved  = 1 << 7
	deltaFields   = DeltaX | DeltaY | DeltaAngle | DeltaHealth | DeltaFlags | DeltaTeleport | DeltaWeapon
)

// MaxEntities is the most entities a snapshot's frame may hold.
const MaxEntities = 1024

// AppendEntityDelta appends to dst the delta that turns base into cur
// (both sorted by ID, strictly increasing) and returns the extended slice.
// It allocates nothing when dst has room.
func AppendEntityDelta(dst []byte, base, cur []EntityState) []byte {
	return appendDelta(dst, base, cur, nil)
}

// deltaRecord is a record of a delta-encoded frame (EntityState,
// PickupState), passed by value: the walk over two frames (appendDelta,
// applyDelta) is one for both, each type gives its fields. Records are
// compared whole (==) as the keys of a DeltaCache.
type deltaRecord[T any] interface {
	comparable
	key() uint16                                           // its ID
	withKey(id uint16) T                                   // the all-zero record of ID id
	diff(base T) byte                                      // the mask of fields that differ from base
	appendFields(dst []byte, mask byte, base T) []byte     // the fields of mask, against base
	readFields(mask byte, d []byte, p int) (T, int, error) // the receiver (the baseline record) with mask's fields from d[p:]
	newer(base T) bool                                     // fresh though unchanged: an empty record is due (EntityState.Tick)
	stamped(tick uint32) T                                 // the receiver as a record of the snapshot of tick made it
}

// deltaLimits are what applyDelta accepts of one kind of frame.
type deltaLimits struct {
	what     string // "entity", "pickup" (errors)
	fields   byte   // the mask bits that may be set (DeltaRemoved aside)
	maxItems int    // records in a frame
	maxID    int
}

var entityLimits = deltaLimits{what: "entity", fields: deltaFields, maxItems: MaxEntities, maxID: math.MaxUint16}

// appendDelta appends the records that turn frame base into cur, each
// written by cache (cache.record; nil: written here and now). Each
// record's ID is read once (key is a call through the generic dictionary);
// an unchanged record is passed over without one.
func appendDelta[T deltaRecord[T]](dst []byte, base, cur []T, cache *DeltaCache[T]) []byte {
	var zero T
	const end = math.MaxUint16 + 1 // past every ID: that frame is done
	i, j := 0, 0
	for i < len(base) || j < len(cur) {
		bk, ck := end, end
		if i < len(base) {
			bk = int(base[i].key())
		}
		if j < len(cur) {
			ck = int(cur[j].key())
		}
		switch {
		case bk < ck:
			dst = binary.AppendUvarint(dst, uint64(bk))
			dst = append(dst, DeltaRemoved)
			i++
		case ck < bk:
			dst = cache.record(dst, uint16(ck), zero.withKey(uint16(ck)), cur[j], true)
			j++
		default:
			if base[i] != cur[j] {
				dst = cache.record(dst, uint16(ck), base[i], cur[j], false)
			}
			i++
			j++
		}
	}
	return dst
}

// appendRecord appends c's record (its ID id) against b (the all-zero record
// when c is new); a record of the baseline that is unchanged and not newer
// (held) gets none, one that is unchanged but newer an empty one (mask 0).
func appendRecord[T deltaRecord[T]](dst []byte, id uint16, b, c T, isNew bool) []byte {
	mask := c.diff(b)
	if mask == 0 && !isNew && !c.newer(b) {
		return dst
	}
	dst = binary.AppendUvarint(dst, uint64(id))
	dst = append(dst, mask)
	return c.appendFields(dst, mask, b)
}

func (c EntityState) key() uint16 { return c.ID }

func (c EntityState) newer(b EntityState) bool { return c.Tick != b.Tick }

func (c EntityState) stamped(tick uint32) EntityState {
	c.Tick = tick
	return c
}

// AppendEntityRecord appends to dst cur's record in a delta against base
// (inBase false: cur is added, base is ignored), nothing when cur is held,
// and returns the extended slice: appendRecord, the one writer of a
// record (EntityRecordLen counts its bytes without writing them); it
// allocates nothing when dst has room (a record is at most 21 bytes).
func AppendEntityRecord(dst []byte, base, cur EntityState, inBase bool) []byte {
	if !inBase {
		base = EntityState{ID: cur.ID}
	}
	return appendRecord(dst, cur.ID, base, cur, !inBase)
}

// EntityRecordLen is len(AppendEntityRecord(nil, base, cur, inBase)),
// counted without writing: the server sizes every player in a client's
// view with it to fill a snapshot's byte budget (server/priority.go), and
// the record, written through appendRecord's generic calls, took two
// fifths of that choice. TestEntityRecordLenMatchesRecord holds the two
// to the same lengths.
func EntityRecordLen(base, cur EntityState, inBase bool) int {
	if !inBase {
		base = EntityState{ID: cur.ID}
	}
	mask := cur.diff(base)
	if mask == 0 && inBase && cur.Tick == base.Tick { // held: no record (appendRecord)
		return 0
	}
	n := uvarintLen(uint64(cur.ID)) + 1 // the ID and the mask
	if mask&DeltaX != 0 {
		n += varintLen(int64(cur.X) - int64(base.X))
	}
	if mask&DeltaY != 0 {
		n += varintLen(int64(cur.Y) - int64(base.Y))
	}
	if mask&DeltaAngle != 0 {
		n += varintLen(int64(cur.Angle) - int64(base.Angle))
	}
	return n + bits.OnesCount8(mask&(DeltaHealth|DeltaFlags|DeltaTeleport|DeltaWeapon)) // a byte each
}

// uvarintLen is len(binary.AppendUvarint(nil, v)).
func uvarintLen(v uint64) int { return (bits.Len64(v|1) + 6) / 7 }

// varintLen is len(binary.AppendVarint(nil, v)): its zigzag form's.
func varintLen(v int64) int { return uvarintLen(uint64(v<<1) ^ uint64(v>>63)) }

// RemovedRecordLen is the length in bytes of the removed record of entity id.
func RemovedRecordLen(id uint16) int {
	var buf [4]byte
	return len(binary.AppendUvarint(buf[:0], uint64(id))) + 1
}

func (c EntityState) withKey(id uint16) EntityState { return EntityState{ID: id} }

func (c EntityState) diff(b EntityState) byte {
	return bitIf(c.X != b.X, DeltaX) | bitIf(c.Y != b.Y, DeltaY) | bitIf(c.Angle != b.Angle, DeltaAngle) |
		bitIf(c.Health != b.Health, DeltaHealth) | bitIf(c.Flags != b.Flags, DeltaFlags) |
		bitIf(c.Teleport != b.Teleport, DeltaTeleport) | bitIf(c.Weapon != b.Weapon, DeltaWeapon)
}

func (c EntityState) appendFields(dst []byte, mask byte, b EntityState) []byte {
	if mask&DeltaX != 0 {
		dst = binary.AppendVarint(dst, int64(c.X)-int64(b.X))
	}
	if mask&DeltaY != 0 {
		dst = binary.AppendVarint(dst, int64(c.Y)-int64(b.Y))
	}
	if mask&DeltaAngle != 0 {
		dst = binary.AppendVarint(dst, int64(c.Angle)-int64(b.Angle))
	}
	if mask&DeltaHealth != 0 {
		dst = append(dst, c.Health)
	}
	if mask&DeltaFlags != 0 {
		dst = append(dst, c.Flags)
	}
	if mask&DeltaTeleport != 0 {
		dst = append(dst, c.Teleport)
	}
	if mask&DeltaWeapon != 0 {
		dst = append(dst, c.Weapon)
	}
	return dst
}

func (e EntityState) readFields(mask byte, d []byte, p int) (EntityState, int, error) {
	var err error
	if e.X, e.Y, p, err = readXY(mask, DeltaX, DeltaY, d, p, e.X, e.Y); err != nil {
		return e, p, err
	}
	if mask&DeltaAngle != 0 {
		v, n := binary.Varint(d[p:])
		a := int64(e.Angle) + v
		if n <= 0 || a < math.MinInt16 || a > math.MaxInt16 {
			return e, p, errors.New("angle out of range")
		}
		e.Angle, p = int16(a), p+n
	}
	for _, f := range [...]struct {
		bit byte
		v   *uint8
	}{{DeltaHealth, &e.Health}, {DeltaFlags, &e.Flags}, {DeltaTeleport, &e.Teleport}, {DeltaWeapon, &e.Weapon}} {
		if mask&f.bit == 0 {
			continue
		}
		if p >= len(d) {
			return e, p, errTruncated
		}
		*f.v = d[p]
		p++
	}
	if e.Weapon >= shared.NumWeapons {
		return e, p, fmt.Errorf("weapon %d out of range (%d weapons)", e.Weapon, shared.NumWeapons)
	}
	return e, p, nil
}

// bitIf is bit when changed, else 0.
func bitIf(changed bool, bit byte) byte {
	if changed {
		return bit
	}
	return 0
}

// ErrDelta is wrapped by every error of ApplyEntityDelta and ApplyPickupDelta.
var ErrDelta = errors.New("bad entity delta")

// errTruncated: a record ends before its fields do.
var errTruncated = errors.New("record truncated")

// ApplyEntityDelta is ApplySnapshotDelta for a snapshot of tick 0: every
// entity with a record gets Tick 0.
func ApplyEntityDelta(dst, base []EntityState, delta []byte) ([]EntityState, error) {
	return ApplySnapshotDelta(dst, base, delta, 0)
}

// ApplySnapshotDelta rebuilds the frame of the snapshot of tick from its
// baseline (sorted by ID) and a delta made by AppendEntityDelta, appending
// the entities to dst[:0]: an entity with a record gets Tick tick (fresh),
// one without keeps its baseline's (held). It
// checks everything a hostile or broken server could send: truncated
// records, IDs out of order, removal of an entity the baseline lacks,
// values that leave their type's range, unknown mask bits, more than
// MaxEntities entities; the error wraps ErrDelta. It allocates only when
// dst lacks room.
func ApplySnapshotDelta(dst, base []EntityState, delta []byte, tick uint32) ([]EntityState, error) {
	return applyDelta(dst, base, delta, entityLimits, tick)
}

// applyDelta rebuilds a frame of records from base and delta within lim,
// the records of the snapshot of tick.
func applyDelta[T deltaRecord[T]](dst, base []T, delta []byte, lim deltaLimits, tick uint32) ([]T, error) {
	var zero T
	out := dst[:0]
	i := 0
	last := -1
	for p := 0; p < len(delta); {
		id64, n := binary.Uvarint(delta[p:])
		if n <= 0 || id64 > uint64(lim.maxID) {
			return out, fmt.Errorf("%w: bad %s ID at byte %d", ErrDelta, lim.what, p)
		}
		p += n
		id := int(id64)
		if id <= last {
			return out, fmt.Errorf("%w: %s %d after %d", ErrDelta, lim.what, id, last)
		}
		last = id
		if p >= len(delta) {
			return out, fmt.Errorf("%w: record of %s %d truncated", ErrDelta, lim.what, id)
		}
		mask := delta[p]
		p++
		// Unchanged baseline records before this ID carry over.
		for i < len(base) && int(base[i].key()) < id {
			out = append(out, base[i])
			i++
		}
		inBase := i < len(base) && int(base[i].key()) == id
		if mask&DeltaRemoved != 0 {
			if mask != DeltaRemoved || !inBase {
				return out, fmt.Errorf("%w: removal of %s %d (mask %#x, in baseline %v)", ErrDelta, lim.what, id, mask, inBase)
			}
			i++
			continue
		}
		if mask&^lim.fields != 0 {
			return out, fmt.Errorf("%w: unknown mask bits %#x for %s %d", ErrDelta, mask, lim.what, id)
		}
		e := zero.withKey(uint16(id))
		if inBase {
			e = base[i]
			i++
		}
		var err error
		if e, p, err = e.readFields(mask, delta, p); err != nil {
			return out, fmt.Errorf("%w: %s %d: %v", ErrDelta, lim.what, id, err)
		}
		out = append(out, e.stamped(tick))
		if len(out) > lim.maxItems {
			return out, fmt.Errorf("%w: more than %d %s records", ErrDelta, lim.maxItems, lim.what)
		}
	}
	out = append(out, base[i:]...)
	if len(out) > lim.maxItems {
		return out, fmt.Errorf("%w: more than %d %s records", ErrDelta, lim.maxItems, lim.what)
	}
	return out, nil
}

// readXY adds to x and y the zigzag varint deltas at d[p:] that mask's
// bits bx and by say are there, in that order.
func readXY(mask, bx, by byte, d []byte, p int, x, y int32) (int32, int32, int, error) {
	var err error
	if mask&bx != 0 {
		if x, p, err = addVarint32(d, p, x); err != nil {
			return x, y, p, fmt.Errorf("X: %w", err)
		}
	}
	if mask&by != 0 {
		if y, p, err = addVarint32(d, p, y); err != nil {
			return x, y, p, fmt.Errorf("Y: %w", err)
		}
	}
	return x, y, p, nil
}

func addVarint32(b []byte, p int, base int32) (int32, int, error) {
	v, n := binary.Varint(b[p:])
	if n <= 0 {
		return 0, p, errors.New("truncated or overlong varint")
	}
	s := int64(base) + v
	if s < math.MinInt32 || s > math.MaxInt32 {
		return 0, p, errors.New("value out of int32 range")
	}
	return int32(s), p + n, nil
}

// FrameRingSize is how many snapshots' entity frames a client keeps for
// baselines; the server never deltas against a snapshot older than that
// (Seq distance), so an acked baseline is always still held.
const FrameRingSize = 64

// FrameRing keeps the entity and pickup frames of the last FrameRingSize snapshots, by
// Seq (Quake 3's cl.snapshots[seq & PACKET_MASK]). Storage is reused.
type FrameRing struct {
	seq   [FrameRingSize]uint32
	ents  [FrameRingSize][]EntityState
	picks [FrameRingSize][]PickupState
}

// Put stores a copy of the frame of snapshot seq (seq > 0).
func (r *FrameRing) Put(seq uint32, ents []EntityState) {
	i := seq % FrameRingSize
	r.seq[i] = seq
	r.ents[i] = append(r.ents[i][:0], ents...)
}

// PutPickups stores a copy of the pickup frame of snapshot seq (after Put).
func (r *FrameRing) PutPickups(seq uint32, picks []PickupState) {
	i := seq % FrameRingSize
	r.picks[i] = append(r.picks[i][:0], picks...)
}

// Pickups returns the pickup frame of snapshot seq, if it is still held.
func (r *FrameRing) Pickups(seq uint32) ([]PickupState, bool) {
	i := seq % FrameRingSize
	if seq == 0 || r.seq[i] != seq {
		return nil, false
	}
	return r.picks[i], true
}

// Get returns the frame of snapshot seq, if it is still held.
func (r *FrameRing) Get(seq uint32) ([]EntityState, bool) {
	i := seq % FrameRingSize
	if seq == 0 || r.seq[i] != seq {
		return nil, false
	}
	return r.ents[i], true
}
