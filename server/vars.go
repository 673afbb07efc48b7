package server

import (
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"
	"time"

	"tickshot/game"
	"tickshot/net/proto"
)

// vars are the server's console variables (Source's names).
type vars struct {
	unlag       bool    // sv_unlag
	maxUnlag    float64 // sv_maxunlag, seconds
	showImpacts bool    // sv_showimpacts
	mutualKills bool    // sv_mutualkills
	fake        proto.FakeConditions
	botSkill    float64 // bot_difficulty
	fragLimit   int     // mp_fraglimit
	timeLimit   float64 // mp_timelimit, minutes
	spawnProt   float64 // mp_spawnprotection, seconds
	teamPlay    bool    // mp_gamemode: false dm, true tdm
	friendly    bool    // mp_friendlyfire
	autoBalance bool    // mp_autoteambalance
	// maxSpectators is sv_maxspectators: spectators admitted besides the
	// player slots (spectate.go).
	maxSpectators int
}

// CvarInfo describes one server console variable.
type CvarInfo struct {
	Name, Default, Help string
	Min, Max            float64
	// Values, when set, are the names a cvar also takes, for the numbers
	// Min..Max in order (mp_gamemode: dm is 0, tdm is 1); it reads back as
	// the name.
	Values []string
}

// Number parses value for the cvar: a number in Min..Max or one of Values.
func (c *CvarInfo) Number(value string) (float64, error) {
	for i, v := range c.Values {
		if value == v {
			return c.Min + float64(i), nil
		}
	}
	f, err := strconv.ParseFloat(value, 64)
	if err != nil || f != f {
		if len(c.Values) > 0 {
			return 0, fmt.Errorf("%s: %q is not one of %s", c.Name, value, strings.Join(c.Values, ", "))
		}
		return 0, fmt.Errorf("%s: %q is not a number", c.Name, value)
	}
	if f < c.Min || f > c.Max {
		return 0, fmt.Errorf("%s: %v outside [%g, %g]", c.Name, f, c.Min, c.Max)
	}
	return f, nil
}

// RangeText is the cvar's range as help shows it: "0..1", or its Values.
func (c *CvarInfo) RangeText() string {
	if len(c.Values) > 0 {
		return strings.Join(c.Values, "|")
	}
	return fmt.Sprintf("%g..%g", c.Min, c.Max)
}

// ServerCvars lists the server's console variables with range and help.
var ServerCvars = []CvarInfo{
	{"sv_unlag", "1", "lag compensation: rewind other players' hitboxes to what the shooter saw (1) or trace against the present (0)", 0, 1, nil},
	{"sv_maxunlag", "1", "the furthest back, in seconds, lag compensation rewinds", 0, 1, nil},
	{"sv_showimpacts", "0", "tell the shooter where the server traced its target, to draw beside where the shooter drew it (1)", 0, 1, nil},
	{"sv_mutualkills", "0", "two players killing each other in one tick: the command run first wins (0, as CS:GO) or both die (1, as Overwatch)", 0, 1, nil},
	{"bot_difficulty", "1", "server bots' skill: 0 easy, 1 normal, 2 hard, 3 expert (reaction time and aim)", 0, 3, nil},
	{"mp_fraglimit", "20", "kills that win the match (0: no limit); then 5 s of intermission and a new match", 0, 1000, nil},
	{"mp_timelimit", "10", "minutes a match lasts (0: no limit); the leader wins", 0, 600, nil},
	{"mp_spawnprotection", "3", "seconds after spawning during which a player takes no damage and bots leave it alone; firing ends it (0: off)", 0, 10, nil},
	{"mp_gamemode", "dm", "dm: deathmatch, everyone for themselves; tdm: team deathmatch, red against blue, team score = the sum of its players' frags (mp_fraglimit applies to it). A change restarts the match at once", 0, 1, []string{"dm", "tdm"}},
	{"mp_friendlyfire", "0", "team deathmatch: teammates' shots and splash hurt, and a teamkill or a suicide costs a frag (1); off, shots pass through teammates (0)", 0, 1, nil},
	{"mp_autoteambalance", "1", "team deathmatch: when a team has 2 or more players more than the other, move one at their next respawn, and refuse jointeam to the bigger team (1)", 0, 1, nil},
	{"sv_maxspectators", "8", "spectators admitted besides the player slots (joining as one, or when every slot is taken by a human); 0: no spectators", 0, MaxPlayersLimit, nil},
	{"net_fakelag", "0", "server side: delay every message the server receives by this many ms", 0, 1000, nil},
	{"net_fakejitter", "0", "server side: random extra delay, 0..this many ms, on every message the server receives", 0, 500, nil},
	{"net_fakeloss", "0", "server side: drop this percentage of the messages the server receives", 0, 100, nil},
}

func defaultVars() vars {
	return vars{unlag: true, maxUnlag: 1, fragLimit: 20, timeLimit: 10, botSkill: 1, spawnProt: 3, autoBalance: true,
		maxSpectators: DefaultMaxSpectators}
}

