package game

import (
	"testing"

	"tickshot/shared"
)

// Pickups (issue 21, item 4): taken by walking over them, in command order
// when two players reach one in the same tick, back after their respawn
// time; armour, rockets and double damage do what they say.

// pickupOf returns the world's first pickup of kind k.
func pickupOf(t *testing.T, w *World, k PickupKind) *Pickup {
	t.Helper()
	for i := range w.Pickups {
		if w.Pickups[i].Kind == k {
			return &w.Pickups[i]
		}
	}
	t.Fatalf("map %s has no %s pickup", w.Map.Name, k)
	return nil
}

// walkCmd is command n of a player walking along (mx, my).
func walkCmd(w *World, n uint32, mx, my float32) shared.UserCmd {
	return shared.UserCmd{CommandNumber: n, TickCount: w.Tick, Msec: shared.MsecFor(w.TickRate), MoveX: mx, MoveY: my}
}

// A scripted player walks over the health pickup and gains HealthAmount,
// not before it gets there; the pickup is gone until its respawn tick.
func TestPickupWalkOverHealth(t *testing.T) {
	w := testWorld(t, "arena", 1, Rules{})
	pk := pickupOf(t, w, PickupHealth)
	p := w.AddPlayer("walker", false)
	p.State = shared.NewPlayerState(pk.X-150, pk.Y)
	p.Health = 50
	took := uint32(0)
	for n := uint32(1); n <= 64 && took == 0; n++ {
		w.NextTick()
		w.RunCommand(p, walkCmd(w, n, 1, 0), nil)
		w.Step()
		if !pk.Present() {
			took = w.Tick
			if !Touches(p.State.X, p.State.Y, pk.X, pk.Y) {
				t.Fatalf("taken from %.1f units away", p.State.X-pk.X)
			}
		} else if p.Health != 50 {
			t.Fatalf("health %d before reaching the pickup", p.Health)
		}
	}
	if took == 0 {
		t.Fatalf("walked 1 s towards the health pickup and never took it (at %.0f, %.0f)", p.State.X, p.State.Y)
	}
	if p.Health != 50+HealthAmount || pk.Taker != p.ID {
		t.Errorf("health %d, taker %d; want %d, %d", p.Health, pk.Taker, 50+HealthAmount, p.ID)
	}
	if want := took + PickupHealth.RespawnTicks(w.TickRate); pk.RespawnTick != want {
		t.Errorf("respawn tick %d, want %d", pk.RespawnTick, want)
	}
}

// A player at full health walks over health and leaves it.
func TestPickupFullHealthLeavesIt(t *testing.T) {
	w := testWorld(t, "arena", 1, Rules{})
	pk := pickupOf(t, w, PickupHealth)
	p := w.AddPlayer("full", false)
	p.State = shared.NewPlayerState(pk.X, pk.Y)
	w.NextTick()
	w.RunCommand(p, walkCmd(w, 1, 0, 0), nil)
	if !pk.Present() || p.Health != MaxHealth {
		t.Errorf("a full-health player took health: present %v, health %d", pk.Present(), p.Health)
	}
}

// Two hurt players reach one pickup in the same tick: the one whose
// command runs first takes it, whichever that is.
func TestPickupSameTickCommandOrder(t *testing.T) {
	for _, aFirst := range []bool{true, false} {
		w := testWorld(t, "arena", 1, Rules{})
		pk := pickupOf(t, w, PickupHealth)
		a, b := w.AddPlayer("a", false), w.AddPlayer("b", false)
		a.State = shared.NewPlayerState(pk.X-10, pk.Y)
		b.State = shared.NewPlayerState(pk.X+10, pk.Y)
		a.Health, b.Health = 40, 40
		w.NextTick()
		first, second := a, b
		if !aFirst {
			first, second = b, a
		}
		w.RunCommand(first, walkCmd(w, 1, 0, 0), nil)
		w.RunCommand(second, walkCmd(w, 1, 0, 0), nil)
		if first.Health != 40+HealthAmount || second.Health != 40 || pk.Taker != first.ID {
			t.Errorf("aFirst %v: first's health %d, second's %d, taker %d (first %d)",
				aFirst, first.Health, second.Health, pk.Taker, first.ID)
		}
	}
}

