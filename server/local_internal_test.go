package server

import (
	"testing"

	"tickshot/game"
	"tickshot/shared"
)

// Local keeps hitscan shots only: a rocket's launch (an EvShot without a
// command, from the muzzle to the muzzle) is no shot the server judged.
func TestLocalKeepsHitscanShotsOnly(t *testing.T) {
	l, err := NewLocal(Config{Map: "arena", TickRate: 64, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	p := l.s.w.AddPlayer("p", false)
	for w := range shared.Weapons {
		cmd := shared.UserCmd{CommandNumber: uint32(9 + w)}
		presentShots{&l.s.rewinder}.ShotHitboxes(l.s.w, p, &cmd, nil)
		l.onEvent(&game.Event{Kind: game.EvShot, A: p.ID, Value: w, Cmd: cmd.CommandNumber, X: 10, Y: 10, X2: 50, Y2: 10})
		shots := l.TakeShots()
		if len(shots) != 1 {
			t.Fatalf("%d judged shots, want 1", len(shots))
		}
		if hitscan := shared.Weapons[w].Kind == shared.Hitscan; hitscan != (shots[0].EndX == 50) {
			t.Errorf("%s's EvShot (hitscan %v) completed the judged shot of its command: %v", shared.Weapons[w].Name, hitscan, shots[0].EndX == 50)
		}
	}
}

// With sv_unlag 0 a Local judges a shot against the hitboxes as it is
// traced: a target that moves later in the tick is recorded where the
// trace met it, not where the tick left it.
func TestLocalJudgesThePresentAsTraced(t *testing.T) {
	l, err := NewLocal(Config{Map: "arena", TickRate: 64, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	shooter, target := l.s.w.AddPlayer("a", false), l.s.w.AddPlayer("b", false)
	x, y := target.State.X, target.State.Y
	cmd := shared.UserCmd{CommandNumber: 5}
	boxes, rw := presentShots{&l.s.rewinder}.ShotHitboxes(l.s.w, shooter, &cmd, nil)
	if len(boxes) != 2 || rw != 0 {
		t.Fatalf("%d boxes, rewind %v; want both players' present ones, no rewind", len(boxes), rw)
	}
	target.State.X += 4 // the target's own command runs after the shooter's
	l.onEvent(&game.Event{Kind: game.EvShot, A: shooter.ID, Cmd: 5, X: 1, Y: 2, X2: 3, Y2: 4, B: target.ID})
	shots := l.TakeShots()
	if len(shots) != 1 {
		t.Fatalf("%d judged shots, want 1", len(shots))
	}
	js := shots[0]
	if len(js.Boxes) != 1 || js.Boxes[0].X != x || js.Boxes[0].Y != y || js.Unlagged || js.RewindMs != 0 || js.Hit != target.ID || js.EndX != 3 {
		t.Errorf("judged %+v; want the target's box at (%v, %v) as traced, not lag-compensated, completed by its EvShot", js, x, y)
	}
}
