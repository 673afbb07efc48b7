//go:build !headless && !js

package main

import (
	"slices"
	"testing"

	"tickshot/game"
)

// TestHostMaps: the host page offers every embedded map once, the playable
// ones first in the default cycle's order (arena the first choice), the
// tool maps range and lab after them.
func TestHostMaps(t *testing.T) {
	got := hostMaps()
	cycle := game.DefaultMapCycle()
	if len(got) != len(game.MapNames()) || !slices.Equal(got[:len(cycle)], cycle) {
		t.Fatalf("host maps %v, want the cycle %v then the rest of %v", got, cycle, game.MapNames())
	}
	sorted := slices.Sorted(slices.Values(got))
	if !slices.Equal(sorted, game.MapNames()) {
		t.Errorf("host maps %v are not the embedded maps %v, each once", got, game.MapNames())
	}
	if i, j := slices.Index(got, "range"), slices.Index(got, "lab"); i < len(cycle) || j < len(cycle) {
		t.Errorf("range at %d, lab at %d: want both after the %d playable maps", i, j, len(cycle))
	}
}
