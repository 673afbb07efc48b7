package netclient

import (
	"tickshot/game"
	"tickshot/net/proto"
	"tickshot/shared"
)

// pickupPredictor predicts the local player's pickups (issue 21): the
// server decides who takes one (game.Stock, in command order), and the
// client, like Quake 3's cgame (CG_TouchItem hides an item the predicted
// player touches until the server says otherwise), takes it at once on its
// own screen. After each predicted command it looks for a pickup of the
// newest snapshot that the predicted player now reaches and could take
// (game.Touches, game.CanTake with the server's health and armour): it
// hides it, and the part that lives in the predicted state (rockets) is
// applied to the prediction (predictor.applyPickup, replayed with the
// command). When a snapshot acks that command, the take is confirmed when
// the server shows the pickup away with this player as its taker; else
// (another player's command ran first, or the server saw it differently)
// it shows the server's pickup again and counts a prediction error.
type pickupPredictor struct {
	server  []proto.PickupState // the newest snapshot's pickups in view, by ID
	pending []pendingTake       // takes predicted and not yet acked, oldest first
	takes   TakeCount           // the takes predicted so far (View.Takes)
}

// TakeCount counts the local player's predicted pickup takes: the window
// gives its feedback (a sound, a flash) when N grows, once per take, at
// the moment the take is predicted. It is only read: nothing of it feeds
// the simulation or the prediction.
type TakeCount struct {
	N    uint32          // takes predicted since the client started (a replay never counts again)
	Kind game.PickupKind // the newest take's kind
}

// pendingTake is a take of pickup id predicted after command cmd.
type pendingTake struct {
	id   uint16
	cmd  uint32
	kind game.PickupKind
}

// PickupView is a pickup as the window draws it.
type PickupView struct {
	ID   uint16
	Kind game.PickupKind
	X, Y float64 // world units
	// Present: it is there to take. When it is away, RespawnTick is the
	// server tick it comes back (0: unknown, a take only predicted).
	Present     bool
	RespawnTick uint32
	// Predicted: the local player's take is predicted and not yet acked.
	Predicted bool
}

// touch predicts the takes of the command just predicted (number n; st
// the state after it): every present pickup st reaches that the player,
// with self's health and armour, could take.
func (pp *pickupPredictor) touch(pr *predictor, n uint32, st shared.PlayerState, self proto.SelfState) {
	if st.Dead || self.Spectator {
		return
	}
	for _, pk := range pp.server {
		kind := game.PickupKind(pk.Kind)
		if pk.RespawnTick != 0 || pp.isPending(pk.ID) ||
			!game.Touches(st.X, st.Y, proto.FromFixed(pk.X), proto.FromFixed(pk.Y)) ||
			!game.CanTake(kind, int(self.Health), int(self.Armour), st) {
			continue
		}
		pp.pending = append(pp.pending, pendingTake{id: pk.ID, cmd: n, kind: kind})
		pp.takes = TakeCount{N: pp.takes.N + 1, Kind: kind}
		pr.applyPickup(n, kind)
	}
}

func (pp *pickupPredictor) isPending(id uint16) bool {
	for _, t := range pp.pending {
		if t.id == id {
			return true
		}
	}
	return false
}

// resolve takes snapshot s (its pickups in view, AckCmd) for player self
// and settles the predicted takes it acks; it returns how many the server
// disagreed with (the pickup is there, or someone else took it).
func (pp *pickupPredictor) resolve(s *proto.Snapshot, self uint16) (wrong int) {
	pp.server = append(pp.server[:0], s.Pickups...)
	kept := pp.pending[:0]
	for _, t := range pp.pending {
		if t.cmd > s.AckCmd {
			kept = append(kept, t)
			continue
		}
		if pk, ok := pickupByID(s.Pickups, t.id); ok && (pk.RespawnTick == 0 || pk.Taker != self) {
			wrong++
		}
	}
	pp.pending = kept
	return wrong
}

// settle is resolve after the predictor reconciled snapshot s, its
// prediction errors having been before: a take the server disagreed with
// is a prediction error, counted once however many of s's takes were
// wrong, and not again when the state's own comparison already counted s
// (the rockets a wrong take added).
func (pp *pickupPredictor) settle(pr *predictor, s *proto.Snapshot, self uint16, before int) {
	if pp.resolve(s, self) > 0 && pr.corrections == before {
		pr.corrections++
	}
}

// pickupByID finds pickup id in a frame sorted by ID.
func pickupByID(frame []proto.PickupState, id uint16) (proto.PickupState, bool) {
	for _, pk := range frame {
		if pk.ID == id {
			return pk, true
		}
	}
	return proto.PickupState{}, false
}

// reset forgets the pickups and the predicted takes (a level change).
func (pp *pickupPredictor) reset() { pp.server, pp.pending = pp.server[:0], pp.pending[:0] }

// view returns the pickups to draw: the server's, those the local player
// is predicted to have taken away (with predict; else as the server has
// them). A new slice.
func (pp *pickupPredictor) view(predict bool) []PickupView {
	if len(pp.server) == 0 {
		return nil
	}
	out := make([]PickupView, 0, len(pp.server))
	for _, pk := range pp.server {
		v := PickupView{ID: pk.ID, Kind: game.PickupKind(pk.Kind), X: proto.FromFixed(pk.X), Y: proto.FromFixed(pk.Y),
			Present: pk.RespawnTick == 0, RespawnTick: pk.RespawnTick}
		if predict && v.Present && pp.isPending(pk.ID) {
			v.Present, v.Predicted = false, true
		}
		out = append(out, v)
	}
	return out
}
