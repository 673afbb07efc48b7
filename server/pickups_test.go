package server

import (
	"testing"
	"time"

	"tickshot/game"
	"tickshot/net/proto"
	"tickshot/shared"
)

// Pickups in snapshots (docs/PROTOCOL.md §5.15): only those in the
// client's view travel (interest management, as players), as a delta
// against the acknowledged baseline: a take costs one small record, an
// unchanged frame nothing; Self carries armour and double damage.
func TestSnapshotPickups(t *testing.T) {
	w, sw, _ := swWorld(t)
	me := w.AddPlayer("me", false)
	var west, east *game.Pickup
	for i := range w.Pickups {
		pk := &w.Pickups[i]
		if pk.Kind == game.PickupHealth && (west == nil || pk.X < west.X) {
			west = pk
		}
		if pk.Kind == game.PickupHealth && (east == nil || pk.X > east.X) {
			east = pk
		}
	}
	me.Spawn(game.Point{X: west.X + 100, Y: west.Y})
	view := game.ViewRect(w.Map, me.State.X, me.State.Y)
	if !view.Contains(west.X, west.Y) || view.Contains(east.X, east.Y) {
		t.Fatalf("test setup: view %+v", view)
	}
	ss := testSession(me, 0)
	sessions := []*session{ss}
	now := time.Unix(100, 0)
	decode := func(b []byte, base []proto.PickupState) (*proto.Snapshot, []proto.PickupState) {
		t.Helper()
		m, err := proto.Decode(b)
		if err != nil {
			t.Fatal(err)
		}
		s := m.(*proto.Snapshot)
		picks, err := proto.ApplyPickupDelta(nil, base, s.PickupDelta)
		if err != nil {
			t.Fatal(err)
		}
		return s, picks
	}
	find := func(picks []proto.PickupState, id uint16) (proto.PickupState, bool) {
		for _, pk := range picks {
			if pk.ID == id {
				return pk, true
			}
		}
		return proto.PickupState{}, false
	}

	w.Tick++
	sw.buildFrame()
	first, picks := decode(sw.write(ss, sessions, now), nil)
	if pk, ok := find(picks, west.ID); !ok || pk.Kind != uint8(game.PickupHealth) || pk.RespawnTick != 0 ||
		pk.X != proto.ToFixed(west.X) || pk.Y != proto.ToFixed(west.Y) {
		t.Errorf("the health in view: %+v (on the wire %v)", pk, ok)
	}
	if _, ok := find(picks, east.ID); ok {
		t.Error("the health outside the view is on the wire")
	}
	ss.acks.ack(first.Seq, 0, now)

	// Nothing changed: no pickup bytes against the acked baseline.
	w.Tick++
	sw.buildFrame()
	second, same := decode(sw.write(ss, sessions, now), picks)
	if second.Baseline != first.Seq || len(second.PickupDelta) != 0 || len(same) != len(picks) {
		t.Errorf("unchanged: baseline %d, %d pickup bytes, %d pickups; want %d, 0, %d", second.Baseline, len(second.PickupDelta), len(same), first.Seq, len(picks))
	}

	// The client walks over the health, hurt, with armour and double damage.
	me.Health = 50
	me.State.X = west.X
	w.Tick++
	w.RunCommand(me, shared.UserCmd{CommandNumber: 1, TickCount: w.Tick, Msec: shared.MsecFor(w.TickRate)}, nil)
	me.Armour = 30
	me.PowerUntil = w.Tick + 200
	sw.buildFrame()
	third, after := decode(sw.write(ss, sessions, now), picks)
	pk, ok := find(after, west.ID)
	if !ok || pk.RespawnTick != west.RespawnTick || pk.Taker != me.ID || west.RespawnTick == 0 {
		t.Errorf("after the take: %+v, want away until %d, taken by %d", pk, west.RespawnTick, me.ID)
	}
	if len(third.PickupDelta) > 8 {
		t.Errorf("a take costs %d pickup bytes, want a small record", len(third.PickupDelta))
	}
	if third.Self.Health != 75 || third.Self.Armour != 30 || third.Self.PowerTicks != 200 {
		t.Errorf("self: health %d armour %d power %d ticks, want 75, 30, 200", third.Self.Health, third.Self.Armour, third.Self.PowerTicks)
	}
}
