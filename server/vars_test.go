package server

import (
	"slices"
	"strings"
	"testing"

	"tickshot/internal/cvar"
	"tickshot/net/proto"
)

// oldServerCvars is the server's cvar table as it was before the typed
// registry (server/vars.go, ServerCvars of CvarInfo): name, default, help,
// range and named values, in cvarlist's order.
var oldServerCvars = []struct {
	name, def, help string
	min, max        float64
	values          []string
}{
	{"sv_unlag", "1", "lag compensation: rewind other players' hitboxes to what the shooter saw (1) or trace against the present (0)", 0, 1, nil},
	{"sv_maxunlag", "0.5", "the furthest back, in seconds, lag compensation rewinds", 0, 1, nil},
	{"sv_showimpacts", "0", "tell the shooter where the server traced its target, to draw beside where the shooter drew it (1)", 0, 1, nil},
	{"sv_mutualkills", "0", "two players killing each other in one tick: the command run first wins (0, as CS:GO) or both die (1, as Overwatch)", 0, 1, nil},
	{"bot_difficulty", "1", "server bots' skill: 0 easy, 1 normal, 2 hard, 3 expert (reaction time and aim)", 0, 3, nil},
	{"mp_fraglimit", "20", "kills that win the match (0: no limit); then mp_chattime s of intermission and a new match", 0, 1000, nil},
	{"mp_chattime", "10", "seconds of intermission after a match: the end-of-match screen and the vote for the next map", 1, 120, nil},
	{"mp_timelimit", "10", "minutes a match lasts (0: no limit); the leader wins", 0, 600, nil},
	{"mp_spawnprotection", "3", "seconds after a spawned player first moves during which it takes no damage and bots leave it alone (standing still keeps it, at most 10 s); firing ends it (0: off)", 0, 10, nil},
	{"mp_gamemode", "dm", "dm: deathmatch, everyone for themselves; tdm: team deathmatch, red against blue, team score = the sum of its players' frags (mp_fraglimit applies to it). A change restarts the match at once", 0, 1, []string{"dm", "tdm"}},
	{"mp_friendlyfire", "0", "team deathmatch: teammates' shots and splash hurt, and a teamkill or a suicide costs a frag (1); off, shots pass through teammates (0)", 0, 1, nil},
	{"mp_autoteambalance", "1", "team deathmatch: when a team has 2 or more players more than the other, move one at their next respawn, and refuse jointeam to the bigger team (1)", 0, 1, nil},
	{"sv_maxspectators", "8", "spectators admitted besides the player slots (joining as one, or when every slot is taken by a human); 0: no spectators", 0, MaxPlayersLimit, nil},
	{"net_fakelag", "0", "server side: delay every message the server receives by this many ms", 0, 1000, nil},
	{"net_fakejitter", "0", "server side: random extra delay, 0..this many ms, on every message the server receives", 0, 500, nil},
	{"net_fakeloss", "0", "server side: drop this percentage of the messages the server receives", 0, 100, nil},
	{"sv_timeout", "120", "kick a player or spectator that sends no usercmds for this many seconds (a browser tab hidden from view sends none); 0: never", 0, 3600, nil},
	{"sv_maxplayers_per_ip", "4", "the most players and spectators from one IP address (loopback exempt); 0: no limit, for LAN parties behind one address", 0, MaxPlayersLimit, nil},
	{"sv_cheats", "0", "lag compensation trusts the latency a client's acks show (1: client-side net_fakelag is compensated, for local games and lag demos); 0: rewinds are bounded by the link's own round trip (websocket ping, TCP), so held acks buy no backtrack", 0, 1, nil},
	// Added by issue 19 (the Overwatch command buffer).
	{"sv_cmdbuffer", "1", "keep each player's usercmds queued as deep as its link's jitter and loss need, so that it moves every tick for everyone else (1, Overwatch's command buffer; the client's command clock dilates up to 5 % to keep it); 0: run commands as they arrive (Source)", 0, 1, nil},
	// Added by issue 23 (priority and rate by relevance).
	{"sv_maxrate", "8000", "the most bytes/s each client's snapshots are planned for: a snapshot takes at most min(rate, sv_maxrate) / cl_updaterate bytes (and one datagram, 1200), the players in view beyond the nearest by priority; 0: the client's rate alone", 0, proto.MaxRate, nil},
}

