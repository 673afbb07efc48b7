package proto

import (
	"bytes"
	"math"
	"reflect"
	"runtime"
	"strings"
	"testing"

	"github.com/vmihailenco/msgpack/v5"

	"tickshot/shared"
)

// validCmd returns a usercmd that ValidateUserCmd accepts at tick rate 64.
func validCmd(n uint32) shared.UserCmd {
	return shared.UserCmd{CommandNumber: n, TickCount: 1000 + n, Msec: shared.MsecFor(64), LerpMsec: 100,
		Buttons: shared.ButtonAttack, MoveX: 1, MoveY: -0.5, ViewAngle: 1.25, Weapon: 0}
}

// sampleMessages returns one fully populated value of every message type
// (every slice non-empty, so that a round trip compares equal).
func sampleMessages() []Message {
	return []Message{
		&Hello{Protocol: ProtocolVersion, Name: "Gordon Freeman", Rate: 196608, UpdateRate: 20, CmdRate: 64,
			InterpMs: 100, InterpRatio: 2, Password: "sesame"},
		&Accept{PlayerID: 7, TickRate: 64, Map: "dust", Tick: 123456, UpdateRate: 20,
			Cvars: []Cvar{{Name: "sv_tickrate", Value: "64"}, {Name: "maxplayers", Value: "16"}}},
		&Reject{Reason: "server is full (16/16 players)"},
		&Cmds{Ack: 99, Cmds: []shared.UserCmd{validCmd(10), validCmd(11), validCmd(12)}},
		&Snapshot{Tick: 5000, AckCmd: 12,
			Self: SelfState{X: -640, Y: 12800, VX: 17920, VY: -3, Dead: false, Weapon: 0, Ammo: []uint8{30},
				NextAttack: 5, ReloadTicks: 0, SwitchTicks: 2, Health: 100, Teleport: 3},
			Seq: 40, Baseline: 38,
			EntityDelta: AppendEntityDelta(nil, nil, []EntityState{
				{ID: 2, X: 100, Y: -200, Angle: -31415, Health: 55, Flags: FlagAlive | FlagBot, Teleport: 1},
				{ID: 3, X: 1 << 20, Y: 5, Angle: 31415, Health: 0, Flags: FlagBot, Teleport: 0},
			}),
			EventData: AppendEvents(nil, 5000, []Event{
				{ID: 1, Tick: 4990, Kind: EvShot, A: 2, X: 10, Y: 20, X2: 300, Y2: -400},
				{ID: 2, Tick: 4991, Kind: EvJoin, A: 4, Text: "Alyx"},
			}),
			Scores:     []ScoreEntry{{ID: 2, Name: "[BOT] Bernier", Kills: 3, Deaths: 1, PingMs: 0, Bot: true, Team: TeamBlue}},
			TickTimeUs: 250, PingMs: 42, Match: &MatchClock{Start: 4000, FragLimit: 20, TimeLimit: 38400}},
		&Disconnect{Reason: "kicked: message flood"},
		&Settings{Rate: 80000, UpdateRate: 64, CmdRate: 64, InterpMs: 50, InterpRatio: 1, NoDelta: true},
		&Command{Text: "rcon sv_cheats 1", Password: "hunter2"},
		&Print{Text: "sv_cheats = 1\n\tchanged"},
		&Signal{Kind: SignalCandidate, Data: `{"candidate":"candidate:1 1 udp 2130706431 192.0.2.7 50000 typ host","sdpMid":"0"}`},
		&MatchStats{Winner: "Alyx", WinnerID: 4, Players: []PlayerStats{
			{ID: 4, Name: "Alyx", Kills: 20, Deaths: 3, Shots: 90, Hits: 41, Damage: 2150, BestStreak: 7},
			{ID: 2, Name: "[BOT] Bernier", Team: TeamNone, Kills: 5, Deaths: 12, Shots: 200, Hits: 30, Damage: 700, BestStreak: 2}},
			Awards: []Award{{Kind: AwardMostKills, ID: 4, Value: 20}, {Kind: AwardAccuracy, ID: 4, Value: 455}}},
		&MapVote{Maps: []string{"foundry", "plaza", "bunker"}, Votes: []uint16{2, 0, 1}, Mine: 1, Ends: 6000},
	}
}

