package lab

import (
	"math"
	"strings"
	"time"

	"tickshot/client/netclient"
	"tickshot/shared"
)

// Preset is one experiment: knobs, drivers, where the players start, and
// a scripted run that shows a phenomenon within Duration, the same every
// time.
type Preset struct {
	Name     string // e.g. "behind-wall" (--preset, /lab?preset=)
	Title    string // e.g. "Shot behind the wall"
	Explain  string // two or three sentences shown in the lab
	Duration time.Duration
	Map      string
	Knobs    Knobs
	Drivers  [2]Driver
	Place    [2]Placement
	// Script makes the input of seat's next command (DriveScript seats).
	Script func(r *Run, seat int) netclient.Input
}

// Placement is where a preset puts a seat's player when the run begins.
type Placement struct {
	X, Y, Angle float64 // world units, radians
	Health      int
}

// Presets lists the experiments in menu order.
func Presets() []*Preset { return presets }

// PresetByName returns the preset called name, nil for none.
func PresetByName(name string) *Preset {
	for _, p := range presets {
		if p.Name == name {
			return p
		}
	}
	return nil
}

func presetNames() string {
	var n []string
	for _, p := range presets {
		n = append(n, p.Name)
	}
	return strings.Join(n, ", ")
}

// seatKnobs is DefaultKnobs' seat with a round trip split evenly.
func seatKnobs(rttMs int) ClientKnobs {
	k := DefaultKnobs().Seats[0]
	k.Up.LagMs, k.Down.LagMs = rttMs/2, rttMs-rttMs/2
	return k
}

// knobs makes a preset's Knobs from its two seats.
func knobs(p1, p2 ClientKnobs) Knobs {
	k := DefaultKnobs()
	k.Seats = [2]ClientKnobs{p1, p2}
	return k
}

// hold is the input that stands still aiming at angle.
func hold(angle float32) netclient.Input { return netclient.Input{Angle: angle} }

// aimAtOther aims at the other player as this seat draws it (or keeps
// the last aim when it draws none).
func aimAtOther(r *Run) float32 {
	if x, y, ok := r.Other(); ok {
		return r.Aim(x, y)
	}
	return r.View().LastCommand.ViewAngle
}

// sees tells whether this seat's screen shows a clear line from its own
// player to the other.
func sees(r *Run) bool {
	x, y, ok := r.Other()
	if !ok {
		return false
	}
	sx, sy := r.Self()
	return r.View().Map.LineOfSight(sx, sy, x, y)
}

// fireOnce fires one shot when cond first holds, aiming at the other
// player as drawn.
func fireOnce(r *Run, cond bool) netclient.Input {
	in := hold(aimAtOther(r))
	st := r.State()
	if cond && !st.Fired {
		st.Fired, st.FiredAt = true, r.T()
		in.Buttons = shared.ButtonAttack
	}
	return in
}

// moveTo walks toward (x, y) at full speed and stops within 4 units.
func moveTo(r *Run, x, y float64, aim float32) netclient.Input {
	sx, sy := r.Self()
	dx, dy := x-sx, y-sy
	d := math.Hypot(dx, dy)
	in := hold(aim)
	if d > 4 {
		in.MoveX, in.MoveY = float32(dx/d), float32(dy/d)
	}
	return in
}

const sec = time.Second

