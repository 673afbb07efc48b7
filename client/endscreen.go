//go:build !headless

package client

import (
	"strconv"

	"github.com/hajimehoshi/ebiten/v2"
	"github.com/hajimehoshi/ebiten/v2/inpututil"

	"tickshot/client/netclient"
	"tickshot/client/palette"
	"tickshot/net/proto"
)

// ScreenshotOnEndScreen is Options.ScreenshotOn's end of the match: the
// screenshot waits for the end screen with its map vote.
const ScreenshotOnEndScreen = "endscreen"

// endScreen is the end-of-match screen over the intermission: the winner,
// each player's kills, deaths and accuracy, the awards, then "Next map"
// with the vote: a box per candidate with its votes, the player's own
// choice marked; a key 1..N or a click on a box votes (`vote N`, a server
// command). It draws from what the server sent (netclient.Match.EndOfMatch)
// and keeps only the boxes' places, for the clicks.
type endScreen struct {
	boxes []frect // the candidates' boxes as last drawn, pixels
	buf   []byte
}

// Layout of the end screen, pixels.
const (
	endPanelW  = 760.0
	endPanelY  = 70.0 // under the top bar and the kill feed moved under it (feedRect)
	endRowH    = 24.0
	endRowsMax = 10 // rows of players shown; the rest are summed up
	endBoxW    = 200.0
	endBoxH    = 64.0
)

// awardTitles names the award kinds (proto.Award*).
var awardTitles = map[uint8]string{
	proto.AwardMostKills:  "Most kills",
	proto.AwardAccuracy:   "Best accuracy",
	proto.AwardStreak:     "Longest streak",
	proto.AwardMostDamage: "Most damage",
}

// awardValue is an award's value as shown: accuracy in percent.
func awardValue(a proto.Award) string {
	if a.Kind == proto.AwardAccuracy {
		return strconv.Itoa(int(a.Value+5)/10) + "%"
	}
	return strconv.Itoa(int(a.Value))
}

// percent is a share 0..1 as "42%".
func percent(f float64) string { return strconv.Itoa(int(f*100+0.5)) + "%" }

// winnerLine is the end screen's title: "NAME wins!", "Red team wins!" or
// "Draw".
func winnerLine(st *proto.MatchStats) string {
	if st.Winner == "" {
		return "Draw"
	}
	return st.Winner + " wins!"
}

// shown reports whether the end screen is up: the server's statistics of
// the match that just ended have arrived.
func (es *endScreen) shown(c *netclient.Client) bool {
	st, _ := c.Match().EndOfMatch()
	return st != nil
}

// voteShown reports whether the end screen shows the map vote.
func (es *endScreen) voteShown(c *netclient.Client) bool {
	st, v := c.Match().EndOfMatch()
	return st != nil && v != nil && len(es.boxes) > 0
}

// update reads a vote from the keys 1..N or a click on a candidate's box
// (a person at the keys, not typing) and sends it.
func (es *endScreen) update(c *netclient.Client, human, typing bool) {
	_, v := c.Match().EndOfMatch()
	if v == nil || !human || typing {
		return
	}
	n := voteInput(len(v.Maps), es.boxes)
	if n > 0 && uint8(n) != v.Mine {
		c.SendCommand("vote "+strconv.Itoa(n), "")
	}
}

// voteInput is the candidate (1..n) chosen this frame by a key 1..9 (top
// row or keypad), a left click or a tap in one of boxes; 0 for none.
func voteInput(n int, boxes []frect) int {
	for i := 0; i < n && i < 9; i++ {
		if inpututil.IsKeyJustPressed(ebiten.Key1+ebiten.Key(i)) || inpututil.IsKeyJustPressed(ebiten.KeyNumpad1+ebiten.Key(i)) {
			return i + 1
		}
	}
	var at [][2]int
	if inpututil.IsMouseButtonJustPressed(ebiten.MouseButtonLeft) {
		x, y := ebiten.CursorPosition()
		at = append(at, [2]int{x, y})
	}
	touchBuf = inpututil.AppendJustPressedTouchIDs(touchBuf[:0])
	for _, id := range touchBuf {
		x, y := ebiten.TouchPosition(id)
		at = append(at, [2]int{x, y})
	}
	for _, p := range at {
		x, y := float64(p[0]), float64(p[1])
		for i, b := range boxes {
			if x >= b.x && x < b.x+b.w && y >= b.y && y < b.y+b.h {
				return i + 1
			}
		}
	}
	return 0
}

