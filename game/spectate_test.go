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
