package proto

import (
	"bytes"
	"testing"
)

// FuzzDecode feeds arbitrary frames to Decode. Properties: Decode never
// panics (nor allocates without bound: run the fuzzer under a memory limit,
// e.g. GOMEMLIMIT=512MiB or `ulimit -v`), and a message it accepts encodes
// to a frame it accepts again, as the same message.
//
//	go test ./net/proto -run '^$' -fuzz '^FuzzDecode$' -fuzztime 60s
func FuzzDecode(f *testing.F) {
	for _, m := range sampleMessages() {
		f.Add(MustEncode(m))
	}
	f.Add(MustEncode(&Cmds{}))
	f.Add(MustEncode(&Snapshot{}))
	f.Add(MustEncode(&Accept{}))
	f.Add([]byte{})
	f.Add([]byte{0})
	f.Add([]byte{byte(MsgHello)})
	f.Add([]byte{0xff, 0x90})
	for typ := MsgType(1); int(typ) < len(msgTypes); typ++ {
		for _, h := range hostileLengths {
			f.Add(frame(typ, h.body...))
		}
	}
	f.Add(frame(MsgCmds, append(bytes.Repeat([]byte{0x91}, 20), 0xc0)...))
	f.Add(frame(MsgReject, 0x81, 0xa6, 'R', 'e', 'a', 's', 'o', 'n', 0xa3, 'b', 'y', 'e'))

	f.Fuzz(func(t *testing.T, data []byte) {
		m, err := Decode(data)
		if err != nil {
			if m != nil {
				t.Fatalf("Decode returned a message and an error %v", err)
			}
			return
		}
		if m == nil {
			t.Fatal("Decode returned neither a message nor an error")
		}
		if MsgType(data[0]) != m.Type() {
			t.Fatalf("type byte %d decoded as %s", data[0], m.Type())
		}
		b, err := Encode(m)
		if err != nil {
			t.Fatalf("Encode of a decoded %s: %v", m.Type(), err)
		}
		m2, err := Decode(b)
		if err != nil {
			t.Fatalf("re-decode of %s failed: %v\ninput % x\nre-encoded % x", m.Type(), err, data, b)
		}
		if b2 := MustEncode(m2); !bytes.Equal(b, b2) {
			t.Fatalf("%s: encoding not stable:\n% x\n% x", m.Type(), b, b2)
		}
	})
}
