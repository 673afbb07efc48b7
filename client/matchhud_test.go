//go:build !headless

package client

import (
	"testing"

	"tickshot/game"
	"tickshot/net/proto"
)

// TestHUDCameraKeepsMapEdgesOffTheBars: at a map's top and bottom edges the
// walls show between the HUD's bars, not under them; in the middle the
// player is centred between the bars; a map smaller than the strip is
// centred in it.
func TestHUDCameraKeepsMapEdgesOffTheBars(t *testing.T) {
	const w, h = 1280, 720
	mapW, mapH := 2400.0, 1800.0
	if _, y := hudCamera(mapW, mapH, 1200, mapH-40, w, h); mapH-y > h-hudBottom {
		t.Errorf("at the bottom edge the map ends %v px down the screen, under the bar at %v", mapH-y, h-hudBottom)
	}
	if _, y := hudCamera(mapW, mapH, 1200, 40, w, h); -y < hudTop {
		t.Errorf("at the top edge the map starts %v px down the screen, under the bar (%v px)", -y, hudTop)
	}
	_, y := hudCamera(mapW, mapH, 1200, 900, w, h)
	if mid := 900 - y; mid != hudTop+(h-hudTop-hudBottom)/2 {
		t.Errorf("in the middle the player is %v px down, want the strip's middle %v", mid, hudTop+(h-hudTop-hudBottom)/2)
	}
	// The view stays inside what the server sends (game.ViewRect).
	m := &game.Map{Width: mapW, Height: mapH}
	for _, py := range []float64{40, 900, mapH - 40} {
		x, y := hudCamera(mapW, mapH, 1200, py, w, h)
		r := game.ViewRect(m, 1200, py)
		if x < r.MinX || y < r.MinY || x+w > r.MaxX || y+h > r.MaxY {
			t.Errorf("player at y %v: view (%v,%v)+%vx%v outside the server's %+v", py, x, y, w, h, r)
		}
	}
	if _, y := hudCamera(1000, 400, 500, 200, w, h); 200-y != hudTop+(h-hudTop-hudBottom)/2 {
		t.Errorf("a small map: its middle %v px down, want %v", 200-y, hudTop+(h-hudTop-hudBottom)/2)
	}
}

// TestMatchClockText: the clock reads m:ss rounded up, and the score to
// beat names the frag limit, the leader's frags and the player's.
func TestMatchClockText(t *testing.T) {
	for secs, want := range map[float64]string{600: "10:00", 59.2: "1:00", 9.01: "0:10", 0: "0:00"} {
		if got := string(appendClock(nil, secs)); got != want {
			t.Errorf("appendClock(%v) = %q, want %q", secs, got, want)
		}
	}
	rows := []proto.ScoreEntry{{ID: 1, Kills: 3}, {ID: 2, Kills: 7}, {ID: 3, Kills: 9, Team: proto.TeamSpectator}}
	for _, c := range []struct {
		self  uint16
		limit int
		teams bool
		want  string
	}{
		{1, 20, false, "first to 20   lead 7   you 3"},
		{2, 20, false, "first to 20   you lead with 7"},
		{2, 0, false, "you lead with 7"},
		{3, 20, false, "first to 20   lead 7"}, // a spectator
		{1, 20, true, "first to 20"},
	} {
		if got := string(appendScoreToBeat(nil, rows, c.self, c.limit, c.teams)); got != c.want {
			t.Errorf("player %d, limit %d, teams %v: %q, want %q", c.self, c.limit, c.teams, got, c.want)
		}
	}
	tied := []proto.ScoreEntry{{ID: 1, Kills: 7}, {ID: 2, Kills: 7}, {ID: 3, Kills: 2}}
	for self, want := range map[uint16]string{1: "tied for the lead at 7", 2: "tied for the lead at 7", 3: "lead 7   you 2"} {
		if got := string(appendScoreToBeat(nil, tied, self, 0, false)); got != want {
			t.Errorf("a shared lead, player %d: %q, want %q", self, got, want)
		}
	}
}
