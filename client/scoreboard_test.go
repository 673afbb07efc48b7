//go:build !headless

package client

import (
	"fmt"
	"image/color"
	"testing"

	"github.com/hajimehoshi/ebiten/v2"

	"tickshot/client/palette"
)

// fitRows: rows that fit are all drawn; 1 024 rows give the top ones, a
// gap and the local player's own row with its place; a player among the
// top gets no gap.
func TestFitRows(t *testing.T) {
	rows := make([]scoreRow, 1024)
	for i := range rows {
		rows[i] = scoreRow{id: uint16(i + 1), name: fmt.Sprint("p", i+1)}
	}
	if lines, places := fitRows(rows[:10], 5, 20); len(lines) != 10 || places[9] != 10 {
		t.Errorf("10 rows, 20 fit: %d lines, places %v", len(lines), places)
	}
	lines, places := fitRows(rows, 700, 20)
	if len(lines) != 20 || places[17] != 18 || places[18] != 0 || lines[19].id != 700 || places[19] != 700 {
		t.Errorf("1024 rows, 20 fit, the player 700th: %d lines, places %v, last %d", len(lines), places, lines[len(lines)-1].id)
	}
	lines, places = fitRows(rows, 3, 20)
	if len(lines) != 20 || places[19] != 20 || lines[2].id != 3 {
		t.Errorf("1024 rows, the player 3rd: %d lines, places %v", len(lines), places)
	}
	if lines, _ := fitRows(rows, 700, -3); len(lines) != minFitRows {
		t.Errorf("no room: %d lines, want the least, %d", len(lines), minFitRows)
	}
}

// The scoreboard screen of a 1 024-player game (a fake server's table of
// 1 024 rows, sent as deltas of at most 64) reads at a glance: the panel
// fits the window (1280 × 720), its top rows are drawn, and the local
// player's own row, far down the board, is its last line, in its colour.
func TestScoreboardOf1024Fits(t *testing.T) {
	c := newFakeClient(t, fakeWorld{others: 1023})
	if n := len(c.View().Scores); n != 1024 {
		t.Fatalf("the client holds %d scoreboard rows, want 1024", n)
	}
	g := newDrawGame(c, testScreenW, testScreenH, 0)
	onFrame(func(*ebiten.Image) {
		dst := ebiten.NewImage(testScreenW, testScreenH)
		defer dst.Deallocate()
		dst.Fill(palette.BG)
		var v frameView
		v.set(dst, g, c, 0)
		batch.use(dst)
		var sb scoreboard
		sb.draw(&v)
		batch.flush()
		txt.endFrame()
		W, H := float64(testScreenW), float64(testScreenH)
		if p := pixel(dst, W/2-270, H-3); p != palette.BG {
			t.Errorf("the scoreboard panel reaches the window's bottom edge (%v there)", p)
		}
		// The panel's lines: 90 pixels of header, then 28 a line.
		lines, _ := fitRows(toRows(c), c.View().ID, int((H-80-90-16)/28))
		last := 80 + 50 + 26 + 28*float64(len(lines)-1)
		me, text := 0, 0
		for y := last; y < last+20; y++ {
			for x := W/2 - 260; x < W/2; x++ {
				if pixel(dst, x, y) == palette.Me {
					me++
				}
			}
		}
		for y := 80.0 + 50 + 26; y < 80+50+26+20; y++ {
			for x := W/2 - 260; x < W/2; x++ {
				if p := pixel(dst, x, y); p != palette.Panel && brightness(p) > 150 {
					text++
				}
			}
		}
		if me < 20 || text < 20 {
			t.Errorf("%d lines: %d pixels of your colour on the last line, %d of text on the first; want the top row and your own", len(lines), me, text)
		}
		if len(lines) < 10 || len(lines) > 20 {
			t.Errorf("%d lines in a 720-pixel window", len(lines))
		}
	})
}

// brightness is the sum of a colour's channels / 3.
func brightness(c color.RGBA) int { return (int(c.R) + int(c.G) + int(c.B)) / 3 }
