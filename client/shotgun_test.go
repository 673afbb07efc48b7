//go:build !headless

package client

import (
	"math"
	"testing"

	"tickshot/game"
	"tickshot/net/proto"
	"tickshot/shared"
)

// TestOtherPlayersShotgunDrawsEveryPellet: from another player's one
// shotgun EvShot (the first pellet's trace and the command number) the
// client draws the other 7 pellets, each from the muzzle along the ray the
// server traced (shared.ShotFromFirstRay), stopped by a player in its way;
// a rifle's EvShot, or a shotgun's without its Cmd, adds none.
func TestOtherPlayersShotgunDrawsEveryPellet(t *testing.T) {
	m, err := game.LoadMap("range")
	if err != nil {
		t.Fatal(err)
	}
	const cmd = 4242
	// The shot, as the server fired it from (300, 384) aimed at +x.
	s := shared.NewPlayerState(300, 384)
	s.Weapon = shared.WeaponShotgun
	_, res := shared.RunCommand(s, shared.UserCmd{CommandNumber: cmd, Buttons: shared.ButtonAttack, Weapon: shared.WeaponShotgun}, m.World(64))
	sh := res.Shot
	target := game.NewHitbox(7, 460, 384, true, game.TeamNone) // 160 units ahead: most pellets stop at it
	boxes := []game.Hitbox{target}
	first := game.TraceShot(m, sh.X, sh.Y, sh.DirX, sh.DirY, shared.Weapons[shared.WeaponShotgun].Range, boxes, 3)
	e := proto.Event{Kind: proto.EvShot, A: 3, Value: int16(shared.WeaponShotgun), Cmd: cmd,
		X: proto.ToFixed(sh.X), Y: proto.ToFixed(sh.Y), X2: proto.ToFixed(first.EndX), Y2: proto.ToFixed(first.EndY)}

	var f effects
	f.otherPellets(m, &e, boxes)
	if len(f.tracers) != shared.MaxPellets-1 {
		t.Fatalf("%d tracers from a shotgun EvShot, want %d (the first is the event's own)", len(f.tracers), shared.MaxPellets-1)
	}
	stopped := 0
	for i, tr := range f.tracers {
		ry := sh.Ray(i + 1)
		if tr.x0 != sh.X || tr.y0 != sh.Y || tr.own {
			t.Fatalf("pellet %d: tracer from (%v, %v) own %v, want another's from the muzzle", i+1, tr.x0, tr.y0, tr.own)
		}
		if a := math.Atan2(tr.y1-tr.y0, tr.x1-tr.x0); math.Abs(a-ry.Angle) > 1e-3 {
			t.Fatalf("pellet %d: drawn at %v rad, fired at %v", i+1, a, ry.Angle)
		}
		if math.Hypot(tr.x1-target.X, tr.y1-target.Y) <= shared.PlayerRadius+1e-9 {
			stopped++
		}
	}
	if stopped == 0 {
		t.Error("no pellet stopped at the player in the way")
	}
	for _, other := range []proto.Event{{Kind: proto.EvShot, Value: int16(shared.WeaponRifle), Cmd: cmd, X2: 5}, {Kind: proto.EvShot, Value: int16(shared.WeaponShotgun), X2: 5}} {
		var g effects
		g.otherPellets(m, &other, nil)
		if len(g.tracers) != 0 {
			t.Errorf("EvShot %+v: %d more tracers, want none", other, len(g.tracers))
		}
	}
}
