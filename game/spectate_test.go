package game

import "testing"

// A spectator has an id and a name no player shares, no hitbox, takes no
// damage from a shot through where it stood, keeps its score, and in team
// deathmatch joins a team when it plays again (EvTeam says which).
func TestWorldSpectators(t *testing.T) {
	w := testWorld(t, "range", 1, Rules{TeamPlay: true, AutoTeamBalance: true})
	a := w.AddPlayer("a", false)
	b := w.AddPlayer("b", false)
	s := w.AddSpectator("a(2)")
	if s.ID == a.ID || s.ID == b.ID || w.UniqueName("a(2)", 24) == "a(2)" {
		t.Fatalf("spectator id %d or name %q shared with a player", s.ID, s.Name)
	}
	if s.Team != TeamSpectator || w.Player(s.ID) != nil || w.Spectator(s.ID) != s {
		t.Fatalf("new spectator: team %v, in Players %v", s.Team, w.Player(s.ID) != nil)
	}
	b.Deaths = 3
	bx, by := b.State.X, b.State.Y
	if _, err := w.Spectate(b.ID); err != nil {
		t.Fatal(err)
	}
	for _, h := range w.PresentHitboxes() {
		if h.ID == b.ID {
			t.Fatal("a spectator has a hitbox")
		}
	}
	w.Damage(a, b, 50, bx, by)
	for _, e := range w.TakeEvents() {
		if e.Kind == EvHit && e.B == b.ID {
			t.Fatal("a spectator was hit")
		}
	}
	if _, err := w.Spectate(b.ID); err == nil {
		t.Error("spectate twice accepted")
	}
	p, err := w.JoinGame(b.ID, TeamNone)
	if err != nil {
		t.Fatal(err)
	}
	// It left play alive a moment ago: it waits out the respawn delay.
	if p.Alive() {
		t.Error("spectate then join respawned at once")
	}
	for i := 0; i < 3*w.TickRate && !p.Alive(); i++ {
		w.Tick++
		w.Step()
	}
	if !p.Alive() || !p.Team.Playing() || p.Team == a.Team || p.Deaths != 3 || w.Player(b.ID) != p || w.Spectator(b.ID) != nil {
		t.Errorf("after join: alive %v, team %v (a is %v), deaths %d", p.Alive(), p.Team, a.Team, p.Deaths)
	}
	teamEv := false
	for _, e := range w.TakeEvents() {
		teamEv = teamEv || (e.Kind == EvTeam && e.A == b.ID && Team(e.Value) == p.Team)
	}
	if !teamEv {
		t.Error("no EvTeam for the spectator who joined")
	}
}

// spectate then join is no instant respawn: a wounded player who goes to
// the spectators and joins at once comes back after the respawn delay
// since it left (as if it had died then), not on the spot at full health;
// one who watched for longer than the delay spawns at once.
func TestSpectateJoinIsNoFreeRespawn(t *testing.T) {
	w := testWorld(t, "range", 1, Rules{})
	a := w.AddPlayer("a", false)
	b := w.AddPlayer("b", false)
	b.ProtectedUntil = 0
	w.Damage(a, b, 60, b.State.X, b.State.Y)
	if b.Health != 40 {
		t.Fatalf("b's health %d after 60 damage", b.Health)
	}
	left := w.Tick
	if _, err := w.Spectate(b.ID); err != nil {
		t.Fatal(err)
	}
	w.Tick++
	w.Step()
	if _, err := w.JoinGame(b.ID, TeamNone); err != nil {
		t.Fatal(err)
	}
	if b.Alive() {
		t.Fatalf("spectate then join: alive again at once with %d health", b.Health)
	}
	for !b.Alive() && w.Tick < left+uint32(4*w.TickRate) {
		w.Tick++
		w.Step()
	}
	delay := uint32(RespawnDelayMs * w.TickRate / 1000)
	if !b.Alive() || w.Tick < left+delay || w.Tick > left+delay+1 {
		t.Errorf("respawned (%v) at tick %d, want %d: the respawn delay after leaving play", b.Alive(), w.Tick-left, delay)
	}
	// Watching longer than the delay: joins alive at once.
	if _, err := w.Spectate(b.ID); err != nil {
		t.Fatal(err)
	}
	for i := uint32(0); i <= delay; i++ {
		w.Tick++
		w.Step()
	}
	if _, err := w.JoinGame(b.ID, TeamNone); err != nil || !b.Alive() {
		t.Errorf("after watching %d ticks: join err %v, alive %v; want alive at once", delay+1, err, b.Alive())
	}
}
