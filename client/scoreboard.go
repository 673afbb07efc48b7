//go:build !headless

package client

import (
	"fmt"
	"image/color"
	"sort"

	"github.com/hajimehoshi/ebiten/v2"

	"tickshot/client/netclient"
	"tickshot/client/palette"
	"tickshot/net/proto"
)

// scoreboard is the table of players (Tab, and during the intermission):
// kills, deaths and ping, best first; per team in team deathmatch
// (drawTeamScoreboard).
type scoreboard struct {
	rows []scoreRow // reused
}

type scoreRow struct {
	id            uint16
	name          string
	kills, deaths int
	ping          int
	bot           bool
}

// toRows returns the client's scoreboard rows in the server's order,
// spectators left out (listed under their own heading).
func toRows(c *netclient.Client) []scoreRow {
	return appendRows(make([]scoreRow, 0, len(c.View().Scores)), c, isPlayerRow)
}

// appendRows appends to rows the rows of c's scoreboard that keep
// accepts, in the server's order, and returns the result.
func appendRows(rows []scoreRow, c *netclient.Client, keep func(*proto.ScoreEntry) bool) []scoreRow {
	for i := range c.View().Scores {
		if s := &c.View().Scores[i]; keep(s) {
			rows = append(rows, scoreRow{s.ID, s.Name, int(s.Kills), int(s.Deaths), int(s.PingMs), s.Bot})
		}
	}
	return rows
}

// isPlayerRow reports whether a scoreboard row is a player's, not a
// spectator's.
func isPlayerRow(r *proto.ScoreEntry) bool { return !isSpectatorRow(r) }

// sortRows orders rows by kills, then fewer deaths.
func sortRows(rows []scoreRow) {
	sort.SliceStable(rows, func(i, j int) bool {
		if rows[i].kills != rows[j].kills {
			return rows[i].kills > rows[j].kills
		}
		return rows[i].deaths < rows[j].deaths
	})
}

// draw draws the scoreboard in the middle of the screen.
func (sb *scoreboard) draw(v *frameView) {
	c, screen := v.c, v.screen
	if drawTeamScoreboard(screen, c, v.W, v.H) {
		return
	}
	sb.rows = appendRows(sb.rows[:0], c, isPlayerRow) // spectators under their own heading
	rows := sb.rows
	sortRows(rows)
	W := v.W
	x0, y0 := W/2-(560.0)/2, 80.0
	specH := spectatorRowsHeight(c)
	lines, places := fitRows(rows, c.View().ID, int((v.H-y0-90-specH-16)/28))
	pw, ph := 560.0, 90+28*float64(len(lines))+specH
	mode := "Deathmatch"
	if len(lines) < len(rows) {
		mode = fmt.Sprintf("Deathmatch  -  %d players", len(rows))
	}
	hy := drawScoreHeader(screen, c, x0, y0, pw, ph, mode, "first to ")
	for i, r := range lines {
		y := hy + 26 + 28*float64(i)
		if places[i] == 0 {
			drawText(screen, "...", 16, false, x0+20, y, 0, palette.Dim)
			continue
		}
		col := palette.Text
		if r.id == c.View().ID {
			col = palette.Me
		}
		if len(lines) < len(rows) {
			r.name = fmt.Sprintf("%d. %s", places[i], r.name)
		}
		drawScoreRow(screen, r, r.id == c.View().ID, x0, y, pw, col)
	}
	drawSpectatorRows(screen, c, x0, hy+26+28*float64(len(lines))+8, pw) // spectate.go
}

// drawScoreHeader draws a scoreboard's panel (pw x ph pixels at x0, y0),
// its title (mode, the map, and the frag limit after limitText when there
// is one) and the column headings; it returns the headings' y.
func drawScoreHeader(screen *ebiten.Image, c *netclient.Client, x0, y0, pw, ph float64, mode, limitText string) float64 {
	batch.use(screen)
	batch.rect(float32(x0), float32(y0), float32(pw), float32(ph), palette.Panel)
	title := mode + "  -  " + c.View().Map.Title
	for _, cv := range c.View().Accept.Cvars {
		if cv.Name == "mp_fraglimit" && cv.Value != "0" {
			title += "  -  " + limitText + cv.Value
		}
	}
	drawText(screen, title, 20, true, x0+pw/2, y0+12, 1, palette.Text)
	hy := y0 + 50
	drawText(screen, "Player", 14, true, x0+20, hy, 0, palette.Dim)
	drawText(screen, "Kills", 14, true, x0+340, hy, 2, palette.Dim)
	drawText(screen, "Deaths", 14, true, x0+430, hy, 2, palette.Dim)
	drawText(screen, "Ping", 14, true, x0+pw-20, hy, 2, palette.Dim)
	return hy
}

