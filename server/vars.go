package server

import (
	"fmt"
	"math"
	"strings"
	"time"

	"tickshot/game"
	"tickshot/internal/cvar"
	"tickshot/net/proto"
)

// vars are the server's console variables (Source's names): typed handles
// into one registry (package cvar, shared with the client's cvars), read
// with Get on the tick goroutine.
type vars struct {
	reg         *cvar.Registry
	unlag       *cvar.Bool  // sv_unlag
	maxUnlag    *cvar.Float // sv_maxunlag, seconds
	showImpacts *cvar.Bool  // sv_showimpacts
	mutualKills *cvar.Bool  // sv_mutualkills
	botSkill    *cvar.Float // bot_difficulty
	fragLimit   *cvar.Int   // mp_fraglimit
	timeLimit   *cvar.Float // mp_timelimit, minutes
	chatTime    *cvar.Int   // mp_chattime, seconds of intermission
	spawnProt   *cvar.Float // mp_spawnprotection, seconds
	gameMode    *cvar.Int   // mp_gamemode: 0 dm, 1 tdm
	friendly    *cvar.Bool  // mp_friendlyfire
	autoBalance *cvar.Bool  // mp_autoteambalance
	// maxSpectators is sv_maxspectators: spectators admitted besides the
	// player slots (spectate.go).
	maxSpectators *cvar.Int
	timeout       *cvar.Int // sv_timeout, seconds (squat.go)
	maxPerIP      *cvar.Int // sv_maxplayers_per_ip (squat.go)
	// cheats is sv_cheats: lag compensation trusts the round trip the
	// client's acks show, past the link's own (lagcomp.go, rewindBound).
	cheats *cvar.Bool
	// cmdBuffer is sv_cmdbuffer: keep each client's command buffer at the
	// depth its jitter and loss call for (session.go, cmdBufferTarget).
	cmdBuffer *cvar.Bool
	// maxRate is sv_maxrate, bytes/s: each snapshot's byte budget is at
	// most min(rate, sv_maxrate) / cl_updaterate (priority.go).
	maxRate    *cvar.Int
	fakeLag    *cvar.Float // net_fakelag, ms
	fakeJitter *cvar.Float // net_fakejitter, ms
	fakeLoss   *cvar.Float // net_fakeloss, %
	// fake is net_fakelag, net_fakejitter and net_fakeloss together, kept
	// up to date by their change hooks, with Config.Fake's LossBurst
	// (fakeBurst; no cvar sets it).
	fake      proto.FakeConditions
	fakeBurst float64
}

// defaultVars registers the server's cvars at their defaults.
func defaultVars() *vars {
	r := cvar.NewRegistry()
	const sv = cvar.Server
	v := &vars{reg: r,
		unlag:         r.Bool("sv_unlag", true, sv, "lag compensation: rewind other players' hitboxes to what the shooter saw (1) or trace against the present (0)"),
		maxUnlag:      r.Float("sv_maxunlag", DefaultMaxUnlag, 0, 1, sv, "the furthest back, in seconds, lag compensation rewinds"),
		showImpacts:   r.Bool("sv_showimpacts", false, sv, "tell the shooter where the server traced its target, to draw beside where the shooter drew it (1)"),
		mutualKills:   r.Bool("sv_mutualkills", false, sv, "two players killing each other in one tick: the command run first wins (0, as CS:GO) or both die (1, as Overwatch)"),
		botSkill:      r.Float("bot_difficulty", 1, 0, 3, sv, "server bots' skill: 0 easy, 1 normal, 2 hard, 3 expert (reaction time and aim)"),
		fragLimit:     r.Int("mp_fraglimit", 20, 0, 1000, sv, "kills that win the match (0: no limit); then mp_chattime s of intermission and a new match"),
		chatTime:      r.Int("mp_chattime", game.IntermissionSeconds, 1, 120, sv, "seconds of intermission after a match: the end-of-match screen and the vote for the next map"),
		timeLimit:     r.Float("mp_timelimit", 10, 0, 600, sv, "minutes a match lasts (0: no limit); the leader wins"),
		spawnProt:     r.Float("mp_spawnprotection", 3, 0, 10, sv, "seconds after a spawned player first moves during which it takes no damage and bots leave it alone (standing still keeps it, at most 10 s); firing ends it (0: off)"),
		gameMode:      r.Enum("mp_gamemode", "dm", []string{"dm", "tdm"}, sv, "dm: deathmatch, everyone for themselves; tdm: team deathmatch, red against blue, team score = the sum of its players' frags (mp_fraglimit applies to it). A change restarts the match at once"),
		friendly:      r.Bool("mp_friendlyfire", false, sv, "team deathmatch: teammates' shots and splash hurt, and a teamkill or a suicide costs a frag (1); off, shots pass through teammates (0)"),
		autoBalance:   r.Bool("mp_autoteambalance", true, sv, "team deathmatch: when a team has 2 or more players more than the other, move one at their next respawn, and refuse jointeam to the bigger team (1)"),
		maxSpectators: r.Int("sv_maxspectators", DefaultMaxSpectators, 0, MaxPlayersLimit, sv, "spectators admitted besides the player slots (joining as one, or when every slot is taken by a human); 0: no spectators"),
		fakeLag:       r.Float("net_fakelag", 0, 0, 1000, sv, "server side: delay every message the server receives by this many ms"),
		fakeJitter:    r.Float("net_fakejitter", 0, 0, 500, sv, "server side: random extra delay, 0..this many ms, on every message the server receives"),
		fakeLoss:      r.Float("net_fakeloss", 0, 0, 100, sv, "server side: drop this percentage of the messages the server receives"),
		timeout:       r.Int("sv_timeout", DefaultTimeoutSec, 0, maxTimeoutSec, sv, "kick a player or spectator that sends no usercmds for this many seconds (a browser tab hidden from view sends none); 0: never"),
		maxPerIP:      r.Int("sv_maxplayers_per_ip", DefaultMaxPlayersPerIP, 0, maxPlayersPerIPLimit, sv, "the most players and spectators from one IP address (loopback exempt); 0: no limit, for LAN parties behind one address"),
		cheats:        r.Bool("sv_cheats", false, sv, "lag compensation trusts the latency a client's acks show (1: client-side net_fakelag is compensated, for local games and lag demos); 0: rewinds are bounded by the link's own round trip (websocket ping, TCP), so held acks buy no backtrack"),
		cmdBuffer:     r.Bool("sv_cmdbuffer", true, sv, "keep each player's usercmds queued as deep as its link's jitter and loss need, so that it moves every tick for everyone else (1, Overwatch's command buffer; the client's command clock dilates up to 5 % to keep it); 0: run commands as they arrive (Source)"),
		maxRate:       r.Int("sv_maxrate", DefaultMaxRate, 0, proto.MaxRate, sv, "the most bytes/s each client's snapshots are planned for: a snapshot takes at most min(rate, sv_maxrate) / cl_updaterate bytes (and one datagram, 1200), the players in view beyond the nearest by priority; 0: the client's rate alone"),
	}
	sync := func() {
		v.fake = proto.FakeConditions{LagMs: v.fakeLag.Get(), JitterMs: v.fakeJitter.Get(), LossPct: v.fakeLoss.Get(), LossBurst: v.fakeBurst}
	}
	v.fakeLag.OnChange(sync)
	v.fakeJitter.OnChange(sync)
	v.fakeLoss.OnChange(sync)
	return v
}