// draw draws the screen when the statistics have arrived.
func (es *endScreen) draw(v *frameView) {
	st, vote := v.c.Match().EndOfMatch()
	if st == nil {
		return
	}
	screen, W, H := v.screen, v.W, v.H
	pw := min(endPanelW, W-24)
	x0 := W/2 - pw/2
	ph := endPanelHeight(st, vote)
	if H-hudBottom-8-endPanelY < ph {
		ph = H - hudBottom - 8 - endPanelY // a small window: the vote stays on the panel's last lines
	}
	batch.use(screen)
	batch.rect(f32(x0), endPanelY, f32(pw), f32(ph), palette.Panel)
	batch.strokeRect(f32(x0), endPanelY, f32(pw), f32(ph), 1, fade(palette.Dim, 0.5))
	y := endPanelY + 10
	drawText(screen, winnerLine(st), 28, true, W/2, y, 1, palette.TracerMe)
	y += 44
	// The players: kills, deaths, accuracy.
	cols := [3]float64{x0 + pw - 250, x0 + pw - 150, x0 + pw - 24}
	drawText(screen, "Player", 14, true, x0+24, y, 0, palette.Dim)
	for i, h := range [3]string{"Kills", "Deaths", "Accuracy"} {
		drawText(screen, h, 14, true, cols[i], y, 2, palette.Dim)
	}
	y += 22
	for i := range st.Players {
		if i == endRowsMax {
			drawText(screen, "and "+strconv.Itoa(len(st.Players)-i)+" more", 14, false, x0+24, y, 0, palette.Dim)
			y += endRowH
			break
		}
		p := &st.Players[i]
		col := palette.Text
		if p.ID == v.c.View().ID {
			col = palette.Me
		}
		drawText(screen, p.Name, 16, p.ID == st.WinnerID && st.WinnerID != 0, x0+24, y, 0, col)
		drawText(screen, strconv.Itoa(int(p.Kills)), 16, false, cols[0], y, 2, col)
		drawText(screen, strconv.Itoa(int(p.Deaths)), 16, false, cols[1], y, 2, col)
		drawText(screen, percent(p.Accuracy()), 16, false, cols[2], y, 2, col)
		y += endRowH
	}
	y = es.drawAwards(v, st, x0, y+8, pw)
	es.drawVote(v, vote, y+10)
}

// endPanelHeight is the height of the end screen's panel for st and vote
// (nil: none yet), pixels: what draw lays out.
func endPanelHeight(st *proto.MatchStats, vote *proto.MapVote) float64 {
	rows := min(len(st.Players), endRowsMax+1)
	h := 10 + 44 + 22 + endRowH*float64(rows) + 8 + 22*float64((len(st.Awards)+1)/2) + 10
	if vote != nil {
		h += 30 + endBoxH
	}
	return h + 16
}

// drawAwards draws the awards two to a line from y; it returns the y below.
func (es *endScreen) drawAwards(v *frameView, st *proto.MatchStats, x0, y, pw float64) float64 {
	for i, a := range st.Awards {
		name := ""
		for j := range st.Players {
			if st.Players[j].ID == a.ID {
				name = st.Players[j].Name
			}
		}
		es.buf = append(append(append(append(append(es.buf[:0], awardTitles[a.Kind]...), ": "...), name...), "  "...), awardValue(a)...)
		x := x0 + 24 + float64(i%2)*(pw/2)
		drawTextBytes(v.screen, es.buf, 15, false, x, y, 0, palette.HPGood)
		if i%2 == 1 || i == len(st.Awards)-1 {
			y += 22
		}
	}
	return y
}

// drawVote draws "Next map" and the candidates' boxes from y (or, before
// the vote arrives or without one, nothing more), and keeps the boxes for
// clicks.
func (es *endScreen) drawVote(v *frameView, vote *proto.MapVote, y float64) {
	es.boxes = es.boxes[:0]
	if vote == nil {
		return
	}
	screen, W := v.screen, v.W
	es.buf = append(es.buf[:0], "Next map"...)
	if secs, ok := (&proto.MatchClock{End: vote.Ends}).TimeLeft(v.c.View().ServerTick, v.c.View().TickRate); ok {
		es.buf = appendClock(append(es.buf, " in "...), secs)
	}
	es.buf = append(es.buf, "  -  vote with 1.."...)
	es.buf = append(strconv.AppendInt(es.buf, int64(len(vote.Maps)), 10), " or a click"...)
	drawTextBytes(screen, es.buf, 18, true, W/2, y, 1, palette.Text)
	y += 30
	n := float64(len(vote.Maps))
	gap := 16.0
	bx := W/2 - (n*endBoxW+(n-1)*gap)/2
	b := &batch
	b.use(screen)
	for i, m := range vote.Maps {
		r := frect{bx + float64(i)*(endBoxW+gap), y, endBoxW, endBoxH}
		es.boxes = append(es.boxes, r)
		mine := int(vote.Mine) == i+1
		back, edge := fade(palette.Dim, 0.18), fade(palette.Dim, 0.6)
		if mine {
			back, edge = fade(palette.Me, 0.3), palette.Me
		}
		b.rect(f32(r.x), f32(r.y), f32(r.w), f32(r.h), back)
		b.strokeRect(f32(r.x), f32(r.y), f32(r.w), f32(r.h), 2, edge)
		es.buf = append(strconv.AppendInt(es.buf[:0], int64(i+1), 10), "  "...)
		es.buf = append(es.buf, m...)
		drawTextBytes(screen, es.buf, 18, true, r.x+r.w/2, r.y+8, 1, palette.Text)
		votes := 0
		if i < len(vote.Votes) {
			votes = int(vote.Votes[i])
		}
		es.buf = append(strconv.AppendInt(es.buf[:0], int64(votes), 10), " vote"...)
		if votes != 1 {
			es.buf = append(es.buf, 's')
		}
		drawTextBytes(screen, es.buf, 14, false, r.x+r.w/2, r.y+38, 1, palette.Dim)
	}
}
