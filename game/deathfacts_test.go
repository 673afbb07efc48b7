package game

import (
	"testing"

	"tickshot/shared"
)

// killEvent is the one EvKill in evs; the test fails without exactly one.
func killEvent(t *testing.T, evs []Event) Event {
	t.Helper()
	var kills []Event
	for _, e := range evs {
		if e.Kind == EvKill {
			kills = append(kills, e)
		}
	}
	if len(kills) != 1 {
		t.Fatalf("%d EvKill in %+v, want one", len(kills), evs)
	}
	return kills[0]
}

// An EvKill carries what a death card shows: the weapon that killed (a
// rocket's own, though its owner holds the rifle again when it explodes)
// and where killer and victim stood.
func TestKillEventCarriesWeaponAndPositions(t *testing.T) {
	w := testWorld(t, "range", 1, Rules{})
	a := testPlayerAt(w, "a", 300, 384)
	b := testPlayerAt(w, "b", 700, 384)
	b.Health = shared.Weapons[0].Damage
	w.NextTick()
	fire(w, a, 1, 0, nil)
	k := killEvent(t, w.TakeEvents())
	if k.A != a.ID || k.B != b.ID || k.Value != 0 || k.X != 300 || k.Y != 384 || k.X2 != 700 || k.Y2 != 384 {
		t.Fatalf("rifle kill %+v: want a killed b with weapon 0, a at (300, 384), b at (700, 384)", k)
	}

	// A rocket launched, then the rifle drawn while it flies.
	testSteps(w, 3*w.TickRate) // b respawns
	b.State, b.Health = shared.NewPlayerState(700, 384), 10
	a.State = shared.NewPlayerState(300, 384)
	w.TakeEvents()
	w.Flight.launch(w, a, rocketShot(300, 384))
	a.State.Weapon = 0
	a.State.X = 320 // a moved on after firing
	for i := 0; i < 2*w.TickRate && b.Alive(); i++ {
		testSteps(w, 1)
		a.State.X = 320
	}
	k = killEvent(t, w.TakeEvents())
	if k.A != a.ID || k.B != b.ID || k.Value != 1 || k.X != 320 || k.X2 != 700 {
		t.Fatalf("rocket kill %+v: want a killed b with weapon 1 (the rocket launcher), a at x 320, b at x 700", k)
	}

	// The console's kill: the victim is the killer, where it stands.
	testSteps(w, 3*w.TickRate)
	if err := w.Suicide(b); err != nil {
		t.Fatal(err)
	}
	k = killEvent(t, w.TakeEvents())
	if k.A != b.ID || k.B != b.ID || k.X != k.X2 || k.Y != k.Y2 {
		t.Fatalf("suicide %+v: want b killed b where it stood", k)
	}
}
