//go:build !headless

package client

import (
	"fmt"
	"math"
	"os"
	"strings"

	"github.com/hajimehoshi/ebiten/v2"

	"tickshot/client/config"
	"tickshot/client/demo"
	"tickshot/internal/cvar"
	"tickshot/net/proto"
	"tickshot/net/rtc"
	"tickshot/shared"
)

// clientCvars are the window's console variables (Source's names), typed
// handles into the Game's registry (package cvar, shared with the server's
// cvars): read with Get every frame, set by name from the console, flags
// and config files.
type clientCvars struct {
	predict, interpolate          *cvar.Bool
	interp, interpRatio           *cvar.Float
	updateRate, cmdRate, rate     *cvar.Int
	noDelta, cmdBackup            *cvar.Int
	extrapolate                   *cvar.Float
	smooth                        *cvar.Bool
	smoothTime                    *cvar.Float
	showError                     *cvar.Int
	showHitboxes                  *cvar.Bool
	netGraph                      *cvar.Int
	fakeLag, fakeJitter, fakeLoss *cvar.Float
	fpsMax                        *cvar.Float
	vsync                         *cvar.Bool
	rconPassword                  *cvar.String
	password                      *cvar.String
	transport                     *cvar.Int // cl_transport, an enum of rtc modes
	volume, sensitivity           *cvar.Float
	fullscreen                    *cvar.Bool
	demoScale                     *cvar.Float  // demo_timescale (demo_scene.go)
	screenShake, combatText       *cvar.Bool   // cl_screenshake, hud_combattext (juice.go)
	killCam                       *cvar.Bool   // cl_killcam (killcam.go)
	colour                        *cvar.Int    // cl_color (teams.go)
	master                        *cvar.String // cl_master: the menu's internet list (client/menu)
	// switches are the netcode switches the HUD lists when they differ
	// from their defaults.
	switches []*cvar.Var
}

// masterHelp is cl_master's help. No master is built in: the project runs
// no public one (docs/HOSTING.md, "The internet server list").
const masterHelp = "the master servers whose lists the menu's Internet tab shows: URLs (http://HOST:PORT) separated by spaces; empty: no internet list (docs/HOSTING.md says how to run one)"

