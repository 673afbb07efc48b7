//go:build !headless

package client

import (
	"time"

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
// right: your kills in your colour, your deaths in red, notices dimmed.
func (k *killFeed) draw(v *frameView) {
	y := 2.0
	for _, e := range k.entries[max(len(k.entries)-feedShown, 0):] {
		col := palette.Text
		if e.notice != "" {
			k.buf, col = append(k.buf[:0], e.notice...), palette.Dim
		} else {
			k.buf = append(append(append(k.buf[:0], e.killer...), "  >  "...), e.victim...)
			if e.mine {
				col = palette.Me
			} else if e.me {
				col = palette.HPBad
			}
		}
		drawTextBytes(v.screen, k.buf, 14, e.notice == "", v.W-12, y, 2, col)
		y += 16
	}
}
