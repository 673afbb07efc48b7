package game

import (
	"tickshot/shared"
)

// TeleportDist is a jump between two snapshots, in world units, beyond
// which an entity's history restarts instead of sliding (on top of the
// distance MaxSpeed allows in the time between them).
const TeleportDist = 128

// EntityView is one entity as a client tracks it from the snapshots it
// received: the interpolation history and the respawn counter. The client
// renders from it; the server keeps the same views per client, fed with the
// snapshots the client acknowledged, so that a rewind uses exactly the
// samples the shooter drew from (Bernier 2001, "Lag Compensation": "the
// world update that was sent to the player").
type EntityView struct {
	Hist     History
	Teleport uint8
}

// Observe adds a snapshot sample. A changed teleport counter (respawn) or a
// jump larger than TeleportDist plus what MaxSpeed allows restarts the
// history, so the entity is not slid across the map. A sample no newer than
// the history's newest is ignored whole, teleport counter included: it is a
// held entity's copy (proto.EntityState.Tick), a state of a tick the view
// already has or has passed (a snapshot's baseline may be older than one
// that reached the client before it), so it neither adds a sample nor
// restarts the history with a respawn counter older than the view's.
func (v *EntityView) Observe(s Sample, teleport uint8, tickRate int) {
	last, ok := v.Hist.Newest()
	if ok && s.Tick <= last.Tick {
		return
	}
	if teleport != v.Teleport {
		v.Hist.Reset()
		v.Teleport = teleport
	} else if ok {
		gap := float64(s.Tick-last.Tick) / float64(tickRate)
		if hypot(s.X-last.X, s.Y-last.Y) > TeleportDist+float64(shared.MaxSpeed*1.5*gap) {
			v.Hist.Reset()
		}
	}
	v.Hist.Add(s)
}
