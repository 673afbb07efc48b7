package proto

import (
	"strings"
	"testing"
)

// The player's colour (protocol 10): a Hello carries 0..MaxColor and is
// refused above it; the scoreboard carries it back, and a row above
// MaxColor is a protocol error.
func TestHelloColor(t *testing.T) {
	for c := uint8(0); c <= MaxColor; c++ {
		m, err := Decode(MustEncode(&Hello{Protocol: ProtocolVersion, Name: "painter", InterpRatio: 2, Color: c}))
		if err != nil {
			t.Fatalf("colour %d: %v", c, err)
		}
		if got := m.(*Hello).Color; got != c {
			t.Errorf("colour %d decoded as %d", c, got)
		}
	}
	_, err := Decode(MustEncode(&Hello{Protocol: ProtocolVersion, Name: "painter", InterpRatio: 2, Color: MaxColor + 1}))
	if err == nil || !strings.Contains(err.Error(), "invalid hello: colour 9 outside [0, 8]") {
		t.Errorf("colour %d: error %v, want it refused", MaxColor+1, err)
	}
}

func TestScoreEntryColor(t *testing.T) {
	snap := &Snapshot{Tick: 5, Seq: 1, Scores: []ScoreEntry{{ID: 1, Name: "a", Color: 3}, {ID: 2, Name: "b", Bot: true}}}
	m, err := Decode(MustEncode(snap))
	if err != nil {
		t.Fatal(err)
	}
	if rows := m.(*Snapshot).Scores; len(rows) != 2 || rows[0].Color != 3 || rows[1].Color != 0 {
		t.Errorf("scores decoded as %+v", rows)
	}
	snap.Scores[1].Color = MaxColor + 1
	if _, err := Decode(MustEncode(snap)); err == nil || !strings.Contains(err.Error(), "player 2: colour 9") {
		t.Errorf("a row of colour %d: error %v, want a protocol error", MaxColor+1, err)
	}
}
