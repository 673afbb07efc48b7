package demo

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"errors"
	"strings"
	"testing"
	"time"

	"tickshot/client/netclient"
	"tickshot/net/proto"
	"tickshot/shared"
)

type nopCloser struct{ *bytes.Buffer }

func (nopCloser) Close() error { return nil }

// synthDemo writes a small valid demo without a server: the Accept, a
// config, ten snapshots and ten frames of one command each, the end.
func synthDemo(t testing.TB) []byte {
	t.Helper()
	var buf bytes.Buffer
	r := &Recorder{f: nopCloser{&buf}, w: bufio.NewWriter(&buf)}
	start := time.Unix(1700000000, 0)
	acc := proto.MustEncode(&proto.Accept{PlayerID: 3, TickRate: 64, Map: "arena", Tick: 100, UpdateRate: 20})
	r.begin(netclient.DemoStart{Accept: acc, AcceptAt: start, Start: start, PlayerID: 3, TickRate: 64, Map: "arena",
		Name: "synth", Config: netclient.DefaultConfig("synth")})
	cmd := uint32(0)
	for i := range 10 {
		at := start.Add(time.Duration(i+1) * 50 * time.Millisecond)
		r.Packet(proto.MustEncode(&proto.Snapshot{Tick: uint32(100 + 3*i), Seq: uint32(i + 1), Self: proto.SelfState{X: 6400, Y: 6400, Health: 100, Ammo: []uint8{20, 4}}}), at)
		f := &netclient.DemoFrame{Now: at.Add(time.Millisecond), Ticks: 1, Acc: time.Millisecond}
		if i > 0 {
			cmd++
			f.Cmds = []shared.UserCmd{{CommandNumber: cmd, TickCount: uint32(100 + 3*i), Msec: 16, LerpMsec: 100, MoveX: 1}}
		} else {
			f.Resync, f.Ticks = true, 0
		}
		r.Frame(f)
	}
	if err := r.Stop(nil, "end"); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func readBytes(b []byte) (*Demo, error) { return Read("x.dem", bytes.NewReader(b), int64(len(b))) }

func TestSynthDemoPlays(t *testing.T) {
	d, err := readBytes(synthDemo(t))
	if err != nil {
		t.Fatal(err)
	}
	if !d.Complete || d.FirstTick != 100 || d.LastTick != 127 || d.Header.Name != "synth" || d.Header.Map != "arena" {
		t.Fatalf("read %+v", d.Header)
	}
	p, err := NewPlayer(d, netclient.DefaultConfig(""))
	if err != nil {
		t.Fatal(err)
	}
	for !p.Done() {
		if err := p.Advance(20 * time.Millisecond); err != nil {
			t.Fatal(err)
		}
	}
	if p.C.View().Stats.SnapshotsReceived != 10 || p.C.View().CommandNumber != 9 {
		t.Errorf("played %d snapshots, %d commands", p.C.View().Stats.SnapshotsReceived, p.C.View().CommandNumber)
	}
}

// TestDamagedDemos: every damaged file gives an Error naming the file and
// the offset, with a message saying what is wrong; nothing panics.
func TestDamagedDemos(t *testing.T) {
	good := synthDemo(t)
	hdr := len(Magic) + 17 + 1 + len("arena") + 1 + len("synth")
	mod := func(f func(b []byte) []byte) []byte { return f(append([]byte(nil), good...)) }
	cases := []struct {
		name string
		b    []byte
		want string
	}{
		{"empty", nil, "truncated: the magic"},
		{"bad magic", mod(func(b []byte) []byte { b[0] = 'X'; return b }), "not a Tickshot demo"},
		{"format version", mod(func(b []byte) []byte { b[8] = 9; return b }), "demo format version 9"},
		{"protocol version", mod(func(b []byte) []byte { b[10] = 99; return b }), "protocol version 99"},
		{"tick rate", mod(func(b []byte) []byte { b[12] = 3; b[13] = 0; return b }), "tick rate 3"},
		{"header only", good[:hdr], "no records"},
		{"header cut", good[:20], "truncated: the header"},
		{"map name too long", mod(func(b []byte) []byte { b[len(Magic)+17] = 200; return b }), "at most 64"},
		{"unknown kind", mod(func(b []byte) []byte { b[hdr] = 77; return b }), "unknown record kind 77"},
		{"absurd length", append(good[:hdr:hdr], 1, 0xff, 0xff, 0xff, 0xff, 0x0f), "beyond the limit"},
		{"length past the end", append(good[:hdr:hdr], 1, 0xf0, 0x10, 1, 2), "beyond the end of the file"},
		{"varint overflow", append(good[:hdr:hdr], 1, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff), "overflows"},
		{"undecodable frame", append(good[:hdr:hdr], 1, 3, 0, 0xee, 0x90), "undecodable frame"},
		{"first record not accept", append(good[:hdr:hdr], 5, 1, 0), "not the accept"},
		{"client frame", append(good[:hdr:hdr], 1, 3, 0, byte(proto.MsgCmds), 0x90), "servers never send"},
		{"too large", nil, "more than"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			size := int64(len(tc.b))
			if tc.name == "too large" {
				size = MaxFile + 1
			}
			_, err := Read("x.dem", bytes.NewReader(tc.b), size)
			var de *Error
			if !errors.As(err, &de) {
				t.Fatalf("got %v, want a demo Error", err)
			}
			if !strings.Contains(err.Error(), tc.want) || !strings.HasPrefix(err.Error(), "demo x.dem: at byte ") {
				t.Errorf("error %q, want one naming the file and offset and saying %q", err, tc.want)
			}
		})
	}
	// A frame that decodes but that the client refuses when it applies it
	// (an entity delta that runs past its end): playback stops with an
	// error at that record.
	var buf bytes.Buffer
	r := &Recorder{f: nopCloser{&buf}, w: bufio.NewWriter(&buf)}
	start := time.Unix(1700000000, 0)
	acc := proto.MustEncode(&proto.Accept{PlayerID: 3, TickRate: 64, Map: "arena", Tick: 100, UpdateRate: 20})
	r.begin(netclient.DemoStart{Accept: acc, AcceptAt: start, Start: start, PlayerID: 3, TickRate: 64, Map: "arena", Name: "x", Config: netclient.DefaultConfig("x")})
	r.Packet(proto.MustEncode(&proto.Snapshot{Tick: 101, Seq: 1, Self: proto.SelfState{Ammo: []uint8{20, 4}}, EntityDelta: []byte{5, 0x01, 0xff}}), start.Add(time.Millisecond))
	bad := int64(r.Bytes)
	r.Packet(proto.MustEncode(&proto.Snapshot{Tick: 104, Seq: 2, Self: proto.SelfState{Ammo: []uint8{20, 4}}}), start.Add(50*time.Millisecond))
	r.Stop(nil, "end")
	d, err := readBytes(buf.Bytes())
	if err != nil {
		t.Fatal(err)
	}
	p, err := NewPlayer(d, netclient.DefaultConfig(""))
	if err != nil {
		t.Fatal(err)
	}
	err = p.Advance(time.Second)
	var de *Error
	if !errors.As(err, &de) || !strings.Contains(err.Error(), "the client refused the frame: protocol error: bad entity delta") {
		t.Fatalf("playing a bad entity delta: %v", err)
	}
	if de.Offset >= bad {
		t.Errorf("the error names byte %d, after the bad record (which ends at %d)", de.Offset, bad)
	}
	p.Close()
	// Cut anywhere: an error at or before the cut, or a shorter demo,
	// never a panic (TestTruncatedDemoPlays: which).
	for n := range len(good) {
		d, err := readBytes(good[:n])
		if err == nil && d.Complete {
			t.Fatalf("cut at %d of %d bytes: read as complete", n, len(good))
		}
		var de *Error
		if err != nil && (!errors.As(err, &de) || de.Offset > int64(n)) {
			t.Fatalf("cut at %d: %v", n, err)
		}
	}
	// Every byte flipped: an error, or a demo that plays or stops with an
	// error, never a panic.
	for i := range len(good) {
		b := append([]byte(nil), good...)
		b[i] ^= 0xa5
		playBytes(t, b)
	}
}

