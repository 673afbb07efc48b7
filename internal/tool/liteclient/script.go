package liteclient

import (
	"math"
	"math/rand/v2"

	"tickshot/net/proto"
	"tickshot/shared"
)

// script is what a lite client does, with no bot brain: it walks in one
// direction for 1 to 3 s (a new one sooner when a wall stops it), aims at
// the nearest living player of its newest frame (along its walk when it
// sees none) and fires a burst of BurstMs every 1 to 2.5 s. Its clock is
// the client's count of usercmds made, so a script is the same on every
// machine for the same seed and the same snapshots.
type script struct {
	rng        *rand.Rand
	angle      float64 // walking direction, radians
	nextTurn   uint64  // command count of the next turn
	nextBurst  uint64  // command count the next burst starts at
	burstEnd   uint64  // command count the burst ends at
	checkAt    uint64  // command count of the next stuck check
	lastX      int32   // own position at the last stuck check
	lastY      int32
	checkAlive bool
}

// BurstMs is how long the attack button is held in a burst.
const BurstMs = 150

// steer fills cmd's movement, aim and buttons for client c.
func (s *script) steer(cmd *shared.UserCmd, c *Client) {
	n, rate := c.made, uint64(c.tickRate)
	self := c.self
	if self.Dead || self.Spectator {
		s.checkAlive = false
		return
	}
	// A wall stopped the walk: the position did not change in half a second.
	if n >= s.checkAt {
		if s.checkAlive && self.X == s.lastX && self.Y == s.lastY {
			s.nextTurn = n
		}
		s.checkAt, s.lastX, s.lastY, s.checkAlive = n+rate/2, self.X, self.Y, true
	}
	if n >= s.nextTurn {
		s.angle = s.rng.Float64()*2*math.Pi - math.Pi
		s.nextTurn = n + rate + s.rng.Uint64N(2*rate+1)
	}
	cmd.MoveX, cmd.MoveY = float32(math.Cos(s.angle)), float32(math.Sin(s.angle))
	cmd.ViewAngle = float32(s.angle)
	if a, ok := nearest(self, c.ents); ok {
		cmd.ViewAngle = float32(a)
	}
	if n >= s.nextBurst {
		s.burstEnd = n + max(1, rate*BurstMs/1000)
		s.nextBurst = n + rate + s.rng.Uint64N(3*rate/2+1)
	}
	if n < s.burstEnd {
		cmd.Buttons |= shared.ButtonAttack
	}
}

// nearest returns the direction, radians in [-pi, pi], from self to the
// nearest living player among ents; false when there is none.
func nearest(self proto.SelfState, ents []proto.EntityState) (float64, bool) {
	best, found := math.Inf(1), false
	var dx, dy float64
	for i := range ents {
		e := &ents[i]
		if e.Flags&proto.FlagAlive == 0 {
			continue
		}
		x, y := float64(e.X-self.X), float64(e.Y-self.Y)
		if d := x*x + y*y; d < best && d > 0 {
			best, dx, dy, found = d, x, y, true
		}
	}
	if !found {
		return 0, false
	}
	return math.Atan2(dy, dx), true
}
