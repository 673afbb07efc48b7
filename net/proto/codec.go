package proto

import (
	"bytes"
	"errors"
	"fmt"
	"math"
	"strings"
	"unicode/utf8"

	"github.com/vmihailenco/msgpack/v5"

	"tickshot/shared"
)

// ErrEmpty is returned for a zero-length frame.
var ErrEmpty = errors.New("empty message")

// Encode returns the wire form of m: its type byte and msgpack body.
func Encode(m Message) ([]byte, error) {
	var buf bytes.Buffer
	buf.WriteByte(byte(m.Type()))
	enc := msgpack.GetEncoder()
	defer msgpack.PutEncoder(enc)
	enc.Reset(&buf)
	// Integers in their smallest msgpack form (a positive fixint is one
	// byte): protocol 1 wrote every integer at full width, a third of a
	// snapshot's bytes. Every decoder reads any integer form.
	enc.UseCompactInts(true)
	if err := enc.Encode(m); err != nil {
		return nil, fmt.Errorf("encode %s: %w", m.Type(), err)
	}
	return buf.Bytes(), nil
}

// sliceWriter is an io.Writer appending to a byte slice.
type sliceWriter struct{ b []byte }

func (w *sliceWriter) Write(p []byte) (int, error) {
	w.b = append(w.b, p...)
	return len(p), nil
}

// WriteByte makes msgpack write single bytes straight in (without it,
// msgpack wraps the writer and allocates for every byte).
func (w *sliceWriter) WriteByte(c byte) error {
	w.b = append(w.b, c)
	return nil
}

// Encoder appends messages' wire form to caller-owned buffers without
// allocating once they have room: the server writes every snapshot with
// one. Not safe for concurrent use.
type Encoder struct {
	w   sliceWriter
	enc *msgpack.Encoder
}

// Append appends the wire form of m (Encode's) to dst and returns it. It
// panics on an encoding error, as MustEncode (none of our messages fail).
func (e *Encoder) Append(dst []byte, m Message) []byte {
	if e.enc == nil {
		e.enc = msgpack.NewEncoder(&e.w)
		e.enc.UseCompactInts(true)
	}
	e.w.b = append(dst, byte(m.Type()))
	var err error
	if c, ok := m.(msgpack.CustomEncoder); ok {
		err = c.EncodeMsgpack(e.enc) // straight in: no reflection, no allocation
	} else {
		err = e.enc.Encode(m)
	}
	if err != nil {
		panic(fmt.Errorf("encode %s: %w", m.Type(), err))
	}
	b := e.w.b
	e.w.b = nil
	return b
}

// MustEncode is Encode for messages that cannot fail to encode (all of ours).
func MustEncode(m Message) []byte {
	b, err := Encode(m)
	if err != nil {
		panic(err)
	}
	return b
}

// Decode parses one frame into its concrete message struct and checks every
// field's structural limits (lengths, string validity; see Check). It never
// decodes into interface{}. Errors say what was wrong, for a kick reason.
func Decode(data []byte) (Message, error) {
	if len(data) == 0 {
		return nil, ErrEmpty
	}
	d := msgDefOf(MsgType(data[0]))
	if d == nil {
		return nil, fmt.Errorf("unknown message type %d", data[0])
	}
	m := d.new()
	body := data[1:]
	if err := precheck(body); err != nil {
		return nil, fmt.Errorf("malformed %s: %w", d.name, err)
	}
	if d.fast == nil || !d.fast(body, m) {
		if d.fast != nil {
			m = d.new() // the fast decoder may have written part of it
		}
		if err := msgpack.Unmarshal(body, m); err != nil {
			return nil, fmt.Errorf("malformed %s: %w", d.name, err)
		}
	}
	if err := d.check(m); err != nil {
		return nil, fmt.Errorf("invalid %s: %w", d.name, err)
	}
	return m, nil
}

