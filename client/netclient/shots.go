package netclient

import "tickshot/shared"

// ShotView is what the client drew when it fired: every other player at the
// command's render tick (for sv_showimpacts and the hit-registration benchmark).
type ShotView struct {
	Cmd        uint32
	RenderTick float64
	// AckTick is the tick of the newest snapshot when the command was made
	// (the one its message acknowledges): the server's second estimate of
	// the render time is AckTick less the lerp (server.CrossCheckMs).
	AckTick uint32
	Others  []RenderedEntity
}

// AckLeadMs returns how far, ms, the shot's claimed render time led the
// server's ack estimate (AckTick less lerpTicks, the lerp in ticks) at
// tickRate: about 0 for a client whose clock follows the server's ticks.
func (v ShotView) AckLeadMs(lerpTicks float64, tickRate int) float64 {
	return (v.RenderTick - (float64(v.AckTick) - lerpTicks)) * 1000 / float64(tickRate)
}

// shotRing is how many shots' ShotViews Shots keeps.
const shotRing = 16

// Shots is what the client's own commands did as it predicted them
// (Client.Shots): the ShotView of each of the last 16 commands that fired,
// by command number, and the results of commands predicted for the first
// time (shots and reloads, for sounds, muzzle flashes and tracers, which
// play once). The command path fills it (with cl_predict 0 no effects are
// queued: the server's events tell instead); it is tested alone
// (shots_test.go).
type Shots struct {
	views   [shotRing]ShotView // by Cmd % shotRing
	effects []shared.Result    // taken by TakeEffects
}

// Of returns what the client drew when it fired command cmd, if it is
// among the last 16 shots' commands.
func (s *Shots) Of(cmd uint32) (ShotView, bool) {
	v := s.views[cmd%shotRing]
	return v, v.Cmd == cmd && cmd != 0
}

// TakeEffects returns the results of commands predicted for the first time
// since the last call, oldest first.
func (s *Shots) TakeEffects() []shared.Result {
	e := s.effects
	s.effects = nil
	return e
}

// record keeps v as the view of its command, over the one 16 shots older.
func (s *Shots) record(v ShotView) { s.views[v.Cmd%shotRing] = v }

// effect queues a predicted command's result.
func (s *Shots) effect(r shared.Result) { s.effects = append(s.effects, r) }
