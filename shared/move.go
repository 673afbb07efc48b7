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
	s.X, s.Y, vx, vy = slideMove(s.X, s.Y, vx, vy, dt, w.Walls)
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
// removing the velocity component into that wall (collide-and-slide).
func slideMove(x, y, vx, vy, dt float64, walls []Box) (float64, float64, float64, float64) {
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
			for j := range walls {
				// A skin of 1/PosScale keeps the body clear of the wall after
				// Quantize, which moves each coordinate by up to 1/(2*PosScale).
				nx, ny, depth, hit := circleBox(x, y, PlayerRadius+1.0/PosScale, &walls[j])
				if !hit {
					continue
				}
				x += float64(nx * depth)
				y += float64(ny * depth)
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
	return x, y, vx, vy
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