func TestRoundTripEveryMessage(t *testing.T) {
	seen := map[MsgType]bool{}
	for _, m := range sampleMessages() {
		b, err := Encode(m)
		if err != nil {
			t.Fatalf("Encode %s: %v", m.Type(), err)
		}
		if MsgType(b[0]) != m.Type() {
			t.Fatalf("%s: type byte %d", m.Type(), b[0])
		}
		got, err := Decode(b)
		if err != nil {
			t.Fatalf("Decode %s: %v", m.Type(), err)
		}
		if !reflect.DeepEqual(got, m) {
			t.Errorf("%s round trip:\n got %+v\nwant %+v", m.Type(), got, m)
		}
		if !bytes.Equal(MustEncode(got), b) {
			t.Errorf("%s: re-encoding differs", m.Type())
		}
		seen[m.Type()] = true
	}
	for typ := MsgType(1); int(typ) < len(msgTypes); typ++ {
		if !seen[typ] {
			t.Errorf("no round trip for %s", typ)
		}
	}
}

func TestRoundTripSelfState(t *testing.T) {
	st := shared.NewPlayerState(123.456, -78.9)
	st.VX, st.VY = 280, -13.3
	st = st.Quantized()
	self := MakeSelf(st, 77, 4, true, nil)
	b := MustEncode(&Snapshot{Tick: 1, Self: self})
	m, err := Decode(b)
	if err != nil {
		t.Fatal(err)
	}
	got := m.(*Snapshot).Self
	if got.Health != 77 || got.Teleport != 4 {
		t.Errorf("health/teleport: %+v", got)
	}
	if back := got.State(); !back.Equal(st) {
		t.Errorf("state round trip: got %+v want %+v", back, st)
	}
}

// frame is a message type byte followed by body.
func frame(t MsgType, body ...byte) []byte { return append([]byte{byte(t)}, body...) }

