package hitreg

import (
	"tickshot/client/netclient"
	"tickshot/game"
	"tickshot/net/proto"
	"tickshot/shared"
)

// pellets checks the shooter's shots ray by ray: for each command that
// fired, the rays of its predicted shot (shared.Result.Shot) that hit the
// target where the shooter drew it (ShotView.Others) against the rays the
// server found on the target (the EvHit of the shot: its damage is the
// weapon's damage times the rays that hit, game.World.FireHitscan). The
// server sends a shot's EvHit right after its EvImpact (showImpact runs
// before Damage), so an EvHit of the shooter on the target belongs to the
// newest EvImpact's command.
type pellets struct {
	def      *shared.WeaponDef
	drawn    map[uint32]int // per fired command: rays hitting the drawn target
	server   map[uint32]int // per answered command: rays the server found on the target
	takenCmd []uint32       // commands taken as claimed, in order
	lastCmd  uint32         // the newest EvImpact's command
}

func newPellets(weapon uint8) *pellets {
	return &pellets{def: &shared.Weapons[weapon], drawn: map[uint32]int{}, server: map[uint32]int{}}
}

// predicted takes the shooter's predicted effects of this frame; the
// commands that fired among attacks are theirs, in order.
func (p *pellets) predicted(c *netclient.Client, attacks []uint32) {
	var fired []uint32
	for _, cmd := range attacks {
		if _, ok := c.Shots().Of(cmd); ok {
			fired = append(fired, cmd)
		}
	}
	k := 0
	for _, r := range c.Shots().TakeEffects() {
		if !r.Fired || k >= len(fired) {
			continue
		}
		cmd := fired[k]
		k++
		v, _ := c.Shots().Of(cmd)
		boxes := []game.Hitbox{game.NewHitbox(c.View().ID, r.Shot.X, r.Shot.Y, true, game.TeamNone)}
		for _, o := range v.Others {
			boxes = append(boxes, game.NewHitbox(o.ID, o.X, o.Y, o.Alive, game.TeamNone))
		}
		n := 0
		for i := 0; i < r.Shot.NumRays(); i++ {
			ry := r.Shot.Ray(i)
			if tr := game.TraceShot(c.View().Map, r.Shot.X, r.Shot.Y, ry.DirX, ry.DirY, p.def.Range, boxes, c.View().ID); tr.Hit > 0 {
				n++
			}
		}
		p.drawn[cmd] = n
	}
}

// event follows the shooter's EvImpacts and its EvHits on the target.
func (p *pellets) event(e *proto.Event, shooter, target uint16) {
	switch {
	case e.Kind == proto.EvImpact && e.A == shooter:
		p.lastCmd = e.Cmd
	case e.Kind == proto.EvHit && e.A == shooter && e.B == target && p.lastCmd != 0:
		p.server[p.lastCmd] += int(e.Value) / p.def.Damage
	}
}

// taken marks cmd's shot as rewound to its claim as is.
func (p *pellets) taken(cmd uint32) { p.takenCmd = append(p.takenCmd, cmd) }

// tally adds the taken shots' pellet counts to res.
func (p *pellets) tally(res *Result) {
	for _, cmd := range p.takenCmd {
		d, ok := p.drawn[cmd]
		if !ok {
			continue // predicted before the benchmark looked (cannot happen) or not recorded
		}
		res.PelletsDrawn += d
		res.PelletsServer += p.server[cmd]
		if d != p.server[cmd] {
			res.PelletMismatch++
		}
	}
}
