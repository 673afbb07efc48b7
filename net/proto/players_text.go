package proto

import "fmt"

// PlayersText writes a server's players as the server lists show them
// (`tickshot servers`, the menu's internet list): everyone playing, bots
// included, over the slots, the bots named: "3/16 (1 bot)", "6/8 (4 bots)",
// "2/16".
func PlayersText(players, bots, maxPlayers int) string {
	s := fmt.Sprintf("%d/%d", players+bots, maxPlayers)
	switch {
	case bots == 1:
		s += " (1 bot)"
	case bots > 1:
		s += fmt.Sprintf(" (%d bots)", bots)
	}
	return s
}
