package netclient

import (
	"sort"

	"tickshot/net/proto"
)

// ApplyTeamEvent applies an EvJoin's or EvTeam's team to the scoreboard at
// once (the next scoreboard, built after the event, agrees): player e.A's
// row takes team e.Value (Source's numbering: proto.TeamRed, ...), and an
// EvJoin of a player not on the board adds its row, named e.Text. A Value
// outside 0..proto.MaxTeam is no team and changes nothing; so do other
// kinds. Applying one twice changes nothing more. The window applies the
// events it takes (TakeEvents) as it shows them.
func (c *Client) ApplyTeamEvent(e *proto.Event) {
	if (e.Kind != proto.EvJoin && e.Kind != proto.EvTeam) || e.Value < 0 || e.Value > int16(proto.MaxTeam) {
		return
	}
	t := uint8(e.Value)
	rows := append([]proto.ScoreEntry(nil), c.scores...) // a View may hold the old rows
	i := sort.Search(len(rows), func(i int) bool { return rows[i].ID >= e.A })
	switch {
	case i < len(rows) && rows[i].ID == e.A:
		rows[i].Team = t
	case e.Kind == proto.EvJoin:
		rows = append(rows, proto.ScoreEntry{})
		copy(rows[i+1:], rows[i:])
		rows[i] = proto.ScoreEntry{ID: e.A, Name: e.Text, Team: t}
	default:
		return
	}
	c.scores = rows
	c.changed()
}
