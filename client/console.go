//go:build !headless

package client

import (
	"fmt"
	"image/color"
	"math"
	"sort"
	"strings"

	"github.com/hajimehoshi/ebiten/v2"
	"github.com/hajimehoshi/ebiten/v2/inpututil"

	"tickshot/client/config"
	"tickshot/internal/cvar"
)

// console is the in-game console (backquote key): read and set cvars, run
// commands, with history and tab completion.
type console struct {
	open    bool
	input   []rune
	lines   []string
	history []string
	histPos int
	// scroll is how many rows the view is scrolled back from the newest
	// (0: following the output).
	scroll int
	// gen counts changes of lines; wrapped holds lines wrapped at wrapW
	// pixels for generation wrapGen.
	gen     int
	wrapped []string
	wrapGen int
	wrapW   float64
}

const maxConsoleLines = 200

var consoleCommands = map[string]string{
	"help":         "help [NAME]: list commands and cvars, or explain one",
	"cvarlist":     "cvarlist: every console variable with its value and range",
	"status":       "status: the players on the server with ping, kills and deaths, and your rates",
	"connect":      "connect HOST:PORT: join another server",
	"disconnect":   "disconnect: leave the server",
	"kill":         "kill: die and respawn",
	"quit":         "quit: close the game",
	"rcon":         "rcon COMMAND: run a server command (sv_* cvars, net_fake* on the server side, status, cvarlist, changelevel MAP); the listen-server host needs no password, elsewhere set rcon_password first",
	"changelevel":  "changelevel MAP: the server switches to MAP at once, everyone stays connected (the listen-server host directly, elsewhere over rcon)",
	"clear":        "clear: empty the console",
	"say":          "say TEXT: chat to everyone on the server (or press Y or Enter in the game)",
	"say_team":     "say_team TEXT: chat to your team only in team deathmatch, shown as (TEAM); to everyone in deathmatch (or press U in the game)",
	"jointeam":     "jointeam red|blue|auto|spectator (or 2|3|0|1): change team in team deathmatch (you die and respawn on it); refused for the bigger team while mp_autoteambalance is on; spectator is spectate",
	"mute":         "mute NAME: hide that player's chat (for this game)",
	"spectate":     "spectate: leave play and watch (left/right click: next/previous player, Space: free camera); kills and deaths are kept",
	"join":         "join: play again after spectate, when the server has a free slot (or a bot's)",
	"unmute":       "unmute NAME: show that player's chat again",
	"bind":         "bind KEY [COMMAND]: run COMMAND with KEY (\"+\" commands while held: +forward, +back, +moveleft, +moveright, +attack, +attack2, +reload, +showscores, +showhelp; once: slot1, slot2, invnext, messagemode, any console line); with KEY alone, show its binding",
	"unbind":       "unbind KEY: remove KEY's binding",
	"unbindall":    "unbindall: remove every binding (Esc and ` stay)",
	"binds":        "binds: list the key bindings as bind lines",
	"incrementvar": "incrementvar CVAR MIN MAX DELTA: add DELTA to CVAR, wrapping around MIN..MAX (bind f3 \"incrementvar net_graph 0 3 1\")",
}

func (c *console) print(s string) {
	for _, l := range strings.Split(s, "\n") {
		c.lines = append(c.lines, l)
	}
	if len(c.lines) > maxConsoleLines {
		c.lines = c.lines[len(c.lines)-maxConsoleLines:]
	}
	c.gen++
}

// clear empties the console.
func (c *console) clear() {
	c.lines, c.scroll = nil, 0
	c.gen++
}

// Console text: size and line height, pixels; and the margin at the sides.
const (
	conFont   = 14.0
	conLineH  = 17.0
	conMargin = 10.0
)

// rows returns the console's lines wrapped at maxW pixels, measured with
// width; it keeps the result until the lines or the width change. While
// the view is scrolled back, new rows move it back as far, so that what is
// read stays in place.
func (c *console) rows(maxW float64, width func(string) float64) []string {
	if c.wrapped != nil && c.wrapGen == c.gen && c.wrapW == maxW {
		return c.wrapped
	}
	old := len(c.wrapped)
	c.wrapped = c.wrapped[:0]
	for _, l := range c.lines {
		c.wrapped = append(c.wrapped, wrapLine(l, maxW, width)...)
	}
	if c.scroll > 0 && c.wrapW == maxW {
		c.scroll += max(len(c.wrapped)-old, 0)
	}
	c.wrapGen, c.wrapW = c.gen, maxW
	return c.wrapped
}

