package proto

import (
	"reflect"
	"regexp"
	"strings"
	"testing"

	"github.com/vmihailenco/msgpack/v5"

	"tickshot/shared"
)

// What docs/PROTOCOL.md promises decoders do with the forms no Tickshot
// sender writes (issue 19 item 6: a client written from the document alone
// found them refused or unsaid).

// mapFrame is a frame of type typ whose body is the msgpack map m.
func mapFrame(t *testing.T, typ MsgType, m map[string]any) []byte {
	t.Helper()
	body, err := msgpack.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	return append([]byte{byte(typ)}, body...)
}

// §2 Map form: a Hello keyed by field name decodes as its array form does
// (it was refused: "invalid code=8a decoding array length"); absent fields
// are zero, unknown keys skipped; one of another version still reaches the
// version check; nested structs of other messages may be maps too.
func TestMapFormHello(t *testing.T) {
	want := Hello{Protocol: ProtocolVersion, Name: "mapper", Rate: 50000, UpdateRate: 30, CmdRate: 64,
		InterpMs: 80, InterpRatio: 1.5, NoDelta: true, Spectate: true, Password: "pw"}
	m, err := Decode(mapFrame(t, MsgHello, map[string]any{"Protocol": want.Protocol, "Name": want.Name,
		"Rate": want.Rate, "UpdateRate": want.UpdateRate, "CmdRate": want.CmdRate, "InterpMs": want.InterpMs,
		"InterpRatio": want.InterpRatio, "NoDelta": true, "Spectate": true, "Password": "pw"}))
	if err != nil {
		t.Fatalf("map-form Hello: %v", err)
	}
	if got := *m.(*Hello); !reflect.DeepEqual(got, want) {
		t.Errorf("map-form Hello decoded as %+v, want %+v", got, want)
	}
	m, err = Decode(mapFrame(t, MsgHello, map[string]any{"Name": "old", "Protocol": 8, "Colour": "red"}))
	if err != nil {
		t.Fatalf("a map Hello of protocol 8 with fewer fields and an unknown key: %v", err)
	}
	if h := m.(*Hello); h.Protocol != 8 || h.Name != "old" || h.Rate != 0 || h.Password != "" {
		t.Errorf("map Hello of protocol 8 decoded as %+v", h)
	}
	// Field names are case-sensitive: "name" is no field, so the name is
	// empty and Check refuses it.
	if _, err := Decode(mapFrame(t, MsgHello, map[string]any{"Protocol": ProtocolVersion, "name": "x"})); err == nil ||
		!strings.Contains(err.Error(), "invalid hello: name") {
		t.Errorf("a lowercase key: error %v, want the name refused as missing", err)
	}
	// The array form keeps its rules.
	if _, err := Decode(MustEncode(&Hello{Protocol: ProtocolVersion, Name: "arr", InterpRatio: 2})); err != nil {
		t.Errorf("array Hello: %v", err)
	}
	// A nested struct as a map: a Cmds whose UserCmd is keyed by name.
	m, err = Decode(mapFrame(t, MsgCmds, map[string]any{"Ack": 3, "Cmds": []any{
		map[string]any{"CommandNumber": 7, "Msec": 16, "MoveX": float32(1)}}}))
	if err != nil {
		t.Fatalf("map Cmds with a map UserCmd: %v", err)
	}
	if c := m.(*Cmds); c.Ack != 3 || len(c.Cmds) != 1 || c.Cmds[0] != (shared.UserCmd{CommandNumber: 7, Msec: 16, MoveX: 1}) {
		t.Errorf("map Cmds decoded as %+v", c)
	}
}

// §2 step 2: a value cut short is "truncated"; a str, bin, array or map
// declaring more than is left is "declared length exceeds message".
func TestPrecheckTruncatedOrDeclaredLength(t *testing.T) {
	// The document's own example: "e.g. `cd 01` for a uint 16".
	doc := strings.Join(strings.Fields(protocolDoc(t)), " ")
	ex := regexp.MustCompile("\\(\"truncated\": [^)]*e\\.g\\. `([0-9a-f ]+)` for a uint 16\\)").FindStringSubmatch(doc)
	if ex == nil {
		t.Fatal("docs/PROTOCOL.md §2 lost its example of a truncated scalar")
	}
	if _, err := Decode(append([]byte{byte(MsgHello), 0x91}, mustHex(t, ex[1])...)); err == nil || err.Error() != "malformed hello: truncated" {
		t.Errorf("the document's truncated uint 16 %q: error %v, want \"malformed hello: truncated\"", ex[1], err)
	}
	for _, c := range []struct {
		name string
		data []byte
		want string
	}{
		{"uint16 cut short", frame(MsgHello, 0x91, 0xcd, 0x00), "malformed hello: truncated"},
		{"uint32 cut short", frame(MsgCmds, 0x92, 0xce, 0x01), "malformed cmds: truncated"},
		{"float32 cut short", frame(MsgSettings, 0x91, 0xca, 0x3f, 0x80), "malformed settings: truncated"},
		{"str 8 length missing", frame(MsgReject, 0x91, 0xd9), "malformed reject: truncated"},
		{"array 16 length cut short", frame(MsgCmds, 0xdc, 0x00), "malformed cmds: truncated"},
		{"missing element", frame(MsgCmds, 0x92, 0xcd, 0x01, 0x2c), "malformed cmds: truncated"},
		{"empty body", frame(MsgPrint), "malformed print: truncated"},
		{"str longer than the message", frame(MsgReject, 0x91, 0xa5, 'a', 'b'), "malformed reject: declared length exceeds message"},
		{"bin longer than the message", frame(MsgCmds, 0x95, 0, 0, 0, 0xc0, 0xc4, 0x09, 1), "malformed cmds: declared length exceeds message"},
		{"array longer than the message", frame(MsgCmds, 0x9a, 0x01), "malformed cmds: declared length exceeds message"},
	} {
		if _, err := Decode(c.data); err == nil || err.Error() != c.want {
			t.Errorf("%s (% x): error %v, want %q", c.name, c.data, err, c.want)
		}
	}
}