func encodeBody(t *testing.T, v any) []byte {
	t.Helper()
	b, err := msgpack.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// hostileLengths are bodies that declare 0xffffffff elements or bytes.
var hostileLengths = []struct {
	name string
	body []byte
}{
	{"array32", []byte{0xdd, 0xff, 0xff, 0xff, 0xff}},
	{"map32", []byte{0xdf, 0xff, 0xff, 0xff, 0xff}},
	{"str32", []byte{0xdb, 0xff, 0xff, 0xff, 0xff}},
	{"bin32", []byte{0xc6, 0xff, 0xff, 0xff, 0xff}},
	{"array16", []byte{0xdc, 0xff, 0xff}},
	{"map16", []byte{0xde, 0xff, 0xff}},
	{"str16", []byte{0xda, 0xff, 0xff}},
	{"bin16", []byte{0xc5, 0xff, 0xff}},
	// Inside a valid outer array: Cmds{Ack: 1, Cmds: <huge array>}.
	{"nested-array32", []byte{0x92, 0x01, 0xdd, 0xff, 0xff, 0xff, 0xff}},
	// Hello{Protocol: 1, Name: <huge str>}.
	{"nested-str32", []byte{0x92, 0x01, 0xdb, 0xff, 0xff, 0xff, 0xff, 'a'}},
	// A huge bin nested two arrays deep (precheck does not need the schema).
	{"nested-bin32", []byte{0x93, 0x01, 0x01, 0x97, 0, 0, 0, 0, 0xc2, 0, 0xc6, 0xff, 0xff, 0xff, 0xff}},
}

func TestDecodeRejects(t *testing.T) {
	tooMany := &Cmds{Ack: 1}
	for i := 0; i <= MaxCmdsPerMsg; i++ {
		tooMany.Cmds = append(tooMany.Cmds, validCmd(uint32(i+1)))
	}
	outOfOrder := &Cmds{Cmds: []shared.UserCmd{validCmd(5), validCmd(7), validCmd(6)}}
	duplicate := &Cmds{Cmds: []shared.UserCmd{validCmd(5), validCmd(5)}}
	hello := func(name string) []byte {
		return MustEncode(&Hello{Protocol: ProtocolVersion, Name: name, Rate: 20000, UpdateRate: 20, InterpRatio: 2})
	}
	deep := frame(MsgCmds, append(bytes.Repeat([]byte{0x91}, 20), 0xc0)...)
	deepMap := frame(MsgHello)
	for i := 0; i < 20; i++ {
		deepMap = append(deepMap, 0x81, 0xa1, 'k')
	}
	deepMap = append(deepMap, 0xc0)

	truncated := MustEncode(sampleMessages()[4]) // a snapshot
	cases := []struct {
		name string
		data []byte
		want string // substring of the error
	}{
		{"empty", nil, "empty"},
		{"empty-slice", []byte{}, "empty"},
		{"unknown-type-0", []byte{0}, "unknown message type 0"},
		{"unknown-type-200", frame(200, 0x90), "unknown message type 200"},
		{"type-only", frame(MsgHello), "malformed hello"},
		{"truncated-snapshot", truncated[:len(truncated)/2], "malformed snapshot"},
		{"truncated-str", frame(MsgReject, 0x91, 0xa5, 'a', 'b'), "malformed reject"},
		{"truncated-uint32", frame(MsgCmds, 0x92, 0xce, 0x01), "malformed cmds"},
		{"reserved-code-c1", frame(MsgCmds, 0x92, 0xc1, 0x90), "malformed cmds"},
		{"wrong-kind", frame(MsgHello, 0xa3, 'a', 'b', 'c'), "malformed hello"},
		{"too-many-cmds", MustEncode(tooMany), "usercmds in one message"},
		{"cmds-out-of-order", MustEncode(outOfOrder), "out of order"},
		{"cmds-duplicate", MustEncode(duplicate), "out of order"},
		{"name-empty", hello(""), "name"},
		{"name-too-long", hello(strings.Repeat("x", MaxNameLen+1)), "name"},
		{"name-control-char", hello("bad\nname"), "control"},
		{"name-nul", hello("a\x00b"), "control"},
		{"name-del", hello("a\x7fb"), "control"},
		{"name-invalid-utf8", hello("ab\xff\xfe"), "UTF-8"},
		{"reason-too-long", MustEncode(&Disconnect{Reason: strings.Repeat("r", MaxReasonLen+1)}), "reason"},
		{"reject-control", MustEncode(&Reject{Reason: "a\x1bb"}), "control"},
		{"interp-ratio-nan", MustEncode(&Hello{Protocol: 1, Name: "n", InterpRatio: float32(math.NaN())}), "cl_interp_ratio"},
		{"interp-ratio-big", MustEncode(&Hello{Protocol: 1, Name: "n", InterpRatio: 1e9}), "cl_interp_ratio"},
		{"ammo-too-long", MustEncode(&Snapshot{Self: SelfState{Ammo: make([]uint8, shared.NumWeapons+1)}}), "ammo"},
		{"deep-nesting-array", deep, "nesting"},
		{"deep-nesting-map", deepMap, "nesting"},
	}
	for _, h := range hostileLengths {
		cases = append(cases, struct {
			name string
			data []byte
			want string
		}{"hostile-" + h.name, frame(MsgCmds, h.body...), "malformed"})
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			m, err := Decode(c.data)
			if err == nil {
				t.Fatalf("Decode(% x) = %+v, want an error", c.data, m)
			}
			if m != nil {
				t.Errorf("a message with an error: %+v", m)
			}
			if !strings.Contains(err.Error(), c.want) {
				t.Errorf("error %q does not mention %q", err, c.want)
			}
		})
	}
}

// TestDecodeHostileLengthsAllocateLittle decodes every hostile body into
// every message type and checks that the whole lot allocated under 1 MiB
// (DESIGN.md: msgpack v5.4.x asks for 64 GiB for `dd ff ff ff ff`).
func TestDecodeHostileLengthsAllocateLittle(t *testing.T) {
	var frames [][]byte
	for typ := MsgType(1); int(typ) < len(msgTypes); typ++ {
		for _, h := range hostileLengths {
			frames = append(frames, frame(typ, h.body...))
		}
	}
	Decode(frames[0]) // warm up anything lazily initialised (struct field caches)
	runtime.GC()
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	for _, f := range frames {
		if m, err := Decode(f); err == nil {
			t.Errorf("Decode(% x) = %+v, want an error", f, m)
		}
	}
	runtime.ReadMemStats(&after)
	if got := after.TotalAlloc - before.TotalAlloc; got >= 1<<20 {
		t.Errorf("decoding %d hostile frames allocated %d bytes, want < 1 MiB", len(frames), got)
	}
}

