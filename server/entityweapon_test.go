package server

import (
	"testing"

	"tickshot/net/proto"
	"tickshot/shared"
)

// Another client sees a player's weapon switch and its double damage:
// after the player's usercmd switches weapons, the entity record the
// server sends the other client carries the new weapon (decoded from the
// wire), and FlagPowered while the power-up lasts.
func TestOtherClientSeesWeaponAndPower(t *testing.T) {
	s := lcServer(t, Config{Seed: 1})
	me := s.newPlayer("me", false)
	other := s.newPlayer("other", false)
	me.State.X, me.State.Y = 200, 200
	other.State.X, other.State.Y = 500, 400
	ss := lcSession(me, 50)
	entity := func() proto.EntityState {
		t.Helper()
		_, ents := sendTo(t, s, ss)
		for _, e := range ents {
			if e.ID == other.ID {
				return e
			}
		}
		t.Fatal("the other player is not in the snapshot")
		return proto.EntityState{}
	}
	if e := entity(); e.Weapon != other.State.Weapon || e.Flags&proto.FlagPowered != 0 {
		t.Fatalf("before: %+v, want weapon %d, not powered", e, other.State.Weapon)
	}
	for w := uint8(shared.NumWeapons - 1); ; w-- {
		for n := uint32(1); other.State.Weapon != w; n++ {
			if n > 200 {
				t.Fatalf("the switch to weapon %d never happened", w)
			}
			s.w.NextTick()
			cmd := shared.UserCmd{CommandNumber: uint32(w)*1000 + n, TickCount: s.w.Tick, Msec: shared.MsecFor(s.w.TickRate), Weapon: w}
			s.w.RunCommand(other, cmd, nil)
			s.w.Step()
		}
		if e := entity(); e.Weapon != w {
			t.Errorf("after the switch to %s: the entity carries weapon %d", shared.Weapons[w].Name, e.Weapon)
		}
		if w == 0 {
			break
		}
	}
	other.PowerUntil = s.w.Tick + 100
	if e := entity(); e.Flags&proto.FlagPowered == 0 {
		t.Errorf("double damage: flags %#x, want FlagPowered", e.Flags)
	}
}
