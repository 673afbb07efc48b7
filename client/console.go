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

	"tickshot/client/palette"
	"tickshot/internal/cvar"
)

// console is the in-game console (backquote key): read and set cvars, run
// commands, with history and tab completion. It runs lines with exec and
// completes from names (the Game's).
type console struct {
	exec  func(line string) string
	names func() []string

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

func (con *console) print(s string) {
	for _, l := range strings.Split(s, "\n") {
		con.lines = append(con.lines, l)
	}
	if len(con.lines) > maxConsoleLines {
		con.lines = con.lines[len(con.lines)-maxConsoleLines:]
	}
	con.gen++
}

// clear empties the console.
func (con *console) clear() {
	con.lines, con.scroll = nil, 0
	con.gen++
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
func (con *console) rows(maxW float64, width func(string) float64) []string {
	if con.wrapped != nil && con.wrapGen == con.gen && con.wrapW == maxW {
		return con.wrapped
	}
	old := len(con.wrapped)
	con.wrapped = con.wrapped[:0]
	for _, l := range con.lines {
		con.wrapped = append(con.wrapped, wrapLine(l, maxW, width)...)
	}
	if con.scroll > 0 && con.wrapW == maxW {
		con.scroll += max(len(con.wrapped)-old, 0)
	}
	con.wrapGen, con.wrapW = con.gen, maxW
	return con.wrapped
}

// view returns the rows to show in a console n rows high: the newest,
// or earlier ones when scrolled back (scroll is clamped to the text).
func (con *console) view(rows []string, n int) []string {
	con.scroll = max(0, min(con.scroll, len(rows)-n))
	end := len(rows) - con.scroll
	return rows[max(0, end-n):end]
}

// scrollBy scrolls the view back (n > 0) or forward (n < 0) by n rows;
// view clamps it.
func (con *console) scrollBy(n int) { con.scroll = max(0, con.scroll+n) }

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

// update handles the console's keys for a window h pixels high; it
// returns true while the console has the keyboard.
func (con *console) update(h float64) bool {
	if inpututil.IsKeyJustPressed(ebiten.KeyBackquote) {
		con.open = !con.open
		return true
	}
	if !con.open {
		return false
	}
	edit := typeLine(&con.input, func(r rune, in []rune) bool { return r != '`' && r != '~' && r >= 0x20 && len(in) < 200 })
	if _, wy := ebiten.Wheel(); wy != 0 {
		con.scrollBy(int(math.Round(wy * 3)))
	}
	switch edit {
	case lineCancel:
		con.open = false
		return true
	case lineEnter:
		line := strings.TrimSpace(string(con.input))
		con.input = con.input[:0]
		if line != "" {
			con.print("] " + line)
			con.history = append(con.history, line)
			con.histPos = len(con.history)
			if out := con.exec(line); out != "" {
				con.print(out)
			}
		}
		return true
	case lineEdited:
		return true
	}
	switch {
	case inpututil.IsKeyJustPressed(ebiten.KeyTab):
		completed, options := con.complete(string(con.input))
		con.input = []rune(completed)
		if len(options) > 1 {
			con.print(strings.Join(options, "  "))
		}
	case repeat(ebiten.KeyPageUp):
		con.scrollBy(consoleRows(h) - 1)
	case repeat(ebiten.KeyPageDown):
		con.scrollBy(-(consoleRows(h) - 1))
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

// lineEdit is what a frame's keys did to a line being typed (typeLine).
type lineEdit int

const (
	lineTyping lineEdit = iota // characters typed, or nothing
	lineEdited                 // Backspace
	lineCancel                 // Esc
	lineEnter                  // Enter
)

// typeLine applies a frame's typed characters (those keep accepts, given
// the line so far) and Backspace to *in, and reports Esc and Enter: the
// console's and the chat's line editing.
func typeLine(in *[]rune, keep func(r rune, in []rune) bool) lineEdit {
	for _, r := range ebiten.AppendInputChars(nil) {
		if keep(r, *in) {
			*in = append(*in, r)
		}
	}
	switch {
	case inpututil.IsKeyJustPressed(ebiten.KeyEscape):
		return lineCancel
	case repeat(ebiten.KeyBackspace) && len(*in) > 0:
		*in = (*in)[:len(*in)-1]
		return lineEdited
	case inpututil.IsKeyJustPressed(ebiten.KeyEnter) || inpututil.IsKeyJustPressed(ebiten.KeyNumpadEnter):
		return lineEnter
	}
	return lineTyping
}

// complete extends line to the longest common prefix of the matching
// commands and cvars (con.names), and returns the candidates.
func (con *console) complete(line string) (string, []string) {
	if strings.Contains(line, " ") {
		return line, nil
	}
	var cands []string
	for _, n := range con.names() {
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

// completionNames are what the console completes: the commands, the
// cvars, and on the listen-server host the server's cvars.
func (g *Game) completionNames() []string {
	names := g.cvars.Names()
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
// (the listen-server host's, or a pointer to rcon). Words are split as
// Source's console does (cvar.Fields): `cl_master "http://a http://b"`
// sets one value, `cl_master ""` empties it.
func (g *Game) exec(line string) string {
	f := cvar.Fields(line)
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

// consoleHeight is the console's height in pixels in a window h pixels
// high: its top 45 %.
func consoleHeight(h float64) float64 { return h * 0.45 }

// consoleRows is how many rows of output the console shows in a window h
// pixels high.
func consoleRows(h float64) int {
	return max(1, int((consoleHeight(h)-30-conLineH)/conLineH))
}

// draw draws the console, when open, over the top of a screen W x H pixels.
func (con *console) draw(screen *ebiten.Image, W, H float64) {
	if !con.open {
		return
	}
	h := consoleHeight(H)
	b := &batch
	b.use(screen)
	b.rect(0, 0, float32(W), float32(h), color.RGBA{0x08, 0x0a, 0x0e, 0xe8})
	b.rect(0, float32(h-1), float32(W), 2, palette.Me)
	maxW := W - 2*conMargin
	width := func(s string) float64 { return textWidth(s, conFont, false) }
	// The input line, wrapped too, at the bottom.
	in := wrapLine("] "+string(con.input)+"_", maxW, width)
	y := h - 30 - conLineH*float64(len(in)-1)
	for i, l := range in {
		drawText(screen, l, conFont+1, false, conMargin, y+conLineH*float64(i), 0, palette.Text)
	}
	n := max(1, int((y-conLineH)/conLineH))
	view := con.view(con.rows(maxW, width), n)
	if con.scroll > 0 && len(view) > 0 {
		// As Source does, a marker row says there is newer text below.
		view = view[1:]
		y -= conLineH
		drawText(screen, fmt.Sprintf("^^^ %d more below (PageDown, mouse wheel) ^^^", con.scroll), conFont, false, conMargin, y, 0, palette.Me)
	}
	for i := len(view) - 1; i >= 0; i-- {
		y -= conLineH
		drawText(screen, view[i], conFont, false, conMargin, y, 0, palette.Dim)
	}
}
