//go:build !headless

package client

import (
	"math"
	"strings"
	"time"

	"github.com/hajimehoshi/ebiten/v2"
	"github.com/hajimehoshi/ebiten/v2/text/v2"

	"tickshot/client/netclient"
	"tickshot/client/palette"
)

// Connection trouble said in words: the warning while snapshots have
// stopped (netclient.ConnectionProblem: "Connection problem, auto-disconnect
// in N s", as Source's "WARNING: Connection Problem"), and the screen after
// a connection failed or ended, whose reason is a sentence
// (netclient.Describe) wrapped to the window.

// trouble is what the window showed of a stalled snapshot stream.
type trouble struct {
	text  string        // the warning on screen now, "" when none
	shown int           // times the warning appeared
	first time.Duration // silence when it last appeared (how quickly it did)
	gap   time.Duration // time since the look (frame) before that appearance
	worst time.Duration // longest silence seen
	look  time.Time     // the last look (update)
	// lines is text wrapped for a window linesW wide (text linesOf), the
	// widest width pixels.
	lines   []string
	linesOf string
	linesW  float64
	width   float64
}

// report copies what was shown into r.
func (t *trouble) report(r *Report) {
	r.ConnectionProblem, r.ProblemsShown = t.text, t.shown
	r.ProblemShownAfterMs = float64(t.first.Milliseconds())
	r.ProblemFrameGapMs = float64(t.gap.Milliseconds())
	r.ProblemWorstMs = float64(t.worst.Milliseconds())
}

// update notes the stream's state at now; it returns the warning to show.
func (t *trouble) update(c *netclient.Client, now time.Time) string {
	prev := t.look
	t.look = now
	tr, bad := c.ConnectionProblem(now)
	if !bad {
		t.text = ""
		return ""
	}
	if t.text == "" {
		t.shown++
		t.first, t.gap = tr.Silence, 0
		if !prev.IsZero() {
			t.gap = now.Sub(prev)
		}
	}
	t.worst = max(t.worst, tr.Silence)
	if s := tr.String(); s != t.text {
		t.text = s
	}
	return t.text
}

// draw draws the connection-problem warning, top centre, while
// snapshots have stopped.
// A demo played to its end shows "End of demo" instead: its clock has
// stopped, and no server is silent.
func (t *trouble) draw(v *frameView) {
	if d := v.g.demo; d != nil && d.ended() {
		t.text = ""
		return
	}
	msg := t.update(v.c, v.g.now()) // the demo's clock during playback
	if msg == "" {
		return
	}
	screen := v.screen
	const size, lineH = 22.0, 30.0
	W := v.W
	if msg != t.linesOf || W != t.linesW {
		// Wrapped and measured when the text (once a second) or the
		// window changes, not every frame.
		t.lines = wrapWords(msg, W-48, func(s string) float64 { return measure(s, size, true) })
		t.width = 0
		for _, l := range t.lines {
			t.width = math.Max(t.width, measure(l, size, true))
		}
		t.linesOf, t.linesW = msg, W
	}
	lines, w := t.lines, t.width
	x0, y0 := W/2-w/2-16, 64.0
	batch.use(screen) // the frame's batch (batch.go), so that it layers over the world
	batch.rect(float32(x0), float32(y0), float32(w+32), float32(lineH*float64(len(lines))+16), palette.TroublePanel)
	for i, l := range lines {
		drawText(screen, l, size, true, W/2, y0+8+lineH*float64(i), 1, palette.Warn)
	}
}

// errorHeading is the title of the error screen: "Disconnected" after
// playing, "Could not connect" when this attempt never got in.
func (s *connectScene) errorHeading() string {
	if s.connectedOnce {
		return "Disconnected"
	}
	return "Could not connect"
}

// errorText is the reason on the error screen and in the report: a sentence.
func (s *connectScene) errorText() string {
	return netclient.Describe(s.err, s.addr)
}

// drawError draws the error screen: the heading, the reason wrapped inside
// the window, and the keys.
func (s *connectScene) drawError(screen *ebiten.Image, W, H float64) {
	const size, lineH = 20.0, 28.0
	lines := wrapWords(s.errorText(), math.Min(W-64, 900), func(s string) float64 { return measure(s, size, false) })
	top := H/2 - 70 - lineH*float64(len(lines)-1)/2
	drawText(screen, s.errorHeading(), 36, true, W/2, top, 1, palette.HPBad)
	y := top + 60
	for _, l := range lines {
		drawText(screen, l, size, false, W/2, y, 1, palette.Text)
		y += lineH
	}
	drawText(screen, "Enter: reconnect    "+s.escText, 16, false, W/2, y+22, 1, palette.Dim)
}

// measure returns the width in pixels of s in the game's font.
func measure(s string, size float64, bold bool) float64 {
	w, _ := text.Measure(s, face(size, bold), 0)
	return w
}

// wrapWords breaks s into lines no wider than maxW (by width), at spaces;
// a word wider than maxW alone is cut where it must be. A maxW too small
// for one character still makes progress, one character a line.
func wrapWords(s string, maxW float64, width func(string) float64) []string {
	var lines []string
	line := ""
	for _, word := range strings.Fields(s) {
		try := word
		if line != "" {
			try = line + " " + word
		}
		if width(try) <= maxW {
			line = try
			continue
		}
		if line != "" {
			lines = append(lines, line)
			line = ""
		}
		for width(word) > maxW {
			r := []rune(word)
			n := 1
			for n < len(r) && width(string(r[:n+1])) <= maxW {
				n++
			}
			lines = append(lines, string(r[:n]))
			word = string(r[n:])
		}
		line = word
	}
	if line != "" || len(lines) == 0 {
		lines = append(lines, line)
	}
	return lines
}
