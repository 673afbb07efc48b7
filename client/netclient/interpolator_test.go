package netclient

import (
	"math"
	"testing"

	"tickshot/net/proto"
)

// The interpolator alone: snapshots' entity frames in, positions at a
// render tick out.

// entSnap is the snapshot of tick with ents, every one fresh (Tick tick).
func entSnap(tick uint32, ents ...proto.EntityState) *proto.Snapshot {
	for i := range ents {
		ents[i].Tick = tick
	}
	return &proto.Snapshot{Tick: tick, Entities: ents}
}

func entAt(id uint16, x float64, flags uint8) proto.EntityState {
	return proto.EntityState{ID: id, X: proto.ToFixed(x), Y: proto.ToFixed(50), Health: 100, Flags: flags | proto.FlagAlive}
}

func TestInterpolatorLerpsBetweenSnapshots(t *testing.T) {
	ip := newInterpolator(partsTickRate)
	ip.update(entSnap(10, entAt(7, 100, 0), entAt(3, 0, proto.FlagBot)))
	ip.update(entSnap(12, entAt(7, 140, 0), entAt(3, 0, proto.FlagBot)))
	on := lerpOpts{interpolate: true, extrapTicks: 16}
	got := ip.rendered(11, on)
	if len(got) != 2 || got[0].ID != 3 || got[1].ID != 7 {
		t.Fatalf("rendered %+v, want players 3 and 7 in ID order", got)
	}
	if e := got[1]; math.Abs(e.X-120) > 1e-9 || e.Extrapolated || !e.Alive || e.Health != 100 {
		t.Errorf("player 7 at tick 11: %+v, want X 120 halfway, not extrapolated, alive", e)
	}
	if !got[0].Bot {
		t.Error("player 3's bot flag lost")
	}
	// Past the newest snapshot: extrapolated, up to extrapTicks.
	if e, ok := ip.entity(7, 13, on); !ok || !e.Extrapolated || math.Abs(e.X-160) > 1e-9 {
		t.Errorf("player 7 at tick 13: %+v, %v; want X 160 extrapolated", e, ok)
	}
	// cl_interpolate 0: where the newest snapshot has it.
	if e, _ := ip.entity(7, 11, lerpOpts{}); e.X != 140 {
		t.Errorf("cl_interpolate 0: X %v, want the newest snapshot's 140", e.X)
	}
	if _, ok := ip.entity(0, 11, on); ok {
		t.Error("entity 0 (none) rendered")
	}
}

func TestInterpolatorForgetsWhatASnapshotNoLongerCarries(t *testing.T) {
	ip := newInterpolator(partsTickRate)
	ip.update(&proto.Snapshot{Tick: 10, Entities: entSnap(10, entAt(7, 100, 0)).Entities,
		Projectiles: []proto.ProjectileState{{ID: 1, Owner: 7, Weapon: 2, X: proto.ToFixed(10), Y: proto.ToFixed(10), VX: 1}}})
	ip.update(&proto.Snapshot{Tick: 11, Entities: entSnap(11, entAt(7, 100, 0)).Entities,
		Projectiles: []proto.ProjectileState{{ID: 1, Owner: 7, Weapon: 2, X: proto.ToFixed(20), Y: proto.ToFixed(10), VX: 1}}})
	on := lerpOpts{interpolate: true, extrapTicks: 16}
	if p := ip.projectilesAt(10.5, on); len(p) != 1 || math.Abs(p[0].X-15) > 1e-9 || p[0].Owner != 7 || p[0].Weapon != 2 {
		t.Errorf("projectiles at 10.5: %+v, want one at X 15 of player 7, weapon 2", p)
	}
	ip.update(entSnap(12))
	if len(ip.rendered(12, on)) != 0 || len(ip.projectilesAt(12, on)) != 0 {
		t.Error("a player or projectile the newest snapshot does not carry is still drawn")
	}
}
