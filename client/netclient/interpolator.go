package netclient

import (
	"math"
	"sort"

	"tickshot/game"
	"tickshot/net/proto"
)

// Entity is another player as the client knows it.
type Entity struct {
	ID uint16
	game.EntityView
	Health int
	Flags  uint8
	Weapon uint8  // the weapon held (proto.EntityState.Weapon)
	seen   uint32 // tick of the last snapshot that carried it
}

// RenderedEntity is another player at the render time.
type RenderedEntity struct {
	ID           uint16
	X, Y         float64
	Angle        float64
	Alive        bool
	Health       int
	Bot          bool
	Protected    bool // under spawn protection (mp_spawnprotection)
	Extrapolated bool
	Weapon       int  // the weapon held, a shared.Weapons index (the newest snapshot's)
	Powered      bool // double damage (the power-up)
}

// RenderedProjectile is a projectile in flight at the render time.
type RenderedProjectile struct {
	ID     uint16
	Owner  uint16
	Weapon uint8
	X, Y   float64
	Angle  float64
}

type projectileView struct {
	hist   game.History
	weapon uint8
	owner  uint16
	seen   uint32
}

// interpolator keeps the other players' and the projectiles' histories
// from snapshots and places them at a render tick: between the two
// snapshots around it, or extrapolated past the newest for at most
// cl_extrapolate_amount (Bernier 2001, "Display of Targets"; game.History).
// With cl_interpolate 0 each is where the newest snapshot has it. An
// entity or projectile a snapshot no longer carries is forgotten.
type interpolator struct {
	tickRate    int
	entities    map[uint16]*Entity
	projectiles map[uint16]*projectileView
}

// lerpOpts is how the interpolator places things: cl_interpolate, and
// cl_extrapolate_amount in ticks.
type lerpOpts struct {
	interpolate bool
	extrapTicks float64
}

func newInterpolator(tickRate int) *interpolator {
	return &interpolator{tickRate: tickRate, entities: map[uint16]*Entity{}, projectiles: map[uint16]*projectileView{}}
}

// update adds snapshot s's entities and projectiles to their histories.
func (ip *interpolator) update(s *proto.Snapshot) {
	for _, es := range s.Entities {
		e := ip.entities[es.ID]
		if e == nil {
			e = &Entity{ID: es.ID}
			e.Teleport = es.Teleport
			ip.entities[es.ID] = e
		}
		e.seen = s.Tick
		if last, ok := e.Hist.Newest(); ok && es.Tick <= last.Tick {
			continue // a held entity's copy of a state it has had or passed: nothing new (EntityView.Observe)
		}
		e.Observe(es.Sample(es.Tick), es.Teleport, ip.tickRate)
		e.Health = int(es.Health)
		e.Flags = es.Flags
		e.Weapon = es.Weapon
	}
	for id, e := range ip.entities {
		if e.seen != s.Tick {
			delete(ip.entities, id)
		}
	}
	for _, ps := range s.Projectiles {
		v := ip.projectiles[ps.ID]
		if v == nil {
			v = &projectileView{weapon: ps.Weapon, owner: ps.Owner}
			ip.projectiles[ps.ID] = v
		}
		v.hist.Add(game.Sample{Tick: s.Tick, X: proto.FromFixed(ps.X), Y: proto.FromFixed(ps.Y),
			Angle: math.Atan2(float64(ps.VY), float64(ps.VX)), Alive: true})
		v.seen = s.Tick
	}
	for id, v := range ip.projectiles {
		if v.seen != s.Tick {
			delete(ip.projectiles, id)
		}
	}
}

// held returns every entity held, by ID, with its newest sample.
func (ip *interpolator) held() []HeldEntity {
	out := make([]HeldEntity, 0, len(ip.entities))
	for id, e := range ip.entities {
		smp, _ := e.Hist.Newest()
		out = append(out, HeldEntity{ID: id, Newest: smp, Flags: e.Flags})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].ID < out[j].ID })
	return out
}

// rendered returns every other player at render tick rt, sorted by ID.
func (ip *interpolator) rendered(rt float64, o lerpOpts) []RenderedEntity {
	out := make([]RenderedEntity, 0, len(ip.entities))
	for _, e := range ip.entities {
		if r, ok := ip.one(e, rt, o); ok {
			out = append(out, r)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].ID < out[j].ID })
	return out
}

// entity returns player id at render tick rt (no allocation: the
// spectator camera asks several times a frame).
func (ip *interpolator) entity(id uint16, rt float64, o lerpOpts) (RenderedEntity, bool) {
	e := ip.entities[id]
	if id == 0 || e == nil {
		return RenderedEntity{}, false
	}
	return ip.one(e, rt, o)
}

// one is entity e at render tick rt: false when its history has no
// sample for rt.
func (ip *interpolator) one(e *Entity, rt float64, o lerpOpts) (RenderedEntity, bool) {
	var smp game.Sample
	var extra, ok bool
	if o.interpolate {
		smp, extra, ok = e.Hist.At(rt, o.extrapTicks)
	} else {
		smp, ok = e.Hist.Newest()
	}
	if !ok {
		return RenderedEntity{}, false
	}
	return RenderedEntity{ID: e.ID, X: smp.X, Y: smp.Y, Angle: smp.Angle, Alive: smp.Alive,
		Health: e.Health, Bot: e.Flags&proto.FlagBot != 0, Protected: e.Flags&proto.FlagProtected != 0, Extrapolated: extra,
		Weapon: int(e.Weapon), Powered: e.Flags&proto.FlagPowered != 0}, true
}

// projectilesAt returns the projectiles at render tick rt, sorted by ID
// (always interpolated: a projectile's path is known).
func (ip *interpolator) projectilesAt(rt float64, o lerpOpts) []RenderedProjectile {
	out := make([]RenderedProjectile, 0, len(ip.projectiles))
	for id, v := range ip.projectiles {
		if smp, _, ok := v.hist.At(rt, o.extrapTicks); ok {
			out = append(out, RenderedProjectile{ID: id, Owner: v.owner, Weapon: v.weapon, X: smp.X, Y: smp.Y, Angle: smp.Angle})
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].ID < out[j].ID })
	return out
}
