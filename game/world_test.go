package game

import (
	"fmt"
	"math"
	"testing"

	"tickshot/shared"
)

// Rules tests: the world alone, no server, no sockets.

// testWorld is an empty world on the named map.
func testWorld(t *testing.T, mapName string, seed uint64, rules Rules) *World {
	t.Helper()
	m, err := LoadMap(mapName)
	if err != nil {
		t.Fatal(err)
	}
	return NewWorld(m, 64, seed, rules)
}

// testSteps runs n ticks with no human commands.
func testSteps(w *World, n int) {
	for i := 0; i < n; i++ {
		w.NextTick()
		w.Step()
	}
}

// ---- sv_mutualkills ----

// lcDuel puts two players 60 units apart facing each other with 25 health
// (one rifle hit) on the open range map and runs one attack command each in
// the same tick, first's command first.
func testDuel(t *testing.T, mutual bool, aFirst bool) (a, b *Player) {
	t.Helper()
	w := testWorld(t, "range", 1, Rules{MutualKills: mutual})
	w.Tick = 100
	a, b = w.AddPlayer("a", false), w.AddPlayer("b", false)
	a.State = shared.NewPlayerState(400, 384)
	b.State = shared.NewPlayerState(460, 384)
	a.Health, b.Health = 25, 25
	msec := shared.MsecFor(w.TickRate)
	ca := shared.UserCmd{CommandNumber: 1, TickCount: w.Tick, Msec: msec, Buttons: shared.ButtonAttack, ViewAngle: 0}
	cb := shared.UserCmd{CommandNumber: 1, TickCount: w.Tick, Msec: msec, Buttons: shared.ButtonAttack, ViewAngle: math.Pi}
	if aFirst {
		w.RunCommand(a, ca, nil)
		w.RunCommand(b, cb, nil)
	} else {
		w.RunCommand(b, cb, nil)
		w.RunCommand(a, ca, nil)
	}
	if mutual {
		// A player killed in an earlier tick gets no more shots.
		w.Tick++
		a.Health, a.State.Dead = 25, false
		cb.CommandNumber = 2
		cb.Buttons = 0
		w.RunCommand(b, cb, nil)
		cb.CommandNumber = 3
		cb.Buttons = shared.ButtonAttack
		for i := 0; i < 20; i++ { // past the rifle's interval
			w.RunCommand(b, cb, nil)
			cb.CommandNumber++
		}
		if !a.Alive() || a.Health != 25 {
			t.Errorf("a player dead since the previous tick still shot: a health %d", a.Health)
		}
		if b.Alive() {
			t.Error("the dead player came back")
		}
		a.Health, a.State.Dead = 0, true // restore the outcome of the duel tick
	}
	return a, b
}

func TestMutualKills(t *testing.T) {
	for _, tc := range []struct {
		mutual, aFirst bool
	}{{false, true}, {false, false}, {true, true}, {true, false}} {
		t.Run(fmt.Sprintf("sv_mutualkills=%v/aFirst=%v", tc.mutual, tc.aFirst), func(t *testing.T) {
			a, b := testDuel(t, tc.mutual, tc.aFirst)
			first, second := a, b
			if !tc.aFirst {
				first, second = b, a
			}
			if tc.mutual {
				if first.Alive() || second.Alive() || first.Kills != 1 || second.Kills != 1 {
					t.Errorf("sv_mutualkills 1: want both dead with a kill each; first alive %v kills %d, second alive %v kills %d",
						first.Alive(), first.Kills, second.Alive(), second.Kills)
				}
				return
			}
			if !first.Alive() || first.Health != 25 || second.Alive() || first.Kills != 1 || second.Kills != 0 {
				t.Errorf("sv_mutualkills 0: want the first command's player alive with the kill; first alive %v health %d kills %d, second alive %v kills %d",
					first.Alive(), first.Health, first.Kills, second.Alive(), second.Kills)
			}
		})
	}
}

// ---- projectiles (not lag compensated) ----

func testPlayerAt(w *World, name string, x, y float64) *Player {
	p := w.AddPlayer(name, false)
	p.State = shared.NewPlayerState(x, y)
	return p
}