// A taken pickup is away for exactly its respawn time, then present for
// the next command; a new match puts every pickup back.
func TestPickupRespawnTimer(t *testing.T) {
	w := testWorld(t, "arena", 1, Rules{})
	for _, k := range []PickupKind{PickupHealth, PickupArmour, PickupRockets, PickupDamage} {
		pk := pickupOf(t, w, k)
		p := w.AddPlayer(k.String(), false)
		p.State = shared.NewPlayerState(pk.X, pk.Y)
		p.Health = 10
		p.State.Ammo[rocketWeapon()] = 0
		w.NextTick()
		w.RunCommand(p, walkCmd(w, 1, 0, 0), nil)
		taken := w.Tick
		if pk.Present() {
			t.Fatalf("%s: not taken", k)
		}
		w.RemovePlayer(p.ID, "done")
		wait := int(k.RespawnTicks(w.TickRate))
		testSteps(w, wait-1)
		if pk.Present() {
			t.Errorf("%s: back after %d ticks, want %d", k, w.Tick-taken, wait)
		}
		testSteps(w, 1)
		if !pk.Present() {
			t.Errorf("%s: still away after %d ticks", k, w.Tick-taken)
		}
	}
	if got := PickupDamage.RespawnTicks(64); got != 45*64 {
		t.Errorf("double damage respawns after %d ticks at 64 ticks/s, want %d", got, 45*64)
	}
	pickupOf(t, w, PickupArmour).RespawnTick = w.Tick + 100
	w.Match.start(w)
	for _, pk := range w.Pickups {
		if !pk.Present() {
			t.Errorf("pickup %d (%s) away after a match start", pk.ID, pk.Kind)
		}
	}
}

// Armour takes half of each hit while it lasts; rockets load a second
// magazine; double damage doubles the taker's damage for 15 s; a respawn
// clears armour and the power-up.
func TestPickupEffects(t *testing.T) {
	w := testWorld(t, "range", 1, Rules{})
	a, b := w.AddPlayer("a", false), w.AddPlayer("b", false)
	w.Tick = 10
	b.take(PickupArmour, w.Tick, w.TickRate)
	w.Damage(a, b, 40, 0, 0)
	if b.Health != MaxHealth-20 || b.Armour != ArmourAmount-20 {
		t.Errorf("after 40 damage with %d armour: health %d, armour %d; want %d, %d", ArmourAmount, b.Health, b.Armour, MaxHealth-20, ArmourAmount-20)
	}
	w.Damage(a, b, 70, 0, 0) // armour takes its last 30, health 40
	if b.Health != MaxHealth-60 || b.Armour != 0 {
		t.Errorf("after 70 more: health %d, armour %d; want %d, 0", b.Health, b.Armour, MaxHealth-60)
	}
	rw := rocketWeapon()
	mag := shared.Weapons[rw].MagSize
	a.take(PickupRockets, w.Tick, w.TickRate)
	if a.State.Ammo[rw] != 2*mag || CanTake(PickupRockets, a.Health, a.Armour, a.State) {
		t.Errorf("rockets after a pickup on a full magazine: %d, want %d and no more taken", a.State.Ammo[rw], 2*mag)
	}
	a.take(PickupDamage, w.Tick, w.TickRate)
	b.Health = MaxHealth
	w.Damage(a, b, 25, 0, 0)
	if b.Health != MaxHealth-50 {
		t.Errorf("a double-damage hit of 25 left %d health, want %d", b.Health, MaxHealth-50)
	}
	w.Tick += uint32(shared.Ticks(DoubleDamageMs, w.TickRate))
	b.Health = MaxHealth
	w.Damage(a, b, 25, 0, 0)
	if b.Health != MaxHealth-25 {
		t.Errorf("15 s later a hit of 25 left %d health, want %d", b.Health, MaxHealth-25)
	}
	a.take(PickupDamage, w.Tick, w.TickRate)
	a.take(PickupArmour, w.Tick, w.TickRate)
	a.Spawn(Point{100, 100})
	if a.Armour != 0 || a.Powered(w.Tick) {
		t.Errorf("after a respawn: armour %d, powered %v", a.Armour, a.Powered(w.Tick))
	}
}

// Hurt bots find the health: over 60 s on bunker, bots take health pickups.
func TestBotsTakeHealth(t *testing.T) {
	w := testWorld(t, "bunker", 5, Rules{})
	for range 6 {
		w.AddBot(16)
	}
	taken := 0
	for range 64 * 60 {
		w.NextTick()
		before := make([]uint32, len(w.Pickups))
		for i := range w.Pickups {
			before[i] = w.Pickups[i].RespawnTick
		}
		w.Step()
		for i, pk := range w.Pickups {
			if pk.Kind == PickupHealth && pk.RespawnTick != before[i] && !pk.Present() {
				taken++
			}
		}
	}
	if taken < 2 {
		t.Errorf("bots took health %d times in 60 s on bunker, want at least 2", taken)
	}
}

// A hurt bot with nobody in sight walks to the health pickup it sees and
// takes it; at full health it leaves it.
func TestBotSeeksHealthWhenHurt(t *testing.T) {
	for _, hurt := range []bool{true, false} {
		w := testWorld(t, "bunker", 3, Rules{})
		pk := pickupOf(t, w, PickupHealth)
		b := w.AddBot(16)
		p := b.Player
		p.State = shared.NewPlayerState(pk.X-160, pk.Y+64)
		if hurt {
			p.Health = 30
		}
		p.ProtectedUntil = 0
		testSteps(w, 64*3)
		if taken := !pk.Present(); taken != hurt {
			t.Errorf("hurt %v: took the health %v (bot at %.0f, %.0f, health %d)", hurt, taken, p.State.X, p.State.Y, p.Health)
		}
	}
}
