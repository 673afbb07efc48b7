package lab

import (
	"math"
	"testing"
	"time"

	"tickshot/client/netclient"
	"tickshot/shared"
)

// The shooter's tracer, traced against the others as its screen drew
// them, ends within the weapon's range (shared.Weapons), as the server's
// trace does: on the arena, 2048 units wide, a shot along an open line
// runs out of range before it meets a wall.
func TestShooterTracerWithinRange(t *testing.T) {
	l, err := New(Config{Seed: 1, Map: "arena", Drivers: [2]Driver{DriveKeyboard, DriveIdle}})
	if err != nil {
		t.Fatal(err)
	}
	if err := l.RunFor(500 * time.Millisecond); err != nil {
		t.Fatal(err)
	}
	v := l.Client(P1).View()
	x, y := v.LocalPos()
	rng := shared.Weapons[0].Range
	aim := math.NaN()
	for a := 0.0; a < 2*math.Pi; a += math.Pi / 90 {
		if v.Map.LineOfSight(x, y, x+(rng+100)*math.Cos(a), y+(rng+100)*math.Sin(a)) {
			aim = a
			break
		}
	}
	if math.IsNaN(aim) {
		t.Skipf("no open line of %.0f units from (%.0f, %.0f)", rng+100, x, y)
	}
	l.SetInput(P1, netclient.Input{Angle: float32(aim), Pressed: shared.ButtonAttack})
	l.Advance(time.Second)
	if len(l.Shots()) == 0 {
		t.Fatal("the shot was not judged")
	}
	sh := l.Shots()[0]
	if d := math.Hypot(sh.ToX-sh.FromX, sh.ToY-sh.FromY); d > rng+1e-6 {
		t.Errorf("the shooter's tracer runs %.0f units, past the rifle's range %.0f (the server's trace: %.0f)",
			d, rng, math.Hypot(sh.EndX-sh.FromX, sh.EndY-sh.FromY))
	}
}