func TestRocketHitsAfterTravelTime(t *testing.T) {
	w := testWorld(t, "range", 1, Rules{})
	testSteps(w, 1)
	a := testPlayerAt(w, "a", 200, 384)
	b := testPlayerAt(w, "b", 600, 384)
	near := testPlayerAt(w, "near", 580, 434) // 50 units from the blast
	far := testPlayerAt(w, "far", 580, 300)   // 84 units from the blast
	a.State.Weapon = 1
	def := &shared.Weapons[1]
	w.RunCommand(a, shared.UserCmd{CommandNumber: 1, TickCount: w.Tick, Msec: shared.MsecFor(w.TickRate),
		Buttons: shared.ButtonAttack, Weapon: 1}, nil)
	if len(w.Projectiles) != 1 {
		t.Fatalf("%d projectiles after firing the rocket launcher", len(w.Projectiles))
	}
	// It flies from the muzzle (radius + 6 in front) until it touches the
	// target's circle (radius + 4), at Speed, one step per tick.
	dist := 600.0 - 200
	travel := dist - (shared.PlayerRadius + 6) - (shared.PlayerRadius + 4)
	want := int(math.Ceil(travel / (def.Speed / float64(w.TickRate))))
	hitAt := -1
	for i := 1; i <= 3*w.TickRate && hitAt < 0; i++ {
		testSteps(w, 1)
		if b.Health < MaxHealth {
			hitAt = i
		}
		if i < want && len(w.Projectiles) != 1 {
			t.Fatalf("rocket gone after %d ticks, before reaching the target", i)
		}
	}
	if hitAt != want {
		t.Fatalf("rocket hit after %d ticks, want %d (%.0f units at %v units/s)", hitAt, want, travel, def.Speed)
	}
	if secs := float64(hitAt) / float64(w.TickRate); math.Abs(secs-dist/def.Speed) > 0.1 {
		t.Errorf("hit after %.3f s, distance/Speed is %.3f s", secs, dist/def.Speed)
	}
	if b.Health != MaxHealth-def.Damage {
		t.Errorf("direct hit left %d health, want %d", b.Health, MaxHealth-def.Damage)
	}
	// Splash falls off with distance from the blast at (580, 384).
	splash := func(px, py float64) int {
		d := math.Max(math.Hypot(px-580, py-384)-shared.PlayerRadius, 0)
		return int(float64(def.Damage) * (1 - d/def.SplashRange))
	}
	dn, df := MaxHealth-near.Health, MaxHealth-far.Health
	if dn != splash(580, 434) || df != splash(580, 300) || !(dn > df && df > 0) {
		t.Errorf("splash: near took %d (want %d), far took %d (want %d)", dn, splash(580, 434), df, splash(580, 300))
	}
	if a.Health != MaxHealth {
		t.Errorf("the shooter, 380 units away, took %d", MaxHealth-a.Health)
	}
}

func TestRocketSplashWallsAndOwner(t *testing.T) {
	// Arena: wall 16 is x 576..608, y 608..928; open floor to its right.
	w := testWorld(t, "arena", 1, Rules{})
	def := &shared.Weapons[1]
	owner := testPlayerAt(w, "owner", 640, 760)
	twin := testPlayerAt(w, "twin", 640, 640)     // the owner's mirror image around the blast
	hidden := testPlayerAt(w, "hidden", 560, 700) // 80 units away, behind the wall
	open := testPlayerAt(w, "open", 720, 700)     // 80 units away, in the open
	if w.Map.LineOfSight(640, 700, 560, 700) || !w.Map.LineOfSight(640, 700, 720, 700) {
		t.Fatal("map changed: wall 16 no longer between the blast and the hidden player")
	}
	w.Flight.explode(w, &Projectile{ID: 1, Owner: owner.ID, Weapon: 1}, 640, 700, 0)
	splash := func(dist float64) int {
		return int(float64(def.Damage) * (1 - (dist-shared.PlayerRadius)/def.SplashRange))
	}
	if got := MaxHealth - twin.Health; got != splash(60) {
		t.Errorf("player 60 units from the blast took %d, want %d", got, splash(60))
	}
	if got := MaxHealth - owner.Health; got != splash(60)/2 {
		t.Errorf("owner 60 units from the blast took %d, want half splash %d", got, splash(60)/2)
	}
	if got := MaxHealth - open.Health; got != splash(80) || got == 0 {
		t.Errorf("player in the open 80 units away took %d, want %d", got, splash(80))
	}
	if hidden.Health != MaxHealth {
		t.Errorf("player behind a wall took %d splash", MaxHealth-hidden.Health)
	}
}

