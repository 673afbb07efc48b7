package proto

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"
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
//	byte     mask: bit 0 X, 1 Y, 2 Angle, 3 Health, 4 Flags, 5 Teleport
//	         changed; bit 7 removed (no field follows); bit 6 must be 0
//	fields present, in bit order:
//	  X, Y    zigzag varint: new value - baseline value (int32 fixed point)
//	  Angle   zigzag varint: new value - baseline value (int16)
//	  Health, Flags, Teleport   one byte each: the new value
//
// An entity of the new frame absent from the baseline is added: its record
// holds every field that is not zero, against an all-zero baseline entity.
// An entity of the baseline absent from the new frame gets a removed
// record. An unchanged entity has no record. A full snapshot is a delta
// against the empty baseline (Snapshot.Baseline 0).

// Entity delta mask bits.
const (
	DeltaX        = 1 << 0
	DeltaY        = 1 << 1
	DeltaAngle    = 1 << 2
	DeltaHealth   = 1 << 3
	DeltaFlags    = 1 << 4
	DeltaTeleport = 1 << 5
	DeltaRemoved  = 1 << 7
	deltaFields   = DeltaX | DeltaY | DeltaAngle | DeltaHealth | DeltaFlags | DeltaTeleport
)

// MaxEntities is the most entities a snapshot's frame may hold.
const MaxEntities = 1024

// AppendEntityDelta appends to dst the delta that turns base into cur
// (both sorted by ID, strictly increasing) and returns the extended slice.
// It allocates nothing when dst has room.
func AppendEntityDelta(dst []byte, base, cur []EntityState) []byte {
	i, j := 0, 0
	for i < len(base) || j < len(cur) {
		switch {
		case j == len(cur) || (i < len(base) && base[i].ID < cur[j].ID):
			dst = binary.AppendUvarint(dst, uint64(base[i].ID))
			dst = append(dst, DeltaRemoved)
			i++
		case i == len(base) || cur[j].ID < base[i].ID:
			dst = appendEntity(dst, &EntityState{ID: cur[j].ID}, &cur[j], true)
			j++
		default:
			dst = appendEntity(dst, &base[i], &cur[j], false)
			i++
			j++
		}
	}
	return dst
}

// appendEntity appends c's record against b (an all-zero entity when c is
// new); an unchanged entity of the baseline gets none.
func appendEntity(dst []byte, b, c *EntityState, isNew bool) []byte {
	mask := bitIf(c.X != b.X, DeltaX) | bitIf(c.Y != b.Y, DeltaY) | bitIf(c.Angle != b.Angle, DeltaAngle) |
		bitIf(c.Health != b.Health, DeltaHealth) | bitIf(c.Flags != b.Flags, DeltaFlags) |
		bitIf(c.Teleport != b.Teleport, DeltaTeleport)
	if mask == 0 && !isNew {
		return dst
	}
	dst = binary.AppendUvarint(dst, uint64(c.ID))
	dst = append(dst, mask)
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
	return dst
}

// bitIf is bit when changed, else 0.
func bitIf(changed bool, bit byte) byte {
	if changed {
		return bit
	}
	return 0
}

// ErrDelta is wrapped by every error of ApplyEntityDelta.
var ErrDelta = errors.New("bad entity delta")

// ApplyEntityDelta rebuilds a frame from its baseline (sorted by ID) and a
// delta made by AppendEntityDelta, appending the entities to dst[:0]. It
// checks everything a hostile or broken server could send: truncated
// records, IDs out of order, removal of an entity the baseline lacks,
// values that leave their type's range, unknown mask bits, more than
// MaxEntities entities; the error wraps ErrDelta. It allocates only when
// dst lacks room.
func ApplyEntityDelta(dst, base []EntityState, delta []byte) ([]EntityState, error) {
	out := dst[:0]
	i := 0
	last := -1
	for p := 0; p < len(delta); {
		id64, n := binary.Uvarint(delta[p:])
		if n <= 0 || id64 > math.MaxUint16 {
			return out, fmt.Errorf("%w: bad entity ID at byte %d", ErrDelta, p)
		}
		p += n
		id := int(id64)
		if id <= last {
			return out, fmt.Errorf("%w: entity %d after %d", ErrDelta, id, last)
		}
		last = id
		if p >= len(delta) {
			return out, fmt.Errorf("%w: record of entity %d truncated", ErrDelta, id)
		}
		mask := delta[p]
		p++
		// Unchanged baseline entities before this ID carry over.
		for i < len(base) && int(base[i].ID) < id {
			out = append(out, base[i])
			i++
		}
		inBase := i < len(base) && int(base[i].ID) == id
		if mask&DeltaRemoved != 0 {
			if mask != DeltaRemoved || !inBase {
				return out, fmt.Errorf("%w: removal of entity %d (mask %#x, in baseline %v)", ErrDelta, id, mask, inBase)
			}
			i++
			continue
		}
		if mask&^deltaFields != 0 {
			return out, fmt.Errorf("%w: unknown mask bits %#x for entity %d", ErrDelta, mask, id)
		}
		e := EntityState{ID: uint16(id)}
		if inBase {
			e = base[i]
			i++
		}
		var err error
		if mask&DeltaX != 0 {
			if e.X, p, err = addVarint32(delta, p, e.X); err != nil {
				return out, fmt.Errorf("%w: entity %d X: %v", ErrDelta, id, err)
			}
		}
		if mask&DeltaY != 0 {
			if e.Y, p, err = addVarint32(delta, p, e.Y); err != nil {
				return out, fmt.Errorf("%w: entity %d Y: %v", ErrDelta, id, err)
			}
		}
		if mask&DeltaAngle != 0 {
			v, n := binary.Varint(delta[p:])
			a := int64(e.Angle) + v
			if n <= 0 || a < math.MinInt16 || a > math.MaxInt16 {
				return out, fmt.Errorf("%w: entity %d angle", ErrDelta, id)
			}
			e.Angle, p = int16(a), p+n
		}
		for _, f := range [...]struct {
			bit byte
			v   *uint8
		}{{DeltaHealth, &e.Health}, {DeltaFlags, &e.Flags}, {DeltaTeleport, &e.Teleport}} {
			if mask&f.bit == 0 {
				continue
			}
			if p >= len(delta) {
				return out, fmt.Errorf("%w: record of entity %d truncated", ErrDelta, id)
			}
			*f.v = delta[p]
			p++
		}
		out = append(out, e)
		if len(out) > MaxEntities {
			return out, fmt.Errorf("%w: more than %d entities", ErrDelta, MaxEntities)
		}
	}
	out = append(out, base[i:]...)
	if len(out) > MaxEntities {
		return out, fmt.Errorf("%w: more than %d entities", ErrDelta, MaxEntities)
	}
	return out, nil
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

// FrameRing keeps the entity frames of the last FrameRingSize snapshots, by
// Seq (Quake 3's cl.snapshots[seq & PACKET_MASK]). Storage is reused.
type FrameRing struct {
	seq  [FrameRingSize]uint32
	ents [FrameRingSize][]EntityState
}

// Put stores a copy of the frame of snapshot seq (seq > 0).
func (r *FrameRing) Put(seq uint32, ents []EntityState) {
	i := seq % FrameRingSize
	r.seq[i] = seq
	r.ents[i] = append(r.ents[i][:0], ents...)
}

// Get returns the frame of snapshot seq, if it is still held.
func (r *FrameRing) Get(seq uint32) ([]EntityState, bool) {
	i := seq % FrameRingSize
	if seq == 0 || r.seq[i] != seq {
		return nil, false
	}
	return r.ents[i], true
}