// view returns the rows to show in a console n rows high: the newest,
// or earlier ones when scrolled back (scroll is clamped to the text).
func (c *console) view(rows []string, n int) []string {
	c.scroll = max(0, min(c.scroll, len(rows)-n))
	end := len(rows) - c.scroll
	return rows[max(0, end-n):end]
}

// scrollBy scrolls the view back (n > 0) or forward (n < 0) by n rows;
// view clamps it.
func (c *console) scrollBy(n int) { c.scroll = max(0, c.scroll+n) }

// wrapLine breaks s into rows at most maxW pixels wide as measured by
// width: at spaces where it can, inside a word that is wider than a row.
// The spaces at a break are dropped.
func wrapLine(s string, maxW float64, width func(string) float64) []string {
	var out []string
	for width(s) > maxW {
		// The longest prefix that fits, on a rune boundary (binary search:
		// width grows with the prefix), at least one rune.
		idx := runeStarts(s)
		lo, hi := 1, len(idx)-1 // prefix s[:idx[k]]; idx[len-1] == len(s)
		for lo < hi {
			mid := (lo + hi + 1) / 2
			if width(s[:idx[mid]]) <= maxW {
				lo = mid
			} else {
				hi = mid - 1
			}
		}
		cut := idx[lo]
		// Back to the last space in it, if the row keeps some text.
		if sp := strings.LastIndexByte(s[:cut+min(1, len(s)-cut)], ' '); sp > 0 && strings.TrimSpace(s[:sp]) != "" {
			cut = sp
		}
		out = append(out, strings.TrimRight(s[:cut], " "))
		s = strings.TrimLeft(s[cut:], " ")
		if s == "" {
			return out
		}
	}
	return append(out, s)
}

// runeStarts returns the byte offsets of s's runes, then len(s).
func runeStarts(s string) []int {
	idx := make([]int, 0, len(s)+1)
	for i := range s {
		idx = append(idx, i)
	}
	return append(idx, len(s))
}

// updateConsole handles the console's keys; it returns true while the
// console has the keyboard.
func (g *Game) updateConsole() bool {
	con := &g.con
	if inpututil.IsKeyJustPressed(ebiten.KeyBackquote) {
		con.open = !con.open
		return true
	}
	if !con.open {
		return false
	}
	for _, r := range ebiten.AppendInputChars(nil) {
		if r != '`' && r != '~' && r >= 0x20 && len(con.input) < 200 {
			con.input = append(con.input, r)
		}
	}
	if _, wy := ebiten.Wheel(); wy != 0 {
		con.scrollBy(int(math.Round(wy * 3)))
	}
	switch {
	case inpututil.IsKeyJustPressed(ebiten.KeyEscape):
		con.open = false
	case repeat(ebiten.KeyBackspace) && len(con.input) > 0:
		con.input = con.input[:len(con.input)-1]
	case inpututil.IsKeyJustPressed(ebiten.KeyEnter) || inpututil.IsKeyJustPressed(ebiten.KeyNumpadEnter):
		line := strings.TrimSpace(string(con.input))
		con.input = con.input[:0]
		if line != "" {
			con.print("] " + line)
			con.history = append(con.history, line)
			con.histPos = len(con.history)
			if out := g.exec(line); out != "" {
				con.print(out)
			}
		}
	case inpututil.IsKeyJustPressed(ebiten.KeyTab):
		completed, options := g.complete(string(con.input))
		con.input = []rune(completed)
		if len(options) > 1 {
			con.print(strings.Join(options, "  "))
		}
	case repeat(ebiten.KeyPageUp):
		con.scrollBy(g.consoleRows() - 1)
	case repeat(ebiten.KeyPageDown):
		con.scrollBy(-(g.consoleRows() - 1))
	case inpututil.IsKeyJustPressed(ebiten.KeyArrowUp):
		if con.histPos > 0 {
			con.histPos--
			con.input = []rune(con.history[con.histPos])
		}
	case inpututil.IsKeyJustPressed(ebiten.KeyArrowDown):
		if con.histPos < len(con.history)-1 {
			con.histPos++
			con.input = []rune(con.history[con.histPos])
		} else {
			con.histPos = len(con.history)
			con.input = con.input[:0]
		}
	}
	return true
}