// §2 bins: every bin may be nil on the wire and reads as empty; the
// encoder writes nil only for a nil slice.
func TestBinsMayBeNil(t *testing.T) {
	if !strings.Contains(protocolDoc(t), "**Receivers accept nil `c0` for every bin** and read it as 0 bytes") {
		t.Error("docs/PROTOCOL.md §2 does not say that every bin may be nil")
	}
	// Snapshot{} has Ammo, EntityDelta and EventData nil: all three c0.
	b := MustEncode(&Snapshot{Tick: 5})
	m, err := Decode(b)
	if err != nil {
		t.Fatalf("a snapshot with nil bins: %v", err)
	}
	s := m.(*Snapshot)
	if len(s.Self.Ammo) != 0 || len(s.EntityDelta) != 0 || len(s.EventData) != 0 {
		t.Fatalf("nil bins read as %v %v %v", s.Self.Ammo, s.EntityDelta, s.EventData)
	}
	if ents, err := ApplyEntityDelta(nil, nil, s.EntityDelta); err != nil || len(ents) != 0 {
		t.Errorf("a nil EntityDelta applied: %v, %v", ents, err)
	}
	if evs, err := DecodeEvents(nil, s.Tick, s.EventData); err != nil || len(evs) != 0 {
		t.Errorf("a nil EventData: %v, %v", evs, err)
	}
	if m, err := Decode(MustEncode(&Cmds{Ack: 1, Cmds: []shared.UserCmd{{CommandNumber: 1, Msec: 16}}})); err != nil || m.(*Cmds).AckAges != nil {
		t.Errorf("a nil AckAges: %+v, %v", m, err)
	}
	// An empty, non-nil bin is c4 00.
	var enc Encoder
	empty := enc.Append(nil, &Snapshot{Tick: 5, EntityDelta: []byte{}, Self: SelfState{Ammo: []uint8{0, 0}}})
	if !strings.Contains(string(empty), "\xc4\x00") {
		t.Errorf("an empty EntityDelta is not written as c4 00: % x", empty)
	}
}

// mapForm is v with every struct, nested ones included, as a map keyed by
// its field names (the fields msgpack encodes), for §2's map form.
func mapForm(v reflect.Value) any {
	switch v.Kind() {
	case reflect.Pointer:
		if v.IsNil() {
			return nil
		}
		return mapForm(v.Elem())
	case reflect.Struct:
		m := map[string]any{}
		for i := 0; i < v.NumField(); i++ {
			f := v.Type().Field(i)
			if !f.IsExported() || f.Tag.Get("msgpack") == "-" {
				continue
			}
			m[f.Name] = mapForm(v.Field(i))
		}
		return m
	case reflect.Slice:
		if v.Type().Elem().Kind() != reflect.Struct {
			return v.Interface() // []uint8: a bin
		}
		if v.IsNil() {
			return nil
		}
		s := make([]any, v.Len())
		for i := range s {
			s[i] = mapForm(v.Index(i))
		}
		return s
	}
	return v.Interface()
}

// §2 map form, for every message type and every nested struct: the
// sample of each type, written as maps all the way down, decodes to what
// its array form decodes to.
func TestMapFormEveryMessage(t *testing.T) {
	samples := append(sampleMessages(), &Snapshot{Tick: 9, Self: SelfState{Ammo: []uint8{20, 4}},
		Projectiles: []ProjectileState{{ID: 1, Owner: 2, Weapon: 1, X: -5, Y: 6, VX: 41600, VY: -1}}})
	for _, m := range samples {
		want, err := Decode(MustEncode(m))
		if err != nil {
			t.Fatalf("%s: %v", m.Type(), err)
		}
		body, err := msgpack.Marshal(mapForm(reflect.ValueOf(m)))
		if err != nil {
			t.Fatal(err)
		}
		got, err := Decode(append([]byte{byte(m.Type())}, body...))
		if err != nil {
			t.Errorf("%s in map form: %v", m.Type(), err)
			continue
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%s in map form decodes to %+v, its array form to %+v", m.Type(), got, want)
		}
	}
}
