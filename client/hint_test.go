//go:build !headless

package client

import "testing"

// The controls hint stays until the player has both moved and fired.
func TestControlsHintStaysUntilMovedAndFired(t *testing.T) {
	g := &Game{}
	if !g.stats.hintShown(false) {
		t.Fatal("no hint for a player who has done nothing")
	}
	g.stats.moved = 500
	if !g.stats.hintShown(false) {
		t.Fatal("the hint went after moving only")
	}
	g.stats.moved, g.stats.shotsFired = 0, 3
	if !g.stats.hintShown(false) {
		t.Fatal("the hint went after firing only")
	}
	g.stats.moved = 500
	if g.stats.hintShown(false) {
		t.Fatal("the hint stayed after moving and firing")
	}
	if !g.stats.hintShown(true) {
		t.Fatal("no hint while the help key (F1) is held")
	}
}
