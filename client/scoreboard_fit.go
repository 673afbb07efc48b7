//go:build !headless

package client

// A scoreboard of 1 024 players does not fit a screen (28 pixels a row):
// the screen shows the top rows and, when the local player is below them,
// a gap and the player's own row with its place, as a battle royale's
// leaderboard does; the title says how many play.

// minFitRows is the fewest lines a scoreboard panel is given.
const minFitRows = 4

// fitRows picks the lines to draw from rows (sorted best first) when at
// most fit lines fit (fewer than minFitRows count as minFitRows): every
// row when they fit; else the top ones and, when the local player (me) is
// not among them, a gap line and the player's row last. places gives each
// line's place on the board (1 = first), 0 for the gap.
func fitRows(rows []scoreRow, me uint16, fit int) (lines []scoreRow, places []int) {
	fit = max(fit, minFitRows)
	if len(rows) <= fit {
		for i := range rows {
			places = append(places, i+1)
		}
		return rows, places
	}
	mine := -1
	for i := range rows {
		if rows[i].id == me {
			mine = i
			break
		}
	}
	top := fit
	if mine >= fit {
		top = fit - 2 // the gap and the player's own row take the last two lines
	}
	lines = append(lines, rows[:top]...)
	for i := range top {
		places = append(places, i+1)
	}
	if mine >= fit {
		lines = append(lines, scoreRow{}, rows[mine])
		places = append(places, 0, mine+1)
	}
	return lines, places
}

// fitSpectators is the most spectator lines a scoreboard shows; more are
// counted on one line.
const fitSpectators = 4
