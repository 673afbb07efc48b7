package shared

import "math"

// Movement tuning, Quake-style ground movement (world units and seconds).
const (
	MaxSpeed  = 280.0 // units/s at full input
	Accel     = 10.0  // fraction of MaxSpeed gained per second (sv_accelerate)
	Friction  = 8.0   // sv_friction
	StopSpeed = 100.0 // below this speed friction acts as if at StopSpeed (sv_stopspeed)
)

// Result tells what a command did besides changing the state.
type Result struct {
	// Fired is true when the command fired a weapon; Shot then describes it.
	Fired bool
	Shot  Shot
	// ReloadStarted is true when a reload began in this command.
	ReloadStarted bool
}

// RunCommand runs one usercmd for a player and returns the new state: weapon
// switch, weapon and dash timers, a dash (startDash), movement with
// friction, acceleration, maximum speed (none of them while dashing) and
// collide-and-slide against w.Walls, then fire (every pellet's ray, newShot). The returned state is
// quantized (see Quantize). It is deterministic and bit-exact across
// platforms; the caller must have validated cmd (net.ValidateUserCmd).
func RunCommand(s PlayerState, cmd UserCmd, w *World) (PlayerState, Result) {
	var res Result
	if s.Dead {
		s.VX, s.VY = 0, 0
		return s, res
	}
	tr := w.TickRate

	// Weapon timers advance once per command.
	if s.NextAttack > 0 {
		s.NextAttack--
	}
	if s.SwitchTicks > 0 {
		s.SwitchTicks--
	}
	if s.DashTicks > 0 {
		s.DashTicks--
	}
	if int(cmd.Weapon) < NumWeapons && cmd.Weapon != s.Weapon {
		s.Weapon = cmd.Weapon
		s.ReloadTicks = 0
		s.SwitchTicks = Ticks(Weapons[s.Weapon].SwitchMs, tr)
	}
	def := &Weapons[s.Weapon]
	if s.ReloadTicks > 0 {
		s.ReloadTicks--
		if s.ReloadTicks == 0 {
			s.Ammo[s.Weapon] = def.MagSize
		}
	}

	s = startDash(s, &cmd, tr)
	s = move(s, cmd, w)

	// Reload: on request, or automatically when trying to fire an empty magazine.
	wantReload := cmd.Has(ButtonReload) || (cmd.Has(ButtonAttack) && s.Ammo[s.Weapon] == 0)
	if wantReload && s.ReloadTicks == 0 && s.Ammo[s.Weapon] < def.MagSize {
		s.ReloadTicks = Ticks(def.ReloadMs, tr)
		res.ReloadStarted = true
	}

	if cmd.Has(ButtonAttack) && s.NextAttack == 0 && s.SwitchTicks == 0 &&
		s.ReloadTicks == 0 && s.Ammo[s.Weapon] > 0 {
		s.Ammo[s.Weapon]--
		s.NextAttack = Ticks(def.IntervalMs, tr)
		res.Fired = true
		res.Shot = newShot(s.Weapon, s.X, s.Y, float64(cmd.ViewAngle), cmd.CommandNumber)
	}
	return s, res
}

// quantizeAxis maps an input axis to a multiple of 1/127, as it travels on
// the wire in Source's signed-byte style.
func quantizeAxis(v float32) float64 {
	return math.Round(float64(v)*127) / 127
}

// wishDir returns the unit direction of cmd's move axes, rounded as on the
// wire (quantizeAxis), and their length (0: no input, dx = dy = 0).
func wishDir(cmd *UserCmd) (dx, dy, wl float64) {
	mx, my := quantizeAxis(cmd.MoveX), quantizeAxis(cmd.MoveY)
	wl = math.Sqrt(float64(mx*mx) + float64(my*my))
	if wl == 0 {
		return 0, 0, 0
	}
	return mx / wl, my / wl, wl
}

func move(s PlayerState, cmd UserCmd, w *World) PlayerState {
	dt := w.Dt()
	vx, vy := s.VX, s.VY
	if !s.Dashing(w.TickRate) {
		vx, vy = walk(vx, vy, &cmd, dt)
	}
	s.X, s.Y, vx, vy = slideMove(s.X, s.Y, vx, vy, dt, w)
	s.VX, s.VY = vx, vy
	return s.Quantized()
}

