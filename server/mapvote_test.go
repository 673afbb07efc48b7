package server

import (
	"strings"
	"testing"

	"tickshot/game"
	"tickshot/net/proto"
)

// TestMapVoteRules: the candidates follow the current map in cycle order
// (never the current map itself); a vote outside 1..N, not a number, or
// with no vote open is refused with the usage and changes nothing; a
// player has one vote and may change it; a voter who left is not counted;
// the most votes win, ties and no votes go to the earlier candidate.
func TestMapVoteRules(t *testing.T) {
	var v mapVote
	if r := v.cast(1, []string{"1"}); !strings.Contains(r, "no map vote now") {
		t.Errorf("a vote with none open: %q", r)
	}
	v.open([]string{"arena", "foundry", "plaza", "bunker", "sprawl"}, "bunker", 900)
	if strings.Join(v.maps, " ") != "sprawl arena foundry" {
		t.Fatalf("candidates after bunker: %v", v.maps)
	}
	all := func(uint16) bool { return true }
	if w := v.winner(all); w != "sprawl" {
		t.Errorf("no votes: %s wins, want the cycle's next, sprawl", w)
	}
	for _, bad := range [][]string{{"0"}, {"4"}, {"-1"}, {"two"}, {}, {"1", "2"}, {"99999999999999999999"}} {
		if r := v.cast(1, bad); !strings.HasPrefix(r, "usage: vote 1..3 (1 sprawl, 2 arena, 3 foundry)") {
			t.Errorf("vote %q: %q", bad, r)
		}
	}
	if len(v.votes) != 0 {
		t.Fatalf("refused votes were counted: %v", v.votes)
	}
	v.cast(1, []string{"3"})
	v.cast(2, []string{"2"})
	if w := v.winner(all); w != "arena" {
		t.Errorf("a tie of foundry and arena: %s wins, want the earlier, arena", w)
	}
	v.cast(3, []string{"3"})
	v.cast(3, []string{"3"}) // the same vote again counts once
	if w, n := v.winner(all), v.tally(all); w != "foundry" || n[2] != 2 {
		t.Errorf("two votes for foundry: %s wins, tally %v", w, n)
	}
	v.cast(3, []string{"2"}) // changed
	if n := v.tally(all); n[1] != 2 || n[2] != 1 {
		t.Errorf("after a changed vote: tally %v, want [0 2 1]", n)
	}
	gone := func(id uint16) bool { return id != 2 && id != 3 }
	if w := v.winner(gone); w != "foundry" {
		t.Errorf("the voters for arena left: %s wins, want foundry", w)
	}
	v.open([]string{"arena"}, "arena", 900)
	if v.isOpen() {
		t.Errorf("a cycle of the current map alone opened a vote for %v", v.maps)
	}
}

// TestAwardKindsAgree: the server sends game's award kinds as they are
// (matchStats), so the two numberings must agree.
func TestAwardKindsAgree(t *testing.T) {
	for _, k := range [][2]uint8{
		{uint8(game.AwardMostKills), proto.AwardMostKills}, {uint8(game.AwardAccuracy), proto.AwardAccuracy},
		{uint8(game.AwardStreak), proto.AwardStreak}, {uint8(game.AwardMostDamage), proto.AwardMostDamage},
	} {
		if k[0] != k[1] {
			t.Errorf("game award kind %d is proto's %d", k[0], k[1])
		}
	}
	if game.MinAwardShots != proto.MinAwardShots {
		t.Errorf("game.MinAwardShots %d, proto.MinAwardShots %d", game.MinAwardShots, proto.MinAwardShots)
	}
}

// The vote goes out at once when it opens, then at most
// voteSendsPerSecond times a second however many votes come in (1 024
// players voting sent every client a message every tick).
func TestMapVoteSendsAtMostFourTimesASecond(t *testing.T) {
	var v mapVote
	v.open([]string{"arena", "foundry", "plaza"}, "arena", 900)
	v.send(nil, 100, 64)
	if v.dirty || v.sentAt != 100 {
		t.Fatalf("the opened vote was not sent at once (dirty %v, sent at %d)", v.dirty, v.sentAt)
	}
	sends := 0
	for tick := uint32(101); tick <= 164; tick++ { // a vote every tick for a second
		v.cast(uint16(tick), []string{"1"})
		at := v.sentAt
		v.send(nil, tick, 64)
		if v.sentAt != at {
			sends++
		}
	}
	if sends != voteSendsPerSecond {
		t.Errorf("%d sends in a second of votes every tick, want %d", sends, voteSendsPerSecond)
	}
	v.send(nil, v.sentAt+16, 64)
	if v.dirty {
		t.Error("the last votes were never sent")
	}
}
