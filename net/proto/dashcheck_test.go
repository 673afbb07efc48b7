package proto

import (
	"testing"

	"tickshot/shared"
)

// A snapshot's Self.DashTicks is at most the dash's cooldown at the
// highest tick rate: a larger one (a hostile server's) would have the
// client predict a dash, with no speed clamp, for as long as it counts
// down (shared.PlayerState.Dashing). Check refuses it and decoding fails.
func TestSnapshotDashTicksChecked(t *testing.T) {
	most := shared.DashCooldownTicks(shared.MaxTickRate)
	s := &Snapshot{Tick: 5, Seq: 1, EntityDelta: []byte{}, PickupDelta: []byte{},
		Self: SelfState{Ammo: []uint8{1, 2}, DashTicks: most}}
	m, err := Decode(MustEncode(s))
	if err != nil {
		t.Fatalf("dash ticks %d (the cooldown at %d ticks/s) refused: %v", most, shared.MaxTickRate, err)
	}
	if got := m.(*Snapshot).Self.DashTicks; got != most {
		t.Errorf("dash ticks %d after the round trip, want %d", got, most)
	}
	for _, bad := range []uint16{most + 1, 0xffff} {
		b := *s
		b.Self.DashTicks = bad
		if err := Check(&b); err == nil {
			t.Errorf("dash ticks %d accepted by Check", bad)
		}
		if _, err := Decode(MustEncode(&b)); err == nil {
			t.Errorf("dash ticks %d decoded", bad)
		}
	}
}
