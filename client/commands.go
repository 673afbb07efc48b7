//go:build !headless

package client

import (
	"fmt"
	"sort"
	"strings"

	"tickshot/client/config"
	"tickshot/client/netclient"
	"tickshot/internal/cvar"
)

// Console commands, as internal/cvar is for variables: one table of rows,
// each a name, its arguments, its help and its function (Source's
// ConCommand). Adding a console command is adding a row to commandRows;
// help, cmdlist, tab completion and the argument count checks read the
// table.

// command is one console command.
type command struct {
	name string
	// args is the arguments as usage and help write them ("HOST:PORT",
	// "KEY [COMMAND]"); "" for none.
	args string
	// minArgs and maxArgs bound how many arguments it takes; maxArgs < 0:
	// any number from minArgs.
	minArgs, maxArgs int
	// quoted: the arguments are split as a config line, so that "a quoted
	// phrase" is one argument (bind "f3" "incrementvar net_graph 0 3 1");
	// else at blanks.
	quoted bool
	// help says what it does, one sentence or two.
	help string
	// run runs it on the window with its arguments (their count checked)
	// and returns what the console prints ("" for nothing).
	run func(g *Game, args []string) string
}

// usage is the command with its arguments: "connect HOST:PORT".
func (c *command) usage() string {
	if c.args == "" {
		return c.name
	}
	return c.name + " " + c.args
}

// helpLine is what `help NAME` prints: the usage, then the help.
func (c *command) helpLine() string { return c.usage() + ": " + c.help }

// commandTable is the console's commands by name.
type commandTable struct {
	rows   []command // sorted by name
	byName map[string]int
}

// newCommandTable returns the table of rows. A row without a name, help or
// function, or a name twice, is a programming error: it panics.
func newCommandTable(rows []command) *commandTable {
	t := &commandTable{rows: append([]command(nil), rows...), byName: map[string]int{}}
	sort.Slice(t.rows, func(i, j int) bool { return t.rows[i].name < t.rows[j].name })
	for i, r := range t.rows {
		if r.name == "" || r.help == "" || r.run == nil {
			panic(fmt.Sprintf("console command %q: a row needs a name, help and a function", r.name))
		}
		if _, dup := t.byName[r.name]; dup {
			panic(fmt.Sprintf("console command %q twice", r.name))
		}
		t.byName[r.name] = i
	}
	return t
}

// lookup returns the command name, nil when there is none.
func (t *commandTable) lookup(name string) *command {
	if i, ok := t.byName[name]; ok {
		return &t.rows[i]
	}
	return nil
}

// names returns the commands' names, sorted.
func (t *commandTable) names() []string {
	names := make([]string, len(t.rows))
	for i := range t.rows {
		names[i] = t.rows[i].name
	}
	return names
}

// list is cmdlist's text: every command's help line, by name.
func (t *commandTable) list() string {
	lines := make([]string, len(t.rows))
	for i := range t.rows {
		lines[i] = t.rows[i].helpLine()
	}
	return strings.Join(lines, "\n")
}

// exec runs line when its first word names a command and returns what it
// prints; found is false when it names none (a cvar, perhaps). A wrong
// number of arguments is answered with "usage: " and the help line,
// without running the command.
func (t *commandTable) exec(g *Game, line string) (out string, found bool) {
	f := strings.Fields(line)
	if len(f) == 0 {
		return "", false
	}
	c := t.lookup(f[0])
	if c == nil {
		return "", false
	}
	args := f[1:]
	if c.quoted {
		args = config.Fields(line)[1:]
	}
	if len(args) < c.minArgs || (c.maxArgs >= 0 && len(args) > c.maxArgs) {
		return "usage: " + c.helpLine(), true
	}
	return c.run(g, args), true
}

// consoleCommands is the console's command table (set by init, as help
// and cmdlist read it).
var consoleCommands *commandTable

func init() { consoleCommands = newCommandTable(commandRows) }

// anyArgs is maxArgs for a command that takes any number of arguments.
const anyArgs = -1