// TestMsgpackCapsDeclaredLengths checks the pinned msgpack itself (without
// our precheck) does not honour a huge declared length: the guard
// DESIGN.md asks for in case precheck ever misses a case.
func TestMsgpackCapsDeclaredLengths(t *testing.T) {
	runtime.GC()
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	for _, h := range hostileLengths {
		for _, m := range []Message{new(Hello), new(Cmds), new(Snapshot), new(Accept)} {
			_ = msgpack.Unmarshal(h.body, m)
		}
		var u []shared.UserCmd
		_ = msgpack.Unmarshal(h.body, &u)
		var s string
		_ = msgpack.Unmarshal(h.body, &s)
		var b []byte
		_ = msgpack.Unmarshal(h.body, &b)
	}
	runtime.ReadMemStats(&after)
	if got := after.TotalAlloc - before.TotalAlloc; got >= 64<<20 {
		t.Errorf("msgpack allocated %d bytes for hostile lengths: is it still v5.3.6?", got)
	}
}

func TestPrecheckAcceptsAllValidMessages(t *testing.T) {
	for _, m := range sampleMessages() {
		b := MustEncode(m)
		if err := precheck(b[1:]); err != nil {
			t.Errorf("%s: precheck refuses a valid encoding: %v", m.Type(), err)
		}
	}
	// Map-encoded struct (field names) is legal msgpack too.
	body := encodeBody(t, map[string]any{"Reason": "bye"})
	if err := precheck(body); err != nil {
		t.Errorf("precheck refuses a map: %v", err)
	}
}

func TestCheckLimitsAtBoundary(t *testing.T) {
	ok := []Message{
		&Hello{Protocol: 1, Name: strings.Repeat("n", MaxNameLen), InterpRatio: MaxInterpRatio},
		&Hello{Protocol: 1, Name: "ünïcødé ✓"},
		&Disconnect{Reason: strings.Repeat("r", MaxReasonLen)},
		&Disconnect{},
		&Cmds{},
	}
	full := &Cmds{}
	for i := 0; i < MaxCmdsPerMsg; i++ {
		full.Cmds = append(full.Cmds, validCmd(uint32(i+1)))
	}
	ok = append(ok, full)
	for _, m := range ok {
		if err := Check(m); err != nil {
			t.Errorf("Check(%+v): %v", m, err)
		}
		if _, err := Decode(MustEncode(m)); err != nil {
			t.Errorf("Decode(%s): %v", m.Type(), err)
		}
	}
}

