package proto

import (
	"strings"
	"testing"
)

// TestMatchClockTimeLeft: the time left is the time limit's rest while a
// match is on, the intermission's during one, never negative, and none
// without either.
func TestMatchClockTimeLeft(t *testing.T) {
	for _, c := range []struct {
		clock MatchClock
		tick  float64
		want  float64
		ok    bool
	}{
		{MatchClock{Start: 1000, TimeLimit: 64 * 600}, 1000, 600, true},
		{MatchClock{Start: 1000, TimeLimit: 64 * 600}, 1000 + 64*590.5, 9.5, true},
		{MatchClock{Start: 1000, TimeLimit: 64 * 600}, 1000 + 64*700, 0, true},
		{MatchClock{Start: 1000, End: 5000, TimeLimit: 64 * 600}, 5000 - 64*3, 3, true},
		{MatchClock{Start: 1000}, 2000, 0, false},
	} {
		got, ok := c.clock.TimeLeft(c.tick, 64)
		if got != c.want || ok != c.ok {
			t.Errorf("%+v at tick %v: %v %v, want %v %v", c.clock, c.tick, got, ok, c.want, c.ok)
		}
	}
}

// TestSnapshotMatchClockChecked: a snapshot whose intermission ends before
// its match started is refused on receipt; a nil clock (a snapshot without
// a scoreboard) is fine.
func TestSnapshotMatchClockChecked(t *testing.T) {
	if _, err := Decode(MustEncode(&Snapshot{Tick: 9})); err != nil {
		t.Fatalf("a snapshot without a match clock: %v", err)
	}
	_, err := Decode(MustEncode(&Snapshot{Tick: 9, Match: &MatchClock{Start: 500, End: 400}}))
	if err == nil || !strings.Contains(err.Error(), "before the match's start") {
		t.Fatalf("an intermission ending before its match: %v", err)
	}
}
