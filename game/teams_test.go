package game

import (
	"fmt"
	"math"
	"testing"

	"tickshot/shared"
)

// ---- team deathmatch (mp_gamemode tdm) ----

func tdmRules(ff bool) Rules {
	return Rules{TeamPlay: true, FriendlyFire: ff, AutoTeamBalance: true}
}

// tdmTrio is a team world on the open range map with a and c on red and b
// on blue (joins alternate red, blue, red), all out of spawn protection.
func tdmTrio(t *testing.T, ff bool) (w *World, a, b, c *Player) {
	t.Helper()
	w = testWorld(t, "range", 1, tdmRules(ff))
	testSteps(w, 1)
	a, b, c = testPlayerAt(w, "a", 200, 384), testPlayerAt(w, "b", 900, 200), testPlayerAt(w, "c", 900, 600)
	if a.Team != TeamRed || b.Team != TeamBlue || c.Team != TeamRed {
		t.Fatalf("joins went to %v, %v, %v; want red, blue, red", a.Team, b.Team, c.Team)
	}
	for _, p := range w.Players {
		p.ProtectedUntil = 0
	}
	w.TakeEvents()
	return w, a, b, c
}

// A teammate's rifle shot does no damage and is not confirmed, and passes
// through to the enemy behind; an enemy's does damage. With
// mp_friendlyfire 1 the teammate is hit.
func TestFriendlyFireHitscan(t *testing.T) {
	def := &shared.Weapons[0]
	for _, ff := range []bool{false, true} {
		w, a, b, c := tdmTrio(t, ff)
		// c (teammate) 60 units in front of a, b (enemy) 160 behind c.
		c.State = shared.NewPlayerState(260, 384)
		b.State = shared.NewPlayerState(420, 384)
		fire(w, a, 1, 0, nil)
		evs := w.TakeEvents()
		var shotB uint16
		for _, e := range evs {
			if e.Kind == EvShot {
				shotB = e.B
			}
			if e.Kind == EvHit && e.B == c.ID && !ff {
				t.Errorf("friendly fire off: a hit on a teammate was confirmed: %+v", e)
			}
		}
		if ff {
			if c.Health != MaxHealth-def.Damage || b.Health != MaxHealth || shotB != c.ID {
				t.Errorf("friendly fire on: teammate health %d, enemy %d, shot hit #%d; want the teammate in front hit", c.Health, b.Health, shotB)
			}
			continue
		}
		if c.Health != MaxHealth || b.Health != MaxHealth-def.Damage || shotB != b.ID {
			t.Errorf("friendly fire off: teammate health %d, enemy %d, shot hit #%d; want the shot through the teammate into the enemy", c.Health, b.Health, shotB)
		}
		// The enemy shooting back at a does damage.
		b.State = shared.NewPlayerState(300, 384)
		c.State = shared.NewPlayerState(900, 600)
		fire(w, b, 1, math.Pi, nil)
		if a.Health != MaxHealth-def.Damage {
			t.Errorf("an enemy's shot left %d health, want %d", a.Health, MaxHealth-def.Damage)
		}
	}
}

