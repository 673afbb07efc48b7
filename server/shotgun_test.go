package server

import (
	"math"
	"testing"
	"time"

	"tickshot/game"
	"tickshot/shared"
)

// TestShotgunPelletsOneRewindExact: a shotgun shot of a lag-compensated
// command is rewound ONCE (one HitboxSource call, one rewound shot in the
// rewinder's counts) and its 8 pellets hit exactly what the same pellets
// traced against the players where the shooter's client drew them (its
// interpolation at the command's render tick) hit: each victim's summed
// damage (one EvHit each: 15 a pellet) and the one EvShot's end (pellet
// 0's) equal the client's own trace, for shots at many render ticks at
// targets strafing about the range map.
func TestShotgunPelletsOneRewindExact(t *testing.T) {
	s := lcServer(t, Config{Bots: 6, Seed: 5, Map: "range",
		Cvars: [][2]string{{"mp_fraglimit", "0"}, {"mp_spawnprotection", "0"}}})
	shooter := s.w.Players[0]
	ss := lcSession(shooter, 100)
	now := time.Unix(1000, 0)
	lcRun(s, &now, 2*s.cfg.TickRate, ss, 3)
	s.cfg.NoDamage = true // every hit is reported (EvHit), nobody dies
	s.w.Rules = s.rules()
	s.w.TakeEvents()

	def := &shared.Weapons[shared.WeaponShotgun]
	maxExtrap := float64(MaxExtrapolateMs) * float64(s.cfg.TickRate) / 1000
	var shots, pelletHits, partial int
	for k := 0; k < 60; k++ {
		rt := float64(s.w.Tick) - 10 + float64(k)*0.137
		cmd := shared.UserCmd{CommandNumber: uint32(1000 + k), TickCount: uint32(math.Floor(rt + 6.4)), TickFrac: uint8(k * 37),
			LerpMsec: 100, Buttons: shared.ButtonAttack, Weapon: shared.WeaponShotgun}
		// What the client drew at the command's render tick.
		var drawn []game.Hitbox
		for _, o := range s.w.Players {
			if o.ID == shooter.ID {
				drawn = append(drawn, shooter.Hitbox())
				continue
			}
			v := s.viewEnts(ss)[o.ID]
			if v == nil {
				t.Fatalf("player %d is not in the shooter's view on the open range", o.ID)
			}
			smp, _, _ := v.Hist.At(cmd.RenderTick(s.cfg.TickRate), maxExtrap)
			drawn = append(drawn, game.NewHitbox(o.ID, smp.X, smp.Y, smp.Alive, game.TeamNone))
		}
		// Aim at a drawn target in the shotgun's reach, edge-on now and then.
		tgt := drawn[1+k%(len(drawn)-1)]
		st := shooter.State
		st.Weapon, st.SwitchTicks, st.NextAttack, st.ReloadTicks = shared.WeaponShotgun, 0, 0, 0
		st.Ammo[shared.WeaponShotgun] = def.MagSize
		off := float64(k%5-2) * 0.04
		cmd.ViewAngle = float32(math.Atan2(tgt.Y-st.Y, tgt.X-st.X) + off)
		_, res := shared.RunCommand(st, cmd, s.w.Phys)
		if !res.Fired || res.Shot.NumRays() != shared.MaxPellets {
			t.Fatalf("shot %d: fired %v with %d rays", k, res.Fired, res.Shot.NumRays())
		}
		sh := res.Shot
		want := map[uint16]int{}
		var first game.TraceResult // ray 0's: the EvShot's
		for i := 0; i < sh.NumRays(); i++ {
			ry := sh.Ray(i)
			tr := game.TraceShot(s.w.Map, sh.X, sh.Y, ry.DirX, ry.DirY, def.Range, drawn, shooter.ID)
			if tr.Hit >= 0 {
				want[drawn[tr.Hit].ID] += def.Damage
			}
			if i == 0 {
				first = tr
			}
		}

		before := s.rewinder.stats
		s.rewinder.ss = ss
		s.w.FireHitscan(shooter, &cmd, sh, &s.rewinder)
		after := s.rewinder.stats
		if after.Shots != before.Shots+1 || after.Refused != before.Refused {
			t.Fatalf("shot %d: %d rewinds (%d refused) for one shotgun shot, want 1 taken as claimed",
				k, after.Shots-before.Shots, after.Refused-before.Refused)
		}
		got := map[uint16]int{}
		var shotEvs []game.Event
		for _, e := range s.w.TakeEvents() {
			switch e.Kind {
			case game.EvShot:
				shotEvs = append(shotEvs, e)
			case game.EvHit:
				if _, twice := got[e.B]; twice {
					t.Fatalf("shot %d: two EvHits for player %d", k, e.B)
				}
				got[e.B] = e.Value
			}
		}
		if len(shotEvs) != 1 {
			t.Fatalf("shot %d: %d EvShots, want one for the shot", k, len(shotEvs))
		}
		if e := shotEvs[0]; e.X2 != first.EndX || e.Y2 != first.EndY || e.Cmd != cmd.CommandNumber {
			t.Fatalf("shot %d: EvShot ends at (%v, %v) with cmd %d; pellet 0 traced against the drawing ends at (%v, %v), cmd %d",
				k, e.X2, e.Y2, e.Cmd, first.EndX, first.EndY, cmd.CommandNumber)
		}
		if len(got) != len(want) {
			t.Fatalf("shot %d: damage %v, the client's drawing %v", k, got, want)
		}
		for id, d := range want {
			if got[id] != d {
				t.Fatalf("shot %d: player %d took %d, the client's drawing gives %d", k, id, got[id], d)
			}
			pelletHits += d / def.Damage
			if d < def.Damage*shared.MaxPellets {
				partial++
			}
		}
		shots++
	}
	t.Logf("%d shotgun shots: %d pellets hit, %d victims hit by only part of a shot", shots, pelletHits, partial)
	if pelletHits < shots || partial == 0 {
		t.Errorf("%d pellets hit in %d shots, %d partial hits: the test proves little", pelletHits, shots, partial)
	}
}
