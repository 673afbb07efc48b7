package server

import (
	"tickshot/game"
	"tickshot/net/proto"
)

// Shims over the parts the server wires together, so that the tests read
// as the server's own steps do.

// addEvent queues e for every client (to == 0) or one player at the
// current tick (eventQueue.add).
func (s *Server) addEvent(e proto.Event, to uint16) { s.events.add(e, to, s.w.Tick, s.sessions) }

// newPlayer adds a player to the world under a unique name.
func (s *Server) newPlayer(name string, isBot bool) *game.Player {
	return s.w.AddPlayer(s.w.UniqueName(name, proto.MaxNameLen), isBot)
}

// applyToView updates the session's view with a snapshot the client
// received (clientView.apply).
func (s *Server) applyToView(ss *session, snap *sentSnap) { ss.view.apply(snap, s.cfg.TickRate) }