// Rocket splash spares teammates with friendly fire off (the owner still
// takes half, as in deathmatch) and hurts them with it on; a rocket in
// flight passes through a teammate.
func TestFriendlyFireRocket(t *testing.T) {
	def := &shared.Weapons[1]
	splash := func(dist float64) int {
		return int(float64(def.Damage) * (1 - (dist-shared.PlayerRadius)/def.SplashRange))
	}
	for _, ff := range []bool{false, true} {
		w, a, b, c := tdmTrio(t, ff)
		a.State = shared.NewPlayerState(600, 444) // owner, 60 units from the blast
		c.State = shared.NewPlayerState(600, 324) // teammate, 60 units
		b.State = shared.NewPlayerState(660, 384) // enemy, 60 units
		w.Flight.explode(w, &Projectile{ID: 1, Owner: a.ID, Weapon: 1}, 600, 384, 0)
		wantMate := 0
		if ff {
			wantMate = splash(60)
		}
		if got := MaxHealth - c.Health; got != wantMate {
			t.Errorf("ff %v: teammate took %d splash, want %d", ff, got, wantMate)
		}
		if got := MaxHealth - b.Health; got != splash(60) {
			t.Errorf("ff %v: enemy took %d splash, want %d", ff, got, splash(60))
		}
		if got := MaxHealth - a.Health; got != splash(60)/2 {
			t.Errorf("ff %v: owner took %d, want half splash %d", ff, got, splash(60)/2)
		}
	}
	// In flight: a teammate in the path is passed through, the enemy behind
	// takes the direct hit.
	w, a, b, c := tdmTrio(t, false)
	a.State = shared.NewPlayerState(200, 384)
	c.State = shared.NewPlayerState(320, 384)
	b.State = shared.NewPlayerState(700, 384)
	a.State.Weapon = 1
	w.RunCommand(a, shared.UserCmd{CommandNumber: 1, TickCount: w.Tick, Msec: shared.MsecFor(w.TickRate),
		Buttons: shared.ButtonAttack, Weapon: 1}, nil)
	for i := 0; i < 2*w.TickRate && len(w.Projectiles) > 0; i++ {
		testSteps(w, 1)
	}
	if c.Health != MaxHealth || b.Health != MaxHealth-def.Damage {
		t.Errorf("rocket through a teammate: teammate health %d, enemy %d (want %d, %d)", c.Health, b.Health, MaxHealth, MaxHealth-def.Damage)
	}
}

func teamSizes(w *World) (int, int) { return w.TeamSize(TeamRed), w.TeamSize(TeamBlue) }

// Joins (humans and bots) keep the teams within one player of each other;
// after leaves unbalance them, auto-balance moves exactly one player of the
// bigger team when it respawns, and tells it (EvTeam with the reason).
func TestTeamsBalancedAfterJoinsAndLeaves(t *testing.T) {
	w := testWorld(t, "arena", 7, tdmRules(false))
	testSteps(w, 1)
	for i := 0; i < 7; i++ {
		if i%2 == 0 {
			w.AddBot(32)
		} else {
			w.AddPlayer(fmt.Sprint("human", i), false)
		}
		if r, b := teamSizes(w); r-b > 1 || b-r > 1 || r+b != i+1 {
			t.Fatalf("after %d joins: red %d, blue %d", i+1, r, b)
		}
	}
	// Leaves: two of red's players go (red 4 blue 3 -> red 2 blue 3), a
	// join fills the smaller team, then a blue player leaves and another
	// red one.
	var reds []uint16
	for _, p := range w.Players {
		if p.Team == TeamRed {
			reds = append(reds, p.ID)
		}
	}
	w.RemovePlayer(reds[0], "left")
	w.RemovePlayer(reds[1], "left")
	if p := w.AddPlayer("late", false); p.Team != TeamRed {
		t.Errorf("a join with red 2, blue 3 went to %v", p.Team)
	}
	if r, b := teamSizes(w); r != 3 || b != 3 {
		t.Fatalf("red %d blue %d, want 3 and 3", r, b)
	}
	w.RemovePlayer(reds[2], "left")
	for _, p := range w.Players {
		if p.Team == TeamRed && p.Name != "late" {
			w.RemovePlayer(p.ID, "left")
			break
		}
	}
	if r, b := teamSizes(w); r != 1 || b != 3 {
		t.Fatalf("red %d blue %d, want 1 and 3", r, b)
	}
	// Nothing moves anyone while they live.
	w.TakeEvents()
	testSteps(w, w.TickRate/2)
	if r, b := teamSizes(w); r != 1 || b != 3 {
		t.Fatalf("teams changed without a respawn: red %d blue %d", r, b)
	}
	// Kill the blue players: the first to respawn moves to red, the others stay.
	var blues []*Player
	for _, p := range w.Players {
		if p.Team == TeamBlue {
			blues = append(blues, p)
		}
	}
	for _, p := range blues {
		p.ProtectedUntil = 0
		w.Damage(p, p, MaxHealth, p.State.X, p.State.Y)
	}
	var moved []Event
	for i := 0; i < 3*w.TickRate; i++ {
		testSteps(w, 1)
		for _, e := range w.TakeEvents() {
			if e.Kind == EvTeam {
				moved = append(moved, e)
			}
		}
	}
	if r, b := teamSizes(w); r != 2 || b != 2 {
		t.Errorf("after the respawns: red %d blue %d, want 2 and 2", r, b)
	}
	if len(moved) != 1 || moved[0].Value != int(TeamRed) || moved[0].Text != TeamBalanceReason {
		t.Errorf("auto-balance events %+v; want one move to red with reason %q", moved, TeamBalanceReason)
	} else if p := w.Player(moved[0].A); p == nil || p.Team != TeamRed || !p.Alive() {
		t.Errorf("the moved player %+v is not alive on red", p)
	}
}