// TestServerCvarsKeepTheirTable: ServerCvars lists the same cvars in the
// same order with the same defaults, ranges, named values and help, all
// flagged as the server's; a server's own registry starts at the defaults.
func TestServerCvarsKeepTheirTable(t *testing.T) {
	if len(ServerCvars) != len(oldServerCvars) {
		t.Errorf("%d server cvars, want the %d of the table", len(ServerCvars), len(oldServerCvars))
	}
	v := defaultVars()
	for i, o := range oldServerCvars {
		if i >= len(ServerCvars) {
			break
		}
		c := ServerCvars[i]
		if c.Name != o.name || c.Default != o.def || c.Help != o.help || c.Min != o.min || c.Max != o.max || !slices.Equal(c.Values, o.values) {
			t.Errorf("cvar %d: %s default %q range %v..%v values %v help %q; want %s %q %v..%v %v %q",
				i, c.Name, c.Default, c.Min, c.Max, c.Values, c.Help, o.name, o.def, o.min, o.max, o.values, o.help)
		}
		if c.Flags&cvar.Server == 0 {
			t.Errorf("%s is not flagged as the server's", c.Name)
		}
		if got := v.get(o.name); got != o.def {
			t.Errorf("%s starts at %q, want %q", o.name, got, o.def)
		}
	}
}

// TestServerVarsTypedAndChecked: a set reaches the typed handle the tick
// reads (the game rules, fake lag), values outside the range or of the
// wrong form are refused naming the cvar, and an unknown name lists the
// known ones.
func TestServerVarsTypedAndChecked(t *testing.T) {
	v := defaultVars()
	for _, kv := range [][2]string{{"mp_fraglimit", "5"}, {"mp_gamemode", "tdm"}, {"sv_unlag", "0"}, {"net_fakelag", "80"}, {"sv_maxunlag", "0.5"}} {
		if err := v.set(kv[0], kv[1]); err != nil {
			t.Fatalf("%s %s: %v", kv[0], kv[1], err)
		}
	}
	if v.fragLimit.Get() != 5 || v.gameMode.Get() != 1 || v.unlag.Get() || v.fake.LagMs != 80 || v.maxUnlag.Get() != 0.5 {
		t.Errorf("typed reads: fraglimit %d, gamemode %d, unlag %v, fake %+v, maxunlag %v",
			v.fragLimit.Get(), v.gameMode.Get(), v.unlag.Get(), v.fake, v.maxUnlag.Get())
	}
	if v.get("mp_gamemode") != "tdm" {
		t.Errorf("mp_gamemode reads back as %q", v.get("mp_gamemode"))
	}
	for _, kv := range [][3]string{
		{"sv_unlag", "5", "outside"},
		{"mp_fraglimit", "abc", "not a number"},
		{"mp_fraglimit", "2.5", "not a whole number"},
		{"mp_gamemode", "ctf", "not one of dm, tdm"},
		{"net_fakeloss", "101", "outside 0..100"},
		{"sv_nothing", "1", "unknown server cvar"},
	} {
		err := v.set(kv[0], kv[1])
		if err == nil || !strings.Contains(err.Error(), kv[2]) || !strings.Contains(err.Error(), kv[0]) {
			t.Errorf("%s %s: %v, want an error naming it with %q", kv[0], kv[1], err, kv[2])
		}
	}
	if v.fragLimit.Get() != 5 {
		t.Errorf("a refused value changed mp_fraglimit to %d", v.fragLimit.Get())
	}
	v.setFake(proto.FakeConditions{LagMs: 10, JitterMs: 5, LossPct: 1})
	if v.get("net_fakejitter") != "5" || v.fake.JitterMs != 5 || v.fake.LossPct != 1 {
		t.Errorf("setFake: %+v, net_fakejitter %q", v.fake, v.get("net_fakejitter"))
	}
}
