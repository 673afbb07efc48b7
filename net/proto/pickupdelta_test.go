package proto

import (
	"errors"
	"math"
	"reflect"
	"testing"

	"tickshot/game"
	"tickshot/shared"
)

// Pickups on the wire (docs/PROTOCOL.md §5.15): the delta round-trips
// against any baseline, a hostile delta is refused with ErrDelta, and the
// snapshot's new fields round-trip and are range-checked.

func TestPickupDeltaRoundTrip(t *testing.T) {
	base := []PickupState{
		{ID: 1, Kind: 1, X: 208 * 64, Y: 768 * 64},
		{ID: 2, Kind: 2, X: 1024 * 64, Y: 608 * 64, RespawnTick: 900, Taker: 3},
		{ID: 4, Kind: 4, X: 1024 * 64, Y: 928 * 64},
	}
	cur := []PickupState{
		{ID: 1, Kind: 1, X: 208 * 64, Y: 768 * 64, RespawnTick: math.MaxUint32, Taker: math.MaxUint16}, // taken
		{ID: 2, Kind: 2, X: 1024 * 64, Y: 608 * 64, Taker: 3},                                          // back
		{ID: 3, Kind: 3, X: -5, Y: math.MaxInt32},                                                      // new in view
		// 4 left the view
		{ID: game.MaxPickups, Kind: uint8(game.MaxPickupKind), X: math.MinInt32},
	}
	d := AppendPickupDelta(nil, base, cur)
	got, err := ApplyPickupDelta(nil, base, d)
	if err != nil || !reflect.DeepEqual(got, cur) {
		t.Fatalf("delta %x: %v\n got %+v\nwant %+v", d, err, got, cur)
	}
	if d := AppendPickupDelta(nil, cur, cur); len(d) != 0 {
		t.Errorf("an unchanged frame takes %d bytes, want 0", len(d))
	}
	full := AppendPickupDelta(nil, nil, cur)
	if got, err := ApplyPickupDelta(nil, nil, full); err != nil || !reflect.DeepEqual(got, cur) {
		t.Fatalf("full: %v %+v", err, got)
	}
	// Taken, then back: one small record each, against the baseline.
	taken := append([]PickupState(nil), base...)
	taken[0].RespawnTick, taken[0].Taker = 1000, 7
	if d := AppendPickupDelta(nil, base, taken); len(d) > 6 {
		t.Errorf("a take costs %d bytes (%x), want at most 6", len(d), d)
	}
}

func TestPickupDeltaRejectsHostileInput(t *testing.T) {
	base := []PickupState{{ID: 2, Kind: 1, X: 10}, {ID: 5, Kind: 3, X: 20}}
	cases := map[string][]byte{
		"truncated record":     {2},
		"ids out of order":     {5, PickupDeltaTaker, 1, 2, PickupDeltaTaker, 1},
		"remove missing":       {3, DeltaRemoved},
		"unknown mask bit":     {2, 1 << 5},
		"entity-only bit 6":    {2, 1 << 6},
		"id over MaxPickups":   {game.MaxPickups + 1, PickupDeltaKind, 1},
		"new without a kind":   {3, PickupDeltaX, 2},
		"kind 0":               {2, PickupDeltaKind, 0},
		"kind too large":       {2, PickupDeltaKind, uint8(game.MaxPickupKind) + 1},
		"truncated kind":       {2, PickupDeltaKind},
		"truncated varint":     {2, PickupDeltaX, 0x80},
		"int32 overflow":       {2, PickupDeltaX, 0xfe, 0xff, 0xff, 0xff, 0x1f},
		"respawn over uint32":  {2, PickupDeltaRespawn, 0x80, 0x80, 0x80, 0x80, 0x10},
		"taker over uint16":    {2, PickupDeltaTaker, 0x80, 0x80, 0x04},
		"truncated respawn":    {2, PickupDeltaRespawn, 0xff},
		"remove with a field":  {2, DeltaRemoved | PickupDeltaKind, 1},
		"duplicate id":         {2, PickupDeltaTaker, 1, 2, PickupDeltaTaker, 1},
		"overlong varint ID":   {0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01},
		"taker truncated only": {5, PickupDeltaTaker},
	}
	for name, d := range cases {
		if _, err := ApplyPickupDelta(nil, base, d); !errors.Is(err, ErrDelta) {
			t.Errorf("%s: err %v, want ErrDelta", name, err)
		}
	}
	// More pickups than a map may place: refused even with valid IDs,
	// from a baseline that already holds the most.
	var most []PickupState
	for id := 1; id <= game.MaxPickups; id++ {
		most = append(most, PickupState{ID: uint16(id), Kind: 1})
	}
	if _, err := ApplyPickupDelta(nil, most, AppendPickupDelta(nil, nil, most)); err != nil {
		t.Errorf("%d pickups refused: %v", len(most), err)
	}
	if _, err := ApplyPickupDelta(nil, nil, []byte{game.MaxPickups + 1, PickupDeltaKind, 1}); !errors.Is(err, ErrDelta) {
		t.Error("a pickup ID past the map limit accepted")
	}
}