func repeat(k ebiten.Key) bool {
	d := inpututil.KeyPressDuration(k)
	return d == 1 || (d > 20 && d%3 == 0)
}

// complete extends line to the longest common prefix of the matching
// commands and cvars, and returns the candidates.
func (g *Game) complete(line string) (string, []string) {
	if strings.Contains(line, " ") {
		return line, nil
	}
	var cands []string
	for _, n := range g.completionNames() {
		if strings.HasPrefix(n, line) {
			cands = append(cands, n)
		}
	}
	if len(cands) == 0 {
		return line, nil
	}
	if len(cands) == 1 {
		return cands[0] + " ", cands
	}
	p := cands[0]
	for _, c := range cands[1:] {
		for !strings.HasPrefix(c, p) {
			p = p[:len(p)-1]
		}
	}
	return p, cands
}

func (g *Game) completionNames() []string {
	names := g.cvarNames()
	for c := range consoleCommands {
		names = append(names, c)
	}
	if g.opt.Host != nil {
		for _, n := range g.opt.ServerCvars {
			if g.cvars.Lookup(n) == nil {
				names = append(names, n)
			}
		}
	}
	sort.Strings(names)
	return names
}

// exec runs one console line and returns what it prints.
func (g *Game) exec(line string) string {
	f := strings.Fields(line)
	if len(f) == 0 {
		return ""
	}
	name, args := f[0], f[1:]
	switch name {
	case "help":
		if len(args) == 0 {
			var cmds []string
			for c := range consoleCommands {
				cmds = append(cmds, c)
			}
			sort.Strings(cmds)
			return "commands: " + strings.Join(cmds, ", ") + "\ncvars: " + strings.Join(g.cvarNames(), ", ") +
				"\n'help NAME' explains one; 'NAME' shows a cvar, 'NAME VALUE' sets it"
		}
		if h, ok := consoleCommands[args[0]]; ok {
			return h
		}
		if v := g.cvars.Lookup(args[0]); v != nil {
			return fmt.Sprintf("%s (%s, default %q): %s", v.Name, v.RangeText(), v.Default, v.Help)
		}
		return fmt.Sprintf("unknown command or cvar %q", args[0])
	case "cvarlist":
		var b strings.Builder
		for _, n := range g.cvarNames() {
			v := g.cvars.Lookup(n)
			val := v.String()
			if v.Flags&cvar.Protected != 0 && val != "" {
				val = "(set)" // never shown (password, rcon_password)
			}
			fmt.Fprintf(&b, "%-22s %-8s (%s)\n", n, val, v.RangeText())
		}
		return strings.TrimRight(b.String(), "\n")
	case "clear":
		g.con.clear()
		return ""
	case "quit", "exit":
		g.quit = true
		return ""
	case "status":
		return g.statusText()
	case "connect":
		if len(args) != 1 {
			return "usage: connect HOST:PORT"
		}
		g.ctx.Connect(args[0])
		return "connecting to " + args[0]
	case "disconnect":
		g.disconnect("disconnected by player")
		g.scenes.Switch(newErrorScene(g.opt.Addr, fmt.Errorf("you left the server"), true))
		return ""
	case "kill":
		if g.c == nil {
			return "not connected"
		}
		g.c.SendCommand("kill", "")
		return ""
	case "say":
		if len(args) == 0 {
			return consoleCommands["say"]
		}
		return g.say(strings.Join(args, " "))
	case "say_team":
		if len(args) == 0 {
			return consoleCommands["say_team"]
		}
		return g.sayTeam(strings.Join(args, " "))
	case "jointeam":
		return g.jointeam(args)
	case "spectate", "join":
		return g.spectateCommand(name) // spectate.go
	case "mute", "unmute":
		if len(args) == 0 {
			return consoleCommands[name]
		}
		return g.mute(strings.Join(args, " "), name == "mute")
	case "record", "stop", "playdemo", "listdemos", "demo_gototick", "demo_pause", "demo_resume", "demo_togglepause":
		return g.demoCommand(name, args) // demo_scene.go
	case "bind", "unbind", "unbindall", "incrementvar":
		f := config.Fields(line) // bind "f3" "incrementvar net_graph 0 3 1"
		return g.execBind(name, f[1:])
	case "binds":
		return g.bindList()
	case "rcon":
		if len(args) == 0 {
			return consoleCommands["rcon"]
		}
		return g.serverCommand(strings.Join(args, " "))
	case "changelevel":
		return g.serverCommand(line) // the host's own server, else rcon
	}
	if v := g.cvars.Lookup(name); v != nil {
		protected := v.Flags&cvar.Protected != 0
		if len(args) == 0 {
			val := v.String()
			if protected && val != "" {
				val = "(set)"
			}
			return fmt.Sprintf("%s = %s (%s, default %q)", v.Name, val, v.RangeText(), v.Default)
		}
		if err := v.Set(strings.Join(args, " ")); err != nil {
			return "error: " + err.Error()
		}
		if protected {
			return ""
		}
		return fmt.Sprintf("%s = %s", v.Name, v.String())
	}
	for _, sv := range g.opt.ServerCvars {
		if sv == name {
			if g.opt.Host == nil {
				return fmt.Sprintf("%s is a server variable: only the listen-server host or rcon can change it (rcon %s ...)", name, name)
			}
			return g.opt.Host.Exec(line)
		}
	}
	if strings.HasPrefix(name, "sv_") {
		return fmt.Sprintf("%s is a server variable: use rcon %s", name, line)
	}
	return fmt.Sprintf("unknown command %q (try help)", name)
}