// commandRows are the console's commands.
var commandRows = []command{
	{name: "help", args: "[NAME]", maxArgs: 1, help: "list commands and cvars, or explain one",
		run: func(g *Game, a []string) string { return helpText(g, a) }},
	{name: "cmdlist", help: "every console command with its arguments and help",
		run: func(*Game, []string) string { return consoleCommands.list() }},
	{name: "cvarlist", help: "every console variable with its value and range",
		run: func(g *Game, _ []string) string { return cvarList(g.cvars) }},
	{name: "status", help: "the players on the server with ping, kills and deaths, and your rates",
		run: func(g *Game, _ []string) string { return statusText(g.c, g.opt.Addr) }},
	{name: "connect", args: "HOST:PORT", minArgs: 1, maxArgs: 1, help: "join another server",
		run: func(g *Game, a []string) string { g.ctx.Connect(a[0]); return "connecting to " + a[0] }},
	{name: "disconnect", help: "leave the server",
		run: func(g *Game, _ []string) string {
			g.disconnect("disconnected by player")
			g.scenes.Switch(newErrorScene(g.opt.Addr, fmt.Errorf("you left the server"), true))
			return ""
		}},
	{name: "kill", help: "die and respawn",
		run: func(g *Game, _ []string) string { return sendCommand(g.c, "kill") }},
	{name: "quit", help: "close the game",
		run: func(g *Game, _ []string) string { g.quit = true; return "" }},
	{name: "exit", help: "close the game (as quit)",
		run: func(g *Game, _ []string) string { g.quit = true; return "" }},
	{name: "clear", help: "empty the console",
		run: func(g *Game, _ []string) string { g.con.clear(); return "" }},
	{name: "rcon", args: "COMMAND", minArgs: 1, maxArgs: anyArgs,
		help: "run a server command (sv_* cvars, net_fake* on the server side, status, cvarlist, changelevel MAP); the listen-server host needs no password, elsewhere set rcon_password first",
		run:  func(g *Game, a []string) string { return g.serverCommand(strings.Join(a, " ")) }},
	{name: "changelevel", args: "MAP", minArgs: 1, maxArgs: 1,
		help: "the server switches to MAP at once, everyone stays connected (the listen-server host directly, elsewhere over rcon)",
		run:  func(g *Game, a []string) string { return g.serverCommand("changelevel " + a[0]) }},
	{name: "say", args: "TEXT", minArgs: 1, maxArgs: anyArgs, help: "chat to everyone on the server (or press Y or Enter in the game)",
		run: func(g *Game, a []string) string { return sendChat(g.c, "say", strings.Join(a, " ")) }},
	{name: "say_team", args: "TEXT", minArgs: 1, maxArgs: anyArgs,
		help: "chat to your team only in team deathmatch, shown as (TEAM); to everyone in deathmatch (or press U in the game)",
		run:  func(g *Game, a []string) string { return sendChat(g.c, "say_team", strings.Join(a, " ")) }},
	{name: "jointeam", args: "red|blue|auto|spectator", minArgs: 1, maxArgs: 1,
		help: "change team in team deathmatch (2, 3, 0 and 1 too; you die and respawn on it); refused for the bigger team while mp_autoteambalance is on; spectator is spectate",
		run:  func(g *Game, a []string) string { return joinTeam(g.c, a[0]) }},
	{name: "spectate", help: "leave play and watch (left/right click: next/previous player, Space: free camera); kills and deaths are kept",
		run: func(g *Game, _ []string) string { return sendCommand(g.c, "spectate") }},
	{name: "join", help: "play again after spectate, when the server has a free slot (or a bot's)",
		run: func(g *Game, _ []string) string { return sendCommand(g.c, "join") }},
	{name: "mute", args: "NAME", minArgs: 1, maxArgs: anyArgs, help: "hide that player's chat (for this game)",
		run: func(g *Game, a []string) string { return g.chat.mute(strings.Join(a, " "), true) }},
	{name: "unmute", args: "NAME", minArgs: 1, maxArgs: anyArgs, help: "show that player's chat again",
		run: func(g *Game, a []string) string { return g.chat.mute(strings.Join(a, " "), false) }},
	{name: "bind", args: "KEY [COMMAND]", minArgs: 1, maxArgs: anyArgs, quoted: true,
		help: "run COMMAND with KEY (\"+\" commands while held: +forward, +back, +moveleft, +moveright, +attack, +attack2, +reload, +dash, +showscores, +showhelp; once: slot1, slot2, slot3, invnext, messagemode, any console line); with KEY alone, show its binding",
		run:  func(g *Game, a []string) string { return g.binds.bindCommand(a[0], a[1:]) }},
	{name: "unbind", args: "KEY", minArgs: 1, maxArgs: 1, quoted: true, help: "remove KEY's binding",
		run: func(g *Game, a []string) string { g.binds.unbind(a[0]); return "" }},
	{name: "unbindall", help: "remove every binding (Esc and ` stay)",
		run: func(g *Game, _ []string) string { g.binds.list = nil; return "" }},
	{name: "binds", help: "list the key bindings as bind lines",
		run: func(g *Game, _ []string) string { return g.binds.lines() }},
	{name: "incrementvar", args: "CVAR MIN MAX DELTA", minArgs: 4, maxArgs: 4, quoted: true,
		help: "add DELTA to CVAR, wrapping around MIN..MAX (bind f3 \"incrementvar net_graph 0 3 1\")",
		run:  func(g *Game, a []string) string { return incrementVar(g.cvars, a) }},
	// Demos (demo_scene.go).
	{name: "record", args: "NAME", minArgs: 1, maxArgs: 1,
		help: "record the game into NAME.dem in the demos folder of your config directory (stop ends it)",
		run: func(g *Game, a []string) string {
			if g.demo != nil {
				return "record: not in a game" // a demo's playback is recorded already
			}
			return g.rec.start(g.c, a[0])
		}},
	{name: "stop", help: "end the recording",
		run: func(g *Game, _ []string) string {
			if g.rec.rec == nil {
				return "not recording"
			}
			return g.rec.stop("stop")
		}},
	{name: "playdemo", args: "NAME|PATH", minArgs: 1, maxArgs: 1,
		help: "play a demo back; in a game, type it again to leave the game (Space or P pause, [ ] or - + speed, ←/→ 5 s, Esc back)",
		run:  func(g *Game, a []string) string { return playDemo(g, a[0]) }},
	{name: "listdemos", help: "the demos in your demos folder",
		run: func(*Game, []string) string { return listDemos() }},
	{name: "demo_gototick", args: "TICK", minArgs: 1, maxArgs: 1, help: "jump to a server tick of the demo being played",
		run: func(g *Game, a []string) string {
			return withDemo(g.demo, func(s *demoScene) string { return s.gotoTick(a[0]) })
		}},
	{name: "demo_pause", help: "pause the demo",
		run: func(g *Game, _ []string) string {
			return withDemo(g.demo, func(s *demoScene) string { s.p.Paused = true; return "" })
		}},
	{name: "demo_resume", help: "resume the demo",
		run: func(g *Game, _ []string) string {
			return withDemo(g.demo, func(s *demoScene) string { s.p.Paused = false; return "" })
		}},
	{name: "demo_togglepause", help: "pause or resume the demo",
		run: func(g *Game, _ []string) string {
			return withDemo(g.demo, func(s *demoScene) string { s.p.Paused = !s.p.Paused; return "" })
		}},
}

