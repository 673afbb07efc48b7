//go:build !headless

package client

import (
	"testing"

	"tickshot/client/netclient"
	"tickshot/client/palette"
	"tickshot/net/proto"
)

// A player's chosen colour (cl_color, ScoreEntry.Color) is its body's in
// free-for-all, for itself and for the others; 0 keeps the automatic
// colours; a team's colour wins in team deathmatch.
func TestChosenColour(t *testing.T) {
	if len(palette.Players) != proto.MaxColor {
		t.Fatalf("%d player colours, the protocol allows %d", len(palette.Players), proto.MaxColor)
	}
	v := &netclient.View{ID: 1, Scores: []proto.ScoreEntry{{ID: 1, Color: 4}, {ID: 2, Color: 7}, {ID: 3}, {ID: 4, Bot: true}}}
	if got, want := selfColour(v), palette.Players[3].Body; got != want {
		t.Errorf("you (cl_color 4): %v, want %v", got, want)
	}
	if got, want := otherColour(v, 2, false), palette.Players[6].Body; got != want {
		t.Errorf("player 2 (colour 7): %v, want %v", got, want)
	}
	if got := otherColour(v, 3, false); got != palette.Enemy {
		t.Errorf("player 3 (colour 0): %v, want the automatic %v", got, palette.Enemy)
	}
	if got := otherColour(v, 4, true); got != palette.EnemyBot {
		t.Errorf("a bot: %v, want %v", got, palette.EnemyBot)
	}
	v.Scores[0].Team, v.Scores[1].Team = proto.TeamBlue, proto.TeamRed
	if got := selfColour(v); got != palette.BlueMe {
		t.Errorf("you on blue (cl_color 4): %v, want the team's %v", got, palette.BlueMe)
	}
	if got := otherColour(v, 2, false); got != palette.Red {
		t.Errorf("player 2 on red (colour 7): %v, want the team's %v", got, palette.Red)
	}
}
