package lab

import (
	"testing"
	"time"
)

// Two bots play a minute in the lab with jitter and loss on both links:
// it keeps running (kills, respawns), keeps 10 s of Frames, and stays
// exact.
func TestBotsPlayAMinute(t *testing.T) {
	k := DefaultKnobs()
	for i := range k.Seats {
		k.Seats[i].Up = Link{LagMs: 40, JitterMs: 15, LossPct: 3}
		k.Seats[i].Down = Link{LagMs: 40, JitterMs: 15, LossPct: 3}
	}
	l, err := New(Config{Seed: 7, Knobs: k, Drivers: [2]Driver{DriveBot, DriveBot}})
	if err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	if err := l.RunFor(time.Minute); err != nil {
		t.Fatal(err)
	}
	t.Logf("a virtual minute in %v: %d shots, %d events, %d frames kept", time.Since(start), len(l.Shots()), len(l.Events()), len(l.History()))
	if n := len(l.History()); n != HistorySeconds*FrameRate {
		t.Errorf("%d frames kept, want %d", n, HistorySeconds*FrameRate)
	}
	kills := 0
	for _, e := range l.Events() {
		if e.Kind == "kill" {
			kills++
		}
	}
	if len(l.Shots()) == 0 || kills == 0 {
		t.Errorf("%d shots, %d kills in a minute of two bots: want a fight", len(l.Shots()), kills)
	}
	for _, sh := range l.Shots() {
		if sh.RewindErr > 1e-6 && sh.Verdict != VerdictRefused && sh.Verdict != VerdictClamped {
			t.Errorf("shot %d (%s): rewind error %.3f", sh.N, sh.Verdict, sh.RewindErr)
		}
	}
}
