package game

import "testing"

// Match alone, driven by hand: scoring, the limits, the intermission and a
// mode change. The whole flow through Step is in world_test.go and
// teams_test.go.

func TestMatchScoreKillDeathmatch(t *testing.T) {
	w := testWorld(t, "range", 1, Rules{FragLimit: 2})
	a, b := w.AddPlayer("a", false), w.AddPlayer("b", false)
	w.TakeEvents()
	w.Match.scoreKill(w, a, a) // a suicide: no frag
	w.Match.scoreKill(w, a, b)
	if a.Kills != 1 || w.Intermission != 0 {
		t.Fatalf("kills %d, intermission %d after a suicide and a frag", a.Kills, w.Intermission)
	}
	w.Tick = 1000
	w.Match.scoreKill(w, a, b)
	want := uint32(1000 + IntermissionSeconds*w.TickRate)
	if a.Kills != 2 || w.Intermission != want {
		t.Fatalf("at the frag limit: kills %d, intermission %d, want %d", a.Kills, w.Intermission, want)
	}
	ev := w.TakeEvents()
	if len(ev) != 1 || ev[0].Kind != EvMatchEnd || ev[0].A != a.ID || ev[0].Text != "a" || ev[0].Value != IntermissionSeconds {
		t.Fatalf("events %+v, want a's EvMatchEnd", ev)
	}
	// A frag in the intermission counts but ends nothing again.
	w.Match.scoreKill(w, a, b)
	if a.Kills != 3 || len(w.TakeEvents()) != 0 || w.Intermission != want {
		t.Fatal("a frag in the intermission ended the match again")
	}
}

func TestMatchScoreKillTeams(t *testing.T) {
	w := testWorld(t, "range", 1, Rules{TeamPlay: true, FragLimit: 2})
	a, b, c := w.AddPlayer("a", false), w.AddPlayer("b", false), w.AddPlayer("c", false)
	if a.Team != TeamRed || b.Team != TeamBlue || c.Team != TeamRed {
		t.Fatalf("teams %v %v %v", a.Team, b.Team, c.Team)
	}
	w.Match.scoreKill(w, a, c) // a teamkill costs one
	w.Match.scoreKill(w, a, a) // a suicide with friendly fire off costs nothing
	if a.Kills != -1 || !w.Teammates(a, c) || w.Teammates(a, b) || w.Teammates(a, a) {
		t.Fatalf("kills %d after a teamkill and a suicide", a.Kills)
	}
	w.Rules.FriendlyFire = true
	w.Match.scoreKill(w, a, a)
	if a.Kills != -2 {
		t.Fatalf("a suicide with friendly fire on left %d kills, want -2", a.Kills)
	}
	w.TakeEvents()
	w.Match.scoreKill(w, c, b)
	w.Match.scoreKill(w, c, b) // red: -2 + 2 = 0, not the limit
	if w.Intermission != 0 {
		t.Fatal("the match ended with red at 0")
	}
	w.Match.scoreKill(w, b, a)
	w.Match.scoreKill(w, b, c) // blue: 2, the limit
	ev := w.TakeEvents()
	if w.Intermission == 0 || len(ev) != 1 || ev[0].B != uint16(TeamBlue) || ev[0].A != 0 || ev[0].Text != "blue team" {
		t.Fatalf("events %+v, want blue's EvMatchEnd", ev)
	}
}

func TestMatchRunTimeLimitIntermissionAndRestart(t *testing.T) {
	w := testWorld(t, "range", 1, Rules{TimeLimit: 1.0 / 60}) // 1 s
	a, b := w.AddPlayer("a", false), w.AddPlayer("b", false)
	a.Kills, b.Kills, b.Deaths = 2, 1, 3
	w.Flight.launch(w, a, rocketShot(100, 384))
	w.TakeEvents()
	w.Tick = uint32(w.TickRate) - 1
	w.Match.run(w)
	if w.Intermission != 0 {
		t.Fatal("ended before the time limit")
	}
	w.Tick++
	w.Match.run(w)
	if ev := w.TakeEvents(); w.Intermission != w.Tick+uint32(IntermissionSeconds*w.TickRate) || len(ev) != 1 || ev[0].A != a.ID {
		t.Fatalf("at the time limit: intermission %d, events %+v, want a's win", w.Intermission, ev)
	}
	w.Tick = w.Intermission
	w.ScoresDirty = false
	w.Match.run(w)
	if w.Intermission != 0 || w.MatchStart != w.Tick || a.Kills != 0 || b.Deaths != 0 || len(w.Projectiles) != 0 || !w.ScoresDirty {
		t.Fatalf("after the intermission: intermission %d, start %d, kills %d, deaths %d, %d projectiles",
			w.Intermission, w.MatchStart, a.Kills, b.Deaths, len(w.Projectiles))
	}
	if countEvents(w.TakeEvents(), EvMatchStart) != 1 {
		t.Fatal("no EvMatchStart")
	}
	// A mode change restarts at once, everyone on a team.
	w.Rules.TeamPlay = true
	a.Kills = 5
	w.Match.run(w)
	if !w.TeamPlay() || a.Team != TeamRed || b.Team != TeamBlue || a.Kills != 0 || countEvents(w.TakeEvents(), EvMatchStart) != 1 {
		t.Fatalf("after the switch to tdm: teamPlay %v, teams %v %v, kills %d", w.TeamPlay(), a.Team, b.Team, a.Kills)
	}
}
