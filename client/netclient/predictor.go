package netclient

import (
	"math"
	"time"

	"tickshot/game"
	"tickshot/shared"
)

// ringSize is how many usercmds the predictor keeps with their predicted
// states (4 s at 64 ticks/s): an ack older than that replays from the
// server's state without comparing.
const ringSize = 256

type predEntry struct {
	cmd   shared.UserCmd
	state shared.PlayerState // predicted state after cmd
	// pickup is a pickup predicted taken after cmd whose effect is in the
	// state (game.ApplyState: rockets), replayed with cmd; 0 none.
	pickup game.PickupKind
}

// predictor is client-side prediction and reconciliation of the local
// player (Bernier 2001, "Client Side Prediction"; Quake 3's
// CG_PredictPlayerState): each usercmd runs at once through
// shared.RunCommand against the map's walls and is kept in a ring with the
// state it predicted. When a snapshot acks a command, the server's state
// is compared with that prediction; on a difference the unacked commands
// are replayed from the server's state, and the drawn position hides the
// jump by an offset that decays (cl_smooth, cl_smoothtime). It knows
// nothing of the connection: Client hands it commands and acks.
type predictor struct {
	world     *shared.World
	cmdNum    uint32 // newest command made
	ackCmd    uint32 // newest command the server ran
	ring      [ringSize]predEntry
	predicted shared.PlayerState // after the newest command
	errX      float64            // drawn offset from the prediction, world units (cl_smooth)
	errY      float64

	corrections   int     // prediction errors (Stats.Corrections)
	lifeResets    int     // deaths and respawns the server decided (Stats.LifeResets)
	lastErrorDist float64 // world units of the last correction
}

// newPredictor predicts against world; the player counts as dead until
// the first snapshot.
func newPredictor(world *shared.World) *predictor {
	p := &predictor{world: world}
	p.predicted.Dead = true
	return p
}

// setWorld predicts against another map's walls from the next command on
// (a level change).
func (p *predictor) setWorld(w *shared.World) { p.world = w }

// nextNumber returns the CommandNumber of the next command.
func (p *predictor) nextNumber() uint32 { return p.cmdNum + 1 }

// run predicts cmd (the next command, or a recorded one that takes its
// number) from the newest prediction and stores it with its result.
func (p *predictor) run(cmd shared.UserCmd) shared.Result {
	p.cmdNum = cmd.CommandNumber
	var res shared.Result
	p.predicted, res = shared.RunCommand(p.predicted, cmd, p.world)
	p.ring[p.cmdNum%ringSize] = predEntry{cmd: cmd, state: p.predicted}
	return res
}

// applyPickup applies the part of a pickup of kind taken after command n
// (the newest) that lives in the predicted state, and keeps it with n for
// replays (pickupPredictor.touch).
func (p *predictor) applyPickup(n uint32, kind game.PickupKind) {
	e := &p.ring[n%ringSize]
	if e.cmd.CommandNumber != n || n != p.cmdNum {
		return
	}
	game.ApplyState(kind, &p.predicted)
	e.state = p.predicted
	if e.pickup == 0 || kind == game.PickupRockets {
		e.pickup = kind
	}
}

// state returns the state predicted after the newest command.
func (p *predictor) state() shared.PlayerState { return p.predicted }

// offset returns the decaying smoothing offset, world units.
func (p *predictor) offset() (float64, float64) { return p.errX, p.errY }

// local returns the local player's state after the newest command and
// where to draw it, world units: the state plus the decaying correction
// offset (cl_smooth). With cl_predict 0 (predict false) it is the newest
// server state auth, drawn where it is.
func (p *predictor) local(predict bool, auth shared.PlayerState) (s shared.PlayerState, x, y float64) {
	if !predict {
		return auth, auth.X, auth.Y
	}
	return p.predicted, p.predicted.X + p.errX, p.predicted.Y + p.errY
}

// decay shrinks the smoothing offset over dt of real time: to 5 % in
// smoothMs (e^-3); with smoothing off it is zero.
func (p *predictor) decay(dt time.Duration, smooth bool, smoothMs int) {
	if smooth && smoothMs > 0 {
		k := math.Exp(-dt.Seconds() * 1000 / float64(smoothMs) * 3)
		p.errX, p.errY = p.errX*k, p.errY*k
	} else {
		p.errX, p.errY = 0, 0
	}
}