// precheck walks the msgpack structure without allocating and refuses any
// declared array, map, string or binary length larger than the bytes left,
// and nesting deeper than 8. Belt and braces over msgpack v5.3.6's own cap
// (DESIGN.md: v5.4.x honours any declared length).
func precheck(b []byte) error {
	_, err := walk(b, 0)
	return err
}

// The precheck's errors for a body cut short: errLen when a str, bin,
// array or map declares more bytes or elements than are left, errTrunc
// when anything else runs past the end (a value that is missing, a
// scalar or a length field cut short).
var (
	errLen   = errors.New("declared length exceeds message")
	errTrunc = errors.New("truncated")
)

func walk(b []byte, depth int) (int, error) {
	if depth > 8 {
		return 0, errors.New("nesting too deep")
	}
	if len(b) == 0 {
		return 0, errTrunc
	}
	c := b[0]
	need := func(n int) error {
		if n > len(b) {
			return errLen
		}
		return nil
	}
	be := func(off, size int) (int, error) {
		if off+size > len(b) {
			return 0, errTrunc // the length itself is cut short
		}
		var v uint64
		for i := 0; i < size; i++ {
			v = v<<8 | uint64(b[off+i])
		}
		if v > uint64(len(b)) { // cannot fit; also keeps int(v) from overflowing on 32-bit
			return 0, errLen
		}
		return int(v), nil
	}
	container := func(hdr, n, per int) (int, error) {
		if n*per > len(b)-hdr { // every element takes at least one byte
			return 0, errLen
		}
		off := hdr
		for i := 0; i < n*per; i++ {
			k, err := walk(b[off:], depth+1)
			if err != nil {
				return 0, err
			}
			off += k
		}
		return off, nil
	}
	raw := func(hdr, n int) (int, error) {
		if err := need(hdr + n); err != nil {
			return 0, err
		}
		return hdr + n, nil
	}
	switch {
	case c <= 0x7f || c >= 0xe0 || c == 0xc0 || c == 0xc2 || c == 0xc3:
		return 1, nil
	case c >= 0x80 && c <= 0x8f:
		return container(1, int(c&0x0f), 2)
	case c >= 0x90 && c <= 0x9f:
		return container(1, int(c&0x0f), 1)
	case c >= 0xa0 && c <= 0xbf:
		return raw(1, int(c&0x1f))
	}
	scalar := func(n int) (int, error) {
		if 1+n > len(b) {
			return 0, errTrunc
		}
		return 1 + n, nil
	}
	switch c {
	case 0xcc, 0xd0:
		return scalar(1)
	case 0xcd, 0xd1:
		return scalar(2)
	case 0xca, 0xce, 0xd2:
		return scalar(4)
	case 0xcb, 0xcf, 0xd3:
		return scalar(8)
	}
	if w, per, ok := lengthPrefix(c); ok {
		n, err := be(1, w)
		if err != nil {
			return 0, err
		}
		if per == 0 {
			return raw(1+w, n)
		}
		return container(1+w, n, per)
	}
	return 0, fmt.Errorf("unsupported msgpack code 0x%02x", c)
}

// lengthPrefix says whether msgpack code c declares a length after it: the
// width in bytes of that length, and per, the items an element takes (1
// for an array, 2 for a map's key and value; 0 for str and bin, whose
// length counts bytes).
func lengthPrefix(c byte) (width, per int, ok bool) {
	switch c {
	case 0xc4, 0xd9: // bin 8, str 8
		return 1, 0, true
	case 0xc5, 0xda: // bin 16, str 16
		return 2, 0, true
	case 0xc6, 0xdb: // bin 32, str 32
		return 4, 0, true
	case 0xdc: // array 16
		return 2, 1, true
	case 0xdd: // array 32
		return 4, 1, true
	case 0xde: // map 16
		return 2, 2, true
	case 0xdf: // map 32
		return 4, 2, true
	}
	return 0, 0, false
}