// playBytes reads and plays b to its end, failing the test only on a
// panic (which the test binary reports itself) or an error that does
// not name the file.
func playBytes(t testing.TB, b []byte) {
	d, err := readBytes(b)
	if err != nil {
		if !strings.HasPrefix(err.Error(), "demo x.dem: at byte ") {
			t.Fatalf("error %q", err)
		}
		return
	}
	p, err := NewPlayer(d, netclient.DefaultConfig(""))
	if err != nil {
		return
	}
	defer p.Close()
	for i := 0; !p.Done() && i < 1000; i++ {
		if err := p.Advance(50 * time.Millisecond); err != nil {
			if !strings.HasPrefix(err.Error(), "demo x.dem: at byte ") {
				t.Fatalf("playback error %q", err)
			}
			return
		}
	}
	p.GotoTick(110)
	p.Seek(0)
}

// TestTruncatedDemoPlays: a demo cut in the middle of a record (a crashed
// recording) plays to its last whole record (PROTOCOL.md §13): cut
// anywhere after its first record, it reads without error, holds exactly
// the records that are whole, says how many bytes it left off, and plays
// them all: every snapshot among them reaches the client.
func TestTruncatedDemoPlays(t *testing.T) {
	good := synthDemo(t)
	full, err := readBytes(good)
	if err != nil {
		t.Fatal(err)
	}
	ends := make([]int, full.Len()) // where each record ends
	for i := range ends {
		if i+1 < full.Len() {
			ends[i] = int(full.offsets[i+1])
		} else {
			ends[i] = len(good)
		}
	}
	cuts := 0
	for n := ends[0]; n < len(good); n++ {
		d, err := readBytes(good[:n])
		if err != nil {
			t.Fatalf("cut at %d of %d bytes, after the first record: %v", n, len(good), err)
		}
		whole := 0
		for whole < len(ends) && ends[whole] <= n {
			whole++
		}
		wantCut := int64(n - ends[whole-1])
		if d.Len() != whole || d.Cut != wantCut || d.Complete {
			t.Fatalf("cut at %d: %d records, %d bytes left off, complete %v; want %d records, %d left off",
				n, d.Len(), d.Cut, d.Complete, whole, wantCut)
		}
		snaps := 0
		for i := range whole {
			if rec, err := full.record(i); err == nil && rec.Kind == KindPacket && i > 0 {
				snaps++
			}
		}
		p, err := NewPlayer(d, netclient.DefaultConfig(""))
		if err != nil {
			t.Fatal(err)
		}
		for i := 0; !p.Done() && i < 100; i++ {
			if err := p.Advance(100 * time.Millisecond); err != nil {
				t.Fatalf("cut at %d: playing: %v", n, err)
			}
		}
		if !p.Done() || p.C.View().Stats.SnapshotsReceived != snaps || p.T != d.Duration {
			t.Fatalf("cut at %d: done %v, %d snapshots played of %d whole, clock %v of %v",
				n, p.Done(), p.C.View().Stats.SnapshotsReceived, snaps, p.T, d.Duration)
		}
		p.Close()
		if wantCut > 0 {
			cuts++
		}
	}
	if cuts < 100 {
		t.Errorf("only %d cuts inside a record tried", cuts)
	}
}

func FuzzReadDemo(f *testing.F) {
	good := synthDemo(f)
	f.Add(good)
	f.Add(good[:len(good)/2])
	f.Add([]byte(Magic))
	hdr := len(Magic) + 17 + 1 + len("arena") + 1 + len("synth")
	f.Add(append(good[:hdr:hdr], 1, 0xff, 0xff, 0xff, 0xff, 0x0f))
	f.Add(binary.AppendUvarint(append(good[:hdr:hdr], 2), 1<<40))
	f.Fuzz(func(t *testing.T, b []byte) {
		t0 := time.Now()
		wd := time.AfterFunc(30*time.Second, func() { panic("demo playback hangs") })
		defer wd.Stop()
		playBytes(t, b)
		if d := time.Since(t0); d > 3*time.Second {
			t.Fatalf("took %v", d)
		}
	})
}
