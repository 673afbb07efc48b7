package game

import "testing"

func TestRosterIDsSortedUniqueNeverZero(t *testing.T) {
	r := Roster{nextID: 65534}
	var ids []uint16
	for i := 0; i < 4; i++ {
		p := &Player{ID: r.newID()}
		ids = append(ids, p.ID)
		if i%2 == 0 {
			r.insertPlayer(p)
		} else {
			r.insertSpectator(p)
		}
	}
	// 65534, 65535, then the wrap skips 0: 1, 2.
	if want := []uint16{65534, 65535, 1, 2}; !equalIDs(ids, want) {
		t.Fatalf("newID gave %v, want %v", ids, want)
	}
	if got := idsOf(r.Players); !equalIDs(got, []uint16{1, 65534}) {
		t.Fatalf("Players %v not sorted by ID", got)
	}
	if got := idsOf(r.Spectators); !equalIDs(got, []uint16{2, 65535}) {
		t.Fatalf("Spectators %v not sorted by ID", got)
	}
	if !r.ScoresDirty {
		t.Fatal("inserting did not mark the scoreboard")
	}
	// A taken ID is skipped (a spectator's too).
	r.nextID = 1
	if id := r.newID(); id != 3 {
		t.Fatalf("newID after 1 and 2 are taken = %d, want 3", id)
	}
	if r.Player(65534) == nil || r.Player(2) != nil || r.Spectator(2) == nil || r.PlayerIndex(7) != -1 {
		t.Fatal("lookups disagree with the lists")
	}
	if p := r.takeSpectator(2); p == nil || p.ID != 2 || r.Spectator(2) != nil {
		t.Fatalf("takeSpectator(2) = %v; spectators %v", p, idsOf(r.Spectators))
	}
	if r.takeSpectator(2) != nil {
		t.Fatal("took spectator 2 twice")
	}
	r.removePlayerAt(r.PlayerIndex(1))
	if got := idsOf(r.Players); !equalIDs(got, []uint16{65534}) {
		t.Fatalf("after removing 1: %v", got)
	}
}

func TestRosterUniqueNameCountsSpectators(t *testing.T) {
	var r Roster
	r.insertPlayer(&Player{ID: 1, Name: "ann"})
	r.insertSpectator(&Player{ID: 2, Name: "ann(2)"})
	if got := r.UniqueName("ann", 16); got != "ann(3)" {
		t.Fatalf("UniqueName = %q, want ann(3)", got)
	}
	if got := r.UniqueName("bob", 16); got != "bob" {
		t.Fatalf("UniqueName of a free name = %q", got)
	}
}

func TestRosterTeamsAndLeaders(t *testing.T) {
	var r Roster
	if r.leader() != nil || r.leadingTeam() != TeamNone || r.smallerTeam(nil) != TeamRed {
		t.Fatal("an empty roster has a leader or a smaller team other than red")
	}
	a := &Player{ID: 1, Team: TeamRed, Kills: 3}
	b := &Player{ID: 2, Team: TeamBlue, Kills: 1}
	c := &Player{ID: 3, Team: TeamBlue, Kills: 1}
	for _, p := range []*Player{a, b, c} {
		r.insertPlayer(p)
	}
	if r.TeamSize(TeamRed) != 1 || r.TeamSize(TeamBlue) != 2 || r.TeamScore(TeamRed) != 3 || r.TeamScore(TeamBlue) != 2 {
		t.Fatalf("sizes %d/%d scores %d/%d", r.TeamSize(TeamRed), r.TeamSize(TeamBlue), r.TeamScore(TeamRed), r.TeamScore(TeamBlue))
	}
	if r.smallerTeam(nil) != TeamRed || r.smallerTeam(c) != TeamBlue {
		t.Fatalf("smallerTeam: fewer players first, then the lower score")
	}
	if r.leader() != a || r.leadingTeam() != TeamRed {
		t.Fatalf("leader %v, leading team %v", r.leader(), r.leadingTeam())
	}
	b.Kills = 3
	if r.leader() != nil {
		t.Fatal("a shared top score has a leader")
	}
	c.Kills = 0 // red 3, blue 3 + 0
	if r.leadingTeam() != TeamNone {
		t.Fatal("3 against 3 has a leading team")
	}
}

func idsOf(ps []*Player) []uint16 {
	ids := make([]uint16, len(ps))
	for i, p := range ps {
		ids[i] = p.ID
	}
	return ids
}

func equalIDs(a, b []uint16) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}