// walk applies one command's ground movement to the velocity (vx, vy):
// friction, acceleration towards the wished direction, the MaxSpeed clamp.
func walk(vx, vy float64, cmd *UserCmd, dt float64) (float64, float64) {
	// Friction.
	speed := math.Sqrt(float64(vx*vx) + float64(vy*vy))
	if speed > 0 {
		control := math.Max(speed, StopSpeed)
		drop := float64(float64(control*Friction) * dt)
		ns := math.Max(speed-drop, 0)
		scale := ns / speed
		vx, vy = float64(vx*scale), float64(vy*scale)
	}

	// Acceleration towards the wished direction.
	if dx, dy, wl := wishDir(cmd); wl > 0 {
		if wl > 1 {
			wl = 1
		}
		wishSpeed := float64(wl * MaxSpeed)
		cur := float64(vx*dx) + float64(vy*dy)
		add := wishSpeed - cur
		if add > 0 {
			acc := math.Min(float64(float64(Accel*wishSpeed)*dt), add)
			vx += float64(acc * dx)
			vy += float64(acc * dy)
		}
	}

	// Cap speed.
	speed = math.Sqrt(float64(vx*vx) + float64(vy*vy))
	if speed > MaxSpeed {
		scale := MaxSpeed / speed
		vx, vy = float64(vx*scale), float64(vy*scale)
	}
	return vx, vy
}

// slideMove moves a circle of PlayerRadius by velocity*dt in sub-steps no
// longer than half the radius, pushing it out of every wall it overlaps and
// removing the velocity component into that wall (collide-and-slide,
// slideSteps), against the walls near the move when w has a wall grid
// (nearSlide) and against all of w.Walls otherwise: the same result to the
// bit either way.
func slideMove(x, y, vx, vy, dt float64, w *World) (float64, float64, float64, float64) {
	if w.WallGrid.Serves(w.Walls) {
		if nx, ny, nvx, nvy, ok := nearSlide(x, y, vx, vy, dt, w); ok {
			return nx, ny, nvx, nvy
		}
	}
	x, y, vx, vy, _ = slideSteps(x, y, vx, vy, dt, w.Walls, nil)
	return x, y, vx, vy
}

const (
	// collideRadius is the radius movement collides with, world units:
	// the body and a skin of 1/PosScale, which keeps it clear of the wall
	// after Quantize moves each coordinate by up to 1/(2*PosScale).
	collideRadius = PlayerRadius + 1.0/PosScale
	// nearMargin is how far (world units) the centre may stray outside the
	// box its straight move sweeps before a move near walls is redone
	// against all of them: more than the pushes of a sliding move.
	nearMargin = PlayerRadius
	// nearMax is the most walls a move near walls gathers (on the stack);
	// a move among more is run against all walls.
	nearMax = 16
	// nearLimit bounds the coordinates nearSlide takes (world units): so
	// far beyond them the rounding of its region's bounds could reach a
	// world unit, so it leaves such moves to the full loop.
	nearLimit = 1 << 40
)

// nearSlide is slideSteps over the walls near the move only, gathered once
// from w.WallGrid, in ascending wall order; ok is false when it could not
// vouch for the result (too many walls near, the centre strayed out of the
// region, coordinates not finite or huge), and the caller then runs the
// whole move again over all walls from the start.
//
// Why the result is the same bits as slideSteps over all of w.Walls: the
// region R is the box the straight move sweeps, grown by nearMargin; the
// gathered walls are all those whose box overlaps R grown by c+1, where
// c = collideRadius is the radius circleBox is given (WallGrid.near finds
// them all, and keeps their order). slideSteps, given R, checks
// before every circleBox call that the centre (x, y) lies in R (at the
// start of each pass and after each push, the only points where the centre
// moves) and gives up otherwise. Take a wall not gathered: its box is clear
// of R grown by c+1 on some side, say b.MinX > R.MaxX + c + 1 as computed;
// the rounding of that sum is under 2^-12 (|R.MaxX| < 2^40), so truly
// b.MinX - x > c for the centre's x <= R.MaxX. Then circleBox's nearest
// point is cx = b.MinX exactly, ex = x - cx rounds to at most -c (c is a
// float64, rounding is monotonic), ex*ex rounds to at least c*c rounded,
// and adding ey*ey >= 0 keeps d2 >= c*c rounded: hit is false, and the
// full loop's test of that wall changes nothing. The other sides are the
// same by symmetry. So, by induction over the full loop's tests in order,
// its state after each wall equals the broad phase's state after the
// gathered walls up to that one: the same x, y, vx, vy, sx, sy at the end. When a push
// takes the centre out of R, nothing is vouched for, and the whole move is
// redone over all walls (TestNearSlideMatchesLoop exercises both).
func nearSlide(x, y, vx, vy, dt float64, w *World) (float64, float64, float64, float64, bool) {
	dx, dy := float64(vx*dt), float64(vy*dt)
	region := Box{
		MinX: math.Min(x, x+dx) - nearMargin, MaxX: math.Max(x, x+dx) + nearMargin,
		MinY: math.Min(y, y+dy) - nearMargin, MaxY: math.Max(y, y+dy) + nearMargin,
	}
	if !(region.MinX > -nearLimit && region.MaxX < nearLimit && region.MinY > -nearLimit && region.MaxY < nearLimit) {
		return 0, 0, 0, 0, false // NaN, infinite or huge
	}
	const reach = collideRadius + 1
	q := Box{MinX: region.MinX - reach, MinY: region.MinY - reach, MaxX: region.MaxX + reach, MaxY: region.MaxY + reach}
	var ids [nearMax]int32
	n, ok := w.WallGrid.near(q, ids[:])
	if !ok {
		return 0, 0, 0, 0, false
	}
	var near [nearMax]Box
	for i, id := range ids[:n] {
		near[i] = w.Walls[id]
	}
	return slideSteps(x, y, vx, vy, dt, near[:n], &region)
}

