package proto

import (
	"encoding/binary"
	"math"

	"tickshot/shared"
)

// A hand-written decoder for Cmds, the message every client sends at
// cl_cmdrate (issue 23: msgpack's reflection took some 2 µs a client a
// tick, 85 % of the server's read of a client). It decodes only the form
// the client's encoder writes (compact integers, float32, the AckAges as
// bin 8 or nil) and says false for anything else, which Decode then hands
// to msgpack.Unmarshal: so every message decodes to what msgpack gives,
// and every malformed one fails with msgpack's own error, after the same
// precheck and before the same check (TestCmdsFastMatchesMsgpack,
// FuzzCmdsFast compare the two on random and mutated messages).

// cmdsFields and userCmdFields are the array lengths of Cmds and
// shared.UserCmd as msgpack writes them (as_array: one element a field).
const (
	cmdsFields    = 5
	userCmdFields = 10
)

// fastReader reads the msgpack forms decodeCmdsFast accepts; ok turns
// false at the first byte it does not take, and stays so.
type fastReader struct {
	b  []byte
	ok bool
}

func (r *fastReader) byte() byte {
	if !r.ok || len(r.b) == 0 {
		r.ok = false
		return 0
	}
	c := r.b[0]
	r.b = r.b[1:]
	return c
}

func (r *fastReader) take(n int) []byte {
	if !r.ok || len(r.b) < n {
		r.ok = false
		return nil
	}
	s := r.b[:n]
	r.b = r.b[n:]
	return s
}

// array reads an array header of 1..65535 elements.
func (r *fastReader) array() int {
	switch c := r.byte(); {
	case c > 0x90 && c <= 0x9f:
		return int(c & 0x0f)
	case c == 0xdc:
		if s := r.take(2); s != nil {
			if n := int(binary.BigEndian.Uint16(s)); n > 0 {
				return n
			}
		}
	}
	r.ok = false
	return 0
}

// uint reads an unsigned integer of at most bits bits in a form no wider
// than bits: a positive fixint, uint 8, 16 or 32.
func (r *fastReader) uint(bits int) uint32 {
	switch c := r.byte(); {
	case c <= 0x7f:
		return uint32(c)
	case c == 0xcc:
		if s := r.take(1); s != nil {
			return uint32(s[0])
		}
	case c == 0xcd && bits >= 16:
		if s := r.take(2); s != nil {
			return uint32(binary.BigEndian.Uint16(s))
		}
	case c == 0xce && bits >= 32:
		if s := r.take(4); s != nil {
			return binary.BigEndian.Uint32(s)
		}
	}
	r.ok = false
	return 0
}

// float32 reads a float 32.
func (r *fastReader) float32() float32 {
	if r.byte() == 0xca {
		if s := r.take(4); s != nil {
			return math.Float32frombits(binary.BigEndian.Uint32(s))
		}
	}
	r.ok = false
	return 0
}

// decodeCmdsFast decodes body (a Cmds without its type byte) into m, a
// zero Cmds, and reports whether it could: false for any form it does not
// take (m is then partly written: decode a fresh one).
func decodeCmdsFast(body []byte, msg Message) bool {
	m := msg.(*Cmds)
	r := fastReader{b: body, ok: true}
	if r.array() != cmdsFields {
		return false
	}
	m.Ack, m.AckBits, m.Seq = r.uint(32), r.uint(32), r.uint(32)
	n := r.array()
	if !r.ok || n > MaxCmdsPerMsg {
		return false // msgpack's error, or the check's
	}
	m.Cmds = make([]shared.UserCmd, n)
	for i := range m.Cmds {
		c := &m.Cmds[i]
		if r.array() != userCmdFields {
			return false
		}
		c.CommandNumber, c.TickCount = r.uint(32), r.uint(32)
		c.TickFrac, c.Msec = uint8(r.uint(8)), uint8(r.uint(8))
		c.LerpMsec, c.Buttons = uint16(r.uint(16)), uint16(r.uint(16))
		c.MoveX, c.MoveY, c.ViewAngle = r.float32(), r.float32(), r.float32()
		c.Weapon = uint8(r.uint(8))
	}
	switch r.byte() {
	case 0xc0: // nil
	case 0xc4: // bin 8
		if k := int(r.byte()); k > 0 {
			m.AckAges = append([]uint8(nil), r.take(k)...)
		} else {
			return false
		}
	default:
		return false
	}
	return r.ok && len(r.b) == 0
}
