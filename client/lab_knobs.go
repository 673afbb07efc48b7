//go:build !headless

package client

import (
	"fmt"
	"strconv"

	"tickshot/client/lab"
)

// labKnob is one live setting of the lag lab, a row of labKnobs: a seat's
// (lab.ClientKnobs) or the server's (lab.ServerKnobs). The window shows
// each as "name value" and steps it with a click (left: up or on, right:
// down or off).
type labKnob struct {
	name   string // Source's cvar name where Source has the setting
	server bool   // a server knob; else one per seat
	// value formats the knob's value in k (seat's for a seat knob).
	value func(k *lab.Knobs, seat int) string
	// step moves it one step up (dir 1) or down (dir -1); a switch flips.
	step func(k *lab.Knobs, seat int, dir int)
}

// stepIn returns the value one step from v along steps (sorted): the next
// larger step for dir 1, the next smaller for dir -1, v at the ends.
func stepIn[T int | float64](v T, steps []T, dir int) T {
	if dir > 0 {
		for _, s := range steps {
			if s > v {
				return s
			}
		}
		return v
	}
	for i := len(steps) - 1; i >= 0; i-- {
		if steps[i] < v {
			return steps[i]
		}
	}
	return v
}

// onOff formats a switch.
func onOff(b bool) string {
	if b {
		return "on"
	}
	return "off"
}

// seatInt is a seat knob of an int field (f returns its address) stepped
// along steps, shown with unit.
func seatInt(name, unit string, steps []int, f func(c *lab.ClientKnobs) *int) labKnob {
	return labKnob{name: name,
		value: func(k *lab.Knobs, s int) string { return strconv.Itoa(*f(&k.Seats[s])) + unit },
		step:  func(k *lab.Knobs, s, dir int) { p := f(&k.Seats[s]); *p = stepIn(*p, steps, dir) }}
}

// seatSwitch is a seat knob of a bool field.
func seatSwitch(name string, f func(c *lab.ClientKnobs) *bool) labKnob {
	return labKnob{name: name,
		value: func(k *lab.Knobs, s int) string { return onOff(*f(&k.Seats[s])) },
		step:  func(k *lab.Knobs, s, _ int) { p := f(&k.Seats[s]); *p = !*p }}
}

// bothWays is a seat knob set on both of its links alike (jitter, loss);
// it shows one value, or each way's (up↑ down↓) where a preset set them
// apart.
func bothWays[T int | float64](name, unit string, steps []T, f func(l *lab.Link) *T) labKnob {
	return labKnob{name: name,
		value: func(k *lab.Knobs, s int) string {
			up, down := *f(&k.Seats[s].Up), *f(&k.Seats[s].Down)
			if up == down {
				return fmt.Sprint(up) + unit
			}
			return fmt.Sprintf("%v↑ %v↓%s", up, down, unit)
		},
		step: func(k *lab.Knobs, s, dir int) {
			v := stepIn(*f(&k.Seats[s].Up), steps, dir)
			*f(&k.Seats[s].Up), *f(&k.Seats[s].Down) = v, v
		}}
}

// labKnobs is the table of the lab's knobs, in the order the panel shows
// them: each seat's thirteen, then the server's four.
var labKnobs = []labKnob{
	{name: "RTT",
		value: func(k *lab.Knobs, s int) string {
			return strconv.Itoa(k.Seats[s].Up.LagMs+k.Seats[s].Down.LagMs) + " ms"
		},
		step: func(k *lab.Knobs, s, dir int) {
			c := &k.Seats[s]
			rtt := stepIn(c.Up.LagMs+c.Down.LagMs, []int{0, 20, 40, 60, 80, 100, 120, 150, 200, 250, 300, 400}, dir)
			c.Up.LagMs, c.Down.LagMs = rtt-rtt/2, rtt/2 // half each way
		}},
	bothWays("jitter", " ms", []int{0, 5, 10, 20, 30, 50, 100}, func(l *lab.Link) *int { return &l.JitterMs }),
	bothWays("loss", " %", []float64{0, 1, 2, 5, 10, 20, 30}, func(l *lab.Link) *float64 { return &l.LossPct }),
	seatInt("cl_updaterate", "/s", []int{10, 16, 20, 32, 64}, func(c *lab.ClientKnobs) *int { return &c.UpdateRate }),
	seatInt("cl_cmdrate", "/s", []int{10, 20, 32, 64, 128}, func(c *lab.ClientKnobs) *int { return &c.CmdRate }),
	seatInt("cl_interp", " ms", []int{0, 25, 50, 75, 100, 150, 200, 300}, func(c *lab.ClientKnobs) *int { return &c.InterpMs }),
	{name: "cl_interp_ratio",
		value: func(k *lab.Knobs, s int) string { return strconv.FormatFloat(k.Seats[s].InterpRatio, 'g', 3, 64) },
		step: func(k *lab.Knobs, s, dir int) {
			k.Seats[s].InterpRatio = stepIn(k.Seats[s].InterpRatio, []float64{1, 2, 3}, dir)
		}},
	seatInt("cl_cmdbackup", "", []int{0, 1, 2, 3, 4}, func(c *lab.ClientKnobs) *int { return &c.CmdBackup }),
	seatSwitch("cl_predict", func(c *lab.ClientKnobs) *bool { return &c.Predict }),
	seatSwitch("reconcile", func(c *lab.ClientKnobs) *bool { return &c.Reconcile }),
	seatSwitch("cl_interpolate", func(c *lab.ClientKnobs) *bool { return &c.Interpolate }),
	seatSwitch("cl_extrapolate", func(c *lab.ClientKnobs) *bool { return &c.Extrapolate }),
	seatSwitch("cl_smooth", func(c *lab.ClientKnobs) *bool { return &c.Smooth }),

	{name: "sv_tickrate", server: true,
		value: func(k *lab.Knobs, _ int) string { return strconv.Itoa(k.Server.TickRate) + "/s" },
		step: func(k *lab.Knobs, _, dir int) {
			k.Server.TickRate = stepIn(k.Server.TickRate, []int{20, 32, 64, 100, 128}, dir)
		}},
	{name: "sv_unlag", server: true,
		value: func(k *lab.Knobs, _ int) string { return onOff(k.Server.Unlag) },
		step:  func(k *lab.Knobs, _, _ int) { k.Server.Unlag = !k.Server.Unlag }},
	{name: "sv_maxunlag", server: true,
		value: func(k *lab.Knobs, _ int) string { return strconv.FormatFloat(k.Server.MaxUnlag, 'g', 3, 64) + " s" },
		step: func(k *lab.Knobs, _, dir int) {
			k.Server.MaxUnlag = stepIn(k.Server.MaxUnlag, []float64{0, 0.05, 0.1, 0.2, 0.3, 0.5, 1}, dir)
		}},
	{name: "sv_mutualkills", server: true,
		value: func(k *lab.Knobs, _ int) string { return onOff(k.Server.MutualKills) },
		step:  func(k *lab.Knobs, _, _ int) { k.Server.MutualKills = !k.Server.MutualKills }},
}
