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
	names = append(names, consoleCommands.names()...)
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

// exec runs one console line and returns what it prints: a command of
// the table (commands.go), else a cvar shown or set, else a server cvar
// (the listen-server host's, or a pointer to rcon).
func (g *Game) exec(line string) string {
	f := strings.Fields(line)
	if len(f) == 0 {
		return ""
	}
	if out, ok := consoleCommands.exec(g, line); ok {
		return out
	}
	name, args := f[0], f[1:]
	if v := g.cvars.Lookup(name); v != nil {
		if len(args) == 0 {
			return fmt.Sprintf("%s = %s (%s, default %q)", v.Name, shownValue(v), v.RangeText(), v.Default)
		}
		if err := v.Set(strings.Join(args, " ")); err != nil {
			return "error: " + err.Error()
		}
		if v.Flags&cvar.Protected != 0 {
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