// The snapshot carries PickupDelta, Armour and PowerTicks through the
// codec; Check refuses armour and double damage out of range.
func TestSnapshotPickupFieldsRoundTripAndCheck(t *testing.T) {
	picks := []PickupState{{ID: 1, Kind: 2, X: 64, Y: 128, RespawnTick: 77, Taker: 9}}
	s := &Snapshot{Tick: 5, Seq: 1, EntityDelta: []byte{}, PickupDelta: AppendPickupDelta(nil, nil, picks),
		Self: SelfState{Ammo: []uint8{1, 2}, Armour: game.MaxArmour, PowerTicks: shared.Ticks(game.DoubleDamageMs, shared.MaxTickRate)}}
	m, err := Decode(MustEncode(s))
	if err != nil {
		t.Fatal(err)
	}
	got := m.(*Snapshot)
	if got.Self.Armour != s.Self.Armour || got.Self.PowerTicks != s.Self.PowerTicks {
		t.Errorf("self %+v, want armour %d power %d", got.Self, s.Self.Armour, s.Self.PowerTicks)
	}
	if back, err := ApplyPickupDelta(nil, nil, got.PickupDelta); err != nil || !reflect.DeepEqual(back, picks) {
		t.Errorf("pickups %+v (%v), want %+v", back, err, picks)
	}
	for name, mod := range map[string]func(*Snapshot){
		"armour":        func(s *Snapshot) { s.Self.Armour = game.MaxArmour + 1 },
		"double damage": func(s *Snapshot) { s.Self.PowerTicks++ },
	} {
		bad := *s
		mod(&bad)
		if err := Check(&bad); err == nil {
			t.Errorf("%s out of range accepted", name)
		}
		if _, err := Decode(MustEncode(&bad)); err == nil {
			t.Errorf("%s out of range decoded", name)
		}
	}
}

// FuzzApplyPickupDelta: a hostile pickup delta never panics; what it
// accepts is a frame of at most game.MaxPickups valid pickups, sorted by
// ID, that re-encodes to a delta giving the same frame.
//
//	go test ./net/proto -run '^$' -fuzz '^FuzzApplyPickupDelta$' -fuzztime 60s
func FuzzApplyPickupDelta(f *testing.F) {
	base := []PickupState{{ID: 2, Kind: 1, X: 10}, {ID: 5, Kind: 3, X: 20, RespawnTick: 9, Taker: 1}}
	f.Add(AppendPickupDelta(nil, base, []PickupState{{ID: 1, Kind: 4}, {ID: 5, Kind: 3, X: 20}}))
	f.Add([]byte{2, DeltaRemoved})
	f.Add([]byte{9, PickupDeltaKind, 2})
	f.Fuzz(func(t *testing.T, d []byte) {
		got, err := ApplyPickupDelta(nil, base, d)
		if err != nil {
			return
		}
		if len(got) > game.MaxPickups {
			t.Fatalf("%d pickups", len(got))
		}
		for i, pk := range got {
			if pk.Kind == 0 || pk.Kind > uint8(game.MaxPickupKind) || pk.ID > game.MaxPickups || (i > 0 && pk.ID <= got[i-1].ID) {
				t.Fatalf("accepted %+v", got)
			}
		}
		again, err := ApplyPickupDelta(nil, base, AppendPickupDelta(nil, base, got))
		if err != nil || !reflect.DeepEqual(again, got) {
			t.Fatalf("re-encoded: %v %+v, want %+v", err, again, got)
		}
	})
}

// The example of docs/PROTOCOL.md §5.15, byte for byte.
func TestPickupDeltaDocExample(t *testing.T) {
	base := []PickupState{{ID: 1, Kind: 1, X: 13312, Y: 49152}}
	taken := []PickupState{{ID: 1, Kind: 1, X: 13312, Y: 49152, RespawnTick: 1000 + 960, Taker: 3}}
	if got, want := AppendPickupDelta(nil, base, taken), []byte{0x01, 0x18, 0xa8, 0x0f, 0x03}; !reflect.DeepEqual(got, want) {
		t.Errorf("take: % x, want % x", got, want)
	}
	back := []PickupState{{ID: 1, Kind: 1, X: 13312, Y: 49152, Taker: 3}} // the taker stays
	if got, want := AppendPickupDelta(nil, taken, back), []byte{0x01, 0x08, 0x00}; !reflect.DeepEqual(got, want) {
		t.Errorf("back: % x, want % x", got, want)
	}
	if got := game.PickupHealth.RespawnTicks(64); got != 960 {
		t.Errorf("health respawns after %d ticks at 64 ticks/s, the example says 960", got)
	}
}