// held reports whether command n is still in the ring.
func (p *predictor) held(n uint32) bool { return n > 0 && p.cmdNum-n < ringSize }

// oldest returns the oldest command number at or after from still held (at least 1).
func (p *predictor) oldest(from uint32) uint32 {
	from = max(from, 1)
	if p.cmdNum >= ringSize {
		from = max(from, p.cmdNum-ringSize+1)
	}
	return from
}

// cmd returns command n as made (n must be held).
func (p *predictor) cmd(n uint32) shared.UserCmd { return p.ring[n%ringSize].cmd }

// stateOf returns the state predicted for command n, if still held.
func (p *predictor) stateOf(n uint32) (shared.PlayerState, bool) {
	e := p.ring[n%ringSize]
	return e.state, e.cmd.CommandNumber == n && n != 0
}

// last returns the newest command made or replayed.
func (p *predictor) last() (shared.UserCmd, bool) {
	e := p.ring[p.cmdNum%ringSize]
	return e.cmd, p.cmdNum != 0 && e.cmd.CommandNumber == p.cmdNum
}

// reconcile takes the server's state auth after command ack. A spectator
// has no body: every held command's result becomes auth and nothing is an
// error. Otherwise, when auth differs from what was predicted for ack, it
// counts a prediction error (or, when lifeChanged, a death or respawn: the
// server's decision, which no prediction foresees), rebases on auth and
// replays the commands after ack (with replay false it takes auth as the
// prediction and replays nothing: the lag lab's reconciliation switch). With
// smooth, a jump under 64 world units of a living player is hidden by the
// drawn offset.
func (p *predictor) reconcile(auth shared.PlayerState, ack uint32, lifeChanged, spectator, smooth, replay bool) {
	ack = min(ack, p.cmdNum) // cannot ack what was never made; treat as newest
	p.ackCmd = ack
	if spectator {
		for n := p.oldest(ack); n <= p.cmdNum; n++ {
			p.ring[n%ringSize].state = auth
		}
		p.predicted, p.errX, p.errY = auth, 0, 0
		return
	}
	oldX, oldY := p.predicted.X, p.predicted.Y
	held := p.held(ack)
	switch {
	case held && p.ring[ack%ringSize].state.Equal(auth):
		return
	case ack == 0 && p.cmdNum == 0 && p.predicted.Equal(auth):
		return
	}
	if held {
		pred := p.ring[ack%ringSize].state
		if lifeChanged {
			p.lifeResets++
		} else {
			p.corrections++
			p.lastErrorDist = math.Hypot(pred.X-auth.X, pred.Y-auth.Y)
		}
		p.ring[ack%ringSize].state = auth
	}
	// Rebase and replay.
	st := auth
	for n := p.oldest(ack + 1); replay && n <= p.cmdNum; n++ {
		e := &p.ring[n%ringSize]
		st, _ = shared.RunCommand(st, e.cmd, p.world)
		if e.pickup != 0 {
			game.ApplyState(e.pickup, &st)
		}
		e.state = st
	}
	p.predicted = st
	// Hide the jump: the drawn position keeps where it was and decays to the truth.
	if jump := math.Hypot(st.X-oldX, st.Y-oldY); smooth && jump < 64 && !auth.Dead {
		p.errX += oldX - st.X
		p.errY += oldY - st.Y
	} else {
		p.errX, p.errY = 0, 0
	}
}

// pending returns the commands from the acked one (or the oldest held)
// to the newest with their predictions (a mid-game demo's DemoState).
func (p *predictor) pending() []DemoCmd {
	var out []DemoCmd
	for n := p.oldest(p.ackCmd); n <= p.cmdNum; n++ {
		e := p.ring[n%ringSize]
		out = append(out, DemoCmd{Cmd: e.cmd, State: e.state})
	}
	return out
}

// seed restores what pending and the counters recorded (demo playback).
func (p *predictor) seed(cmdNum, ackCmd uint32, predicted shared.PlayerState, pending []DemoCmd) {
	p.cmdNum, p.ackCmd, p.predicted = cmdNum, ackCmd, predicted
	for _, e := range pending {
		p.ring[e.Cmd.CommandNumber%ringSize] = predEntry{cmd: e.Cmd, state: e.State}
	}
}
