package game

import (
	"math"

	"tickshot/shared"
)

// ProjectileLifetimeMs is how long a projectile flies before it explodes, ms.
const ProjectileLifetimeMs = 3000

// explodeSkin is how far in front of a wall, in world units, a projectile
// that strikes it explodes. A blast exactly on the wall's surface would have
// no line of sight to anyone (a segment query that starts on a shape hits it
// at once), so its splash would hurt no one.
const explodeSkin = 1.0

// rocketPad is how much wider than a hitbox a projectile's hit test on a
// player is, world units.
const rocketPad = 4

// Projectile is a rocket in flight, simulated by the server only, tick by
// tick, against the walls and the players' present hitboxes: projectiles are
// not lag compensated (Bernier 2001, footnote 9), so the shooter leads the
// target by its own latency, as in Half-Life.
type Projectile struct {
	ID     uint16
	Owner  uint16
	Weapon uint8
	X, Y   float64 // world units
	VX, VY float64 // world units/s
	Dies   uint32  // tick at which it explodes in the air
}

// Flight owns the projectiles in flight and their IDs. It launches, moves
// and explodes them; the world it is handed gives the walls, the players,
// the clock and the damage rules, and receives the events. A match start
// clears it (a rocket does not outlive its match).
type Flight struct {
	// Projectiles are in launch order (the snapshot lists them so).
	Projectiles []*Projectile

	lastProjID uint16 // the newest projectile's ID; wraps, skipping 0
}

// launchID returns the next projectile ID: 1, 2, ... 65535, then 1 again.
func (f *Flight) launchID() uint16 {
	f.lastProjID++
	if f.lastProjID == 0 {
		f.lastProjID = 1
	}
	return f.lastProjID
}

// clear drops every projectile in flight (a new match); IDs go on.
func (f *Flight) clear() { f.Projectiles = f.Projectiles[:0] }

// launch fires p's projectile weapon: shot is where and how it left the
// muzzle. The projectile starts just in front of the body and is announced
// with EvShot; fired point-blank into a wall it explodes at the muzzle.
func (f *Flight) launch(w *World, p *Player, shot shared.Shot) {
	def := &shared.Weapons[shot.Weapon]
	off := shared.PlayerRadius + 6
	pr := &Projectile{ID: f.launchID(), Owner: p.ID, Weapon: shot.Weapon,
		X: shot.X + float64(shot.DirX*off), Y: shot.Y + float64(shot.DirY*off),
		VX: shot.DirX * def.Speed, VY: shot.DirY * def.Speed,
		Dies: w.Tick + uint32(shared.Ticks(ProjectileLifetimeMs, w.TickRate))}
	// Fired point-blank into a wall: explode at the muzzle.
	if frac := w.Map.RayWalls(shot.X, shot.Y, pr.X, pr.Y); frac < 1 {
		back := math.Max(float64(frac*off)-explodeSkin, 0)
		f.explode(w, pr, shot.X+float64(shot.DirX*back), shot.Y+float64(shot.DirY*back), 0)
		return
	}
	f.Projectiles = append(f.Projectiles, pr)
	w.emit(Event{Kind: EvShot, A: p.ID, Value: int(shot.Weapon), X: shot.X, Y: shot.Y, X2: shot.X, Y2: shot.Y})
}

// step advances every projectile by one tick and explodes those that hit a
// wall or a player, or whose time is up. Projectiles are tested against the
// players' present positions (not lag compensated), with a radius 4 units
// wider than the hitbox (rocketPad). The players it may strike and those
// its blast may reach come from the world's grid (Near.index, once a
// step: nobody moves while rockets fly), in Players order as a loop over
// everyone would take them.
func (f *Flight) step(w *World) {
	if len(f.Projectiles) == 0 {
		return
	}
	w.Near.index()
	dt := w.Phys.Dt()
	kept := f.Projectiles[:0]
	for _, pr := range f.Projectiles {
		owner := w.Player(pr.Owner)
		nx, ny := pr.X+float64(pr.VX*dt), pr.Y+float64(pr.VY*dt)
		frac := w.Map.RayWalls(pr.X, pr.Y, nx, ny)
		length := hypot(nx-pr.X, ny-pr.Y)
		dx, dy := (nx-pr.X)/length, (ny-pr.Y)/length
		best := frac * length
		var victim uint16
		// A circle the segment enters has its centre within its radius of
		// the segment: inside the segment's box grown by the radius.
		path := Rect{math.Min(pr.X, nx), math.Min(pr.Y, ny), math.Max(pr.X, nx), math.Max(pr.Y, ny)}.Grow(shared.PlayerRadius + rocketPad + 1)
		for _, i := range w.Near.in(path) {
			o := w.Players[i]
			if !o.Alive() || o.ID == pr.Owner || (owner != nil && w.friendlySpared(owner, o)) {
				continue // with friendly fire off a rocket passes through the owner's teammates
			}
			if t, ok := RayCircle(pr.X, pr.Y, dx, dy, o.State.X, o.State.Y, shared.PlayerRadius+rocketPad); ok && t <= best {
				best, victim = t, o.ID
			}
		}
		if best < length || victim != 0 {
			if victim == 0 { // a wall: explode just in front of it
				best = math.Max(best-explodeSkin, 0)
			}
			f.blast(w, pr, pr.X+float64(dx*best), pr.Y+float64(dy*best), victim)
			continue
		}
		pr.X, pr.Y = nx, ny
		if w.Tick >= pr.Dies {
			f.blast(w, pr, pr.X, pr.Y, 0)
			continue
		}
		kept = append(kept, pr)
	}
	for i := len(kept); i < len(f.Projectiles); i++ {
		f.Projectiles[i] = nil
	}
	f.Projectiles = kept
}

// explode deals splash damage around (x, y): full damage to a direct hit,
// falling off linearly to zero at SplashRange for anyone in line of sight of
// the blast, half of that to the owner (blast, after indexing the players
// where they are now).
func (f *Flight) explode(w *World, pr *Projectile, x, y float64, direct uint16) {
	w.Near.index()
	f.blast(w, pr, x, y, direct)
}

// blast is explode with the world's grid already indexing the players
// where they are (step). The victims are taken from the grid, in Players
// order: a direct hit's centre is rocketPad plus a body's radius from the
// blast, anyone else it hurts less than SplashRange plus a body's radius.
func (f *Flight) blast(w *World, pr *Projectile, x, y float64, direct uint16) {
	def := &shared.Weapons[pr.Weapon]
	w.emit(Event{Kind: EvExplode, A: pr.Owner, X: x, Y: y, Value: int(def.SplashRange)})
	owner := w.Player(pr.Owner)
	if owner == nil {
		return // the owner left; the rocket harms no one
	}
	for _, i := range w.Near.in(Around(x, y, math.Max(def.SplashRange, rocketPad)+shared.PlayerRadius)) {
		o := w.Players[i]
		if !o.Alive() {
			continue
		}
		dmg := 0
		if o.ID == direct {
			dmg = def.Damage
		} else {
			d := math.Max(hypot(o.State.X-x, o.State.Y-y)-shared.PlayerRadius, 0)
			if d >= def.SplashRange || !w.Map.LineOfSight(x, y, o.State.X, o.State.Y) {
				continue
			}
			dmg = int(float64(def.Damage) * (1 - d/def.SplashRange))
			if o.ID == pr.Owner {
				dmg /= 2
			}
		}
		if dmg > 0 {
			w.DamageWith(owner, o, dmg, pr.Weapon, o.State.X, o.State.Y)
		}
	}
}
