//go:build !headless

package client

import (
	"strings"
	"testing"
	"time"

	"github.com/hajimehoshi/ebiten/v2"

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

// overlap reports whether two rectangles share any area.
func overlap(a, b frect) bool {
	return a.x < b.x+b.w && b.x < a.x+a.w && a.y < b.y+b.h && b.y < a.y+a.h
}

// TestTopBarScoreAndFeedNeverOverlap: at 640, 900 and 1280 pixels wide,
// with short and the longest lines (names of proto.MaxNameLen wide
// letters, the longest score to beat), the kill feed and the score to
// beat never overlap, both stay inside the window, the score to beat stays
// right of the clock, and at 1280 ordinary lines keep the feed on the bar.
func TestTopBarScoreAndFeedNeverOverlap(t *testing.T) {
	// Text is measured on the game loop's goroutine, as in the game (under
	// -race, measuring from the test's goroutine races with Ebiten's
	// glyph-cache hook that runs before each frame).
	onFrame(func(*ebiten.Image) { testTopBarScoreAndFeedNeverOverlap(t) })
}

func testTopBarScoreAndFeedNeverOverlap(t *testing.T) {
	long := strings.Repeat("W", proto.MaxNameLen)
	scores := []string{"", "first to 20", "first to 20   lead 7   you 3", "first to 200   tied for the lead at 199"}
	feeds := []string{"", "alice  >  bob", "", "map changed to " + long}
	cut, _ := (&feedEntry{killer: long, victim: long}).line(nil) // as the feed cuts it
	feeds[2] = string(cut)
	for _, W := range []float64{640, 900, 1280} {
		for _, s := range scores {
			sw := 0.0
			if s != "" {
				sw = textWidth(s, 15, false)
			}
			sc := scoreRect(W, sw)
			if s != "" && (sc.x+sc.w > W || sc.x <= W/2-scoreToBeatX) {
				t.Errorf("W %v: score to beat %q at %+v, outside the window or over the clock", W, s, sc)
			}
			for _, f := range feeds {
				fw := textWidth(f, 14, true)
				fr := feedRect(W, fw, feedShown, sc)
				if s != "" && overlap(sc, fr) {
					t.Errorf("W %v: score to beat %q at %+v overlaps the kill feed %q at %+v", W, s, sc, f, fr)
				}
				if fr.x < 0 || fr.x+fr.w > W {
					t.Errorf("W %v: kill feed %q at %+v outside the window", W, f, fr)
				}
				if fr.y < hudTop && (fr.y+fr.h > hudTop || fr.x < W/2+scoreToBeatX) {
					t.Errorf("W %v: kill feed at %+v on the bar over its edge or its middle (the clock)", W, fr)
				}
				if W == 1280 && f == feeds[1] && s == scores[2] && fr.y >= hudTop {
					t.Errorf("W 1280: ordinary lines moved the feed off the bar (%+v, score %+v)", fr, sc)
				}
			}
		}
	}
}

// TestBannerHiddenUnderEndScreen: the match banner ("X wins the match")
// shows while it lasts, but not while the end-of-match screen, whose
// title says the same, is up.
func TestBannerHiddenUnderEndScreen(t *testing.T) {
	fx := &effects{banner: "alice wins the match", bannerLeft: time.Second}
	if !bannerShown(fx, false) {
		t.Error("the banner is hidden without the end screen")
	}
	if bannerShown(fx, true) {
		t.Error("the banner shows over the end screen's title")
	}
	fx.bannerLeft = 0
	if bannerShown(fx, false) {
		t.Error("the banner shows after its time")
	}
}

// TestFeedCutsLongNames: a kill's line keeps names of up to feedNameMax
// characters whole and cuts longer ones to feedNameMax with "…", counting
// characters, not bytes.
func TestFeedCutsLongNames(t *testing.T) {
	for name, want := range map[string]string{
		"bob":               "bob",
		"abcdefghijklmn":    "abcdefghijklmn",
		"abcdefghijklmno":   "abcdefghijklm…",
		"ééééééééééééééééé": "ééééééééééééé…",
		"ééééééééééééé":     "ééééééééééééé",
	} {
		if got := string(appendShortName(nil, name)); got != want {
			t.Errorf("appendShortName(%q) = %q, want %q", name, got, want)
		}
	}
}
