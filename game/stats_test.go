package game

import (
	"math"
	"testing"

	"tickshot/shared"
)

// TestMatchStatsScriptedFight: a scripted fight on range counts what
// happened: a fires 6 rifle shots at b, 4 hit (25 damage each) and the
// fourth kills; b never fires; a then dies by its own hand (a death, no
// kill, the streak ends). The awards go to a (kills, accuracy 4/6, streak,
// damage), and a new match clears everything.
func TestMatchStatsScriptedFight(t *testing.T) {
	w := testWorld(t, "range", 1, Rules{})
	testSteps(w, 1)
	a := testPlayerAt(w, "a", 200, 384)
	b := testPlayerAt(w, "b", 400, 384)
	c := testPlayerAt(w, "c", 200, 600) // a bystander
	num := uint32(0)
	for shot := 0; shot < 6; shot++ {
		for i := 0; i < 10; i++ { // the rifle fires every 140 ms (9 ticks)
			w.NextTick()
			num++
			w.RunCommand(a, shared.UserCmd{CommandNumber: num, TickCount: w.Tick, Msec: shared.MsecFor(w.TickRate)}, nil)
			w.Step()
		}
		num++
		fire(w, a, num, 0, nil)
	}
	if b.Alive() {
		t.Fatalf("b alive with %d health after 4 hits", b.Health)
	}
	if err := w.Suicide(a); err != nil {
		t.Fatal(err)
	}
	sa, sb, sc := w.Stats.Of(a.ID), w.Stats.Of(b.ID), w.Stats.Of(c.ID)
	want := PlayerStats{Kills: 1, Deaths: 1, Shots: 6, Hits: 4, Damage: 100, Streak: 0, BestStreak: 1}
	if sa != want {
		t.Errorf("a: %+v, want %+v", sa, want)
	}
	if sb != (PlayerStats{Deaths: 1}) || sc != (PlayerStats{}) {
		t.Errorf("b: %+v (want 1 death), c: %+v (want nothing)", sb, sc)
	}
	if acc := sa.Accuracy(); math.Abs(acc-4.0/6) > 1e-9 {
		t.Errorf("a's accuracy %v, want 4/6", acc)
	}
	awards := w.Stats.Awards(w.Players)
	wantAwards := []Award{{AwardMostKills, a.ID, 1}, {AwardAccuracy, a.ID, 666}, {AwardStreak, a.ID, 1}, {AwardMostDamage, a.ID, 100}}
	if len(awards) != len(wantAwards) {
		t.Fatalf("awards %+v, want %+v", awards, wantAwards)
	}
	for i := range awards {
		if awards[i] != wantAwards[i] {
			t.Errorf("award %d: %+v, want %+v", i, awards[i], wantAwards[i])
		}
	}
	w.Match.start(w)
	if s := w.Stats.Of(a.ID); s != (PlayerStats{}) || len(w.Stats.Awards(w.Players)) != 0 {
		t.Errorf("after a new match: a %+v, awards %+v", s, w.Stats.Awards(w.Players))
	}
}

// TestMatchStatsStreakAndIntermission: a streak counts kills in one life
// and ends at death; the winning kill counts although the intermission
// begins with it; shots in the intermission do not; a teamkill is no kill.
func TestMatchStatsStreakAndIntermission(t *testing.T) {
	w := testWorld(t, "range", 1, Rules{FragLimit: 3})
	testSteps(w, 1)
	a, b := w.AddPlayer("a", false), w.AddPlayer("b", false)
	kill := func(k, v *Player) {
		v.State.Dead = false
		v.Health = 1
		w.Damage(k, v, 10, 0, 0)
	}
	kill(a, b)
	kill(a, b)
	kill(b, a) // a's streak ends at 2
	kill(a, b) // a's third: the frag limit, the intermission starts
	if w.Intermission == 0 {
		t.Fatal("no intermission at the frag limit")
	}
	fire(w, a, 1, 0, nil)
	s := w.Stats.Of(a.ID)
	if s.Kills != 3 || s.Deaths != 1 || s.BestStreak != 2 || s.Streak != 1 || s.Shots != 0 {
		t.Errorf("a: %+v, want 3 kills, 1 death, best streak 2, streak 1, no shot counted in the intermission", s)
	}
	tw := testWorld(t, "range", 1, Rules{TeamPlay: true})
	r1, _, r2 := tw.AddPlayer("r1", false), tw.AddPlayer("b1", false), tw.AddPlayer("r2", false)
	tw.Rules.FriendlyFire = true
	r2.Health = 1
	tw.Damage(r1, r2, 10, 0, 0)
	if s := tw.Stats.Of(r1.ID); s.Kills != 0 || tw.Stats.Of(r2.ID).Deaths != 1 {
		t.Errorf("a teamkill: killer %+v, victim %+v; want no kill and a death", s, tw.Stats.Of(r2.ID))
	}
}

// TestMatchStatsShotgunHitsTwoIsOneHit: one shotgun shot whose pellets
// strike two players is one shot and one hit (accuracy never passes 100 %),
// with the damage of every pellet counted.
func TestMatchStatsShotgunHitsTwoIsOneHit(t *testing.T) {
	w := testWorld(t, "range", 1, Rules{})
	testSteps(w, 1)
	a := testPlayerAt(w, "a", 200, 384)
	testPlayerAt(w, "b", 260, 370)
	testPlayerAt(w, "c", 260, 398)
	a.State.Weapon = shared.WeaponShotgun
	w.RunCommand(a, shared.UserCmd{CommandNumber: 1, TickCount: w.Tick, Msec: shared.MsecFor(w.TickRate),
		Buttons: shared.ButtonAttack, Weapon: shared.WeaponShotgun}, nil)
	victims, damage := 0, 0
	for _, e := range w.Events {
		if e.Kind == EvHit && e.A == a.ID {
			victims++
			damage += e.Value
		}
	}
	if victims != 2 {
		t.Fatalf("the shot hurt %d players, want both b and c (test setup)", victims)
	}
	s := w.Stats.Of(a.ID)
	if s.Shots != 1 || s.Hits != 1 || s.Damage != damage {
		t.Errorf("a: %+v, want 1 shot, 1 hit and %d damage", s, damage)
	}
	if acc := s.Accuracy(); acc != 1 {
		t.Errorf("accuracy %v, want 1", acc)
	}
}