// A rocket that strikes a wall explodes on the wall's surface; players in
// front of that wall must still take splash.
func TestRocketIntoWallSplashes(t *testing.T) {
	w := testWorld(t, "arena", 1, Rules{})
	testSteps(w, 1)
	a := testPlayerAt(w, "a", 720, 700)
	b := testPlayerAt(w, "b", 650, 740) // near where the rocket meets the wall face x = 608
	a.State.Weapon = 1
	w.RunCommand(a, shared.UserCmd{CommandNumber: 1, TickCount: w.Tick, Msec: shared.MsecFor(w.TickRate),
		Buttons: shared.ButtonAttack, Weapon: 1, ViewAngle: math.Pi}, nil)
	for i := 0; i < 64 && len(w.Projectiles) > 0; i++ {
		testSteps(w, 1)
	}
	if len(w.Projectiles) != 0 {
		t.Fatal("rocket still flying")
	}
	def := &shared.Weapons[1]
	d := math.Hypot(650-608, 740-700) - shared.PlayerRadius
	want := int(float64(def.Damage) * (1 - d/def.SplashRange))
	if got := MaxHealth - b.Health; got < want-1 || got > want+1 {
		t.Errorf("player %.0f units from a rocket's impact on a wall took %d, want %d±1", d, got, want)
	}
	// Fired point-blank into a wall (the muzzle is inside it), it explodes
	// in front of the wall: the shooter, 20 units from the face, takes half splash.
	c := testPlayerAt(w, "c", 608+20, 800)
	c.State.Weapon = 1
	w.RunCommand(c, shared.UserCmd{CommandNumber: 1, TickCount: w.Tick, Msec: shared.MsecFor(w.TickRate),
		Buttons: shared.ButtonAttack, Weapon: 1, ViewAngle: math.Pi}, nil)
	want = int(float64(def.Damage)*(1-math.Max(20-explodeSkin-shared.PlayerRadius, 0)/def.SplashRange)) / 2
	if got := MaxHealth - c.Health; len(w.Projectiles) != 0 || got != want {
		t.Errorf("rocket fired into a wall 20 units away: shooter took %d, want half splash %d", got, want)
	}
}

// ---- match flow, respawn, names, hitbox sources ----

// fire makes p shoot once along angle (radians) with the rifle.
func fire(w *World, p *Player, num uint32, angle float32, lc HitboxSource) {
	w.RunCommand(p, shared.UserCmd{CommandNumber: num, TickCount: w.Tick, Msec: shared.MsecFor(w.TickRate),
		Buttons: shared.ButtonAttack, ViewAngle: angle}, lc)
}

func countEvents(evs []Event, kind EventKind) int {
	n := 0
	for _, e := range evs {
		if e.Kind == kind {
			n++
		}
	}
	return n
}

