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
	switch takes(last, ok, v.Teleport, s, teleport, tickRate) {
	case ignore:
		return
	case restart:
		v.Hist.Reset()
		v.Teleport = teleport
	}
	v.Hist.Add(s)
}

// take is how a view takes a snapshot's sample (takes).
type take uint8

const (
	add     take = iota // appended to the history
	ignore              // dropped whole, teleport counter included
	restart             // the history restarts with it (respawn or jump)
)

// takes is Observe's rule, the one both EntityView and ViewTail follow: how
// a view whose newest sample is last (ok: it has one) and whose teleport
// counter is cur takes sample s with counter teleport. A sample no newer
// than last is ignored; a changed counter, or a jump beyond TeleportDist
// plus 1.5 × MaxSpeed over the ticks between them (tickRate ticks/s),
// restarts the history; else the sample is added.
func takes(last Sample, ok bool, cur uint8, s Sample, teleport uint8, tickRate int) take {
	switch {
	case ok && s.Tick <= last.Tick:
		return ignore
	case teleport != cur:
		return restart
	case ok:
		gap := float64(s.Tick-last.Tick) / float64(tickRate)
		if hypot(s.X-last.X, s.Y-last.Y) > TeleportDist+float64(shared.MaxSpeed*1.5*gap) {
			return restart
		}
	}
	return add
}

// ViewTail is the tail of an EntityView: its two newest samples and its
// teleport counter. Observe's decisions read nothing else, and nor does
// History.At at a render tick no older than the newest sample, so a tail
// stands in for the whole view there: the server keeps one per player for
// the part of a client's view that left its sent ring (clientView.past) at
// 88 bytes, not a History's 1.3 kB.
type ViewTail struct {
	S        [2]Sample // the newest samples, older first; N of them held
	N        uint8
	Teleport uint8
}

// Observe takes sample s with teleport counter teleport (tickRate ticks/s)
// exactly as EntityView.Observe does, keeping the two newest samples.
func (t *ViewTail) Observe(s Sample, teleport uint8, tickRate int) {
	last, ok := t.S[1], t.N > 0
	if t.N == 1 {
		last = t.S[0]
	}
	switch takes(last, ok, t.Teleport, s, teleport, tickRate) {
	case ignore:
		return
	case restart:
		t.N, t.Teleport = 0, teleport
	}
	switch t.N {
	case 0, 1:
		t.S[t.N] = s
		t.N++
	default:
		t.S[0], t.S[1] = t.S[1], s
	}
}

// Restore makes v the view t is the tail of, as far as t holds it: the
// same teleport counter and newest samples.
func (v *EntityView) Restore(t *ViewTail) {
	v.Hist.Reset()
	v.Teleport = t.Teleport
	for i := range int(t.N) {
		v.Hist.Add(t.S[i])
	}
}
