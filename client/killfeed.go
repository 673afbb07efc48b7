//go:build !headless

package client

import (
	"image/color"
	"time"
	"unicode/utf8"

	"tickshot/client/palette"
)

// feedTime is how long a kill stays in the kill feed (a notice half as long).
const feedTime = 6 * time.Second

// feedLen is how many entries the kill feed keeps; feedShown how many of
// the newest it shows, the lines that fit the HUD's top bar (hudTop).
const (
	feedLen   = 6
	feedShown = 2
)

type feedEntry struct {
	killer, victim string
	mine, me       bool // the local player killed / was killed
	notice         string
	left           time.Duration
}

// killFeed is the list of kills and notices (joins, leaves, teams) on the
// HUD's top bar at the right, the newest feedShown, newest at the bottom,
// each for feedTime: on the bar it covers no player.
type killFeed struct {
	entries []feedEntry
	buf     []byte // the line being drawn, reused
}

// addKill adds killer > victim; mine: the local player killed, me: it died.
func (k *killFeed) addKill(killer, victim string, mine, me bool) {
	k.add(feedEntry{killer: killer, victim: victim, mine: mine, me: me, left: feedTime})
}

// addNotice adds a line of text.
func (k *killFeed) addNotice(s string) { k.add(feedEntry{notice: s, left: feedTime / 2}) }

func (k *killFeed) add(e feedEntry) {
	k.entries = append(k.entries, e)
	if len(k.entries) > feedLen {
		k.entries = k.entries[len(k.entries)-feedLen:]
	}
}

// update counts dt off every entry's time.
func (k *killFeed) update(dt time.Duration) {
	k.entries = expire(k.entries, dt, func(e *feedEntry) *time.Duration { return &e.left })
}

// draw draws the feed's newest feedShown entries on the top bar at the
// right, or right under it where they would overlap the score to beat
// (score: where matchBar drew it; feedRect): your kills in your colour,
// your deaths in red, notices dimmed.
func (k *killFeed) draw(v *frameView, score frect) {
	shown := k.entries[max(len(k.entries)-feedShown, 0):]
	w := 0.0
	for i := range shown {
		var col color.RGBA
		k.buf, col = shown[i].line(k.buf[:0])
		w = max(w, textAdv(k.buf, 14, shown[i].notice == "", col)) // the style drawn: measured once
	}
	r := feedRect(v.W, w, len(shown), score)
	y := r.y
	for i := range shown {
		e := &shown[i]
		var col color.RGBA
		k.buf, col = e.line(k.buf[:0])
		drawTextBytes(v.screen, k.buf, 14, e.notice == "", v.W-barMarginX, y, 2, col)
		y += feedLineH
	}
}

// feedNameMax is how many characters of a name a kill's line shows (a
// longer one ends in "…"), so that the line fits a 640-pixel window.
const feedNameMax = 14

// line appends e's text to buf and returns it with its colour.
func (e *feedEntry) line(buf []byte) ([]byte, color.RGBA) {
	if e.notice != "" {
		return append(buf, e.notice...), palette.Dim
	}
	buf = appendShortName(append(appendShortName(buf, e.killer), "  >  "...), e.victim)
	switch {
	case e.mine:
		return buf, palette.Me
	case e.me:
		return buf, palette.HPBad
	}
	return buf, palette.Text
}

// appendShortName appends name, cut to feedNameMax characters with "…".
func appendShortName(buf []byte, name string) []byte {
	n := 0
	for i := range name {
		if n == feedNameMax-1 {
			if utf8.RuneCountInString(name[i:]) > 1 {
				return append(append(buf, name[:i]...), "…"...)
			}
			break
		}
		n++
	}
	return append(buf, name...)
}