func TestWorldFragLimitEndsMatchAndIntermission(t *testing.T) {
	w := testWorld(t, "range", 1, Rules{FragLimit: 2})
	a := testPlayerAt(w, "a", 400, 384)
	b := testPlayerAt(w, "b", 460, 384)
	num := uint32(0)
	for kills := 0; kills < 2; kills++ {
		b.State = shared.NewPlayerState(460, 384)
		b.Health = 25
		w.NextTick()
		num++
		fire(w, a, num, 0, nil)
		if a.Kills != kills+1 || b.Alive() {
			t.Fatalf("kill %d: a has %d kills, b alive %v", kills+1, a.Kills, b.Alive())
		}
		for i := 0; i < 20; i++ { // past the rifle's interval; b is still dead (2 s)
			w.NextTick()
			num++
			w.RunCommand(a, shared.UserCmd{CommandNumber: num, TickCount: w.Tick, Msec: shared.MsecFor(w.TickRate)}, nil)
			w.Step()
		}
	}
	evs := w.TakeEvents()
	if countEvents(evs, EvKill) != 2 || countEvents(evs, EvMatchEnd) != 1 || w.Intermission == 0 {
		t.Fatalf("frag limit 2 reached: %d kills, %d match ends, intermission %d", countEvents(evs, EvKill), countEvents(evs, EvMatchEnd), w.Intermission)
	}
	for _, e := range evs {
		if e.Kind == EvMatchEnd && (e.A != a.ID || e.Text != "a" || e.Value != IntermissionSeconds) {
			t.Errorf("match end %+v: want a as the winner and %d s of intermission", e, IntermissionSeconds)
		}
	}
	// Nobody takes damage during the intermission, and kill is refused.
	testSteps(w, 150) // b has respawned
	if !b.Alive() {
		t.Fatal("b did not respawn")
	}
	hp := b.Health
	b.State = shared.NewPlayerState(460, 384)
	w.NextTick()
	num++
	w.TakeEvents()
	fire(w, a, num, 0, nil)
	if evs := w.TakeEvents(); countEvents(evs, EvShot) != 1 || countEvents(evs, EvHit) != 1 {
		t.Fatalf("the intermission shot: %d shots, %d hits reported", countEvents(evs, EvShot), countEvents(evs, EvHit))
	}
	if b.Health != hp || w.Suicide(a) == nil || !a.Alive() {
		t.Fatalf("during the intermission: b's health %d -> %d, suicide allowed or a dead", hp, b.Health)
	}
	// The next match starts with scores reset.
	testSteps(w, IntermissionSeconds*w.TickRate)
	if w.Intermission != 0 || a.Kills != 0 || a.Deaths != 0 || b.Deaths != 0 {
		t.Fatalf("after the intermission: intermission %d, a %d/%d, b deaths %d", w.Intermission, a.Kills, a.Deaths, b.Deaths)
	}
	if countEvents(w.TakeEvents(), EvMatchStart) != 1 {
		t.Error("no EvMatchStart")
	}
}

func TestWorldTimeLimitTieIsADraw(t *testing.T) {
	w := testWorld(t, "range", 1, Rules{TimeLimit: 0.5 / 60}) // half a second
	testPlayerAt(w, "a", 400, 384)
	testPlayerAt(w, "b", 460, 384)
	testSteps(w, w.TickRate/2-1)
	if w.Intermission != 0 {
		t.Fatal("match ended before its time")
	}
	testSteps(w, 1)
	var end *Event
	evs := w.TakeEvents()
	for i := range evs {
		if evs[i].Kind == EvMatchEnd {
			end = &evs[i]
		}
	}
	if end == nil || end.A != 0 || w.Intermission == 0 {
		t.Fatalf("a 0-0 match at its time limit: end event %+v, intermission %d; want a draw", end, w.Intermission)
	}
}

func TestWorldRespawnAfterDelay(t *testing.T) {
	w := testWorld(t, "arena", 5, Rules{})
	p := w.AddPlayer("p", false)
	w.NextTick()
	if err := w.Suicide(p); err != nil || p.Alive() || p.Deaths != 1 {
		t.Fatalf("suicide: err %v, alive %v, deaths %d", err, p.Alive(), p.Deaths)
	}
	delay := int(shared.Ticks(RespawnDelayMs, w.TickRate))
	testSteps(w, delay-1)
	if p.Alive() {
		t.Fatalf("respawned before %d ms", RespawnDelayMs)
	}
	teleport := p.Teleport
	testSteps(w, 1)
	if !p.Alive() || p.Health != MaxHealth || p.Teleport != teleport+1 {
		t.Fatalf("after %d ticks: alive %v health %d teleport %d->%d", delay, p.Alive(), p.Health, teleport, p.Teleport)
	}
}

// movedTarget is a HitboxSource that puts one player somewhere else, as lag
// compensation puts a target where the shooter drew it.
type movedTarget struct {
	id     uint16
	x, y   float64
	rewind Rewind
	called int
}

func (m *movedTarget) ShotHitboxes(w *World, shooter *Player, cmd *shared.UserCmd, _ *shared.Shot) ([]Hitbox, Rewind) {
	m.called++
	boxes := w.PresentHitboxes()
	for i := range boxes {
		if boxes[i].ID == m.id {
			boxes[i].X, boxes[i].Y = m.x, m.y
		}
	}
	return boxes, m.rewind
}