func TestValidateUserCmd(t *testing.T) {
	good := validCmd(1)
	if err := ValidateUserCmd(&good, 64); err != nil {
		t.Fatalf("valid command refused: %v", err)
	}
	for _, tr := range []int{20, 30, 64, 66, 100, 128} {
		c := validCmd(1)
		c.Msec = shared.MsecFor(tr)
		if err := ValidateUserCmd(&c, tr); err != nil {
			t.Errorf("tick rate %d, msec %d: %v", tr, c.Msec, err)
		}
	}
	edge := validCmd(0xffffffff)
	edge.MoveX, edge.MoveY, edge.ViewAngle = -1, 1, -4
	edge.Buttons = shared.ButtonsValid // dash included
	edge.Weapon = shared.WeaponShotgun // the last weapon
	edge.Msec = shared.MsecFor(64) + 1
	if err := ValidateUserCmd(&edge, 64); err != nil {
		t.Errorf("edge values refused: %v", err)
	}

	nan := float32(math.NaN())
	inf := float32(math.Inf(1))
	cases := []struct {
		name  string
		mod   func(*shared.UserCmd)
		field string
	}{
		{"movex-nan", func(c *shared.UserCmd) { c.MoveX = nan }, "move_x"},
		{"movey-nan", func(c *shared.UserCmd) { c.MoveY = nan }, "move_y"},
		{"movex-inf", func(c *shared.UserCmd) { c.MoveX = inf }, "move_x"},
		{"movey-neginf", func(c *shared.UserCmd) { c.MoveY = -inf }, "move_y"},
		{"movex-1.5", func(c *shared.UserCmd) { c.MoveX = 1.5 }, "move_x"},
		{"movey-minus-1.5", func(c *shared.UserCmd) { c.MoveY = -1.5 }, "move_y"},
		{"movex-5", func(c *shared.UserCmd) { c.MoveX = 5 }, "move_x"},
		{"angle-10", func(c *shared.UserCmd) { c.ViewAngle = 10 }, "view_angle"},
		{"angle-nan", func(c *shared.UserCmd) { c.ViewAngle = nan }, "view_angle"},
		{"angle-inf", func(c *shared.UserCmd) { c.ViewAngle = -inf }, "view_angle"},
		{"unknown-buttons", func(c *shared.UserCmd) { c.Buttons = 1 << 12 }, "buttons"},
		{"unknown-buttons-mixed", func(c *shared.UserCmd) { c.Buttons = shared.ButtonAttack | 0x8000 }, "buttons"},
		{"button-past-dash", func(c *shared.UserCmd) { c.Buttons = shared.ButtonDash << 1 }, "buttons"},
		{"weapon-out-of-range", func(c *shared.UserCmd) { c.Weapon = shared.NumWeapons }, "weapon"},
		{"weapon-255", func(c *shared.UserCmd) { c.Weapon = 255 }, "weapon"},
		{"msec-200", func(c *shared.UserCmd) { c.Msec = 200 }, "msec"},
		{"msec-0", func(c *shared.UserCmd) { c.Msec = 0 }, "msec"},
		{"msec-off-by-2", func(c *shared.UserCmd) { c.Msec = shared.MsecFor(64) + 2 }, "msec"},
		{"command-number-0", func(c *shared.UserCmd) { c.CommandNumber = 0 }, "command_number"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			c := validCmd(3)
			tc.mod(&c)
			err := ValidateUserCmd(&c, 64)
			if err == nil {
				t.Fatalf("ValidateUserCmd(%+v) = nil, want an error", c)
			}
			if !strings.Contains(err.Error(), tc.field) {
				t.Errorf("error %q does not name the field %q", err, tc.field)
			}
		})
	}
	// msec 200 at tick 64: the message says what was expected.
	c := validCmd(3)
	c.Msec = 200
	if err := ValidateUserCmd(&c, 64); err == nil || !strings.Contains(err.Error(), "16") {
		t.Errorf("msec 200 at 64 ticks/s: %v, want a message naming 16", err)
	}
}

// The reusing Encoder writes exactly what Encode does, and allocates
// nothing once its buffer has room.
func TestEncoderMatchesEncode(t *testing.T) {
	var e Encoder
	var buf []byte
	for _, m := range sampleMessages() {
		want, err := Encode(m)
		if err != nil {
			t.Fatal(err)
		}
		buf = e.Append(buf[:0], m)
		if string(buf) != string(want) {
			t.Errorf("%s: Encoder wrote %x, Encode %x", m.Type(), buf, want)
		}
	}
	snap := sampleMessages()[4]
	buf = e.Append(buf[:0], snap)
	if n := testing.AllocsPerRun(100, func() { buf = e.Append(buf[:0], snap) }); n > 0 {
		t.Errorf("Encoder.Append allocates %.0f times per snapshot", n)
	}
}

// snapshotReflect is Snapshot without its EncodeMsgpack: msgpack encodes
// it by reflection, the reference the hand-written encoder must match.
type snapshotReflect Snapshot

