package server

import "tickshot/net/proto"

// Shims over the parts the server wires together, so that the tests read
// as the server's own steps do.

// addEvent queues e for every client (to == 0) or one player at the
// current tick (eventQueue.add).
func (s *Server) addEvent(e proto.Event, to uint16) { s.events.add(e, to, s.w.Tick, s.sessions) }
