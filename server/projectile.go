package server

import (
	"math"

	"tickshot/game"
	"tickshot/net/proto"
	"tickshot/shared"
)

// Projectiles are simulated by the server only, tick by tick, against the
// walls (cp/v2 segment queries) and the players' present hitboxes: they are
// not lag compensated (Bernier 2001, footnote 9). A rocket in flight is
// visible to everyone, so the shooter must lead the target by its own
// latency, as in Half-Life.

// ProjectileLifetimeMs is how long a projectile flies before it explodes.
const ProjectileLifetimeMs = 3000

// explodeSkin is how far in front of a wall, in world units, a projectile
// that strikes it explodes. A blast exactly on the wall's surface would have
// no line of sight to anyone (a segment query that starts on a shape hits it
// at once), so its splash would hurt no one.
const explodeSkin = 1.0

type projectile struct {
	id     uint16
	owner  uint16
	weapon uint8
	x, y   float64
	vx, vy float64
	dies   uint32 // tick at which it explodes in the air
}

func (s *Server) fireProjectile(p *game.Player, shot shared.Shot) {
	def := &shared.Weapons[shot.Weapon]
	s.nextProjID++
	if s.nextProjID == 0 {
		s.nextProjID = 1
	}
	off := shared.PlayerRadius + 6
	pr := &projectile{id: s.nextProjID, owner: p.ID, weapon: shot.Weapon,
		x: shot.X + shot.DirX*off, y: shot.Y + shot.DirY*off,
		vx: shot.DirX * def.Speed, vy: shot.DirY * def.Speed,
		dies: s.tick + uint32(shared.Ticks(ProjectileLifetimeMs, s.cfg.TickRate))}
	// Fired point-blank into a wall: explode at the muzzle.
	if frac := s.m.RayWalls(shot.X, shot.Y, pr.x, pr.y); frac < 1 {
		back := math.Max(frac*off-explodeSkin, 0)
		s.explode(pr, shot.X+shot.DirX*back, shot.Y+shot.DirY*back, 0)
		return
	}
	s.projectiles = append(s.projectiles, pr)
	s.addEvent(proto.Event{Kind: proto.EvShot, A: p.ID, X: proto.ToFixed(shot.X), Y: proto.ToFixed(shot.Y),
		X2: proto.ToFixed(shot.X), Y2: proto.ToFixed(shot.Y), Value: int16(shot.Weapon)}, 0)
}

// moveProjectiles advances every projectile by one tick and explodes those
// that hit a wall or a player, or whose time is up.
func (s *Server) moveProjectiles() {
	dt := s.world.Dt()
	kept := s.projectiles[:0]
	for _, pr := range s.projectiles {
		nx, ny := pr.x+pr.vx*dt, pr.y+pr.vy*dt
		frac := s.m.RayWalls(pr.x, pr.y, nx, ny)
		length := math.Hypot(nx-pr.x, ny-pr.y)
		dx, dy := (nx-pr.x)/length, (ny-pr.y)/length
		best := frac * length
		var victim uint16
		for _, o := range s.players {
			if !o.Alive() || o.ID == pr.owner {
				continue
			}
			if t, ok := game.RayCircle(pr.x, pr.y, dx, dy, o.State.X, o.State.Y, shared.PlayerRadius+4); ok && t <= best {
				best, victim = t, o.ID
			}
		}
		if best < length || victim != 0 {
			if victim == 0 { // a wall: explode just in front of it
				best = math.Max(best-explodeSkin, 0)
			}
			s.explode(pr, pr.x+dx*best, pr.y+dy*best, victim)
			continue
		}
		pr.x, pr.y = nx, ny
		if s.tick >= pr.dies {
			s.explode(pr, pr.x, pr.y, 0)
			continue
		}
		kept = append(kept, pr)
	}
	for i := len(kept); i < len(s.projectiles); i++ {
		s.projectiles[i] = nil
	}
	s.projectiles = kept
}

// explode deals splash damage around (x, y): full damage to a direct hit,
// falling off linearly to zero at SplashRange for anyone in line of sight of
// the blast, half of that to the owner.
func (s *Server) explode(pr *projectile, x, y float64, direct uint16) {
	def := &shared.Weapons[pr.weapon]
	s.addEvent(proto.Event{Kind: proto.EvExplode, A: pr.owner, X: proto.ToFixed(x), Y: proto.ToFixed(y),
		Value: int16(def.SplashRange)}, 0)
	owner := s.player(pr.owner)
	if owner == nil {
		return // the owner left; the rocket harms no one
	}
	for _, o := range s.players {
		if !o.Alive() {
			continue
		}
		dmg := 0
		if o.ID == direct {
			dmg = def.Damage
		} else {
			d := math.Max(math.Hypot(o.State.X-x, o.State.Y-y)-shared.PlayerRadius, 0)
			if d >= def.SplashRange || !s.m.LineOfSight(x, y, o.State.X, o.State.Y) {
				continue
			}
			dmg = int(float64(def.Damage) * (1 - d/def.SplashRange))
			if o.ID == pr.owner {
				dmg /= 2
			}
		}
		if dmg > 0 {
			s.damage(owner, o, dmg, o.State.X, o.State.Y)
		}
	}
}

// appendProjectileStates appends the projectiles as snapshots carry them.
func (s *Server) appendProjectileStates(out []proto.ProjectileState) []proto.ProjectileState {
	for _, pr := range s.projectiles {
		out = append(out, proto.ProjectileState{ID: pr.id, Owner: pr.owner, Weapon: pr.weapon,
			X: proto.ToFixed(pr.x), Y: proto.ToFixed(pr.y), VX: proto.ToFixed(pr.vx), VY: proto.ToFixed(pr.vy)})
	}
	return out
}
