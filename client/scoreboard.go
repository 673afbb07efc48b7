//go:build !headless

package client

import (
	"fmt"
	"image/color"
	"sort"

	"github.com/hajimehoshi/ebiten/v2"

	"tickshot/client/netclient"
)

// scoreboard is the table of players (Tab, and during the intermission):
// kills, deaths and ping, best first; per team in team deathmatch
// (teams.go).
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

// toRows returns the client's scoreboard rows in the server's order.
func toRows(c *netclient.Client) []scoreRow {
	rows := make([]scoreRow, 0, len(c.Scores))
	for _, s := range c.Scores {
		if !isSpectatorRow(&s) { // listed under their own heading
			rows = append(rows, scoreRow{s.ID, s.Name, int(s.Kills), int(s.Deaths), int(s.PingMs), s.Bot})
		}
	}
	return rows
}

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
	if drawTeamScoreboard(screen, c, v.W) { // teams.go
		return
	}
	sb.rows = sb.rows[:0]
	for i := range c.Scores {
		if s := &c.Scores[i]; !isSpectatorRow(s) { // listed under their own heading
			sb.rows = append(sb.rows, scoreRow{s.ID, s.Name, int(s.Kills), int(s.Deaths), int(s.PingMs), s.Bot})
		}
	}
	rows := sb.rows
	sortRows(rows)
	W := v.W
	pw, ph := 560.0, 90+28*float64(len(rows))+spectatorRowsHeight(c)
	x0, y0 := W/2-pw/2, 80.0
	hy := drawScoreHeader(screen, c, x0, y0, pw, ph, "Deathmatch", "first to ")
	for i, r := range rows {
		y := hy + 26 + 28*float64(i)
		col := colText
		if r.id == c.ID {
			col = colMe
		}
		drawScoreRow(screen, r, r.id == c.ID, x0, y, pw, col)
	}
	drawSpectatorRows(screen, c, x0, hy+26+28*float64(len(rows))+8, pw) // spectate.go
}

// drawScoreHeader draws a scoreboard's panel (pw x ph pixels at x0, y0),
// its title (mode, the map, and the frag limit after limitText when there
// is one) and the column headings; it returns the headings' y.
func drawScoreHeader(screen *ebiten.Image, c *netclient.Client, x0, y0, pw, ph float64, mode, limitText string) float64 {
	batch.use(screen)
	batch.rect(float32(x0), float32(y0), float32(pw), float32(ph), colPanel)
	title := mode + "  -  " + c.Map.Title
	for _, cv := range c.Accept.Cvars {
		if cv.Name == "mp_fraglimit" && cv.Value != "0" {
			title += "  -  " + limitText + cv.Value
		}
	}
	drawText(screen, title, 20, true, x0+pw/2, y0+12, 1, colText)
	hy := y0 + 50
	drawText(screen, "Player", 14, true, x0+20, hy, 0, colDim)
	drawText(screen, "Kills", 14, true, x0+340, hy, 2, colDim)
	drawText(screen, "Deaths", 14, true, x0+430, hy, 2, colDim)
	drawText(screen, "Ping", 14, true, x0+pw-20, hy, 2, colDim)
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
