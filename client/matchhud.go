//go:build !headless

package client

import (
	"math"

	"tickshot/client/palette"
	"tickshot/game"
	"tickshot/net/proto"
)

// The HUD's bars: the HUD's text sits on a dark bar at the top (ping, the
// match clock, the score to beat, the kill feed) and one at the bottom
// (health, ammo, the controls hint), and the camera keeps the arena
// between them (hudCamera), so that no wall of the map's edge hides under
// the HUD (Teeworlds and Quake Live keep their HUD on the edges the same
// way; issue 21 found the text drawn over the bottom wall).
const (
	hudTop    = 36 // pixels of the top bar
	hudBottom = 84 // pixels of the bottom bar
)

// hudCamera is game.Camera for the arena shown between the HUD's bars: the
// player is centred in the w×(h-hudTop-hudBottom) strip between them and
// that strip, not the whole screen, stops at the map's edges (plus
// game.Camera's slack), so the bars cover only what lies beyond the map
// there. It returns the world position at the screen's top-left corner.
// The view stays inside the server's interest area (game.ViewRect): it
// moves at most hudTop+hudBottom (120) world units past the map's edge,
// where there is nothing, and about 20 units elsewhere, far less than
// game.ViewMargin.
func hudCamera(mapW, mapH, px, py, w, h float64) (x, y float64) {
	strip := math.Max(h-hudTop-hudBottom, 1)
	x, y = game.Camera(mapW, mapH, px, py, w, strip)
	return x, y - hudTop
}

// matchBar draws the HUD's bars and, on the top one, the match clock (the
// time left, or the countdown to the next match during the intermission)
// and the score to beat (mp_fraglimit, the leader's frags and the
// player's own). The clock is the server tick the client estimates
// against the tick the match started (proto.MatchClock), never the wall
// clock, so it agrees with the server's end of the match and stops with
// a demo.
type matchBar struct {
	buf   []byte // the text drawn, reused
	score frect  // where the score to beat was drawn this frame (zero: not drawn)
}

// The top bar's text, pixels: the score to beat starts scoreToBeatX right
// of the middle (the clock ends as far left of it), the kill feed is right
// aligned barMarginX from the right edge, feedLineH per line, and keeps
// feedGap clear of the score to beat.
const (
	scoreToBeatX = 130
	barMarginX   = 12
	feedLineH    = 16
	feedGap      = 16
)

// scoreRect is where the score to beat, w pixels wide, sits on the top bar
// of a window W pixels wide: from scoreToBeatX right of the middle, moved
// left on a narrow window so that it ends inside the right margin, but
// never further left than the clock's right end (W/2-scoreToBeatX).
func scoreRect(W, w float64) frect {
	x := math.Max(math.Min(W/2+scoreToBeatX, W-barMarginX-w), W/2-scoreToBeatX+feedGap)
	return frect{x, 10, w, 18}
}

// feedRect is where the kill feed of lines lines, the widest w pixels,
// sits: on the top bar at the right when it clears the score to beat
// (score) and the middle of the bar (the clock, tdm's team scores) by
// feedGap, else right under the bar (a narrow window, or long names), so
// that they never overlap.
func feedRect(W, w float64, lines int, score frect) frect {
	r := frect{W - barMarginX - w, 2, w, float64(lines) * feedLineH}
	if r.x < math.Max(score.x+score.w, W/2+scoreToBeatX)+feedGap {
		r.y = hudTop + 2
	}
	return r
}

// drawBars draws the two bars, under the HUD's text.
func (mb *matchBar) drawBars(v *frameView) {
	b := &batch
	b.use(v.screen)
	W, H := float32(v.W), float32(v.H)
	b.rect(0, 0, W, hudTop, palette.HUDBar)
	b.rect(0, H-hudBottom, W, hudBottom, palette.HUDBar)
	edge := fade(palette.Dim, 0.35)
	b.rect(0, hudTop-1, W, 1, edge)
	b.rect(0, H-hudBottom, W, 1, edge)
}

// drawClock draws the clock and the score to beat on the top bar, either
// side of the middle (where tdm's team scores are).
func (mb *matchBar) drawClock(v *frameView) {
	mb.score = frect{}
	clock, ok := v.c.Match().Clock()
	if !ok {
		return
	}
	view := v.c.View()
	buf := mb.buf[:0]
	defer func() { mb.buf = buf }()
	if secs, ok := clock.TimeLeft(view.ServerTick, view.TickRate); ok {
		col := palette.Text
		if clock.End != 0 {
			buf = append(buf[:0], "next match "...)
			col = palette.TracerMe
		} else {
			buf = buf[:0]
			if secs < 60 {
				col = palette.HPBad
			}
		}
		buf = appendClock(buf, secs)
		drawTextBytes(v.screen, buf, 22, true, v.W/2-scoreToBeatX, 6, 2, col)
	}
	buf = appendScoreToBeat(buf[:0], view.Scores, view.ID, int(clock.FragLimit), teamPlay(v.c))
	mb.score = scoreRect(v.W, textAdv(buf, 15, false, palette.Dim))
	drawTextBytes(v.screen, buf, 15, false, mb.score.x, mb.score.y, 0, palette.Dim)
}

// appendClock appends secs as m:ss, rounded up (the clock shows 0:01 until
// the last second has passed).
func appendClock(buf []byte, secs float64) []byte {
	s := int(math.Ceil(secs))
	buf = append(appendInt(buf, s/60), ':')
	if s%60 < 10 {
		buf = append(buf, '0')
	}
	return appendInt(buf, s%60)
}

// appendScoreToBeat appends the score to beat: "first to N" (mp_fraglimit,
// when set) and, in deathmatch, the leader's frags and player self's
// ("lead 7   you 3"; "you lead with 7" when self is the leader alone,
// "tied for the lead at 7" when others have as many). scores are the
// scoreboard's rows.
func appendScoreToBeat(buf []byte, scores []proto.ScoreEntry, self uint16, fragLimit int, teams bool) []byte {
	if fragLimit > 0 {
		buf = appendInt(append(buf, "first to "...), fragLimit)
	}
	if teams {
		return buf
	}
	lead, leader, leaders, mine, playing := math.MinInt, uint16(0), 0, 0, false
	for _, r := range scores {
		if r.Team == proto.TeamSpectator {
			continue
		}
		switch k := int(r.Kills); {
		case k > lead:
			lead, leader, leaders = k, r.ID, 1
		case k == lead:
			leaders++
		}
		if r.ID == self {
			mine, playing = int(r.Kills), true
		}
	}
	if lead == math.MinInt {
		return buf
	}
	if len(buf) > 0 {
		buf = append(buf, "   "...)
	}
	switch {
	case !playing: // a spectator
		return appendInt(append(buf, "lead "...), lead)
	case lead == mine && leaders > 1:
		return appendInt(append(buf, "tied for the lead at "...), mine)
	case leader == self:
		return appendInt(append(buf, "you lead with "...), mine)
	}
	return appendInt(append(appendInt(append(buf, "lead "...), lead), "   you "...), mine)
}