// set changes a variable, checking its name and range.
func (v *vars) set(name, value string) error {
	var info *CvarInfo
	for i := range ServerCvars {
		if ServerCvars[i].Name == name {
			info = &ServerCvars[i]
		}
	}
	if info == nil {
		names := make([]string, 0, len(ServerCvars))
		for _, c := range ServerCvars {
			names = append(names, c.Name)
		}
		sort.Strings(names)
		return fmt.Errorf("unknown server cvar %q (known: %v)", name, names)
	}
	f, err := info.Number(value)
	if err != nil {
		return err
	}
	switch name {
	case "sv_unlag":
		v.unlag = f != 0
	case "sv_maxunlag":
		v.maxUnlag = f
	case "sv_showimpacts":
		v.showImpacts = f != 0
	case "sv_mutualkills":
		v.mutualKills = f != 0
	case "bot_difficulty":
		v.botSkill = f
	case "mp_fraglimit":
		v.fragLimit = int(f)
	case "mp_timelimit":
		v.timeLimit = f
	case "mp_spawnprotection":
		v.spawnProt = f
	case "mp_gamemode":
		v.teamPlay = f != 0
	case "mp_friendlyfire":
		v.friendly = f != 0
	case "mp_autoteambalance":
		v.autoBalance = f != 0
	case "sv_maxspectators":
		v.maxSpectators = int(f)
	case "net_fakelag":
		v.fake.LagMs = f
	case "net_fakejitter":
		v.fake.JitterMs = f
	case "net_fakeloss":
		v.fake.LossPct = f
	}
	return nil
}

// get returns a variable's value as text.
func (v *vars) get(name string) string {
	b := func(x bool) string {
		if x {
			return "1"
		}
		return "0"
	}
	switch name {
	case "sv_unlag":
		return b(v.unlag)
	case "sv_maxunlag":
		return strconv.FormatFloat(v.maxUnlag, 'g', -1, 64)
	case "sv_showimpacts":
		return b(v.showImpacts)
	case "sv_mutualkills":
		return b(v.mutualKills)
	case "bot_difficulty":
		return strconv.FormatFloat(v.botSkill, 'g', -1, 64)
	case "mp_fraglimit":
		return strconv.Itoa(v.fragLimit)
	case "mp_timelimit":
		return strconv.FormatFloat(v.timeLimit, 'g', -1, 64)
	case "mp_spawnprotection":
		return strconv.FormatFloat(v.spawnProt, 'g', -1, 64)
	case "mp_gamemode":
		if v.teamPlay {
			return "tdm"
		}
		return "dm"
	case "mp_friendlyfire":
		return b(v.friendly)
	case "mp_autoteambalance":
		return b(v.autoBalance)
	case "sv_maxspectators":
		return strconv.Itoa(v.maxSpectators)
	case "net_fakelag":
		return strconv.FormatFloat(v.fake.LagMs, 'g', -1, 64)
	case "net_fakejitter":
		return strconv.FormatFloat(v.fake.JitterMs, 'g', -1, 64)
	case "net_fakeloss":
		return strconv.FormatFloat(v.fake.LossPct, 'g', -1, 64)
	}
	return ""
}

// exec runs a server console command (tick goroutine only): "NAME" shows a
// cvar, "NAME VALUE" sets it, "cvarlist" lists them, "status" lists players.
func (s *Server) exec(line string) string {
	f := strings.Fields(line)
	if len(f) == 0 {
		return ""
	}
	switch f[0] {
	case "cvarlist":
		var b strings.Builder
		for _, c := range ServerCvars {
			fmt.Fprintf(&b, "%s = %s (%s): %s\n", c.Name, s.vars.get(c.Name), c.RangeText(), c.Help)
		}
		return strings.TrimSpace(b.String())
	case "status":
		var b strings.Builder
		fmt.Fprintf(&b, "map %s, tick %d at %d/s, tick time %.0f us", s.m.Name, s.w.Tick, s.cfg.TickRate, s.tickStats.meanUs())
		for _, p := range s.w.Players {
			ping := "BOT"
			if ss := s.sessionOf(p.ID); ss != nil {
				ping = fmt.Sprintf("%.0f ms, rate %d, updaterate %d, cmdrate %d", math.Max(ss.acks.rttMs, 0), ss.rate.bytesPerSec, ss.rate.updateRate, ss.rate.cmdRate)
			}
			team := ""
			if p.Team != game.TeamNone {
				team = "  " + p.Team.String()
			}
			fmt.Fprintf(&b, "\n#%d %s  %d/%d  %s%s", p.ID, p.Name, p.Kills, p.Deaths, ping, team)
		}
		for _, p := range s.w.Spectators {
			fmt.Fprintf(&b, "\n#%d %s  %d/%d  spectator", p.ID, p.Name, p.Kills, p.Deaths)
		}
		return b.String()
	}
	if s.vars.get(f[0]) == "" {
		return fmt.Sprintf("unknown server command or cvar %q (try cvarlist)", f[0])
	}
	if len(f) == 1 {
		return fmt.Sprintf("%s = %s", f[0], s.vars.get(f[0]))
	}
	if err := s.vars.set(f[0], f[1]); err != nil {
		return err.Error()
	}
	if strings.HasPrefix(f[0], "net_fake") {
		for _, ss := range s.sessions {
			ss.conn.SetFakeConditions(s.vars.fake)
		}
	}
	s.log.Info("server cvar changed", "cvar", f[0], "value", s.vars.get(f[0]))
	return fmt.Sprintf("%s = %s", f[0], s.vars.get(f[0]))
}

type execReq struct {
	line  string
	reply chan string
}

// Exec runs a server console command from any goroutine (the listen
// server's host console) and returns its output. It waits for the next tick.
func (s *Server) Exec(line string) string {
	req := execReq{line: line, reply: make(chan string, 1)}
	select {
	case s.execCh <- req:
	case <-s.stopped:
		return "server is not running"
	case <-time.After(2 * time.Second):
		return "server did not answer"
	}
	select {
	case r := <-req.reply:
		return r
	case <-s.stopped:
		return "server is not running"
	}
}

func (s *Server) runExecs() {
	for {
		select {
		case req := <-s.execCh:
			req.reply <- s.exec(req.line)
		default:
			return
		}
	}
}
