//go:build !headless

package client

import (
	"strings"
	"testing"

	"tickshot/internal/cvar"
	"tickshot/net/proto"
)

// oldClientCvars is the client's cvar table as it was before the typed
// registry (client/cvars.go, newCvars): name, kind, range, default, help.
var oldClientCvars = []struct {
	name     string
	kind     cvar.Kind
	min, max float64
	def      string
	help     string
}{
	{"cl_predict", cvar.KindBool, 0, 1, "1", "predict your own movement and shots locally (0: wait for the server, feel the full round trip)"},
	{"cl_interpolate", cvar.KindBool, 0, 1, "1", "draw other players interpolated between snapshots (0: draw the newest snapshot as is)"},
	{"cl_interp", cvar.KindFloat, 0, 0.5, "0.1", "interpolation period in seconds; the one used is max(cl_interp, cl_interp_ratio/cl_updaterate)"},
	{"cl_interp_ratio", cvar.KindFloat, 1, 5, "2", "interpolation period in snapshot intervals (2 survives one lost snapshot)"},
	{"cl_updaterate", cvar.KindInt, 10, 128, "20", "snapshots per second to ask the server for (at most its tick rate)"},
	{"cl_cmdrate", cvar.KindInt, 10, 128, "128", "command packets per second to send (at most the tick rate)"},
	{"rate", cvar.KindInt, 2500, 1048576, "196608", "most bytes per second the server may send you; snapshots beyond it are held back (choke)"},
	{"cl_nodelta", cvar.KindInt, 0, 1, "0", "1 asks the server for full snapshots only, no delta compression (compare the bandwidth in net_graph)"},
	{"cl_cmdbackup", cvar.KindInt, 0, 10, "2", "earlier usercmds resent in every command packet, so a lost packet loses no input"},
	{"cl_extrapolate_amount", cvar.KindFloat, 0, 1, "0.25", "seconds to extrapolate other players when snapshots run out"},
	{"cl_smooth", cvar.KindBool, 0, 1, "1", "hide prediction corrections by easing the drawn position over cl_smoothtime"},
	{"cl_smoothtime", cvar.KindFloat, 0.01, 2, "0.1", "seconds over which a prediction correction is eased out"},
	{"cl_showerror", cvar.KindInt, 0, 2, "0", "prediction errors: 1 count them on screen, 2 also draw the server's position of you"},
	{"cl_showhitboxes", cvar.KindBool, 0, 1, "0", "draw every player's newest server position as a ghost beside the interpolated one"},
	{"net_graph", cvar.KindInt, 0, 3, "0", "network graph: 1 text, 2 plus packet graph, 3 plus loss/choke/jitter/server details (F3 or N cycles)"},
	{"net_fakelag", cvar.KindFloat, 0, 1000, "0", "delay every message you receive by this many ms"},
	{"net_fakejitter", cvar.KindFloat, 0, 500, "0", "random extra delay, 0..this many ms, on every message you receive"},
	{"net_fakeloss", cvar.KindFloat, 0, 100, "0", "drop this percentage of the messages you receive"},
	{"fps_max", cvar.KindFloat, 0, 1000, "0", "most frames drawn per second; 0: no limit (besides mat_vsync)"},
	{"mat_vsync", cvar.KindBool, 0, 1, "1", "wait for the display's refresh before showing a frame (no tearing; caps fps at the refresh rate)"},
	{"rcon_password", cvar.KindString, 0, 0, "", "password for rcon commands on a remote server"},
	// Added since (issue 10 item 3).
	{"password", cvar.KindString, 0, 0, "", "join password sent when connecting, for servers started with --password (Source's password)"},
	// Added since (issue 10 item 7).
	{"demo_timescale", cvar.KindFloat, 0.25, 4, "1", "speed of demo playback ([ and ] step it)"},
	// Added since for the menu's settings (issue 10 item 2).
	{"volume", cvar.KindFloat, 0, 1, "1", "sound volume, 0 (silent) to 1 (Source's volume)"},
	{"sensitivity", cvar.KindFloat, 0.1, 5, "1", "mouse sensitivity (Source's name): how far the crosshair moves per mouse movement; 1 follows the pointer exactly, other values capture the pointer and scale its motion, as Teeworlds' inp_mousesens"},
	{"r_fullscreen", cvar.KindBool, 0, 1, "0", "fill the screen with the window (Quake 3's r_fullscreen)"},
	// Added since (issue 19 item 3).
	{"cl_transport", cvar.KindInt, 0, 2, "auto", "how snapshots and usercmds travel, from the next connect: auto (a WebRTC data channel, UDP datagrams, falling back to the WebSocket when no datagram comes within 3 s), webrtc (no fallback), websocket"},
	// Added since (issue 21 item 2).
	{"cl_screenshake", cvar.KindBool, 0, 1, "1", "shake the screen a little when an explosion goes off near you or you take damage (0: never)"},
	{"hud_combattext", cvar.KindBool, 0, 1, "1", "damage numbers: show the damage of each of your hits rising from where it landed (TF2's name)"},
	// Added since (issue 21 item 6).
	{"cl_killcam", cvar.KindBool, 0, 1, "1", "when you are killed, replay the last 3 s from your killer's side before the death card; any key skips it (0: never)"},
	// Added since (issue 21 item 1).
	{"cl_color", cvar.KindInt, 0, 8, "0", "your body's colour in free-for-all, from the next connect (a team's colour wins in team play): 0 automatic, 1 red, 2 orange, 3 yellow, 4 green, 5 teal, 6 blue, 7 violet, 8 pink (QuakeWorld's color)"},
	// Added since (issue 22 item 2).
	{"cl_master", cvar.KindString, 0, 0, "", "the master servers whose lists the menu's Internet tab shows: URLs (http://HOST:PORT) separated by spaces; empty: no internet list (docs/HOSTING.md says how to run one)"},
}