func TestWorldTracesAgainstTheHitboxSource(t *testing.T) {
	w := testWorld(t, "range", 1, Rules{ShowImpacts: true})
	a := testPlayerAt(w, "a", 400, 384)
	b := testPlayerAt(w, "b", 400, 484) // 100 units below a: not on a shot along +x
	src := &movedTarget{id: b.ID, x: 500, y: 384, rewind: RewindClamped}
	w.NextTick()
	fire(w, a, 1, 0, src)
	if src.called != 1 || b.Health != MaxHealth-shared.Weapons[0].Damage {
		t.Fatalf("shot at where the source put b: source called %d times, b's health %d", src.called, b.Health)
	}
	var impact, shot *Event
	evs := w.TakeEvents()
	for i := range evs {
		switch evs[i].Kind {
		case EvImpact:
			impact = &evs[i]
		case EvShot:
			shot = &evs[i]
		}
	}
	if shot == nil || shot.B != b.ID || math.Abs(shot.X2-(500-shared.PlayerRadius)) > 0.01 {
		t.Fatalf("shot event %+v: want b hit at the source's box", shot)
	}
	if impact == nil || impact.To != a.ID || impact.B != b.ID || impact.X != 500 || impact.Y != 384 || impact.Value != ImpactHit|ImpactClamped || impact.Cmd != 1 {
		t.Fatalf("impact %+v: want b's traced box (500, 384), hit and clamped, to the shooter only", impact)
	}
	// Without a source the present counts: b is not on the ray.
	for i := uint32(0); i < 20; i++ { // past the rifle's interval
		w.NextTick()
		w.RunCommand(a, shared.UserCmd{CommandNumber: 100 + i, TickCount: w.Tick, Msec: shared.MsecFor(w.TickRate)}, nil)
	}
	w.NextTick()
	w.TakeEvents()
	fire(w, a, 200, 0, nil)
	if n := countEvents(w.TakeEvents(), EvShot); n != 1 || b.Health != MaxHealth-shared.Weapons[0].Damage {
		t.Fatalf("%d shots", n)
	}
	if b.Health != MaxHealth-shared.Weapons[0].Damage {
		t.Fatalf("a shot along +x hit b at its present position (health %d)", b.Health)
	}
	// Bots get no impact events.
	bot := w.AddBot(32)
	bot.Player.State = shared.NewPlayerState(400, 300)
	w.TakeEvents()
	w.NextTick()
	fire(w, bot.Player, 1, 0, nil)
	if n := countEvents(w.TakeEvents(), EvImpact); n != 0 {
		t.Errorf("a bot's shot produced %d impact events", n)
	}
}