// slideSteps is collide-and-slide: it moves the centre (x, y) by
// velocity*dt in sub-steps no longer than half of PlayerRadius, and after
// each sub-step makes two passes over walls in order, pushing the circle
// out of each one it overlaps and removing the velocity (and the rest of
// the sub-step) into it. With within non-nil it stops with ok false as
// soon as the centre is outside within before a wall test (nearSlide);
// with nil, ok is true.
func slideSteps(x, y, vx, vy, dt float64, walls []Box, within *Box) (float64, float64, float64, float64, bool) {
	dx, dy := float64(vx*dt), float64(vy*dt)
	dist := math.Sqrt(float64(dx*dx) + float64(dy*dy))
	steps := int(math.Ceil(dist / (PlayerRadius / 2)))
	if steps < 1 {
		steps = 1
	}
	sx, sy := dx/float64(steps), dy/float64(steps)
	for i := 0; i < steps; i++ {
		x += sx
		y += sy
		for pass := 0; pass < 2; pass++ {
			if within != nil && !within.holds(x, y) {
				return x, y, vx, vy, false
			}
			for j := range walls {
				nx, ny, depth, hit := circleBox(x, y, collideRadius, &walls[j])
				if !hit {
					continue
				}
				x += float64(nx * depth)
				y += float64(ny * depth)
				if within != nil && !within.holds(x, y) {
					return x, y, vx, vy, false
				}
				// Remove the velocity (and remaining step) into the wall.
				if vn := float64(vx*nx) + float64(vy*ny); vn < 0 {
					vx -= float64(vn * nx)
					vy -= float64(vn * ny)
				}
				if sn := float64(sx*nx) + float64(sy*ny); sn < 0 {
					sx -= float64(sn * nx)
					sy -= float64(sn * ny)
				}
			}
		}
	}
	return x, y, vx, vy, true
}

// holds reports whether (x, y) lies in b, edges included (NaN: false).
func (b *Box) holds(x, y float64) bool {
	return x >= b.MinX && x <= b.MaxX && y >= b.MinY && y <= b.MaxY
}

// circleBox returns the unit normal pushing a circle at (x, y) with radius r
// out of box b and the penetration depth, or hit=false when they do not overlap.
func circleBox(x, y, r float64, b *Box) (nx, ny, depth float64, hit bool) {
	cx := math.Min(math.Max(x, b.MinX), b.MaxX)
	cy := math.Min(math.Max(y, b.MinY), b.MaxY)
	ex, ey := x-cx, y-cy
	d2 := float64(ex*ex) + float64(ey*ey)
	if d2 >= float64(r*r) {
		return 0, 0, 0, false
	}
	if d2 > 0 {
		d := math.Sqrt(d2)
		return ex / d, ey / d, r - d, true
	}
	// Centre inside the box: push out along the shallowest side.
	left, right := x-b.MinX, b.MaxX-x
	up, down := y-b.MinY, b.MaxY-y
	m := math.Min(math.Min(left, right), math.Min(up, down))
	switch m {
	case left:
		return -1, 0, left + r, true
	case right:
		return 1, 0, right + r, true
	case up:
		return 0, -1, up + r, true
	default:
		return 0, 1, down + r, true
	}
}
