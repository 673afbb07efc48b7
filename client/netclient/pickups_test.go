package netclient

import (
	"testing"

	"tickshot/game"
	"tickshot/net/proto"
	"tickshot/shared"
)

// Pickup prediction against the real rules (game.World as the server, no
// sockets): each client predicts its own commands and takes, the world
// decides in command order, and snapshots carry the pickups through the
// wire's delta (AppendPickupDelta, ApplyPickupDelta).

// pickupSeat is one client's prediction beside the world's player p.
type pickupSeat struct {
	p    *game.Player
	pred *predictor
	pick pickupPredictor
	self proto.SelfState
	base []proto.PickupState // the pickup frame of its newest snapshot (the baseline)
	seq  uint32
}

func newPickupSeat(w *game.World, p *game.Player) *pickupSeat {
	s := &pickupSeat{p: p, pred: newPredictor(w.Phys)}
	s.snapshot(w, 0) // the first snapshot: its state and the pickups, nothing acked
	return s
}

// command predicts command n (walking along mx, my) and returns it.
func (s *pickupSeat) command(w *game.World, n uint32, mx float32) shared.UserCmd {
	cmd := shared.UserCmd{CommandNumber: n, TickCount: w.Tick, Msec: shared.MsecFor(w.TickRate), MoveX: mx}
	s.pred.run(cmd)
	s.pick.touch(s.pred, n, s.pred.state(), s.self)
	return cmd
}

// snapshot sends s the world as it is after command ack: its own state
// and the pickups as a delta against its previous snapshot's frame.
func (s *pickupSeat) snapshot(w *game.World, ack uint32) {
	var frame []proto.PickupState
	for _, pk := range w.Pickups {
		frame = append(frame, proto.PickupState{ID: pk.ID, Kind: uint8(pk.Kind), X: proto.ToFixed(pk.X), Y: proto.ToFixed(pk.Y),
			RespawnTick: pk.RespawnTick, Taker: pk.Taker})
	}
	picks, err := proto.ApplyPickupDelta(nil, s.base, proto.AppendPickupDelta(nil, s.base, frame))
	if err != nil {
		panic(err)
	}
	s.seq++
	snap := &proto.Snapshot{Tick: w.Tick, Seq: s.seq, AckCmd: ack, Pickups: picks,
		Self: proto.MakeSelf(s.p.State, s.p.Health, s.p.Teleport, false, nil)}
	snap.Self.Armour = uint8(s.p.Armour)
	s.self, s.base = snap.Self, picks
	before := s.pred.corrections
	s.pred.reconcile(snap.Self.State(), ack, false, false, true, true)
	s.pick.settle(s.pred, snap, s.p.ID, before)
}

// shown is pickup id as the seat's view draws it.
func (s *pickupSeat) shown(t *testing.T, id uint16) PickupView {
	t.Helper()
	for _, v := range s.pick.view(true) {
		if v.ID == id {
			return v
		}
	}
	t.Fatalf("pickup %d not in view", id)
	return PickupView{}
}

// pickupWorld is the arena with two hurt players a and b either side of
// its first health pickup, each a few units short of reaching it, so
// that their first step forward reaches it in the same tick.
func pickupWorld(t *testing.T) (w *game.World, pk *game.Pickup, a, b *pickupSeat) {
	t.Helper()
	m, err := game.LoadMap("arena")
	if err != nil {
		t.Fatal(err)
	}
	w = game.NewWorld(m, partsTickRate, 1, game.Rules{})
	for i := range w.Pickups {
		if w.Pickups[i].Kind == game.PickupHealth {
			pk = &w.Pickups[i]
			break
		}
	}
	pa, pb := w.AddPlayer("a", false), w.AddPlayer("b", false)
	off := game.PickupReach + 2
	pa.Spawn(game.Point{X: pk.X - off, Y: pk.Y})
	pb.Spawn(game.Point{X: pk.X + off, Y: pk.Y})
	pa.Health, pb.Health = 40, 40
	return w, pk, newPickupSeat(w, pa), newPickupSeat(w, pb)
}

// Two players reach one pickup in the same tick: both predict the take
// (it vanishes on both screens at once); the server gives it to the one
// whose command runs first; the other's take is corrected, once: one
// prediction error, and the pickup stays away (the winner has it).
func TestPickupSameTickPrediction(t *testing.T) {
	for _, aFirst := range []bool{true, false} {
		w, pk, a, b := pickupWorld(t)
		winner, loser := a, b
		if !aFirst {
			winner, loser = b, a
		}
		n := uint32(0)
		for pk.Present() {
			if n++; n > 64 {
				t.Fatal("nobody reached the pickup in 1 s")
			}
			w.NextTick()
			ca, cb := a.command(w, n, 1), b.command(w, n, -1)
			predicted := [2]bool{!a.shown(t, pk.ID).Present, !b.shown(t, pk.ID).Present}
			if predicted[0] != predicted[1] {
				t.Fatalf("command %d: takes predicted %v, want both or neither (a symmetric walk)", n, predicted)
			}
			if aFirst {
				w.RunCommand(a.p, ca, nil)
				w.RunCommand(b.p, cb, nil)
			} else {
				w.RunCommand(b.p, cb, nil)
				w.RunCommand(a.p, ca, nil)
			}
			w.Step()
			if !pk.Present() && !predicted[0] {
				t.Fatalf("command %d: the server gave the pickup away before either client predicted it", n)
			}
			if pk.Present() {
				a.snapshot(w, n)
				b.snapshot(w, n)
			}
		}
		if pk.Taker != winner.p.ID || winner.p.Health != 40+game.HealthAmount || loser.p.Health != 40 {
			t.Fatalf("aFirst %v: taker %d (first %d), health %d and %d", aFirst, pk.Taker, winner.p.ID, winner.p.Health, loser.p.Health)
		}
		for range 3 { // the ack, then two more snapshots: one error, not three
			a.snapshot(w, n)
			b.snapshot(w, n)
		}
		if winner.pred.corrections != 0 || loser.pred.corrections != 1 {
			t.Errorf("aFirst %v: prediction errors: winner %d, loser %d; want 0 and 1", aFirst, winner.pred.corrections, loser.pred.corrections)
		}
		for _, s := range []*pickupSeat{winner, loser} {
			if v := s.shown(t, pk.ID); v.Present || v.Predicted || v.RespawnTick != pk.RespawnTick {
				t.Errorf("aFirst %v: player %d's screen after the ack: %+v, want away until tick %d", aFirst, s.p.ID, v, pk.RespawnTick)
			}
		}
	}
}

