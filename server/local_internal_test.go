package server

import (
	"testing"

	"tickshot/game"
	"tickshot/shared"
)

// Local keeps hitscan shots only: a rocket's launch (an EvShot without a
// command, from the muzzle to the muzzle) is no shot the server judged.
func TestLocalKeepsHitscanShotsOnly(t *testing.T) {
	l, err := NewLocal(Config{Map: "arena", TickRate: 64, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	p := l.s.w.AddPlayer("p", false)
	for w := range shared.Weapons {
		l.onEvent(&game.Event{Kind: game.EvShot, A: p.ID, Value: w, Cmd: 9, X: 10, Y: 10, X2: 10, Y2: 10})
		want := 0
		if shared.Weapons[w].Kind == shared.Hitscan {
			want = 1
		}
		if got := len(l.TakeShots()); got != want {
			t.Errorf("%s's EvShot: %d judged shots, want %d", shared.Weapons[w].Name, got, want)
		}
	}
}
