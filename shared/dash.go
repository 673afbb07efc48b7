package shared

// Dash: a short burst of speed in the move direction, then a cooldown (the
// dodge of Warsow and Quake Champions' Slash; a button, not a double tap,
// so that it travels in one usercmd bit and is predicted like movement).
const (
	// DashSpeed is the speed, world units/s, the body moves at while a
	// dash lasts: about 110 units in DashMs.
	DashSpeed = 900.0
	// DashMs is how long a dash lasts, ms: neither friction, acceleration
	// nor the MaxSpeed clamp act on the body, walls still slide it. The
	// next command after it clamps the speed to MaxSpeed again.
	DashMs = 120
	// DashCooldownMs is the time from the start of a dash until the next
	// one may start, ms (PlayerState.DashTicks counts it down).
	DashCooldownMs = 2000
)

// DashCooldownTicks is DashCooldownMs in ticks at tickRate.
func DashCooldownTicks(tickRate int) uint16 { return Ticks(DashCooldownMs, tickRate) }

// Dashing reports whether s is inside a dash at tickRate: the first
// Ticks(DashMs) commands of the cooldown, the dash's own command included.
func (s *PlayerState) Dashing(tickRate int) bool {
	return s.DashTicks > DashCooldownTicks(tickRate)-Ticks(DashMs, tickRate)
}

// startDash starts a dash when cmd asks for one (ButtonDash), the cooldown
// is over and the command moves (a dash goes in the move direction, never
// from standing): the velocity becomes DashSpeed along the quantized move
// axes and the cooldown starts. Without move input the button does
// nothing and costs no cooldown.
func startDash(s PlayerState, cmd *UserCmd, tickRate int) PlayerState {
	if !cmd.Has(ButtonDash) || s.DashTicks > 0 {
		return s
	}
	dx, dy, wl := wishDir(cmd)
	if wl == 0 {
		return s
	}
	s.VX, s.VY = float64(dx*DashSpeed), float64(dy*DashSpeed)
	s.DashTicks = DashCooldownTicks(tickRate)
	return s
}