// Same seed, same calls: same states and events, bit for bit.
func TestWorldDeterministic(t *testing.T) {
	run := func() ([]Player, []Event) {
		w := testWorld(t, "arena", 42, Rules{FragLimit: 3, BotSkill: 3})
		for i := 0; i < 6; i++ {
			w.AddBot(32)
		}
		var evs []Event
		for i := 0; i < 20*w.TickRate; i++ {
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
	if countEvents(e1, EvKill) == 0 || countEvents(e1, EvShot) == 0 {
		t.Fatalf("20 s of 6 expert bots: %d shots, %d kills; the test proves nothing", countEvents(e1, EvShot), countEvents(e1, EvKill))
	}
	if fmt.Sprintf("%#v", p1) != fmt.Sprintf("%#v", p2) || fmt.Sprintf("%#v", e1) != fmt.Sprintf("%#v", e2) {
		t.Fatal("two runs with the same seed differ")
	}
}

func TestWorldUniqueName(t *testing.T) {
	w := testWorld(t, "range", 1, Rules{})
	w.AddPlayer("alice", false)
	if got := w.UniqueName("bob", 16); got != "bob" {
		t.Errorf("free name changed to %q", got)
	}
	if got := w.UniqueName("alice", 16); got != "alice(2)" {
		t.Errorf("taken name: %q, want alice(2)", got)
	}
	w.AddPlayer("ééééééé", false) // 14 bytes
	got := w.UniqueName("ééééééé", 14)
	if got != "ééééé(2)" || len(got) > 14 {
		t.Errorf("long taken name: %q (%d bytes), want ééééé(2) within 14 bytes", got, len(got))
	}
}

// Spawn protection (mp_spawnprotection): no damage while it lasts; firing
// ends it at once; it runs out after its time.
func TestWorldSpawnProtection(t *testing.T) {
	w := testWorld(t, "range", 1, Rules{SpawnProtection: 2})
	a := w.AddPlayer("a", false)
	b := w.AddPlayer("b", false)
	if !a.Protected(w.Tick) || !b.Protected(w.Tick) {
		t.Fatal("players are not protected at their spawn")
	}
	place := func() {
		a.State = shared.NewPlayerState(400, 384)
		b.State = shared.NewPlayerState(460, 384)
	}
	num := uint32(0)
	idle := func(p *Player, ticks int) { // commands without fire, so the rifle is ready again
		for i := 0; i < ticks; i++ {
			w.NextTick()
			num++
			w.RunCommand(p, shared.UserCmd{CommandNumber: num, TickCount: w.Tick, Msec: shared.MsecFor(w.TickRate)}, nil)
		}
	}
	place()
	w.NextTick()
	w.TakeEvents()
	num++
	fire(w, a, num, 0, nil)
	evs := w.TakeEvents()
	if countEvents(evs, EvShot) != 1 {
		t.Fatal("a did not fire")
	}
	if b.Health != MaxHealth || countEvents(evs, EvHit) != 0 {
		t.Fatalf("a protected player took a hit: health %d, %d hit events", b.Health, countEvents(evs, EvHit))
	}
	if a.Protected(w.Tick) {
		t.Fatal("firing did not end the shooter's protection")
	}
	// b fires (at nothing): its protection ends, and a's next shot hurts.
	num++
	fire(w, b, num, math.Pi/2, nil)
	if b.Protected(w.Tick) {
		t.Fatal("firing did not end b's protection")
	}
	idle(a, 20)
	place()
	num++
	fire(w, a, num, 0, nil)
	if b.Health != MaxHealth-shared.Weapons[0].Damage {
		t.Fatalf("after b fired, a's hit left it at %d health", b.Health)
	}
	// Protection also runs out by itself: a fresh player, 2 s after its
	// first movement (TestSpawnProtectionUntilMoved covers standing still).
	c := w.AddPlayer("c", false)
	w.NextTick()
	w.RunCommand(c, shared.UserCmd{CommandNumber: 1, TickCount: w.Tick, Msec: shared.MsecFor(w.TickRate), MoveX: 1}, nil)
	idle(a, 2*w.TickRate)
	if c.Protected(w.Tick) {
		t.Fatalf("still protected %d ticks after moving with 2 s of protection", 2*w.TickRate)
	}
	c.State = shared.NewPlayerState(460, 384)
	b.State = shared.NewPlayerState(460, 500) // out of the way
	a.State = shared.NewPlayerState(400, 384)
	num++
	fire(w, a, num, 0, nil)
	if c.Health != MaxHealth-shared.Weapons[0].Damage {
		t.Fatalf("protection ran out, yet c has %d health after a hit", c.Health)
	}
}

// bot_difficulty 0 is a beginner's opponent: standing in the open in front
// of one bot for a minute costs fewer than half the deaths that a normal
// bot deals.
func TestWorldEasyBotsAreEasier(t *testing.T) {
	deaths := func(skill float64) int {
		w := testWorld(t, "range", 7, Rules{BotSkill: skill})
		me := w.AddPlayer("me", false)
		w.AddBot(32)
		num := uint32(0)
		for i := 0; i < 60*w.TickRate; i++ {
			w.NextTick()
			num++
			w.RunCommand(me, shared.UserCmd{CommandNumber: num, TickCount: w.Tick, Msec: shared.MsecFor(w.TickRate)}, nil)
			w.Step()
		}
		return me.Deaths
	}
	easy, normal := deaths(0), deaths(1)
	t.Logf("a minute standing still: %d deaths at bot_difficulty 0, %d at 1", easy, normal)
	if normal < 4 || easy*2 > normal {
		t.Fatalf("deaths in a minute: %d at bot_difficulty 0, %d at 1; want easy at most half of normal", easy, normal)
	}
}