// Off, auto-balance moves nobody; jointeam may then make the teams uneven.
func TestNoAutoBalance(t *testing.T) {
	w := testWorld(t, "arena", 3, Rules{TeamPlay: true})
	testSteps(w, 1)
	for i := 0; i < 4; i++ {
		w.AddBot(32)
	}
	var red []*Player
	for _, p := range w.Players {
		if p.Team == TeamRed {
			red = append(red, p)
		}
	}
	if err := w.JoinTeam(red[0], TeamBlue); err != nil {
		t.Fatal(err)
	}
	if red[0].Alive() {
		t.Error("changing team while alive did not kill the player")
	}
	testSteps(w, 3*w.TickRate)
	if r, b := teamSizes(w); r != 1 || b != 3 {
		t.Errorf("balance off: red %d blue %d, want 1 and 3", r, b)
	}
}

// jointeam: refused in deathmatch, for spectators, for one's own team and,
// with balance on, for the bigger team; "auto" picks the smaller.
func TestJoinTeam(t *testing.T) {
	dm := testWorld(t, "range", 1, Rules{})
	if err := dm.JoinTeam(dm.AddPlayer("x", false), TeamRed); err == nil {
		t.Error("jointeam accepted in deathmatch")
	}
	w, a, b, c := tdmTrio(t, false)
	_ = c
	for _, tc := range []struct {
		p    *Player
		team Team
		ok   bool
	}{
		{a, TeamSpectator, false},
		{a, TeamRed, false}, // already there
		{b, TeamRed, false}, // red 2 blue 1 -> red 3 blue 0
		{a, TeamBlue, true}, // red 2 blue 1 -> red 1 blue 2
		{b, TeamNone, true}, // auto: without b red 1 blue 1, a tie at equal scores goes red
	} {
		err := w.JoinTeam(tc.p, tc.team)
		if tc.team == TeamNone {
			if err != nil || tc.p.Team != TeamRed {
				t.Errorf("jointeam auto for %s: %v, on %v; want red", tc.p.Name, err, tc.p.Team)
			}
			continue
		}
		if (err == nil) != tc.ok {
			t.Errorf("jointeam %v for %s (on %v): err %v, want ok %v", tc.team, tc.p.Name, tc.p.Team, err, tc.ok)
		}
	}
}