// ServerCvars lists the server's console variables with their defaults,
// ranges and help, in the order of cvarlist (definitions: their values are
// the defaults and are not the running server's).
var ServerCvars = defaultVars().reg.All()

// setFake sets net_fakelag, net_fakejitter and net_fakeloss at once, and
// the burst length of the loss (Config.Fake; c is clamped to their ranges).
func (v *vars) setFake(c proto.FakeConditions) {
	v.fakeBurst = c.LossBurst
	v.fake.LossBurst = c.LossBurst
	_ = v.fakeLag.Set(cvar.FormatNumber(c.LagMs))
	_ = v.fakeJitter.Set(cvar.FormatNumber(c.JitterMs))
	_ = v.fakeLoss.Set(cvar.FormatNumber(c.LossPct))
}

// set changes a variable, checking its name and range.
func (v *vars) set(name, value string) error {
	c := v.reg.Lookup(name)
	if c == nil {
		return fmt.Errorf("unknown server cvar %q (known: %v)", name, v.reg.Names())
	}
	return c.Set(value)
}

// get returns a variable's value as text ("" for an unknown name).
func (v *vars) get(name string) string {
	if c := v.reg.Lookup(name); c != nil {
		return c.String()
	}
	return ""
}

// exec runs a server console command (tick goroutine only): "NAME" shows a
// cvar, "NAME VALUE" sets it, "cvarlist" lists them, "status" lists players,
// "kick NAME" and "kickid ID [MESSAGE]" kick one (kick.go), "changelevel MAP"
// switches the map at once.
func (s *Server) exec(line string) string {
	f := strings.Fields(line)
	if len(f) == 0 {
		return ""
	}
	switch f[0] {
	case "kick", "kickid":
		return s.kickCommand(f[0], line) // kick.go
	case "changelevel":
		return s.levels.exec(f[1:], s.w.Map.Name) // changelevel.go
	case "cvarlist":
		var b strings.Builder
		for _, c := range ServerCvars {
			fmt.Fprintf(&b, "%s = %s (%s): %s\n", c.Name, s.vars.get(c.Name), c.RangeText(), c.Help)
		}
		return strings.TrimSpace(b.String())
	case "status":
		var b strings.Builder
		fmt.Fprintf(&b, "map %s, tick %d at %d/s, tick time %.0f us", s.w.Map.Name, s.w.Tick, s.cfg.TickRate, s.tickStats.meanUs())
		byID := sessionsByID(s.sessions)
		for _, p := range s.w.Players {
			ping := "BOT"
			if ss := byID[p.ID]; ss != nil {
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
	if s.vars.reg.Lookup(f[0]) == nil {
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

// Exec runs a server console command from any goroutine (the listen
// server's host console) and returns its output. It waits for the next tick.
func (s *Server) Exec(line string) string {
	reply := make(chan string, 1)
	if !s.call(func(s *Server) { reply <- s.exec(line) }, time.After(2*time.Second)) {
		select {
		case <-s.stopped:
			return "server is not running"
		default:
			return "server did not answer"
		}
	}
	select {
	case r := <-reply:
		return r
	case <-s.stopped:
		return "server is not running"
	}
}
