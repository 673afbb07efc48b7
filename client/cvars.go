//go:build !headless

package client

import (
	"fmt"
	"math"
	"os"
	"sort"
	"strconv"
	"strings"
)

// Console variables of the client, with Source's names. Each has a default,
// a range and help text; values are kept as text and parsed on set.
type cvarKind int

const (
	cvBool cvarKind = iota
	cvInt
	cvFloat
	cvString
)

type cvar struct {
	name, help string
	kind       cvarKind
	min, max   float64
	def        string
	value      string
	// apply pushes the value into the running game (may be nil).
	apply func(g *Game)
}

func (v *cvar) f() float64 {
	f, _ := strconv.ParseFloat(v.value, 64)
	return f
}

func (v *cvar) b() bool { return v.f() != 0 }

func (v *cvar) rangeText() string {
	switch v.kind {
	case cvBool:
		return "0 or 1"
	case cvString:
		return "text"
	}
	return formatNumber(v.min) + ".." + formatNumber(v.max)
}

// formatNumber writes f as people write numbers: plain decimals, never an
// exponent (1048576, not 1.048576e+06; 0.0001, not 1e-04).
func formatNumber(f float64) string {
	if f == 0 {
		return "0" // and not "-0"
	}
	return strconv.FormatFloat(f, 'f', -1, 64)
}

// newCvars returns the client's console variables with their defaults.
func newCvars() map[string]*cvar {
	list := []*cvar{
		{name: "cl_predict", kind: cvBool, max: 1, def: "1", help: "predict your own movement and shots locally (0: wait for the server, feel the full round trip)", apply: (*Game).applyNetConfig},
		{name: "cl_interpolate", kind: cvBool, max: 1, def: "1", help: "draw other players interpolated between snapshots (0: draw the newest snapshot as is)", apply: (*Game).applyNetConfig},
		{name: "cl_interp", kind: cvFloat, max: 0.5, def: "0.1", help: "interpolation period in seconds; the one used is max(cl_interp, cl_interp_ratio/cl_updaterate)", apply: (*Game).applyRates},
		{name: "cl_interp_ratio", kind: cvFloat, min: 1, max: 5, def: "2", help: "interpolation period in snapshot intervals (2 survives one lost snapshot)", apply: (*Game).applyRates},
		{name: "cl_updaterate", kind: cvInt, min: 10, max: 128, def: "20", help: "snapshots per second to ask the server for (at most its tick rate)", apply: (*Game).applyRates},
		{name: "cl_cmdrate", kind: cvInt, min: 10, max: 128, def: "128", help: "command packets per second to send (at most the tick rate)", apply: (*Game).applyRates},
		{name: "rate", kind: cvInt, min: 2500, max: 1048576, def: "196608", help: "most bytes per second the server may send you; snapshots beyond it are held back (choke)", apply: (*Game).applyRates},
		{name: "cl_nodelta", kind: cvInt, min: 0, max: 1, def: "0", help: "1 asks the server for full snapshots only, no delta compression (compare the bandwidth in net_graph)", apply: (*Game).applyRates},
		{name: "cl_cmdbackup", kind: cvInt, min: 0, max: 10, def: "2", help: "earlier usercmds resent in every command packet, so a lost packet loses no input", apply: (*Game).applyNetConfig},
		{name: "cl_extrapolate_amount", kind: cvFloat, min: 0, max: 1, def: "0.25", help: "seconds to extrapolate other players when snapshots run out", apply: (*Game).applyNetConfig},
		{name: "cl_smooth", kind: cvBool, max: 1, def: "1", help: "hide prediction corrections by easing the drawn position over cl_smoothtime", apply: (*Game).applyNetConfig},
		{name: "cl_smoothtime", kind: cvFloat, min: 0.01, max: 2, def: "0.1", help: "seconds over which a prediction correction is eased out", apply: (*Game).applyNetConfig},
		{name: "cl_showerror", kind: cvInt, min: 0, max: 2, def: "0", help: "prediction errors: 1 count them on screen, 2 also draw the server's position of you"},
		{name: "cl_showhitboxes", kind: cvBool, max: 1, def: "0", help: "draw every player's newest server position as a ghost beside the interpolated one"},
		{name: "net_graph", kind: cvInt, min: 0, max: 3, def: "0", help: "network graph: 1 text, 2 plus packet graph, 3 plus loss/choke/jitter/server details (F3 or N cycles)"},
		{name: "net_fakelag", kind: cvFloat, min: 0, max: 1000, def: "0", help: "delay every message you receive by this many ms", apply: (*Game).applyFake},
		{name: "net_fakejitter", kind: cvFloat, min: 0, max: 500, def: "0", help: "random extra delay, 0..this many ms, on every message you receive", apply: (*Game).applyFake},
		{name: "net_fakeloss", kind: cvFloat, min: 0, max: 100, def: "0", help: "drop this percentage of the messages you receive", apply: (*Game).applyFake},
		{name: "fps_max", kind: cvFloat, min: 0, max: 1000, def: "0", help: "most frames drawn per second; 0: no limit (besides mat_vsync)"},
		{name: "mat_vsync", kind: cvBool, max: 1, def: "1", help: "wait for the display's refresh before showing a frame (no tearing; caps fps at the refresh rate)", apply: (*Game).applyVsync},
		{name: "rcon_password", kind: cvString, def: "", help: "password for rcon commands on a remote server"},
	}
	m := make(map[string]*cvar, len(list))
	for _, v := range list {
		v.value = v.def
		m[v.name] = v
	}
	return m
}

