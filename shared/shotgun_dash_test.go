package shared_test

import (
	"math"
	"testing"

	"tickshot/shared"
)

// TestShotgunPelletsFanOverTheSpread: one shotgun command fires
// MaxPellets rays, each inside its own slice of [-Spread, Spread] (a
// stratified pattern), each a unit vector matching its angle, all the same
// for the same command number from any state, and different from one
// command to the next.
func TestShotgunPelletsFanOverTheSpread(t *testing.T) {
	def := &shared.Weapons[shared.WeaponShotgun]
	if def.Kind != shared.Hitscan || def.Pellets != shared.MaxPellets {
		t.Fatalf("shotgun %+v: want hitscan with %d pellets", def, shared.MaxPellets)
	}
	w := openWorld(64)
	s := shared.NewPlayerState(1000, 1000)
	s.Weapon = shared.WeaponShotgun
	var prev shared.Shot
	for cn := uint32(1); cn <= 500; cn++ {
		aim := float32(cn%628)/100 - 3.14
		cmd := shared.UserCmd{CommandNumber: cn, Buttons: shared.ButtonAttack, ViewAngle: aim, Weapon: shared.WeaponShotgun}
		_, r := shared.RunCommand(s, cmd, w)
		if !r.Fired || r.Shot.NumRays() != shared.MaxPellets {
			t.Fatalf("command %d: fired %v with %d rays", cn, r.Fired, r.Shot.NumRays())
		}
		other := shared.NewPlayerState(10, 20)
		other.Weapon = shared.WeaponShotgun
		_, r2 := shared.RunCommand(other, cmd, w)
		slice := 2 * def.Spread / shared.MaxPellets
		for i := 0; i < r.Shot.NumRays(); i++ {
			ry := r.Shot.Ray(i)
			off := ry.Angle - float64(aim)
			lo := -def.Spread + float64(i)*slice
			if off < lo-1e-12 || off > lo+slice+1e-12 {
				t.Fatalf("command %d pellet %d: offset %v outside its slice [%v, %v]", cn, i, off, lo, lo+slice)
			}
			if math.Abs(math.Hypot(ry.DirX, ry.DirY)-1) > 1e-15 || math.Abs(ry.DirX-math.Cos(ry.Angle)) > 1e-15 {
				t.Fatalf("command %d pellet %d: dir (%v, %v) does not match angle %v", cn, i, ry.DirX, ry.DirY, ry.Angle)
			}
			if r2.Shot.Ray(i) != ry {
				t.Fatalf("command %d pellet %d: depends on more than the command number", cn, i)
			}
			if cn > 1 && prev.Ray(i).Angle-float64(float32((cn-1)%628)/100-3.14) == off {
				t.Fatalf("command %d pellet %d: same offset as the command before", cn, i)
			}
		}
		prev = r.Shot
	}
	// A one-pellet weapon still draws SpreadOffset of ShotSeed: the rifle's
	// spread did not change with pellets.
	if got := shared.PelletOffset(shared.ShotSeed(7), 0, 1, 0.02); got != shared.SpreadOffset(shared.ShotSeed(7), 0.02) {
		t.Errorf("one pellet: offset %v, want SpreadOffset's", got)
	}
}

// TestShotgunAmmoAndInterval: a shot uses one shell whatever its pellets,
// and the next waits IntervalMs.
func TestShotgunAmmoAndInterval(t *testing.T) {
	def := &shared.Weapons[shared.WeaponShotgun]
	w := openWorld(64)
	s := shared.NewPlayerState(1000, 1000)
	s.Weapon = shared.WeaponShotgun
	shots := 0
	for cn := uint32(1); cn <= uint32(shared.Ticks(def.IntervalMs, 64))*2; cn++ {
		var r shared.Result
		s, r = shared.RunCommand(s, shared.UserCmd{CommandNumber: cn, Buttons: shared.ButtonAttack, Weapon: shared.WeaponShotgun}, w)
		if r.Fired {
			shots++
		}
	}
	if shots != 2 || s.Ammo[shared.WeaponShotgun] != def.MagSize-2 {
		t.Errorf("%d shots in two intervals, %d shells left of %d; want 2 and 2 used", shots, s.Ammo[shared.WeaponShotgun], def.MagSize)
	}
}