// helpText is help's answer: the commands and cvars, or one explained.
func helpText(g *Game, args []string) string {
	if len(args) == 0 {
		return "commands: " + strings.Join(consoleCommands.names(), ", ") + "\ncvars: " + strings.Join(g.cvars.Names(), ", ") +
			"\n'help NAME' explains one, 'cmdlist' lists the commands with theirs; 'NAME' shows a cvar, 'NAME VALUE' sets it"
	}
	if c := consoleCommands.lookup(args[0]); c != nil {
		return c.helpLine()
	}
	if v := g.cvars.Lookup(args[0]); v != nil {
		return fmt.Sprintf("%s (%s, default %q): %s", v.Name, v.RangeText(), v.Default, v.Help)
	}
	return fmt.Sprintf("unknown command or cvar %q", args[0])
}

// cvarList is cvarlist's answer: every variable of r with its value
// (protected ones only as "(set)") and range.
func cvarList(r *cvar.Registry) string {
	var b strings.Builder
	for _, n := range r.Names() {
		v := r.Lookup(n)
		fmt.Fprintf(&b, "%-22s %-8s (%s)\n", n, shownValue(v), v.RangeText())
	}
	return strings.TrimRight(b.String(), "\n")
}

// shownValue is v's value as the console shows it: a protected variable's
// (password, rcon_password) never, only "(set)".
func shownValue(v *cvar.Var) string {
	if val := v.String(); v.Flags&cvar.Protected == 0 || val == "" {
		return val
	}
	return "(set)"
}

// sendCommand sends cmd, a command without a password, to the server of
// c ("not connected" when there is none); the server answers on the
// console when it refuses.
func sendCommand(c *netclient.Client, cmd string) string {
	if c == nil {
		return "not connected"
	}
	c.SendCommand(cmd, "")
	return ""
}

// statusText is status's answer: the server of c at addr, your rates, and
// the scoreboard's players.
func statusText(c *netclient.Client, addr string) string {
	if c == nil {
		return "not connected"
	}
	var b strings.Builder
	fmt.Fprintf(&b, "server %s, map %s, %d ticks/s; you are #%d\n", addr, c.View().Map.Name, c.View().TickRate, c.View().ID)
	fmt.Fprintf(&b, "rates: cl_updaterate %d, cl_cmdrate %d, rate %d, lerp %.0f ms\n", c.View().Config.UpdateRate, c.View().Config.CmdRate, c.View().Config.Rate, c.View().InterpMs)
	for _, r := range toRows(c) {
		ping := fmt.Sprintf("%d ms", r.ping)
		if r.bot {
			ping = "BOT"
		}
		fmt.Fprintf(&b, "#%-3d %-24s %3d kills %3d deaths  %s\n", r.id, r.name, r.kills, r.deaths, ping)
	}
	return strings.TrimRight(b.String(), "\n")
}