// registerClientCvars registers the window's cvars in r with their
// defaults, ranges and help, and returns their handles. The change hooks
// (applyNetConfig and the others) are the Game's, set by bindCvars.
func registerClientCvars(r *cvar.Registry) clientCvars {
	const cl, arch = cvar.Client, cvar.Client | cvar.Archive
	return clientCvars{
		predict:      r.Bool("cl_predict", true, cl, "predict your own movement and shots locally (0: wait for the server, feel the full round trip)"),
		interpolate:  r.Bool("cl_interpolate", true, cl, "draw other players interpolated between snapshots (0: draw the newest snapshot as is)"),
		interp:       r.Float("cl_interp", 0.1, 0, 0.5, arch, "interpolation period in seconds; the one used is max(cl_interp, cl_interp_ratio/cl_updaterate)"),
		interpRatio:  r.Float("cl_interp_ratio", 2, 1, 5, arch, "interpolation period in snapshot intervals (2 survives one lost snapshot)"),
		updateRate:   r.Int("cl_updaterate", 20, proto.MinUpdateRate, shared.MaxTickRate, arch, "snapshots per second to ask the server for (at most its tick rate)"),
		cmdRate:      r.Int("cl_cmdrate", shared.MaxTickRate, proto.MinCmdRate, shared.MaxTickRate, arch, "command packets per second to send (at most the tick rate)"),
		rate:         r.Int("rate", 196608, 2500, 1048576, arch, "most bytes per second the server may send you; snapshots beyond it are held back (choke)"),
		noDelta:      r.Int("cl_nodelta", 0, 0, 1, cl, "1 asks the server for full snapshots only, no delta compression (compare the bandwidth in net_graph)"),
		cmdBackup:    r.Int("cl_cmdbackup", 2, 0, 10, arch, "earlier usercmds resent in every command packet, so a lost packet loses no input"),
		extrapolate:  r.Float("cl_extrapolate_amount", 0.25, 0, 1, arch, "seconds to extrapolate other players when snapshots run out"),
		smooth:       r.Bool("cl_smooth", true, arch, "hide prediction corrections by easing the drawn position over cl_smoothtime"),
		smoothTime:   r.Float("cl_smoothtime", 0.1, 0.01, 2, arch, "seconds over which a prediction correction is eased out"),
		showError:    r.Int("cl_showerror", 0, 0, 2, cl, "prediction errors: 1 count them on screen, 2 also draw the server's position of you"),
		showHitboxes: r.Bool("cl_showhitboxes", false, cl, "draw every player's newest server position as a ghost beside the interpolated one"),
		netGraph:     r.Int("net_graph", 0, 0, 3, arch, "network graph: 1 text, 2 plus packet graph, 3 plus loss/choke/jitter/server details (F3 or N cycles)"),
		fakeLag:      r.Float("net_fakelag", 0, 0, 1000, cl, "delay every message you receive by this many ms"),
		fakeJitter:   r.Float("net_fakejitter", 0, 0, 500, cl, "random extra delay, 0..this many ms, on every message you receive"),
		fakeLoss:     r.Float("net_fakeloss", 0, 0, 100, cl, "drop this percentage of the messages you receive"),
		fpsMax:       r.Float("fps_max", 0, 0, 1000, arch, "most frames drawn per second; 0: no limit (besides mat_vsync)"),
		vsync:        r.Bool("mat_vsync", true, arch, "wait for the display's refresh before showing a frame (no tearing; caps fps at the refresh rate)"),
		rconPassword: r.String("rcon_password", "", cl|cvar.Protected, "password for rcon commands on a remote server"),
		password:     r.String("password", "", cl|cvar.Protected, "join password sent when connecting, for servers started with --password (Source's password)"),
		transport: r.Enum("cl_transport", string(rtc.ModeAuto), []string{string(rtc.ModeAuto), string(rtc.ModeWebRTC), string(rtc.ModeWebSocket)}, arch,
			"how snapshots and usercmds travel, from the next connect: auto (a WebRTC data channel, UDP datagrams, falling back to the WebSocket when no datagram comes within 3 s), webrtc (no fallback), websocket"),
		volume:      r.Float("volume", 1, 0, 1, arch, "sound volume, 0 (silent) to 1 (Source's volume)"),
		sensitivity: r.Float("sensitivity", 1, 0.1, 5, arch, "mouse sensitivity (Source's name): how far the crosshair moves per mouse movement; 1 follows the pointer exactly, other values capture the pointer and scale its motion, as Teeworlds' inp_mousesens"),
		fullscreen:  r.Bool("r_fullscreen", false, arch, "fill the screen with the window (Quake 3's r_fullscreen)"),
		demoScale:   r.Float("demo_timescale", 1, demo.MinScale, demo.MaxScale, cl, "speed of demo playback ([ and ] step it)"),
		screenShake: r.Bool("cl_screenshake", true, arch, "shake the screen a little when an explosion goes off near you or you take damage (0: never)"),
		combatText:  r.Bool("hud_combattext", true, arch, "damage numbers: show the damage of each of your hits rising from where it landed (TF2's name)"),
		killCam:     r.Bool("cl_killcam", true, arch, "when you are killed, replay the last 3 s from your killer's side before the death card; any key skips it (0: never)"),
		colour: r.Int("cl_color", 0, 0, proto.MaxColor, arch,
			"your body's colour in free-for-all, from the next connect (a team's colour wins in team play): 0 automatic, 1 red, 2 orange, 3 yellow, 4 green, 5 teal, 6 blue, 7 violet, 8 pink (QuakeWorld's color)"),
		master: r.String("cl_master", "", arch, masterHelp),
	}
}

// bindCvars registers the window's cvars in g.cvars and hooks the ones
// that push their value into the running game.
func (g *Game) bindCvars() {
	g.cvars = cvar.NewRegistry()
	g.cv = registerClientCvars(g.cvars)
	cv := &g.cv
	for _, v := range []*cvar.Var{&cv.predict.Var, &cv.interpolate.Var, &cv.cmdBackup.Var, &cv.extrapolate.Var, &cv.smooth.Var, &cv.smoothTime.Var} {
		v.OnChange(g.applyNetConfig)
	}
	for _, v := range []*cvar.Var{&cv.interp.Var, &cv.interpRatio.Var, &cv.updateRate.Var, &cv.cmdRate.Var, &cv.rate.Var, &cv.noDelta.Var} {
		v.OnChange(g.applyRates)
	}
	for _, v := range []*cvar.Var{&cv.fakeLag.Var, &cv.fakeJitter.Var, &cv.fakeLoss.Var} {
		v.OnChange(g.applyFake)
	}
	cv.vsync.OnChange(g.applyVsync)
	cv.password.OnChange(g.applyPassword)
	cv.colour.OnChange(func() { g.opt.Config.Color = uint8(cv.colour.Get()) })
	cv.transport.OnChange(func() { g.opt.Config.Transport = rtc.Mode(cv.transport.String()) })
	cv.demoScale.OnChange(func() {
		if g.demo != nil {
			g.demo.p.SetScale(cv.demoScale.Get())
		}
	})
	cv.volume.OnChange(g.applyVolume)
	cv.fullscreen.OnChange(g.applyFullscreen)
	cv.switches = []*cvar.Var{&cv.predict.Var, &cv.interpolate.Var, &cv.interp.Var, &cv.interpRatio.Var, &cv.updateRate.Var, &cv.cmdRate.Var,
		&cv.rate.Var, &cv.cmdBackup.Var, &cv.smooth.Var, &cv.fakeLag.Var, &cv.fakeJitter.Var, &cv.fakeLoss.Var}
}