func TestSnapshotEncoderMatchesReflection(t *testing.T) {
	snaps := []*Snapshot{sampleMessages()[4].(*Snapshot), {}, {Projectiles: []ProjectileState{}, EventData: []byte{}, Scores: []ScoreEntry{},
		EntityDelta: []byte{}, Self: SelfState{Ammo: []uint8{}}}}
	big := *snaps[0]
	big.Tick, big.Seq, big.Baseline, big.AckCmd = 1<<31, 70000, 255, 128
	big.Self.X, big.Self.VY = -1<<30, -33
	big.Projectiles = []ProjectileState{{ID: 9, Owner: 3, Weapon: 1, X: -5, Y: 1 << 20, VX: -40000, VY: 127}}
	big.EventData = AppendEvents(nil, big.Tick, []Event{{ID: 1 << 20, Tick: big.Tick - 3, Kind: EvImpact, X: -129, Value: -300, Cmd: 1 << 31, Text: "ünïcode"}})
	big.TickTimeUs, big.PingMs, big.TickStdUs, big.PingVarMs, big.CmdLoss, big.Choke = 70000, 300, 0, 65535, 100, 65535
	snaps = append(snaps, &big)
	for i, s := range snaps {
		var buf bytes.Buffer
		enc := msgpack.NewEncoder(&buf)
		enc.UseCompactInts(true)
		if err := enc.Encode((*snapshotReflect)(s)); err != nil {
			t.Fatal(err)
		}
		want := append([]byte{byte(MsgSnapshot)}, buf.Bytes()...)
		got := MustEncode(s)
		if !bytes.Equal(got, want) {
			t.Errorf("snapshot %d: hand-written encoding\n%x\nreflection\n%x", i, got, want)
		}
	}
}

// Hello's Password is checked as any text; a Hello of protocol 6 (9
// fields, no Password) still decodes, so the server can answer it with the
// version check's "update your game" rather than a decoding error.
func TestHelloPassword(t *testing.T) {
	for _, pw := range []string{strings.Repeat("x", MaxPasswordLen+1), "a\x00b", "\xff"} {
		if _, err := Decode(MustEncode(&Hello{Protocol: ProtocolVersion, Name: "n", InterpRatio: 2, Password: pw})); err == nil ||
			!strings.Contains(err.Error(), "password") {
			t.Errorf("password %q: error %v, want one about the password", pw, err)
		}
	}
	// Protocol 6's Hello: 9 fields, no Password.
	old := []byte{byte(MsgHello), 0x99, 6, 0xa3, 'o', 'l', 'd', 0xcd, 0x4e, 0x20, 20, 0, 0, 0xca, 0x40, 0, 0, 0, 0xc2, 0xc3}
	m, err := Decode(old)
	if err != nil {
		t.Fatal(err)
	}
	if h, ok := m.(*Hello); !ok || h.Protocol != 6 || h.Name != "old" || h.Rate != 20000 || !h.Spectate || h.Password != "" {
		t.Errorf("protocol 6 hello decoded as %#v", m)
	}
	// This version's Hello must have all its fields (11).
	cur := append([]byte(nil), old...)
	cur[2] = ProtocolVersion
	if _, err := Decode(cur); err == nil {
		t.Errorf("a protocol %d hello of 9 fields decoded", ProtocolVersion)
	}
}

// AckAges is checked against its commands and its Ack, and MadeAck shifts
// the bits with the age.
func TestCmdsAckAges(t *testing.T) {
	cmds := []shared.UserCmd{validCmd(1), validCmd(2), validCmd(3)}
	for _, c := range []struct {
		name string
		m    Cmds
		err  string
	}{
		{"nil", Cmds{Ack: 5, Cmds: cmds}, ""},
		{"one per command", Cmds{Ack: 5, Cmds: cmds, AckAges: []uint8{2, 1, 0}}, ""},
		{"too few", Cmds{Ack: 5, Cmds: cmds, AckAges: []uint8{1}}, "1 ack ages for 3 usercmds"},
		{"older than any snapshot", Cmds{Ack: 1, Cmds: cmds, AckAges: []uint8{2, 0, 0}}, "made 2 snapshots before ack 1"},
		{"going back", Cmds{Ack: 5, Cmds: cmds, AckAges: []uint8{0, 1, 0}}, "older snapshot than the one before it"},
	} {
		b := MustEncode(&c.m)
		_, err := Decode(b)
		if c.err == "" && err != nil || c.err != "" && (err == nil || !strings.Contains(err.Error(), c.err)) {
			t.Errorf("%s: error %v, want %q", c.name, err, c.err)
		}
	}
	m := Cmds{Ack: 40, AckBits: 0b1011, Cmds: cmds, AckAges: []uint8{33, 2, 0}}
	for i, want := range [][2]uint32{{7, 0}, {38, 0b10}, {40, 0b1011}} {
		if seq, bits := m.MadeAck(i); seq != want[0] || bits != want[1] {
			t.Errorf("MadeAck(%d) = %d, %b; want %d, %b", i, seq, bits, want[0], want[1])
		}
	}
}