// Bots never aim at nor fire on a teammate in plain view, and do attack
// an enemy.
func TestBotsNeverTargetTeammates(t *testing.T) {
	m, err := LoadMap("range")
	if err != nil {
		t.Fatal(err)
	}
	self := shared.NewPlayerState(400, 384)
	mate := Hitbox{ID: 2, X: 500, Y: 384, R: shared.PlayerRadius, Alive: true, Team: TeamRed}
	enemy := Hitbox{ID: 3, X: 400, Y: 600, R: shared.PlayerRadius, Alive: true, Team: TeamBlue}
	b := NewBot(5)
	b.Team, b.Skill = TeamRed, 3
	for i := 0; i < 5*64; i++ {
		in := b.Think(m, 64, self, MaxHealth, []Hitbox{mate})
		if in.Buttons&shared.ButtonAttack != 0 {
			t.Fatalf("tick %d: the bot fired with only a teammate in view", i)
		}
		if b.target == int(mate.ID) {
			t.Fatalf("tick %d: the bot tracks its teammate", i)
		}
	}
	fired := 0
	for i := 0; i < 5*64; i++ {
		in := b.Think(m, 64, self, MaxHealth, []Hitbox{mate, enemy})
		if in.Buttons&shared.ButtonAttack != 0 {
			fired++
			if d := math.Abs(math.Remainder(float64(in.Angle)-math.Pi/2, 2*math.Pi)); d > 0.3 {
				t.Fatalf("the bot fired %.2f rad away from the enemy", d)
			}
		}
	}
	if fired == 0 {
		t.Error("the bot never fired at the enemy: the test proves nothing")
	}
	// In a world of bots, no bot's shot with friendly fire off ever
	// reports a teammate as its target.
	w := testWorld(t, "arena", 11, Rules{TeamPlay: true, AutoTeamBalance: true, BotSkill: 3})
	for i := 0; i < 6; i++ {
		w.AddBot(32)
	}
	hits := 0
	for i := 0; i < 20*w.TickRate; i++ {
		w.NextTick()
		w.Step()
		for _, e := range w.TakeEvents() {
			if e.Kind != EvShot && e.Kind != EvHit || e.B == 0 {
				continue
			}
			hits++
			if pa, pb := w.Player(e.A), w.Player(e.B); pa != nil && pb != nil && w.Teammates(pa, pb) {
				t.Fatalf("tick %d: %s's %v reported teammate %s", w.Tick, pa.Name, e.Kind, pb.Name)
			}
		}
	}
	if hits == 0 {
		t.Error("20 s of 6 bots in teams: no hits; the test proves nothing")
	}
}

// Team score is the sum of its players' frags; at mp_fraglimit team score
// the team wins (EvMatchEnd with B the team); a teamkill with friendly fire
// on costs a frag.
func TestTeamFragLimitAndTeamkill(t *testing.T) {
	w, a, b, c := tdmTrio(t, true)
	w.Rules.FragLimit = 3
	kill := func(att, vic *Player) {
		vic.State = shared.NewPlayerState(vic.State.X, vic.State.Y)
		vic.Health, vic.ProtectedUntil = MaxHealth, 0
		w.Damage(att, vic, MaxHealth, 0, 0)
	}
	kill(a, b)
	kill(c, b)
	kill(c, a) // teamkill: c loses one
	if a.Kills != 1 || c.Kills != 0 || w.TeamScore(TeamRed) != 1 {
		t.Errorf("after 2 kills and a teamkill: a %d, c %d, red %d; want 1, 0, 1", a.Kills, c.Kills, w.TeamScore(TeamRed))
	}
	kill(b, a)
	kill(a, b)
	if w.Intermission != 0 {
		t.Fatal("match ended before the team reached the frag limit")
	}
	kill(a, b)
	var end *Event
	for _, e := range w.TakeEvents() {
		if e.Kind == EvMatchEnd {
			end = &e
		}
	}
	if end == nil || end.A != 0 || end.B != uint16(TeamRed) || w.Intermission == 0 {
		t.Errorf("red at 3 of 3: match end %+v, intermission %d; want red to win", end, w.Intermission)
	}
}

// Changing mp_gamemode restarts the match: teams assigned in tdm, cleared
// in dm, scores reset.
func TestGameModeChangeRestartsMatch(t *testing.T) {
	w := testWorld(t, "arena", 9, Rules{})
	for i := 0; i < 5; i++ {
		w.AddBot(32)
	}
	testSteps(w, 10)
	w.Players[0].Kills = 4
	w.TakeEvents()
	w.Rules.TeamPlay, w.Rules.AutoTeamBalance = true, true
	testSteps(w, 1)
	if !w.TeamPlay() || countEvents(w.TakeEvents(), EvMatchStart) != 1 {
		t.Fatal("mp_gamemode tdm did not restart the match in team mode")
	}
	if r, b := teamSizes(w); r != 3 || b != 2 || w.Players[0].Kills != 0 {
		t.Errorf("after the switch: red %d blue %d, kills %d; want 3, 2, 0", r, b, w.Players[0].Kills)
	}
	w.Rules.TeamPlay = false
	testSteps(w, 1)
	if w.TeamPlay() || w.TeamSize(TeamNone) != 5 {
		t.Errorf("back to dm: teamplay %v, %d without a team", w.TeamPlay(), w.TeamSize(TeamNone))
	}
}

