package proto

import "testing"

func TestPlayersText(t *testing.T) {
	for _, c := range []struct {
		players, bots, max int
		want               string
	}{{2, 0, 16, "2/16"}, {1, 1, 5, "2/5 (1 bot)"}, {2, 4, 8, "6/8 (4 bots)"}} {
		if got := PlayersText(c.players, c.bots, c.max); got != c.want {
			t.Errorf("PlayersText(%d, %d, %d) = %q, want %q", c.players, c.bots, c.max, got, c.want)
		}
	}
}