// drawScoreRow draws one player's row at height y of a scoreboard pw pixels
// wide at x0 (name bold for the local player; "BOT" for a bot's ping).
func drawScoreRow(screen *ebiten.Image, r scoreRow, self bool, x0, y, pw float64, col color.RGBA) {
	drawText(screen, r.name, 16, self, x0+20, y, 0, col)
	drawText(screen, fmt.Sprint(r.kills), 16, false, x0+340, y, 2, col)
	drawText(screen, fmt.Sprint(r.deaths), 16, false, x0+430, y, 2, col)
	ping := fmt.Sprint(r.ping)
	if r.bot {
		ping = "BOT"
	}
	drawText(screen, ping, 16, false, x0+pw-20, y, 2, col)
}

// drawTeamScoreboard draws the scoreboard of c's team match on a screen W
// pixels wide: a section per team, with its score and players by kills;
// false (nothing drawn) in deathmatch.
func drawTeamScoreboard(screen *ebiten.Image, c *netclient.Client, W, H float64) bool {
	if !teamPlay(c) {
		return false
	}
	red, blue := teamScores(c)
	players, spectators := 0, false
	for _, s := range c.View().Scores {
		switch s.Team {
		case proto.TeamRed, proto.TeamBlue:
			players++
		case proto.TeamSpectator:
			spectators = true
		}
	}
	x0, y0 := W/2-560.0/2, 80.0
	// Each team gets half the lines that fit (fitRows).
	fit := int((H-y0-90-34*2-28-16)/28) / 2
	players = min(players, 2*max(fit, minFitRows))
	pw, ph := 560.0, 90+34*2+28*float64(players)
	if spectators {
		ph += 28
	}
	hy := drawScoreHeader(screen, c, x0, y0, pw, ph, "Team deathmatch", "first team to ")
	y := hy + 26
	for _, team := range []struct {
		t     uint8
		name  string
		score int
		col   color.RGBA
	}{{proto.TeamRed, "RED", red, palette.Red}, {proto.TeamBlue, "BLUE", blue, palette.Blue}} {
		all := appendRows(nil, c, func(s *proto.ScoreEntry) bool { return s.Team == team.t })
		sortRows(all)
		rows, places := fitRows(all, c.View().ID, fit)
		batch.rect(float32(x0+10), float32(y-2), float32(pw-20), 28, fade(team.col, 0.35))
		drawText(screen, fmt.Sprintf("%s  %d", team.name, team.score), 18, true, x0+20, y, 0, palette.Text)
		drawText(screen, fmt.Sprintf("%d players", len(all)), 14, false, x0+pw-20, y+2, 2, palette.Text)
		y += 34
		for i, r := range rows {
			if places[i] == 0 {
				drawText(screen, "...", 16, false, x0+20, y, 0, palette.Dim)
				y += 28
				continue
			}
			if len(rows) < len(all) {
				r.name = fmt.Sprintf("%d. %s", places[i], r.name)
			}
			col := colTeamText[team.t]
			if r.id == c.View().ID {
				col = palette.Text
			}
			drawScoreRow(screen, r, r.id == c.View().ID, x0, y, pw, col)
			y += 28
		}
	}
	// Spectators: one line of names under the teams.
	var specs []byte
	for _, s := range c.View().Scores {
		if s.Team == proto.TeamSpectator {
			if len(specs) > 0 {
				specs = append(specs, ", "...)
			}
			specs = append(specs, c.View().Name(s.ID)...)
		}
	}
	if len(specs) > 0 {
		drawTextBytes(screen, append([]byte("Spectators: "), specs...), 14, false, x0+20, y+4, 0, palette.Dim)
	}
	return true
}
