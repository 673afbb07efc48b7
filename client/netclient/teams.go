package netclient

import (
	"sort"

	"tickshot/net/proto"
)

// Team is player id's team as the scoreboard gives it (ScoreEntry.Team,
// Source's numbering: proto.TeamRed, proto.TeamBlue, ...); proto.TeamNone
// in deathmatch or for a player not on the board yet. The rows are sorted
// by ID, as the server sends them.
func (c *Client) Team(id uint16) uint8 {
	i := sort.Search(len(c.Scores), func(i int) bool { return c.Scores[i].ID >= id })
	if i < len(c.Scores) && c.Scores[i].ID == id {
		return c.Scores[i].Team
	}
	return proto.TeamNone
}
