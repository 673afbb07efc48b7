package proto

import (
	"bytes"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/vmihailenco/msgpack/v5"

	"tickshot/shared"
)

// decodeSlow is Decode as it was before decodeCmdsFast: msgpack's
// reflection for every message.
func decodeSlow(data []byte) (Message, error) {
	d := msgDefOf(MsgType(data[0]))
	fast := d.fast
	d.fast = nil
	defer func() { d.fast = fast }()
	return Decode(data)
}

// sameDecode fails t when Decode and decodeSlow differ on data: both fail
// with the same error, or both give messages msgpack writes the same
// (NaN floats and nil against empty slices included). It reports whether
// the fast decoder took data.
func sameDecode(t *testing.T, data []byte) bool {
	t.Helper()
	if len(data) == 0 || MsgType(data[0]) != MsgCmds {
		return false
	}
	took := decodeCmdsFast(data[1:], new(Cmds))
	got, gerr := Decode(data)
	want, werr := decodeSlow(data)
	if (gerr == nil) != (werr == nil) || gerr != nil && gerr.Error() != werr.Error() {
		t.Fatalf("% x: Decode %v, msgpack %v", data, gerr, werr)
	}
	if took && precheck(data[1:]) == nil {
		if err := msgpack.Unmarshal(data[1:], new(Cmds)); err != nil {
			t.Fatalf("% x: the fast decoder took a body msgpack refuses (%v)", data, err)
		}
	}
	if gerr != nil {
		return took
	}
	gb, err1 := msgpack.Marshal(got)
	wb, err2 := msgpack.Marshal(want)
	if err1 != nil || err2 != nil || !bytes.Equal(gb, wb) {
		t.Fatalf("% x: Decode %+v, msgpack %+v", data, got, want)
	}
	return took
}

// randomCmds is a Cmds message as a client might write it, with the
// extremes of every field now and then.
func randomCmds(r *rand.Rand) *Cmds {
	u32 := func() uint32 {
		switch r.IntN(4) {
		case 0:
			return uint32(r.IntN(128))
		case 1:
			return []uint32{0, 127, 128, 255, 256, 65535, 65536, math.MaxUint32}[r.IntN(8)]
		}
		return r.Uint32() >> r.IntN(32)
	}
	f32 := func() float32 {
		switch r.IntN(6) {
		case 0:
			return []float32{0, -1, 1, float32(math.Inf(1)), float32(math.NaN()), math.MaxFloat32, -0.0}[r.IntN(7)]
		case 1:
			return math.Float32frombits(r.Uint32())
		}
		return float32(r.NormFloat64())
	}
	m := &Cmds{Ack: u32(), AckBits: u32(), Seq: u32()}
	n := r.IntN(MaxCmdsPerMsg + 3)
	if r.IntN(8) == 0 {
		n = 0
	}
	if n > 0 || r.IntN(2) == 0 {
		m.Cmds = make([]shared.UserCmd, n)
	}
	next := u32()
	for i := range m.Cmds {
		if r.IntN(16) != 0 { // in order, as a client sends them (the check refuses the rest)
			next += 1 + uint32(r.IntN(3))
		} else {
			next = u32()
		}
		m.Cmds[i] = shared.UserCmd{CommandNumber: next, TickCount: u32(), TickFrac: uint8(u32()), Msec: uint8(u32()),
			LerpMsec: uint16(u32()), Buttons: uint16(u32()), MoveX: f32(), MoveY: f32(), ViewAngle: f32(), Weapon: uint8(u32())}
	}
	switch r.IntN(3) {
	case 1:
		m.AckAges = []uint8{}
	case 2:
		m.AckAges = make([]uint8, 1+r.IntN(MaxCmdsPerMsg+2))
		for i := range m.AckAges {
			m.AckAges[i] = uint8(u32())
		}
	}
	return m
}

// TestCmdsFastMatchesMsgpack: on 20 000 random Cmds as the client's
// encoder writes them, and on every one mutated (bytes changed, cut,
// inserted, integer and float forms widened), Decode with the fast decoder
// gives what msgpack gives, the same message or the same error; and the
// fast decoder takes most of the client's messages.
func TestCmdsFastMatchesMsgpack(t *testing.T) {
	r := rand.New(rand.NewPCG(23, 4))
	took, n := 0, 20000
	for range n {
		data := MustEncode(randomCmds(r))
		if sameDecode(t, data) {
			took++
		}
		for range 8 {
			sameDecode(t, mutate(r, data))
		}
	}
	if took < n/2 {
		t.Fatalf("the fast decoder took %d of %d messages as the client writes them", took, n)
	}
	t.Logf("fast decoder took %d of %d", took, n)
}

// mutate returns a copy of data (a type byte and a body) changed at
// random in the body.
func mutate(r *rand.Rand, data []byte) []byte {
	b := append([]byte(nil), data...)
	if len(b) < 2 {
		return b
	}
	i := 1 + r.IntN(len(b)-1)
	switch r.IntN(6) {
	case 0:
		b[i] = byte(r.Uint32())
	case 1:
		b = b[:i]
	case 2:
		b = append(b[:i], append([]byte{byte(r.Uint32())}, b[i:]...)...)
	case 3:
		b[i] ^= 1 << r.IntN(8)
	case 4: // a wider form of the same small integer
		if v := b[i]; v <= 0x7f {
			k := r.IntN(4) // uint 8, 16, 32, 64
			wide := append([]byte{0xcc + byte(k)}, make([]byte, 1<<k)...)
			wide[len(wide)-1] = v
			b = append(b[:i], append(wide, b[i+1:]...)...)
		}
	case 5:
		b = append(b, byte(r.Uint32())) // trailing bytes
	}
	return b
}

// FuzzCmdsFast: any Cmds frame decodes the same with the fast decoder as
// with msgpack alone.
func FuzzCmdsFast(f *testing.F) {
	r := rand.New(rand.NewPCG(1, 2))
	for range 16 {
		f.Add(MustEncode(randomCmds(r)))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) == 0 {
			return
		}
		data[0] = byte(MsgCmds)
		sameDecode(t, data)
	})
}
