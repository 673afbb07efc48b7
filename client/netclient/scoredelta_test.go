package netclient

import (
	"testing"

	"tickshot/net/proto"
)

// A scoreboard is a delta (docs/PROTOCOL.md §5.8): rows replace by ID or
// are added in ID order, a nameless row keeps the name heard, a row of
// Team proto.ScoreGone removes its row; a View taken before keeps its
// table.
func TestMatchTakesScoreDeltas(t *testing.T) {
	m := newMatch()
	m.take(&proto.Snapshot{Scores: []proto.ScoreEntry{{ID: 5, Name: "eve", Kills: 1}, {ID: 2, Name: "bob"}, {ID: 9, Name: "ida"}}})
	before := m.scores
	m.take(&proto.Snapshot{Scores: []proto.ScoreEntry{{ID: 5, Kills: 2}, {ID: 9, Team: proto.ScoreGone}, {ID: 7, Name: "gus"}}})
	want := []proto.ScoreEntry{{ID: 2, Name: "bob"}, {ID: 5, Name: "eve", Kills: 2}, {ID: 7, Name: "gus"}}
	if len(m.scores) != len(want) {
		t.Fatalf("table %+v, want %+v", m.scores, want)
	}
	for i := range want {
		if m.scores[i] != want[i] {
			t.Errorf("row %d: %+v, want %+v", i, m.scores[i], want[i])
		}
	}
	if len(before) != 3 || before[2].ID != 9 || before[1].Kills != 1 {
		t.Errorf("the table an earlier View holds changed: %+v", before)
	}
	if m.names[7] != "gus" || m.names[5] != "eve" {
		t.Errorf("names heard %v", m.names)
	}
	// A snapshot without a scoreboard, or with an empty one, changes nothing.
	m.take(&proto.Snapshot{Match: &proto.MatchClock{Start: 1}})
	if len(m.scores) != 3 {
		t.Errorf("an empty scoreboard changed the table: %+v", m.scores)
	}
}
