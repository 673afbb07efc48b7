package server

import (
	"slices"
	"testing"

	"tickshot/game"
)

// TestDefaultMapCycle: a server given no map cycle plays the playable maps
// in turn (game.DefaultMapCycle), from arena or from the map it was given
// if that is one of them; on the benchmark range or the lag lab's map it
// stays; a cycle given, even of one map, is kept as given.
func TestDefaultMapCycle(t *testing.T) {
	for _, c := range []struct {
		cfg       Config
		wantMap   string
		wantCycle []string
		next      string // levels.next after wantMap
	}{
		{Config{}, "arena", game.DefaultMapCycle(), "foundry"},
		{Config{Map: "plaza"}, "plaza", game.DefaultMapCycle(), "bunker"},
		{Config{Map: "sprawl"}, "sprawl", game.DefaultMapCycle(), "arena"},
		{Config{Map: "range"}, "range", nil, ""},
		{Config{Map: "lab"}, "lab", nil, ""},
		{Config{MapCycle: []string{"bunker"}}, "bunker", []string{"bunker"}, "bunker"},
		{Config{MapCycle: []string{"range", "arena"}}, "range", []string{"range", "arena"}, "arena"},
	} {
		cfg := c.cfg
		if err := cfg.fill(); err != nil {
			t.Fatalf("%+v: %v", c.cfg, err)
		}
		l := levels{cycle: cfg.MapCycle}
		if cfg.Map != c.wantMap || !slices.Equal(cfg.MapCycle, c.wantCycle) || l.next(cfg.Map) != c.next {
			t.Errorf("map %q cycle %v: got map %q, cycle %v, next %q; want %q, %v, %q",
				c.cfg.Map, c.cfg.MapCycle, cfg.Map, cfg.MapCycle, l.next(cfg.Map), c.wantMap, c.wantCycle, c.next)
		}
	}
	if slices.Contains(game.DefaultMapCycle(), "range") || slices.Contains(game.DefaultMapCycle(), "lab") {
		t.Errorf("default cycle %v holds a tool map", game.DefaultMapCycle())
	}
}