// TestDashBurstAndCooldown: a dash moves at DashSpeed in the move
// direction for Ticks(DashMs) commands, then the speed is back at most
// MaxSpeed; a second dash pressed inside the cooldown does nothing (state
// bit-identical to not pressing it); after the cooldown a dash starts
// again; without move input the button does nothing and costs no cooldown.
func TestDashBurstAndCooldown(t *testing.T) {
	for _, tr := range tickRates {
		w := openWorld(tr)
		dur, cd := int(shared.Ticks(shared.DashMs, tr)), int(shared.DashCooldownTicks(tr))
		s := shared.NewPlayerState(1000, 1000)
		cn := uint32(0)
		step := func(s shared.PlayerState, buttons uint16, mx, my float32) shared.PlayerState {
			cn++
			n, _ := shared.RunCommand(s, shared.UserCmd{CommandNumber: cn, Buttons: buttons, MoveX: mx, MoveY: my}, w)
			return n
		}
		// Standing still: the button is ignored.
		if n := step(s, shared.ButtonDash, 0, 0); n.DashTicks != 0 || n.VX != 0 || n.VY != 0 {
			t.Fatalf("rate %d: dash without input: %+v", tr, n)
		}
		s = step(s, shared.ButtonDash, 0, 1)
		x0, y0 := 1000.0, 1000.0
		for i := 0; i < dur; i++ {
			if i > 0 {
				s = step(s, 0, 0, 1)
			}
			if !s.Dashing(tr) || s.VX != 0 || s.VY != shared.DashSpeed {
				t.Fatalf("rate %d dash tick %d: dashing %v, velocity (%v, %v), want (0, %v)", tr, i, s.Dashing(tr), s.VX, s.VY, shared.DashSpeed)
			}
		}
		if d := s.Y - y0; s.X != x0 || math.Abs(d-float64(dur)*shared.DashSpeed/float64(tr)) > 1 {
			t.Fatalf("rate %d: dashed to (%v, %v), want %v units down", tr, s.X, s.Y, float64(dur)*shared.DashSpeed/float64(tr))
		}
		s = step(s, 0, 0, 1)
		if s.Dashing(tr) || speedOf(s) > shared.MaxSpeed+quantSlack {
			t.Fatalf("rate %d: after the dash: dashing %v, speed %v", tr, s.Dashing(tr), speedOf(s))
		}
		// Inside the cooldown a dash press changes nothing at all.
		for i := dur + 1; i < cd; i++ {
			cn++
			with, _ := shared.RunCommand(s, shared.UserCmd{CommandNumber: cn, Buttons: shared.ButtonDash, MoveX: 1}, w)
			without, _ := shared.RunCommand(s, shared.UserCmd{CommandNumber: cn, MoveX: 1}, w)
			if with != without {
				t.Fatalf("rate %d, %d ticks into the cooldown: a dash press changed the state: %+v vs %+v", tr, i, with, without)
			}
			s = with
		}
		// cd-1 commands after the dash's, one tick of cooldown is left: the
		// next command, DashCooldownMs after the dash, counts it down and dashes.
		if s.DashTicks != 1 {
			t.Fatalf("rate %d: %d ticks of cooldown left one command before DashCooldownMs, want 1", tr, s.DashTicks)
		}
		s = step(s, shared.ButtonDash, -1, 0)
		if s.DashTicks != uint16(cd) || s.VX != -shared.DashSpeed {
			t.Fatalf("rate %d: no dash after the cooldown: %+v", tr, s)
		}
	}
}

// TestDashSlidesAlongWalls: a dash into a wall stops at it, never inside.
func TestDashSlidesAlongWalls(t *testing.T) {
	m := loadArena(t)
	w := m.World(64)
	sp := m.Spawns[0]
	for _, dir := range [][2]float32{{1, 0}, {-1, 0}, {0, 1}, {0, -1}, {0.7071, 0.7071}} {
		s := shared.NewPlayerState(sp.X, sp.Y)
		for cn := uint32(1); cn < 1000; cn++ {
			s, _ = shared.RunCommand(s, shared.UserCmd{CommandNumber: cn, Buttons: shared.ButtonDash, MoveX: dir[0], MoveY: dir[1]}, w)
			if m.Solid(s.X, s.Y, shared.PlayerRadius-0.01) {
				t.Fatalf("dir %v command %d: inside a wall at (%v, %v)", dir, cn, s.X, s.Y)
			}
		}
	}
}

// TestShotFromFirstRay: from ray 0's angle and the command number (what
// one EvShot carries) a client gets every pellet of the shot back, to
// within rounding.
func TestShotFromFirstRay(t *testing.T) {
	w := openWorld(64)
	s := shared.NewPlayerState(500, 600)
	s.Weapon = shared.WeaponShotgun
	for cn := uint32(1); cn <= 200; cn++ {
		cmd := shared.UserCmd{CommandNumber: cn, Buttons: shared.ButtonAttack, ViewAngle: float32(cn)/40 - 2.5, Weapon: shared.WeaponShotgun}
		_, r := shared.RunCommand(s, cmd, w)
		got := shared.ShotFromFirstRay(shared.WeaponShotgun, r.Shot.X, r.Shot.Y, r.Shot.Angle, cn)
		if got.NumRays() != r.Shot.NumRays() || got.X != r.Shot.X || got.Y != r.Shot.Y {
			t.Fatalf("command %d: %d rays from (%v, %v), want %d from (%v, %v)", cn, got.NumRays(), got.X, got.Y, r.Shot.NumRays(), r.Shot.X, r.Shot.Y)
		}
		for i := 0; i < got.NumRays(); i++ {
			if d := math.Abs(got.Ray(i).Angle - r.Shot.Ray(i).Angle); d > 1e-12 {
				t.Fatalf("command %d pellet %d: angle %v, fired %v", cn, i, got.Ray(i).Angle, r.Shot.Ray(i).Angle)
			}
		}
	}
}