// checkLines is checkText allowing newlines and tabs.
func checkLines(what, s string, max int) error {
	return checkText(what, strings.NewReplacer("\n", " ", "\t", " ").Replace(s), max)
}

// CleanText makes text from anywhere safe to pass on in a message: invalid
// UTF-8 and control characters become '?', and it is cut to n bytes at a
// character boundary.
func CleanText(s string, n int) string {
	s = strings.Map(func(r rune) rune {
		if r == utf8.RuneError || r < 0x20 || r == 0x7f {
			return '?'
		}
		return r
	}, strings.ToValidUTF8(s, "?"))
	return TruncateUTF8(s, n)
}

// TruncateUTF8 cuts s to at most n bytes without splitting a character.
func TruncateUTF8(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n]
}

func checkName(s string) error {
	if len(s) == 0 || len(s) > MaxNameLen {
		return fmt.Errorf("name must be 1..%d bytes", MaxNameLen)
	}
	return checkText("name", s, MaxNameLen)
}

func checkText(what, s string, max int) error {
	if len(s) > max {
		return fmt.Errorf("%s longer than %d bytes", what, max)
	}
	if !utf8.ValidString(s) {
		return fmt.Errorf("%s is not valid UTF-8", what)
	}
	for _, r := range s {
		if r < 0x20 || r == 0x7f {
			return fmt.Errorf("%s contains control characters", what)
		}
	}
	return nil
}

// ValidateUserCmd checks a usercmd's fields against their ranges at tickRate:
// finite axes in [-1, 1], an angle in [-4, 4] rad, known buttons and weapon,
// and Msec equal to the tick interval (±1 ms rounding).
func ValidateUserCmd(c *shared.UserCmd, tickRate int) error {
	for _, f := range []struct {
		name string
		v    float32
		lim  float64
	}{{"move_x", c.MoveX, 1}, {"move_y", c.MoveY, 1}, {"view_angle", c.ViewAngle, 4}} {
		x := float64(f.v)
		if math.IsNaN(x) || math.IsInf(x, 0) || math.Abs(x) > f.lim {
			return fmt.Errorf("usercmd %d: %s %v outside [-%g, %g]", c.CommandNumber, f.name, x, f.lim, f.lim)
		}
	}
	if c.Buttons&^shared.ButtonsValid != 0 {
		return fmt.Errorf("usercmd %d: unknown buttons 0x%x", c.CommandNumber, c.Buttons&^shared.ButtonsValid)
	}
	if int(c.Weapon) >= shared.NumWeapons {
		return fmt.Errorf("usercmd %d: weapon %d does not exist", c.CommandNumber, c.Weapon)
	}
	want := int(shared.MsecFor(tickRate))
	if d := int(c.Msec) - want; d < -1 || d > 1 {
		return fmt.Errorf("usercmd %d: msec %d, the tick interval is %d", c.CommandNumber, c.Msec, want)
	}
	if c.CommandNumber == 0 {
		return fmt.Errorf("usercmd with command_number 0")
	}
	return nil
}

// ClampRates limits announced rates to their ranges at tickRate: rate to
// [MinRate, MaxRate] bytes/s, cl_updaterate and cl_cmdrate to
// [MinUpdateRate or MinCmdRate, tickRate], cl_interp to [0, MaxInterpMs].
// Zero means the default (rate 196608, update rate 20, cmd rate tickRate).
func ClampRates(rate uint32, updateRate, cmdRate, interpMs uint16, tickRate int) (uint32, int, int, int) {
	if rate == 0 {
		rate = 196608
	}
	rate = min(max(rate, MinRate), MaxRate)
	ur := int(updateRate)
	if ur == 0 {
		ur = 20
	}
	ur = min(max(ur, MinUpdateRate), tickRate)
	cr := int(cmdRate)
	if cr == 0 {
		cr = tickRate
	}
	cr = min(max(cr, MinCmdRate), tickRate)
	return rate, ur, cr, min(int(interpMs), MaxInterpMs)
}