var presets = []*Preset{
	{
		Name:  "behind-wall",
		Title: "Shot behind the wall",
		Explain: "Player 2 (20 ms) runs behind the pillar; player 1 (200 ms) shoots where its screen still shows player 2. " +
			"The server rewinds player 2's hitbox to what player 1 saw and confirms the hit, although player 2 was already behind cover on its own screen. " +
			"Turn sv_unlag off and the same shot misses: it is traced against where player 2 is now.",
		Duration: 3 * sec, Map: DefaultMap,
		Knobs:   knobs(seatKnobs(200), seatKnobs(20)),
		Drivers: [2]Driver{DriveScript, DriveScript},
		Place:   [2]Placement{{X: 160, Y: 320, Health: 100}, {X: 640, Y: 140, Angle: math.Pi, Health: 100}},
		Script: func(r *Run, seat int) netclient.Input {
			if seat == P2 {
				if r.T() < sec {
					return hold(math.Pi)
				}
				return moveTo(r, 640, 330, math.Pi)
			}
			_, y, _ := r.Other()
			return fireOnce(r, r.T() > sec && y >= 200 && sees(r))
		},
	},
	{
		Name:  "peeker",
		Title: "Peeker's advantage",
		Explain: "Player 1 (120 ms) steps out from behind the pillar; player 2 (20 ms) holds the angle. " +
			"Player 1 sees player 2 the moment it moves; player 2 sees player 1 only after player 1's move has reached the server and come back through player 2's interpolation: " +
			"about player 1's one-way latency plus player 2's cl_interp later.",
		Duration: 3 * sec, Map: DefaultMap,
		Knobs:   knobs(seatKnobs(120), seatKnobs(20)),
		Drivers: [2]Driver{DriveScript, DriveScript},
		Place:   [2]Placement{{X: 400, Y: 320, Health: 100}, {X: 840, Y: 320, Angle: math.Pi, Health: 100}},
		Script: func(r *Run, seat int) netclient.Input {
			if seat == P2 {
				return fireOnce(r, r.T() > sec/2 && sees(r))
			}
			if r.T() < sec {
				return hold(0)
			}
			in := moveTo(r, 400, 170, aimAtOther(r))
			if sees(r) {
				fire := fireOnce(r, true)
				in.Buttons = fire.Buttons
			}
			return in
		},
	},
	{
		Name:  "no-prediction",
		Title: "No prediction",
		Explain: "Player 1 (200 ms) has cl_predict 0: its own player moves only when the server's snapshot says so, a round trip after the key was pressed. " +
			"Turn prediction on and the player moves in the same frame.",
		Duration: 3 * sec, Map: DefaultMap,
		Knobs: knobs(func() ClientKnobs {
			k := seatKnobs(200)
			k.Predict = false
			return k
		}(), seatKnobs(20)),
		Drivers: [2]Driver{DriveScript, DriveIdle},
		Place:   [2]Placement{{X: 160, Y: 480, Health: 100}, {X: 864, Y: 320, Angle: math.Pi, Health: 100}},
		Script:  strafe(0),
	},
	{
		Name:  "no-interpolation",
		Title: "No interpolation",
		Explain: "Player 1 has cl_interpolate 0: it draws player 2 where the newest snapshot has it, so player 2 jumps 20 times a second (cl_updaterate) instead of moving smoothly. " +
			"Interpolation draws others a little in the past (cl_interp) to have two snapshots to move between.",
		Duration: 3 * sec, Map: DefaultMap,
		Knobs: knobs(func() ClientKnobs {
			k := seatKnobs(60)
			k.Interpolate, k.Extrapolate = false, false
			return k
		}(), seatKnobs(60)),
		Drivers: [2]Driver{DriveIdle, DriveScript},
		Place:   [2]Placement{{X: 160, Y: 480, Health: 100}, {X: 640, Y: 160, Angle: math.Pi, Health: 100}},
		Script:  strafe(math.Pi),
	},
	{
		Name:  "loss-no-backup",
		Title: "Loss without backups",
		Explain: "Player 1 loses 10 % of its packets to the server and has cl_cmdbackup 0: a lost packet's commands never reach the server, " +
			"so the server's player 1 stops short and player 1's prediction is corrected (net_graph's prediction errors). " +
			"With backups each packet carries the commands not yet acknowledged, and a loss costs nothing.",
		Duration: 4 * sec, Map: DefaultMap,
		Knobs: knobs(func() ClientKnobs {
			k := seatKnobs(60)
			k.Up.LossPct, k.CmdBackup = 10, 0
			return k
		}(), seatKnobs(60)),
		Drivers: [2]Driver{DriveScript, DriveIdle},
		Place:   [2]Placement{{X: 160, Y: 480, Health: 100}, {X: 864, Y: 320, Angle: math.Pi, Health: 100}},
		Script:  strafe(math.Pi),
	},
	{
		Name:  "mutual-kill",
		Title: "Mutual kill",
		Explain: "Both players have 25 hit points and fire at each other in the same frame, so both commands run in the same server tick. " +
			"With sv_mutualkills 0 (CS:GO) the command run first wins and the other player's shot never happens; with 1 (Overwatch) both die.",
		Duration: 2 * sec, Map: DefaultMap,
		Knobs:   knobs(seatKnobs(60), seatKnobs(60)),
		Drivers: [2]Driver{DriveScript, DriveScript},
		Place:   [2]Placement{{X: 300, Y: 160, Health: 25}, {X: 724, Y: 160, Angle: math.Pi, Health: 25}},
		Script: func(r *Run, seat int) netclient.Input {
			return fireOnce(r, r.T() >= sec)
		},
	},
	{
		Name:  "extrapolation",
		Title: "Extrapolation overshoot",
		Explain: "Player 1 has interpolation off, extrapolation on and 10 snapshots/s: it draws player 2 where its last velocity would have taken it by now. " +
			"Each time player 2 turns, player 1 draws it running on past the turn, then snaps back: extrapolation guesses, interpolation waits.",
		Duration: 3 * sec, Map: DefaultMap,
		Knobs: knobs(func() ClientKnobs {
			k := seatKnobs(120)
			k.Interpolate, k.Extrapolate, k.UpdateRate = false, true, 10
			return k
		}(), seatKnobs(60)),
		Drivers: [2]Driver{DriveIdle, DriveScript},
		Place:   [2]Placement{{X: 160, Y: 480, Health: 100}, {X: 640, Y: 160, Angle: math.Pi, Health: 100}},
		Script:  strafe(math.Pi),
	},
}

// strafe runs right and left, turning every 0.8 s, from one second into
// the run, aiming at aim (radians).
func strafe(aim float32) func(r *Run, seat int) netclient.Input {
	return func(r *Run, seat int) netclient.Input {
		if r.T() < sec {
			return hold(aim)
		}
		if (r.T()-sec)%(1600*time.Millisecond) < 800*time.Millisecond {
			return netclient.Input{MoveX: 1, Angle: aim}
		}
		return netclient.Input{MoveX: -1, Angle: aim}
	}
}