// formatNumber writes f as people write numbers (cvar.FormatNumber).
func formatNumber(f float64) string { return cvar.FormatNumber(f) }

// fakeConditions returns net_fakelag, net_fakejitter and net_fakeloss.
func (cv *clientCvars) fakeConditions() proto.FakeConditions {
	return proto.FakeConditions{LagMs: cv.fakeLag.Get(), JitterMs: cv.fakeJitter.Get(), LossPct: cv.fakeLoss.Get()}
}

// applyNetConfig copies the prediction/interpolation switches into the netcode.
func (g *Game) applyNetConfig() {
	cfg := &g.opt.Config
	cv := &g.cv
	cfg.Predict = cv.predict.Get()
	cfg.Interpolate = cv.interpolate.Get()
	cfg.CmdBackup = cv.cmdBackup.Get()
	cfg.ExtrapMs = int(cv.extrapolate.Get() * 1000)
	cfg.Smooth = cv.smooth.Get()
	cfg.SmoothMs = int(cv.smoothTime.Get() * 1000)
	if g.c != nil {
		c := g.c.View().Config
		c.Predict, c.Interpolate, c.CmdBackup, c.ExtrapMs = cfg.Predict, cfg.Interpolate, cfg.CmdBackup, cfg.ExtrapMs
		c.Smooth, c.SmoothMs = cfg.Smooth, cfg.SmoothMs
		g.c.SetConfig(c)
	}
}

// applyRates copies the rates into the netcode and tells the server.
func (g *Game) applyRates() {
	cfg := &g.opt.Config
	cv := &g.cv
	cfg.InterpMs = int(math.Round(cv.interp.Get() * 1000))
	cfg.InterpRatio = cv.interpRatio.Get()
	cfg.UpdateRate = cv.updateRate.Get()
	cfg.CmdRate = cv.cmdRate.Get()
	cfg.Rate = cv.rate.Get()
	cfg.NoDelta = cv.noDelta.Get() != 0
	if g.c != nil {
		c := g.c.View().Config
		c.InterpMs, c.InterpRatio, c.Rate, c.NoDelta = cfg.InterpMs, cfg.InterpRatio, cfg.Rate, cfg.NoDelta
		c.UpdateRate, c.CmdRate = cfg.UpdateRate, cfg.CmdRate
		g.c.SetConfig(c) // held to the tick rate, and sent to the server
	}
}

// applyPassword sets the join password for the next connect.
func (g *Game) applyPassword() { g.opt.Config.Password = g.cv.password.Get() }

// applyFake sets the simulated network conditions on what the client receives.
func (g *Game) applyFake() {
	if g.c != nil && g.demo == nil { // a demo's frames are as recorded
		fc := g.cv.fakeConditions()
		g.c.SetFakeConditions(fc)
		if w := fakeLagWarning(g.c.View().Accept.Cvars, fc); w != "" {
			g.con.print(w)
		}
	}
}

// fakeLagWarning is what the console says when net_fakelag or
// net_fakejitter is set on a server that does not compensate it: there,
// with sv_cheats 0, rewinds are bounded by the link's own round trip
// (server/lagcomp.go), so shots aimed at what a fake-lagged client draws
// may land behind their target. As in Source, where net_fakelag is a cheat
// cvar. "" when nothing is faked or the server runs sv_cheats 1.
func fakeLagWarning(serverCvars []proto.Cvar, fc proto.FakeConditions) string {
	if fc.LagMs <= 0 && fc.JitterMs <= 0 {
		return ""
	}
	for _, cv := range serverCvars {
		if cv.Name == "sv_cheats" {
			if cv.Value != "0" {
				return ""
			}
			return "net_fakelag: this server runs sv_cheats 0, so lag compensation covers only your real round trip (+100 ms and your lerp): shots may land behind what you see"
		}
	}
	return "" // an older server: no bound to warn about
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

// applySettings takes config.cfg's cvars and bindings (its name is the
// program's to use: --name). A cvar this version does not know, or a value
// out of range, is reported in the console and skipped: the file is the
// menu's, and an old one must not keep the game from starting.
func (g *Game) applySettings(s *config.Config) {
	for _, kv := range s.Cvars {
		if v := g.cvars.Lookup(kv[0]); v == nil {
			g.con.print(fmt.Sprintf("config.cfg: unknown cvar %q skipped", kv[0]))
		} else if err := g.cvars.Set(kv[0], kv[1]); err != nil {
			g.con.print("config.cfg: " + err.Error())
		}
	}
	g.binds.list = nil
	for _, b := range s.Binds {
		if err := g.binds.bind(b.Key, b.Command); err != nil {
			g.con.print("config.cfg: " + err.Error())
		}
	}
}

// applyVolume sets the sound volume.
func (g *Game) applyVolume() {
	if g.sound != nil {
		g.sound.volume = g.cv.volume.Get()
	}
}

// applyFullscreen fills the screen with the window, or not.
func (g *Game) applyFullscreen() { ebiten.SetFullscreen(g.cv.fullscreen.Get()) }
