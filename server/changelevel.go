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

// levels is the map cycle and the map asked for (changelevel or the
// cycle), loaded at the next tick's start (Server.runLevel).
type levels struct {
	cycle []string // Config.MapCycle; empty: the map stays
	// pending is the map asked for, loaded at the next tick's start; nil:
	// none.
	pending *game.Map
	// vote is the map vote of the intermission (mapvote.go); its winner is
	// the next map when the intermission ends.
	vote mapVote
}

// ask loads map name for the start of the next tick (runLevel), or fails,
// changing nothing, when there is no such map. The switch waits for a
// tick's start, before joins are admitted, so that every Accept names the
// map the world is on when the client's first snapshot is built: a player
// admitted in the tick of the change gets no event of that tick.
func (l *levels) ask(name string) error {
	if !slices.Contains(game.MapNames(), name) {
		return fmt.Errorf("no map %q (available: %s)", name, strings.Join(game.MapNames(), ", "))
	}
	m, err := game.LoadMap(name)
	if err != nil {
		return err
	}
	l.pending = m
	return nil
}

// next is the map after current in the map cycle (the first when current
// is not in it), "" without a cycle.
func (l *levels) next(current string) string {
	if len(l.cycle) == 0 {
		return ""
	}
	i := slices.Index(l.cycle, current)
	return l.cycle[(i+1)%len(l.cycle)]
}

// exec is the console command "changelevel MAP" (args are its
// arguments) on a server now on map current.
func (l *levels) exec(args []string, current string) string {
	if len(args) != 1 {
		return fmt.Sprintf("usage: changelevel MAP (available: %s; now %s)", strings.Join(game.MapNames(), ", "), current)
	}
	if err := l.ask(args[0]); err != nil {
		return "changelevel: " + err.Error()
	}
	return "changelevel: switching to " + args[0]
}

// runLevel runs at the start of a tick, before joins (tick goroutine):
// when an intermission ends, it asks for the map vote's winner (mapvote.go)
// or, without a vote, the map cycle's next map; then it moves the world onto the map asked for, if any
// (game.World.ChangeMap).
func (s *Server) runLevel() {
	l := &s.levels
	if l.pending == nil && s.w.Intermission != 0 && s.w.Tick >= s.w.Intermission {
		next := l.vote.winner(presentIn(s.sessions))
		if next == "" {
			next = l.next(s.w.Map.Name)
		}
		l.vote.close()
		if next != "" && next != s.w.Map.Name {
			if err := l.ask(next); err != nil {
				s.log.Error("mapcycle: map not loaded; staying", "map", next, "err", err)
			}
		}
	}
	m := l.pending
	if m == nil {
		return
	}
	l.pending = nil
	s.w.ChangeMap(m)
	// Hitbox history from the old map must not be rewound into the new one.
	clear(s.rewinder.lag)
}
