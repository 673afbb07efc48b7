package proto

import (
	"encoding/binary"
	"fmt"
	"math"
)

// Events ride in a snapshot as one msgpack bin (Snapshot.EventData), a
// compact byte string like EntityDelta: a msgpack array of Event structs
// spent about 35 bytes an event on type bytes and absolute values, and
// events (shots, hits, the kill feed, each resent until acknowledged) were
// a third of a snapshot at 64 players. Each event, in increasing ID order:
//
//	uvarint  ID - the previous event's ID (the first: the ID itself)
//	uvarint  snapshot Tick - event Tick
//	byte     Kind
//	uvarint  mask: bit 0 A, 1 B, 2 X, 3 Y, 4 X2, 5 Y2, 6 Value, 7 Text,
//	         8 Cmd present (a field absent is zero); other bits must be 0
//	A, B     uvarint
//	X, Y     zigzag varint (int32, fixed point)
//	X2, Y2   zigzag varint: X2 - X, Y2 - Y
//	Value    zigzag varint (int16)
//	Text     uvarint length, then that many bytes of UTF-8
//	Cmd      uvarint (uint32)

// Event field mask bits.
const (
	evA = 1 << iota
	evB
	evX
	evY
	evX2
	evY2
	evValue
	evText
	evCmd
	evAll = 1<<9 - 1
)

// MaxEvents is the most events one snapshot may carry.
const MaxEvents = 256

// AppendEvents appends the compact form of events (sorted by ID, strictly
// increasing, none newer than tick) to dst and returns it; nil for none.
func AppendEvents(dst []byte, tick uint32, events []Event) []byte {
	var prev uint32
	for i := range events {
		e := &events[i]
		dst = binary.AppendUvarint(dst, uint64(e.ID-prev))
		prev = e.ID
		dst = binary.AppendUvarint(dst, uint64(tick-e.Tick))
		dst = append(dst, e.Kind)
		var mask uint64
		for bit, set := range [...]bool{e.A != 0, e.B != 0, e.X != 0, e.Y != 0, e.X2 != e.X, e.Y2 != e.Y, e.Value != 0, e.Text != "", e.Cmd != 0} {
			if set {
				mask |= 1 << bit
			}
		}
		dst = binary.AppendUvarint(dst, mask)
		if mask&evA != 0 {
			dst = binary.AppendUvarint(dst, uint64(e.A))
		}
		if mask&evB != 0 {
			dst = binary.AppendUvarint(dst, uint64(e.B))
		}
		if mask&evX != 0 {
			dst = binary.AppendVarint(dst, int64(e.X))
		}
		if mask&evY != 0 {
			dst = binary.AppendVarint(dst, int64(e.Y))
		}
		if mask&evX2 != 0 {
			dst = binary.AppendVarint(dst, int64(e.X2)-int64(e.X))
		}
		if mask&evY2 != 0 {
			dst = binary.AppendVarint(dst, int64(e.Y2)-int64(e.Y))
		}
		if mask&evValue != 0 {
			dst = binary.AppendVarint(dst, int64(e.Value))
		}
		if mask&evText != 0 {
			dst = binary.AppendUvarint(dst, uint64(len(e.Text)))
			dst = append(dst, e.Text...)
		}
		if mask&evCmd != 0 {
			dst = binary.AppendUvarint(dst, uint64(e.Cmd))
		}
	}
	return dst
}

// DecodeEvents reads the events of a snapshot of tick from data made by
// AppendEvents, appending them to dst[:0]. Truncated or overlong varints,
// IDs that do not increase, ticks after the snapshot's, values outside
// their field's range, unknown mask bits, texts that are not clean UTF-8
// or longer than MaxReasonLen, and more than MaxEvents events are errors.
func DecodeEvents(dst []Event, tick uint32, data []byte) ([]Event, error) {
	out := dst[:0]
	var prev uint64
	r := evReader{b: data}
	for r.p < len(data) {
		if len(out) == MaxEvents {
			return out, fmt.Errorf("bad events: more than %d", MaxEvents)
		}
		var e Event
		id := prev + r.uvarint()
		back := r.uvarint()
		kind := r.byte()
		mask := r.uvarint()
		if r.err != nil || id > math.MaxUint32 || (len(out) > 0 && id <= prev) || back > uint64(tick) || mask&^evAll != 0 {
			return out, fmt.Errorf("bad events: event %d: truncated or out of range (id %d after %d, %d ticks back, mask %#x)", len(out), id, prev, back, mask)
		}
		prev = id
		e.ID, e.Tick, e.Kind = uint32(id), tick-uint32(back), kind
		if mask&evA != 0 {
			e.A = uint16(r.bounded(math.MaxUint16))
		}
		if mask&evB != 0 {
			e.B = uint16(r.bounded(math.MaxUint16))
		}
		if mask&evX != 0 {
			e.X = r.int32(0)
		}
		if mask&evY != 0 {
			e.Y = r.int32(0)
		}
		e.X2, e.Y2 = e.X, e.Y
		if mask&evX2 != 0 {
			e.X2 = r.int32(e.X)
		}
		if mask&evY2 != 0 {
			e.Y2 = r.int32(e.Y)
		}
		if mask&evValue != 0 {
			v := r.varint()
			if v < math.MinInt16 || v > math.MaxInt16 {
				r.fail()
			}
			e.Value = int16(v)
		}
		if mask&evText != 0 {
			n := int(r.bounded(MaxReasonLen))
			if r.err == nil && r.p+n <= len(data) {
				e.Text = string(data[r.p : r.p+n])
				r.p += n
				if err := checkText("event text", e.Text, MaxReasonLen); err != nil {
					return out, fmt.Errorf("bad events: event %d: %v", len(out), err)
				}
			} else {
				r.fail()
			}
		}
		if mask&evCmd != 0 {
			e.Cmd = uint32(r.bounded(math.MaxUint32))
		}
		if r.err != nil {
			return out, fmt.Errorf("bad events: event %d (id %d): truncated or out of range", len(out), id)
		}
		out = append(out, e)
	}
	return out, nil
}

// evReader reads varints from b, remembering the first failure.
type evReader struct {
	b   []byte
	p   int
	err error
}

func (r *evReader) fail() {
	if r.err == nil {
		r.err = fmt.Errorf("at byte %d", r.p)
	}
}

func (r *evReader) uvarint() uint64 { return readVarint(r, binary.Uvarint) }

func (r *evReader) varint() int64 { return readVarint(r, binary.Varint) }

// readVarint reads one varint with read (binary.Uvarint or binary.Varint).
func readVarint[T int64 | uint64](r *evReader, read func([]byte) (T, int)) T {
	if r.err != nil {
		return 0
	}
	v, n := read(r.b[r.p:])
	if n <= 0 {
		r.fail()
		return 0
	}
	r.p += n
	return v
}

func (r *evReader) byte() byte {
	if r.err != nil || r.p >= len(r.b) {
		r.fail()
		return 0
	}
	c := r.b[r.p]
	r.p++
	return c
}

func (r *evReader) bounded(max uint64) uint64 {
	v := r.uvarint()
	if v > max {
		r.fail()
	}
	return v
}

// int32 reads a zigzag varint added to base, which must stay an int32.
func (r *evReader) int32(base int32) int32 {
	v := int64(base) + r.varint()
	if v < math.MinInt32 || v > math.MaxInt32 {
		r.fail()
		return 0
	}
	return int32(v)
}
