package game

import (
	"testing"

	"tickshot/shared"
)

// Flight alone: IDs, launch, flight to the lifetime's end, clear, and a
// departed owner's rocket. The rules of a hit and of splash are in
// world_test.go (TestRocket*).

func TestFlightIDsWrapSkippingZero(t *testing.T) {
	f := Flight{lastProjID: 65534}
	if a, b, c := f.launchID(), f.launchID(), f.launchID(); a != 65535 || b != 1 || c != 2 {
		t.Fatalf("IDs %d %d %d, want 65535 1 2", a, b, c)
	}
}

// rocketShot is a rocket from (x, y) along +x.
func rocketShot(x, y float64) shared.Shot {
	return shared.Shot{Weapon: 1, X: x, Y: y, DirX: 1, DirY: 0}
}

func TestFlightLaunchFliesAndExpires(t *testing.T) {
	w := testWorld(t, "range", 1, Rules{})
	testSteps(w, 1)
	p := testPlayerAt(w, "p", 100, 384)
	w.TakeEvents()
	w.Flight.launch(w, p, rocketShot(100, 384))
	if len(w.Projectiles) != 1 {
		t.Fatalf("%d projectiles after a launch", len(w.Projectiles))
	}
	pr := w.Projectiles[0]
	def := &shared.Weapons[1]
	if pr.Owner != p.ID || pr.X != 100+shared.PlayerRadius+6 || pr.VX != def.Speed || pr.VY != 0 {
		t.Fatalf("launched %+v", *pr)
	}
	if ev := w.TakeEvents(); len(ev) != 1 || ev[0].Kind != EvShot || ev[0].A != p.ID || ev[0].Value != 1 {
		t.Fatalf("launch events %+v, want one EvShot", ev)
	}
	// Along the range's open lane it moves Speed/TickRate a tick.
	x0 := pr.X
	w.Tick++
	w.Flight.step(w)
	if len(w.Projectiles) != 1 || pr.X != x0+def.Speed/float64(w.TickRate) {
		t.Fatalf("after a step: %d in flight, x %v, want %v", len(w.Projectiles), pr.X, x0+def.Speed/float64(w.TickRate))
	}
	w.TakeEvents()
	// Moved into the open sky (no walls, nobody), it explodes at Dies.
	pr.X, pr.Y = -1e6, -1e6
	w.Tick = pr.Dies
	w.Flight.step(w)
	if len(w.Projectiles) != 0 {
		t.Fatal("the rocket outlived ProjectileLifetimeMs")
	}
	if ev := w.TakeEvents(); len(ev) != 1 || ev[0].Kind != EvExplode || ev[0].Value != int(def.SplashRange) {
		t.Fatalf("expiry events %+v, want one EvExplode", ev)
	}
}

func TestFlightClearAndOrphans(t *testing.T) {
	w := testWorld(t, "range", 1, Rules{})
	testSteps(w, 1)
	owner := testPlayerAt(w, "owner", 100, 384)
	target := testPlayerAt(w, "target", 100+shared.PlayerRadius+6+30, 384)
	w.Flight.launch(w, owner, rocketShot(100, 384))
	w.Flight.launch(w, owner, rocketShot(100, 384))
	w.Flight.clear()
	if len(w.Projectiles) != 0 {
		t.Fatal("clear left projectiles")
	}
	// The owner leaves: its rocket still explodes on the target but harms no one.
	w.Flight.launch(w, owner, rocketShot(100, 384))
	w.RemovePlayer(owner.ID, "gone")
	for i := 0; i < 8 && len(w.Projectiles) > 0; i++ {
		w.Tick++
		w.Flight.step(w)
	}
	if len(w.Projectiles) != 0 || countEvents(w.TakeEvents(), EvExplode) != 1 {
		t.Fatal("the orphan rocket did not explode on the target")
	}
	if target.Health != MaxHealth {
		t.Fatalf("a departed owner's rocket did %d damage", MaxHealth-target.Health)
	}
}