// Same seed, same calls: same states and events in team deathmatch too,
// with leaves and auto-balance.
func TestWorldDeterministicTDM(t *testing.T) {
	run := func() ([]Player, []Event) {
		w := testWorld(t, "arena", 42, Rules{FragLimit: 30, BotSkill: 3, TeamPlay: true, AutoTeamBalance: true, FriendlyFire: true})
		for i := 0; i < 7; i++ {
			w.AddBot(32)
		}
		var evs []Event
		for i := 0; i < 20*w.TickRate; i++ {
			if i == 5*w.TickRate {
				w.RemovePlayer(w.Bots[1].Player.ID, "left")
				w.RemovePlayer(w.Bots[2].Player.ID, "left")
			}
			// A player of the bigger team dies (`kill`), so that one
			// respawns into auto-balance however the bots fight (how many
			// they kill in 20 s follows every tuning of the bots and weapons).
			if i == 6*w.TickRate {
				for _, b := range w.Bots {
					if p := b.Player; p.Alive() && w.TeamSize(p.Team)-w.TeamSize(p.Team.Other()) >= 2 {
						if err := w.Suicide(p); err != nil {
							t.Fatal(err)
						}
						break
					}
				}
			}
			w.NextTick()
			w.Step()
			evs = append(evs, w.TakeEvents()...)
		}
		var ps []Player
		for _, p := range w.Players {
			ps = append(ps, *p)
		}
		return ps, evs
	}
	p1, e1 := run()
	p2, e2 := run()
	if countEvents(e1, EvKill) == 0 || countEvents(e1, EvTeam) == 0 {
		t.Fatalf("20 s of 7 expert bots in teams: %d kills, %d team moves; the test proves nothing", countEvents(e1, EvKill), countEvents(e1, EvTeam))
	}
	if fmt.Sprintf("%#v", p1) != fmt.Sprintf("%#v", p2) || fmt.Sprintf("%#v", e1) != fmt.Sprintf("%#v", e2) {
		t.Fatal("two runs with the same seed differ")
	}
}

// Spawns avoid the other team only: a teammate standing on the spawn
// point farthest from the enemy does not keep a respawning player off it
// (every other respawn: never the same point twice in a row).
func TestTeamSpawnAwayFromEnemies(t *testing.T) {
	w := testWorld(t, "arena", 5, tdmRules(false))
	testSteps(w, 1)
	mate := testPlayerAt(w, "mate", 1920, 1408) // red, on the spawn farthest from the enemy
	enemy := testPlayerAt(w, "enemy", 128, 128) // blue
	p := w.AddPlayer("p", false)                // red
	if mate.Team != TeamRed || enemy.Team != TeamBlue || p.Team != TeamRed {
		t.Fatalf("teams %v %v %v", mate.Team, enemy.Team, p.Team)
	}
	far := Point{1920, 1408}
	onFar := 0
	for i := 0; i < 6; i++ {
		prev := p.LastSpawn
		p.ProtectedUntil = 0
		w.Damage(p, p, MaxHealth, 0, 0)
		testSteps(w, 3*w.TickRate)
		at := Point{p.State.X, p.State.Y}
		if !p.Alive() || (prev != far && at != far) || (prev == far && at == far) {
			t.Fatalf("respawn %d at (%.0f, %.0f) after (%.0f, %.0f), alive %v; want the spawn farthest from the enemy, (1920, 1408), unless it was the previous one",
				i, at.X, at.Y, prev.X, prev.Y, p.Alive())
		}
		if at == far {
			onFar++
		}
		mate.State = shared.NewPlayerState(1920, 1408)
		enemy.State = shared.NewPlayerState(128, 128)
	}
	if onFar < 3 {
		t.Fatalf("%d of 6 respawns on the spawn under the teammate, want 3", onFar)
	}
}
