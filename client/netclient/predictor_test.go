package netclient

import (
	"math"
	"testing"
	"time"

	"tickshot/game"
	"tickshot/shared"
)

// The predictor alone: commands in, acks and server states in, no server.

const partsTickRate = 64

func arenaWorld(t *testing.T) (*game.Map, *shared.World) {
	t.Helper()
	m, err := game.LoadMap("arena")
	if err != nil {
		t.Fatal(err)
	}
	return m, m.World(partsTickRate)
}

// alivePredictor is a predictor whose player stands alive at a spawn point
// of arena, as after a first snapshot with no commands made.
func alivePredictor(t *testing.T) (*predictor, shared.PlayerState) {
	t.Helper()
	m, w := arenaWorld(t)
	p := newPredictor(w)
	start := shared.NewPlayerState(m.Spawns[0].X, m.Spawns[0].Y)
	p.reconcile(start, 0, false, false, true, true)
	return p, start
}

func moveCmd(n uint32, mx float32) shared.UserCmd {
	return shared.UserCmd{CommandNumber: n, Msec: shared.MsecFor(partsTickRate), MoveX: mx}
}

// runAll replays cmds from st as the server would.
func runAll(st shared.PlayerState, w *shared.World, cmds ...shared.UserCmd) shared.PlayerState {
	for _, c := range cmds {
		st, _ = shared.RunCommand(st, c, w)
	}
	return st
}

func TestPredictorRunsAndKeepsCommands(t *testing.T) {
	p, start := alivePredictor(t)
	if p.nextNumber() != 1 {
		t.Fatalf("nextNumber %d before any command, want 1", p.nextNumber())
	}
	var cmds []shared.UserCmd
	for n := uint32(1); n <= 5; n++ {
		c := moveCmd(n, 1)
		cmds = append(cmds, c)
		p.run(c)
	}
	if want := runAll(start, p.world, cmds...); !p.state().Equal(want) {
		t.Errorf("predicted %+v, want %+v (shared.RunCommand of every command)", p.state(), want)
	}
	if s, ok := p.stateOf(3); !ok || !s.Equal(runAll(start, p.world, cmds[:3]...)) {
		t.Errorf("stateOf(3) = %+v, %v: not the state after command 3", s, ok)
	}
	if last, ok := p.last(); !ok || last.CommandNumber != 5 {
		t.Errorf("last = %d, %v; want command 5", last.CommandNumber, ok)
	}
	if p.cmd(4).CommandNumber != 4 {
		t.Errorf("cmd(4) is command %d", p.cmd(4).CommandNumber)
	}
}

func TestPredictorMatchingAckIsNoCorrection(t *testing.T) {
	p, _ := alivePredictor(t)
	for n := uint32(1); n <= 4; n++ {
		p.run(moveCmd(n, 1))
	}
	auth, _ := p.stateOf(2)
	before := p.state()
	p.reconcile(auth, 2, false, false, true, true)
	if p.corrections != 0 || p.lifeResets != 0 {
		t.Errorf("corrections %d, life resets %d after a matching ack; want 0", p.corrections, p.lifeResets)
	}
	if !p.state().Equal(before) || p.ackCmd != 2 {
		t.Errorf("state changed or ack %d (want 2) after a matching ack", p.ackCmd)
	}
	if x, y := p.offset(); x != 0 || y != 0 {
		t.Errorf("smoothing offset (%v, %v) after a matching ack", x, y)
	}
}

func TestPredictorReplaysFromServerStateAndSmooths(t *testing.T) {
	p, _ := alivePredictor(t)
	var cmds []shared.UserCmd
	for n := uint32(1); n <= 6; n++ {
		c := moveCmd(n, 1)
		cmds = append(cmds, c)
		p.run(c)
	}
	oldX, oldY := p.state().X, p.state().Y
	auth, _ := p.stateOf(2)
	auth.Y += 10 // the server put the player 10 units lower after command 2
	auth = auth.Quantized()
	p.reconcile(auth, 2, false, false, true, true)
	if p.corrections != 1 || math.Abs(p.lastErrorDist-10) > 1e-9 {
		t.Errorf("corrections %d, last error %v; want 1, 10", p.corrections, p.lastErrorDist)
	}
	want := runAll(auth, p.world, cmds[2:]...)
	if !p.state().Equal(want) {
		t.Errorf("after reconcile %+v, want commands 3..6 replayed from the server's state %+v", p.state(), want)
	}
	if s, _ := p.stateOf(2); !s.Equal(auth) {
		t.Errorf("command 2's state %+v, want the server's %+v", s, auth)
	}
	ex, ey := p.offset()
	if math.Abs(p.state().X+ex-oldX) > 1e-9 || math.Abs(p.state().Y+ey-oldY) > 1e-9 {
		t.Errorf("drawn position (%v, %v) jumped from (%v, %v): the offset must hide the correction",
			p.state().X+ex, p.state().Y+ey, oldX, oldY)
	}
	// cl_smoothtime: the offset shrinks to e^-3 of itself in smoothMs.
	p.decay(100*time.Millisecond, true, 100)
	if dx, _ := p.offset(); math.Abs(dx-ex*math.Exp(-3)) > 1e-9 {
		t.Errorf("offset %v after cl_smoothtime, want %v", dx, ex*math.Exp(-3))
	}
	p.decay(time.Millisecond, false, 100)
	if dx, dy := p.offset(); dx != 0 || dy != 0 {
		t.Errorf("offset (%v, %v) with cl_smooth 0, want none", dx, dy)
	}
}