// cvarNames returns the sorted names.
func (g *Game) cvarNames() []string {
	names := make([]string, 0, len(g.cvars))
	for n := range g.cvars {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// setCvar checks and sets a variable; an out-of-range value is refused
// with the range in the message.
func (g *Game) setCvar(name, value string) error {
	v := g.cvars[name]
	if v == nil {
		return fmt.Errorf("unknown cvar %q", name)
	}
	switch v.kind {
	case cvString:
		if len(value) > 64 {
			return fmt.Errorf("%s: longer than 64 characters", name)
		}
	default:
		f, err := strconv.ParseFloat(value, 64)
		if err != nil || math.IsNaN(f) || math.IsInf(f, 0) {
			return fmt.Errorf("%s: %q is not a number (range %s)", name, value, v.rangeText())
		}
		if v.kind != cvFloat && f != math.Trunc(f) {
			return fmt.Errorf("%s: %s is not a whole number (range %s)", name, formatNumber(f), v.rangeText())
		}
		if f < v.min || f > v.max {
			return fmt.Errorf("%s: %s is outside %s", name, formatNumber(f), v.rangeText())
		}
		value = formatNumber(f)
	}
	v.value = value
	if v.apply != nil {
		v.apply(g)
	}
	return nil
}

// applyNetConfig copies the prediction/interpolation switches into the netcode.
func (g *Game) applyNetConfig() {
	cfg := &g.opt.Config
	cfg.Predict = g.cvars["cl_predict"].b()
	cfg.Interpolate = g.cvars["cl_interpolate"].b()
	cfg.CmdBackup = int(g.cvars["cl_cmdbackup"].f())
	cfg.ExtrapMs = int(g.cvars["cl_extrapolate_amount"].f() * 1000)
	cfg.Smooth = g.cvars["cl_smooth"].b()
	cfg.SmoothMs = int(g.cvars["cl_smoothtime"].f() * 1000)
	if g.c != nil {
		c := &g.c.Cfg
		c.Predict, c.Interpolate, c.CmdBackup, c.ExtrapMs = cfg.Predict, cfg.Interpolate, cfg.CmdBackup, cfg.ExtrapMs
		c.Smooth, c.SmoothMs = cfg.Smooth, cfg.SmoothMs
	}
}

// applyRates copies the rates into the netcode and tells the server.
func (g *Game) applyRates() {
	cfg := &g.opt.Config
	cfg.InterpMs = int(math.Round(g.cvars["cl_interp"].f() * 1000))
	cfg.InterpRatio = g.cvars["cl_interp_ratio"].f()
	cfg.UpdateRate = int(g.cvars["cl_updaterate"].f())
	cfg.CmdRate = int(g.cvars["cl_cmdrate"].f())
	cfg.Rate = int(g.cvars["rate"].f())
	cfg.NoDelta = g.cvars["cl_nodelta"].b()
	if g.c != nil {
		c := &g.c.Cfg
		c.InterpMs, c.InterpRatio, c.Rate, c.NoDelta = cfg.InterpMs, cfg.InterpRatio, cfg.Rate, cfg.NoDelta
		c.UpdateRate = min(cfg.UpdateRate, g.c.TickRate)
		c.CmdRate = min(cfg.CmdRate, g.c.TickRate)
		g.c.SendSettings()
	}
}

// applyFake sets the simulated network conditions on what the client receives.
func (g *Game) applyFake() {
	if g.c != nil {
		g.c.SetFakeConditions(g.fakeConditions())
	}
}

// loadConfig runs a config file of console lines ("name value", "//" comments).
func (g *Game) loadConfig(path string) error {
	b, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	for i, line := range strings.Split(string(b), "\n") {
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "//") || strings.HasPrefix(line, "#") {
			continue
		}
		if out := g.exec(line); strings.HasPrefix(out, "error") || strings.HasPrefix(out, "unknown") ||
			strings.Contains(out, "is a server variable") {
			return fmt.Errorf("%s:%d: %s", path, i+1, out)
		}
	}
	return nil
}
