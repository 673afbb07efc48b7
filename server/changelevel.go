package server

import (
	"fmt"
	"slices"
	"strings"

	"tickshot/game"
)

// Map changes, as Source's changelevel and mapcycle: the server keeps its
// connections and its players, puts the world on the new map
// (game.World.ChangeMap: everyone respawns, a new match starts) and tells
// every client with an EvChangeLevel event, which rides in snapshots and is
// resent until acked like any event (docs/PROTOCOL.md). Source instead
// sends its clients a "reconnect"; over one websocket that keeps the
// player's slot, a reliable event does the same without a new handshake.

// changeLevel loads map name for the start of the next tick (runLevel),
// or fails, changing nothing, when there is no such map. The switch waits
// for a tick's start, before joins are admitted, so that every Accept names
// the map the world is on when the client's first snapshot is built: a
// player admitted in the tick of the change gets no event of that tick.
func (s *Server) changeLevel(name string) error {
	if !slices.Contains(game.MapNames(), name) {
		return fmt.Errorf("no map %q (available: %s)", name, strings.Join(game.MapNames(), ", "))
	}
	m, err := game.LoadMap(name)
	if err != nil {
		return err
	}
	s.pendingMap = m
	return nil
}

// runLevel runs at the start of a tick, after console commands and before
// joins (tick goroutine): when an intermission ends and the map cycle has
// another map, it asks for that map; then it moves the world onto the map
// asked for, if any (game.World.ChangeMap).
func (s *Server) runLevel() {
	if s.pendingMap == nil && s.w.Intermission != 0 && s.w.Tick >= s.w.Intermission {
		if next := s.nextMap(); next != "" && next != s.m.Name {
			if err := s.changeLevel(next); err != nil {
				s.log.Error("mapcycle: map not loaded; staying", "map", next, "err", err)
			}
		}
	}
	m := s.pendingMap
	if m == nil {
		return
	}
	s.pendingMap = nil
	s.m = m
	s.w.ChangeMap(m)
	// Hitbox history from the old map must not be rewound into the new one.
	clear(s.lag)
}

// nextMap is the map after the current one in the map cycle (the first
// when the current map is not in it), "" without a cycle.
func (s *Server) nextMap() string {
	c := s.cfg.MapCycle
	if len(c) == 0 {
		return ""
	}
	i := slices.Index(c, s.m.Name)
	return c[(i+1)%len(c)]
}

// execChangeLevel is the console command "changelevel MAP".
func (s *Server) execChangeLevel(args []string) string {
	if len(args) != 1 {
		return fmt.Sprintf("usage: changelevel MAP (available: %s; now %s)", strings.Join(game.MapNames(), ", "), s.m.Name)
	}
	if err := s.changeLevel(args[0]); err != nil {
		return "changelevel: " + err.Error()
	}
	return "changelevel: switching to " + args[0]
}