// walkToTake predicts commands of s walking along mx until one takes pk;
// it returns the commands, the last the take.
func walkToTake(t *testing.T, w *game.World, s *pickupSeat, pk *game.Pickup, mx float32) []shared.UserCmd {
	t.Helper()
	var cmds []shared.UserCmd
	for n := uint32(1); s.shown(t, pk.ID).Present; n++ {
		if n > 64 {
			t.Fatal("no take predicted in 1 s")
		}
		cmds = append(cmds, s.command(w, n, mx))
	}
	return cmds
}

// A take the server refuses (the server's health was full when the
// command ran, a heal the client had not heard of: it took nothing)
// brings the pickup back on the screen and counts one prediction error.
func TestPickupWrongPredictionComesBack(t *testing.T) {
	w, pk, a, _ := pickupWorld(t)
	cmds := walkToTake(t, w, a, pk, 1)
	a.p.Health = game.MaxHealth
	for _, c := range cmds {
		w.NextTick()
		w.RunCommand(a.p, c, nil)
		w.Step()
	}
	if !pk.Present() {
		t.Fatal("the server took the pickup for a player at full health")
	}
	a.snapshot(w, uint32(len(cmds)))
	if v := a.shown(t, pk.ID); !v.Present || v.Predicted {
		t.Errorf("after the ack: %+v, want it back", v)
	}
	if a.pred.corrections != 1 {
		t.Errorf("prediction errors %d, want 1", a.pred.corrections)
	}
}

// Rockets change the predicted state: a take the server agrees with is no
// prediction error, and the extra magazine survives a replay of the
// commands after an ack that came before the take.
func TestPickupRocketsPredictedExactly(t *testing.T) {
	m, err := game.LoadMap("arena")
	if err != nil {
		t.Fatal(err)
	}
	w := game.NewWorld(m, partsTickRate, 1, game.Rules{})
	var pk *game.Pickup
	for i := range w.Pickups {
		if w.Pickups[i].Kind == game.PickupRockets {
			pk = &w.Pickups[i]
			break
		}
	}
	p := w.AddPlayer("r", false)
	p.Spawn(game.Point{X: pk.X - game.PickupReach - 40, Y: pk.Y})
	s := newPickupSeat(w, p)
	cmds := walkToTake(t, w, s, pk, 1)
	cmds = append(cmds, s.command(w, uint32(len(cmds)+1), 1))
	const rw = 1 // the rocket launcher
	full := 2 * shared.Weapons[rw].MagSize
	if got := s.pred.state().Ammo[rw]; got != full {
		t.Fatalf("predicted rockets %d, want %d", got, full)
	}
	run := func(cs []shared.UserCmd) {
		for _, c := range cs {
			w.NextTick()
			w.RunCommand(p, c, nil)
			w.Step()
		}
	}
	half := len(cmds) - 3 // before the take
	run(cmds[:half])
	p.State.VX++ // a difference the server makes: the client replays from here
	s.snapshot(w, uint32(half))
	if s.pred.corrections != 1 || s.pred.state().Ammo[rw] != full {
		t.Errorf("after the ack of %d: %d prediction errors (want 1), %d rockets predicted (want %d)", half, s.pred.corrections, s.pred.state().Ammo[rw], full)
	}
	run(cmds[half:])
	s.snapshot(w, uint32(len(cmds)))
	if pk.Present() || p.State.Ammo[rw] != full {
		t.Errorf("the server did not take the rockets: present %v, %d rockets", pk.Present(), p.State.Ammo[rw])
	}
	if s.pred.corrections != 1 {
		t.Errorf("after the take's ack: %d prediction errors, want still 1", s.pred.corrections)
	}
}

// The take counter (View.Takes, the window's pickup feedback) grows once
// per predicted take, with its kind: not on the commands before it, not
// on the commands after it that still stand on the pickup, not on the
// snapshots that ack and replay them.
func TestPickupTakeCountedOnce(t *testing.T) {
	w, pk, a, _ := pickupWorld(t)
	cmds := walkToTake(t, w, a, pk, 1)
	if got := a.pick.takes; got.N != 1 || got.Kind != game.PickupHealth {
		t.Fatalf("after the take: %+v, want one health take", got)
	}
	for _, c := range cmds {
		w.NextTick()
		w.RunCommand(a.p, c, nil)
		w.Step()
	}
	n := uint32(len(cmds))
	for i := range 4 { // standing on it, acked and replayed
		w.NextTick()
		n++
		c := a.command(w, n, 0)
		w.RunCommand(a.p, c, nil)
		w.Step()
		a.snapshot(w, n-uint32(i%2))
	}
	if got := a.pick.takes; got.N != 1 {
		t.Errorf("after standing on it and the acks: %d takes counted, want 1", got.N)
	}
}
