//go:build !headless && !js

package main

import (
	"os"
	"path/filepath"
	"reflect"
	"testing"
)

// A first game (no marker) starts the bots at bot_difficulty 0 unless --sv
// chose; after a game the marker exists and the defaults stand.
func TestFirstGameBotsEasier(t *testing.T) {
	marker := filepath.Join(t.TempDir(), "tickshot", "played")
	got := firstGameCvars(nil, marker)
	if !reflect.DeepEqual(got, [][2]string{{"bot_difficulty", "0"}}) {
		t.Fatalf("first game cvars %v, want bot_difficulty 0", got)
	}
	chosen := [][2]string{{"bot_difficulty", "3"}}
	if got := firstGameCvars(chosen, marker); !reflect.DeepEqual(got, chosen) {
		t.Fatalf("--sv bot_difficulty=3 in a first game became %v", got)
	}
	markPlayed(marker)
	if _, err := os.Stat(marker); err != nil {
		t.Fatalf("no marker after a game: %v", err)
	}
	if got := firstGameCvars([][2]string{{"mp_fraglimit", "5"}}, marker); len(got) != 1 || got[0][0] != "mp_fraglimit" {
		t.Fatalf("second game cvars %v, want only the user's", got)
	}
}