// serverCommand runs a server console command: directly on the listen
// server, else over rcon with the password.
func (g *Game) serverCommand(cmd string) string {
	if g.opt.Host != nil {
		return g.opt.Host.Exec(cmd)
	}
	if g.c == nil {
		return "not connected"
	}
	pw := g.cv.rconPassword.Get()
	if pw == "" {
		return "set rcon_password first"
	}
	g.c.SendCommand("rcon "+cmd, pw)
	return ""
}

func (g *Game) statusText() string {
	if g.c == nil {
		return "not connected"
	}
	c := g.c
	var b strings.Builder
	fmt.Fprintf(&b, "server %s, map %s, %d ticks/s; you are #%d\n", g.opt.Addr, c.Map.Name, c.TickRate, c.ID)
	fmt.Fprintf(&b, "rates: cl_updaterate %d, cl_cmdrate %d, rate %d, lerp %.0f ms\n", c.Cfg.UpdateRate, c.Cfg.CmdRate, c.Cfg.Rate, c.InterpMs())
	for _, r := range toRows(c) {
		ping := fmt.Sprintf("%d ms", r.ping)
		if r.bot {
			ping = "BOT"
		}
		fmt.Fprintf(&b, "#%-3d %-24s %3d kills %3d deaths  %s\n", r.id, r.name, r.kills, r.deaths, ping)
	}
	return strings.TrimRight(b.String(), "\n")
}

// consoleHeight is the console's height in pixels: the top 45 % of the window.
func (g *Game) consoleHeight() float64 { return float64(g.h) * 0.45 }

// consoleRows is how many rows of output the console shows.
func (g *Game) consoleRows() int {
	return max(1, int((g.consoleHeight()-30-conLineH)/conLineH))
}

func (g *Game) drawConsole(screen *ebiten.Image) {
	if !g.con.open {
		return
	}
	W := float64(g.w)
	h := g.consoleHeight()
	b := &batch
	b.use(screen)
	b.rect(0, 0, float32(W), float32(h), color.RGBA{0x08, 0x0a, 0x0e, 0xe8})
	b.rect(0, float32(h-1), float32(W), 2, colMe)
	maxW := W - 2*conMargin
	width := func(s string) float64 { return textWidth(s, conFont, false) }
	// The input line, wrapped too, at the bottom.
	in := wrapLine("] "+string(g.con.input)+"_", maxW, width)
	y := h - 30 - conLineH*float64(len(in)-1)
	for i, l := range in {
		drawText(screen, l, conFont+1, false, conMargin, y+conLineH*float64(i), 0, colText)
	}
	n := max(1, int((y-conLineH)/conLineH))
	view := g.con.view(g.con.rows(maxW, width), n)
	if g.con.scroll > 0 && len(view) > 0 {
		// As Source does, a marker row says there is newer text below.
		view = view[1:]
		y -= conLineH
		drawText(screen, fmt.Sprintf("^^^ %d more below (PageDown, mouse wheel) ^^^", g.con.scroll), conFont, false, conMargin, y, 0, colMe)
	}
	for i := len(view) - 1; i >= 0; i-- {
		y -= conLineH
		drawText(screen, view[i], conFont, false, conMargin, y, 0, colDim)
	}
}
