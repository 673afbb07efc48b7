package server

import (
	"bytes"
	"math"
	"sync"
	"time"

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

// applyToView sends ss a snapshot of snap's tick and entities (recorded
// in its sent ring; snap.seq is not used) and has the client acknowledge
// it, as if it alone arrived: the view takes it (ackState.reached).
func (s *Server) applyToView(ss *session, snap *sentSnap) {
	rec := ss.acks.record(snap.tick, time.Time{}, ss.view.leave)
	rec.ents = append(rec.ents, snap.ents...)
	ss.acks.reached(rec.seq, 0, ss.view.learn)
}

// viewEnts returns every player the client of ss holds, with the whole
// interpolation history the server rebuilds (clientView.entity), copied.
func (s *Server) viewEnts(ss *session) map[uint16]*game.EntityView {
	out := map[uint16]*game.EntityView{}
	c := ss.acks.reachedNewest()
	_, _, ents, _ := c.next()
	for _, es := range ents {
		if ev := ss.view.entity(es.ID, math.Inf(-1), &ss.acks, s.cfg.TickRate); ev != nil {
			cp := *ev
			out[es.ID] = &cp
		}
	}
	return out
}

// lockedBuffer is a log sink safe for the server's goroutines.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}