// TestClientCvarsKeepTheirTable: the registry holds exactly the client's
// cvars of before, each with the same kind, range, default and help text
// (the console, --cvar flags and config files depend on them), all flagged
// as the client's, and the typed handles read their defaults.
func TestClientCvarsKeepTheirTable(t *testing.T) {
	g := newTestGame(Options{})
	if n := len(g.cvars.All()); n != len(oldClientCvars) {
		t.Errorf("%d cvars, want the %d of before", n, len(oldClientCvars))
	}
	for _, o := range oldClientCvars {
		v := g.cvars.Lookup(o.name)
		if v == nil {
			t.Errorf("%s is gone", o.name)
			continue
		}
		if v.Kind != o.kind || v.Min != o.min || v.Max != o.max || v.Default != o.def || v.Help != o.help {
			t.Errorf("%s: kind %v, range %v..%v, default %q, help %q; want %v, %v..%v, %q, %q",
				o.name, v.Kind, v.Min, v.Max, v.Default, v.Help, o.kind, o.min, o.max, o.def, o.help)
		}
		if v.String() != o.def || v.Flags&cvar.Client == 0 {
			t.Errorf("%s: value %q at start (want %q), flags %b", o.name, v.String(), o.def, v.Flags)
		}
	}
	cv := &g.cv
	if !cv.predict.Get() || cv.interp.Get() != 0.1 || cv.updateRate.Get() != 20 || cv.rate.Get() != 196608 ||
		cv.netGraph.Get() != 0 || !cv.vsync.Get() || cv.rconPassword.Get() != "" {
		t.Errorf("typed reads of the defaults: %v %v %v %v %v %v %q", cv.predict.Get(), cv.interp.Get(), cv.updateRate.Get(),
			cv.rate.Get(), cv.netGraph.Get(), cv.vsync.Get(), cv.rconPassword.Get())
	}
	// A console line reaches the handle the frame reads.
	g.exec("net_graph 2")
	g.exec("cl_interp_ratio 3")
	if cv.netGraph.Get() != 2 || cv.interpRatio.Get() != 3 || g.opt.Config.InterpRatio != 3 {
		t.Errorf("after the console: net_graph %d, cl_interp_ratio %v (config %v)", cv.netGraph.Get(), cv.interpRatio.Get(), g.opt.Config.InterpRatio)
	}
}

func TestFakeLagWarning(t *testing.T) {
	lag := proto.FakeConditions{LagMs: 150}
	jitter := proto.FakeConditions{JitterMs: 30}
	off := []proto.Cvar{{Name: "sv_unlag", Value: "1"}, {Name: "sv_cheats", Value: "0"}}
	on := []proto.Cvar{{Name: "sv_cheats", Value: "1"}}
	if w := fakeLagWarning(off, lag); !strings.Contains(w, "sv_cheats 0") {
		t.Errorf("fake lag on an sv_cheats 0 server: warning %q, want one naming sv_cheats 0", w)
	}
	if w := fakeLagWarning(off, jitter); w == "" {
		t.Error("fake jitter on an sv_cheats 0 server: no warning")
	}
	if w := fakeLagWarning(on, lag); w != "" {
		t.Errorf("sv_cheats 1 compensates fake lag, but warned %q", w)
	}
	if w := fakeLagWarning(off, proto.FakeConditions{LossPct: 5}); w != "" {
		t.Errorf("loss alone is not bounded by the rewind, but warned %q", w)
	}
	if w := fakeLagWarning(nil, lag); w != "" {
		t.Errorf("a server that sends no sv_cheats has no bound to warn about, but warned %q", w)
	}
}