func TestPredictorLifeChangeIsNotAnError(t *testing.T) {
	p, _ := alivePredictor(t)
	for n := uint32(1); n <= 3; n++ {
		p.run(moveCmd(n, 1))
	}
	dead, _ := p.stateOf(3)
	dead.Dead = true
	p.reconcile(dead, 3, true, false, true, true)
	if p.corrections != 0 || p.lifeResets != 1 {
		t.Errorf("corrections %d, life resets %d after a death; want 0, 1", p.corrections, p.lifeResets)
	}
	if x, y := p.offset(); x != 0 || y != 0 {
		t.Errorf("a dead player's drawn position is offset by (%v, %v)", x, y)
	}
}

func TestPredictorSpectatorTakesServerState(t *testing.T) {
	p, _ := alivePredictor(t)
	for n := uint32(1); n <= 3; n++ {
		p.run(moveCmd(n, 1))
	}
	cam := shared.NewPlayerState(100, 100)
	p.reconcile(cam, 1, false, true, true, true)
	for n := uint32(1); n <= 3; n++ {
		if s, _ := p.stateOf(n); !s.Equal(cam) {
			t.Errorf("spectator: command %d's state %+v, want the server's", n, s)
		}
	}
	if p.corrections != 0 || !p.state().Equal(cam) {
		t.Errorf("spectator: %d corrections, state %+v; want 0 and the server's", p.corrections, p.state())
	}
}

func TestPredictorRingForgetsOldCommands(t *testing.T) {
	p, start := alivePredictor(t)
	var cmds []shared.UserCmd
	for n := uint32(1); n <= ringSize+10; n++ {
		c := moveCmd(n, float32(n%3)-1)
		cmds = append(cmds, c)
		p.run(c)
	}
	if _, ok := p.stateOf(5); ok {
		t.Error("command 5 still held after ringSize+10 commands")
	}
	if !p.held(ringSize+10) || p.held(10) {
		t.Errorf("held(newest) %v, held(10) %v; want true, false", p.held(ringSize+10), p.held(10))
	}
	// An ack older than the ring replays every held command from the
	// server's state, counting nothing (there is nothing to compare).
	p.reconcile(start, 5, false, false, false, true)
	if p.corrections != 0 {
		t.Errorf("%d corrections for an ack the ring no longer holds", p.corrections)
	}
	if want := runAll(start, p.world, cmds[10:]...); !p.state().Equal(want) {
		t.Errorf("state %+v, want the held commands replayed from the server's %+v", p.state(), want)
	}
	if got := p.pending(); len(got) != ringSize || got[0].Cmd.CommandNumber != 11 {
		t.Errorf("pending holds %d commands from %d; want %d from 11", len(got), got[0].Cmd.CommandNumber, ringSize)
	}
}

// Without reconciliation (the lag lab's switch, replay false) a
// mispredicted snapshot's state becomes the prediction as it is: the
// commands the server has not run yet are not replayed on it, and the
// next command runs from it (Gambetta's demo without reconciliation).
func TestPredictorWithoutReconciliationTakesTheServerState(t *testing.T) {
	p, _ := alivePredictor(t)
	for n := uint32(1); n <= 6; n++ {
		p.run(moveCmd(n, 1))
	}
	auth, _ := p.stateOf(2)
	auth.Y += 10
	auth = auth.Quantized()
	p.reconcile(auth, 2, false, false, false, false)
	if !p.state().Equal(auth) || p.corrections != 1 {
		t.Errorf("after reconcile without replay: %+v (corrections %d), want the server's %+v and 1", p.state(), p.corrections, auth)
	}
	c := moveCmd(7, 1)
	p.run(c)
	if want := runAll(auth, p.world, c); !p.state().Equal(want) {
		t.Errorf("command 7 predicted %+v, want it run from the server's state: %+v", p.state(), want)
	}
}
