//go:build !headless

package client

import (
	"math"

	"tickshot/client/netclient"
	"tickshot/game"
	"tickshot/net/proto"
	"tickshot/shared"
)

// Tracers of hitscan shots of several rays (the shotgun's pellets): the
// local player's own from its predicted shot (every ray), another
// player's from the one EvShot the server sends (its trace end is ray 0;
// its Cmd seeds the others, shared.ShotFromFirstRay). Each ray is traced
// against the walls and the players as drawn (game.TraceShot), as the
// rifle's predicted tracer is; for drawing only.

// shotRays adds a tracer for each ray of sh from ray first on, traced
// against m and boxes (skip: the shooter's box); own marks the local
// player's.
func (f *effects) shotRays(m *game.Map, sh *shared.Shot, first int, boxes []game.Hitbox, skip uint16, own bool) {
	rng := shared.Weapons[sh.Weapon].Range
	for i := first; i < sh.NumRays(); i++ {
		ry := sh.Ray(i)
		tr := game.TraceShot(m, sh.X, sh.Y, ry.DirX, ry.DirY, rng, boxes, skip)
		f.addTracer(sh.X, sh.Y, tr.EndX, tr.EndY, own)
	}
}

// drawnBoxes returns the hitboxes of the players as c draws them: the
// others where rendered (teammates the server's trace passes through left
// out, passesThrough) and the local player where predicted.
func drawnBoxes(c *netclient.Client) []game.Hitbox {
	vw := c.View()
	boxes := make([]game.Hitbox, 0, len(vw.Rendered)+1)
	for _, e := range vw.Rendered {
		boxes = append(boxes, game.NewHitbox(e.ID, e.X, e.Y, e.Alive && !passesThrough(c, e.ID), game.TeamNone))
	}
	if p := vw.Predicted; !p.Dead {
		boxes = append(boxes, game.NewHitbox(vw.ID, p.X, p.Y, true, game.TeamNone))
	}
	return boxes
}

// otherPellets adds the tracers of the pellets after the first of another
// player's shot of several rays (e: its EvShot, which drew the first),
// traced against m and boxes (drawnBoxes); nothing for a one-ray weapon.
func (f *effects) otherPellets(m *game.Map, e *proto.Event, boxes []game.Hitbox) {
	if e.Value < 0 || int(e.Value) >= shared.NumWeapons || shared.Weapons[e.Value].Pellets <= 1 || e.Cmd == 0 {
		return
	}
	x, y, x2, y2 := proto.FromFixed(e.X), proto.FromFixed(e.Y), proto.FromFixed(e.X2), proto.FromFixed(e.Y2)
	sh := shared.ShotFromFirstRay(uint8(e.Value), x, y, math.Atan2(y2-y, x2-x), e.Cmd)
	f.shotRays(m, &sh, 1, boxes, e.A, false)
}
