//go:build !headless

package client

import (
	"errors"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/hajimehoshi/ebiten/v2"
)

// TestWrapWords: lines stay within the width, break at spaces, keep every
// word in order, and cut a word wider than a line.
func TestWrapWords(t *testing.T) {
	runes := func(s string) float64 { return float64(utf8.RuneCountInString(s)) }
	tests := []struct {
		s    string
		maxW float64
		want []string
	}{
		{"aaa bbb ccc", 7, []string{"aaa bbb", "ccc"}},
		{"aaa bbb ccc", 100, []string{"aaa bbb ccc"}},
		{"  spaced   out  ", 6, []string{"spaced", "out"}},
		{"abcdefghij", 4, []string{"abcd", "efgh", "ij"}},
		{"to abcdefghij x", 4, []string{"to", "abcd", "efgh", "ij x"}},
		{"é à ü", 3, []string{"é à", "ü"}},
		{"", 10, []string{""}},
		{"ab", 0, []string{"a", "b"}}, // too narrow for anything: one rune a line
	}
	for _, tc := range tests {
		got := wrapWords(tc.s, tc.maxW, runes)
		if strings.Join(got, "|") != strings.Join(tc.want, "|") {
			t.Errorf("wrapWords(%q, %g) = %q, want %q", tc.s, tc.maxW, got, tc.want)
		}
	}
	// With the game's font: a long reason fits a 640 px window's text column.
	// Text is measured on the game loop's goroutine, as in the game (Ebiten's
	// text package keeps per-frame state that its Update hook writes).
	onFrame(func(*ebiten.Image) {
		reason := "The connection to 127.0.0.1:40000 was refused: nobody is accepting connections there. Is the server running?"
		lines := wrapWords(reason, 576, func(s string) float64 { return measure(s, 20, false) })
		if len(lines) < 2 {
			t.Errorf("%q in one line of %.0f px", reason, measure(reason, 20, false))
		}
		for _, l := range lines {
			if w := measure(l, 20, false); w > 576 {
				t.Errorf("line %q is %.0f px wide, more than 576", l, w)
			}
		}
		if strings.Join(lines, " ") != reason {
			t.Errorf("wrapping changed the text: %q", lines)
		}
	})
}

// TestErrorHeading: "Disconnected" after playing, "Could not connect" when
// the attempt never got in.
func TestErrorHeading(t *testing.T) {
	g := newErrorScene("127.0.0.1:1", errors.New("refused"), false)
	if got := g.errorHeading(); got != "Could not connect" {
		t.Errorf("never connected: %q", got)
	}
	g.connectedOnce = true
	if got := g.errorHeading(); got != "Disconnected" {
		t.Errorf("after playing: %q", got)
	}
}
