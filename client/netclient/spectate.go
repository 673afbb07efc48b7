package netclient

import (
	"math"
	"time"
)

// Spectating: a client admitted as a spectator (proto.Accept.Spectator), or
// turned into one by the console's `spectate`, has no body. The server
// sends it every entity and a Self with Spectator set; the client makes
// usercmds all the same, with no input, so that its acks and clock keep
// running (FrameFunc ticks as always), but predicts nothing and counts no
// prediction error. Its camera follows a player, drawn where Rendered
// draws it (the same interpolation as every other entity), or flies
// freely: Source's spectator modes (OBS_MODE_CHASE / OBS_MODE_ROAMING),
// next and previous target on attack and attack2, free-fly on jump.

// SpecFlySpeed is the speed of the free-flying spectator camera, world
// units per second (a little over twice a player's running speed).
const SpecFlySpeed = 600.0

// specCam is the spectator camera.
type specCam struct {
	target uint16  // the player followed; 0 none
	free   bool    // free-fly: the camera is at x, y
	x, y   float64 // free-fly position, world units (also the last followed position)
	placed bool    // x, y hold a position
}

// Spectating reports whether the client has no body: from the newest
// snapshot's Self, or before the first one from the Accept.
func (c *Client) spectating() bool {
	if !c.clk.haveSnap {
		return c.accept.Spectator
	}
	return c.server.Spectator
}

// SpecTarget returns the id of the player the spectator camera follows,
// 0 when none (free-fly, or nobody alive to follow).
func (c *Client) SpecTarget() uint16 {
	if c.spec.free {
		return 0
	}
	return c.spec.target
}

// SpecFree reports whether the spectator camera flies freely.
func (c *Client) SpecFree() bool { return c.spec.free }

// SpecNext follows the next living player in id order after the one
// followed now, wrapping around (Source: attack in spectator mode). It
// leaves free-fly. With nobody alive it changes nothing.
func (c *Client) SpecNext() { c.specCycle(+1) }

// SpecPrev follows the previous living player in id order (attack2).
func (c *Client) SpecPrev() { c.specCycle(-1) }

func (c *Client) specCycle(dir int) {
	var alive []uint16
	for _, e := range c.interp.rendered(c.renderTick(), c.lerpOpts()) { // sorted by id
		if e.Alive {
			alive = append(alive, e.ID)
		}
	}
	if len(alive) == 0 {
		return
	}
	c.spec.free = false
	cur := c.spec.target
	if dir > 0 {
		for _, id := range alive {
			if id > cur {
				c.spec.target = id
				return
			}
		}
		c.spec.target = alive[0]
		return
	}
	for i := len(alive) - 1; i >= 0; i-- {
		if alive[i] < cur {
			c.spec.target = alive[i]
			return
		}
	}
	c.spec.target = alive[len(alive)-1]
}

// SpecToggleFree switches between following a player and flying freely
// (Source: jump in spectator mode). Free-fly starts where the camera is;
// following again takes the player followed before if it is still there
// and alive, else the next living one.
func (c *Client) SpecToggleFree() {
	if !c.spec.free {
		c.spec.x, c.spec.y, _ = c.SpecView()
		c.spec.placed = true
		c.spec.free = true
		return
	}
	c.spec.free = false
	if e, ok := c.specRendered(c.spec.target); !ok || !e.Alive {
		c.SpecNext()
	}
}

// SpecFly moves the free-flying camera by the movement axes (each in
// [-1, 1], world axes) for dt of real time at SpecFlySpeed, kept within
// the map. It does nothing while following a player. This is the
// client's alone: the server never hears of the camera.
func (c *Client) SpecFly(moveX, moveY float64, dt time.Duration) {
	if !c.spec.free {
		return
	}
	if l := math.Hypot(moveX, moveY); l > 1 {
		moveX, moveY = moveX/l, moveY/l
	}
	d := SpecFlySpeed * dt.Seconds()
	c.spec.x = math.Max(0, math.Min(c.gameMap.Width, c.spec.x+moveX*d))
	c.spec.y = math.Max(0, math.Min(c.gameMap.Height, c.spec.y+moveY*d))
}

// SpecView returns the spectator camera's centre in world units: the
// followed player at RenderTick exactly as Rendered draws it (interpolated
// like every other entity), or the free-fly position. When the followed
// player is gone, it follows the next living one; with nobody to follow it
// stays where it was (at first the map's centre), and following reports
// false.
func (c *Client) SpecView() (x, y float64, following bool) {
	if !c.spec.placed {
		c.spec.x, c.spec.y, c.spec.placed = c.gameMap.Width/2, c.gameMap.Height/2, true
	}
	if c.spec.free {
		return c.spec.x, c.spec.y, false
	}
	e, ok := c.specRendered(c.spec.target)
	if !ok {
		c.spec.target = 0
		c.SpecNext()
		e, ok = c.specRendered(c.spec.target)
	}
	if !ok {
		return c.spec.x, c.spec.y, false
	}
	c.spec.x, c.spec.y = e.X, e.Y
	return e.X, e.Y, true
}

// specRendered returns player id as Rendered has it (the same function,
// for that one entity: no allocation, called several times a frame).
func (c *Client) specRendered(id uint16) (RenderedEntity, bool) {
	return c.interp.entity(id, c.renderTick(), c.lerpOpts())
}
