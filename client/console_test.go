//go:build !headless

package client

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/hajimehoshi/ebiten/v2"

	"tickshot/server"
)

// newTestGame is a Game with its cvars and nothing running: no window, no
// connection (exec, complete and setting cvars need no more).
func newTestGame(opt Options) *Game {
	return newGame(opt)
}

func serverCvarNames() []string {
	var names []string
	for _, c := range server.ServerCvars {
		names = append(names, c.Name)
	}
	return names
}

// hostStub stands in for the in-process listen server.
type hostStub struct{ lines []string }

func (h *hostStub) Exec(line string) string {
	h.lines = append(h.lines, line)
	return "host ran: " + line
}

func TestConsoleSetAndShow(t *testing.T) {
	g := newTestGame(Options{})
	if out := g.exec("net_fakelag 150"); out != "net_fakelag = 150" {
		t.Errorf("net_fakelag 150: %q, want %q", out, "net_fakelag = 150")
	}
	if v := g.cvars.Lookup("net_fakelag").String(); v != "150" {
		t.Errorf("value %q, want 150", v)
	}
	if f := g.cv.fakeConditions(); f.LagMs != 150 {
		t.Errorf("fake conditions %+v, want LagMs 150", f)
	}
	out := g.exec("net_fakelag")
	for _, want := range []string{"net_fakelag = 150", "0..1000", `default "0"`} {
		if !strings.Contains(out, want) {
			t.Errorf("net_fakelag alone: %q lacks %q (value, range, default)", out, want)
		}
	}
	// Surrounding blanks and a float cvar.
	if out := g.exec("  cl_interp   0.05 "); out != "cl_interp = 0.05" {
		t.Errorf("cl_interp 0.05: %q", out)
	}
	// A value is stored in canonical form.
	if out := g.exec("cl_updaterate 64.0"); out != "cl_updaterate = 64" {
		t.Errorf("cl_updaterate 64.0: %q", out)
	}
	if g.opt.Config.UpdateRate != 64 {
		t.Errorf("cl_updaterate did not reach the netcode config: %d", g.opt.Config.UpdateRate)
	}
	if out := g.exec("cl_predict 0"); out != "cl_predict = 0" || g.opt.Config.Predict {
		t.Errorf("cl_predict 0: %q, Config.Predict %v", out, g.opt.Config.Predict)
	}
	if out := g.exec(""); out != "" {
		t.Errorf("empty line: %q", out)
	}
	// The password is not echoed.
	if out := g.exec("rcon_password hunter2"); out != "" {
		t.Errorf("rcon_password hunter2: %q, want nothing printed", out)
	}
	if out := g.exec("rcon_password"); strings.Contains(out, "hunter2") || !strings.Contains(out, "(set)") {
		t.Errorf("rcon_password alone: %q", out)
	}
	// Nor is the join password, which the next connect sends.
	if out := g.exec("password open sesame"); out != "" || g.opt.Config.Password != "open sesame" {
		t.Errorf("password open sesame: %q, Config.Password %q", out, g.opt.Config.Password)
	}
	if out := g.exec("password"); strings.Contains(out, "sesame") || !strings.Contains(out, "(set)") {
		t.Errorf("password alone: %q", out)
	}
	// Nor does cvarlist show either (a console open on a stream).
	if out := g.exec("cvarlist"); strings.Contains(out, "sesame") || strings.Contains(out, "hunter2") {
		t.Errorf("cvarlist shows a password:\n%s", out)
	}
}

func TestConsoleRanges(t *testing.T) {
	g := newTestGame(Options{})
	if err := g.cvars.Set("cl_interp_ratio", "9"); err == nil || err.Error() != "cl_interp_ratio: 9 is outside 1..5" {
		t.Errorf("cl_interp_ratio 9: %v", err)
	}
	cases := []struct {
		line, want string
	}{
		{"cl_interp_ratio 9", "outside 1..5"},
		{"cl_interp_ratio 0.5", "outside 1..5"},
		{"net_fakelag 1001", "outside 0..1000"},
		{"net_fakelag -1", "outside 0..1000"},
		{"net_fakeloss 101", "outside 0..100"},
		{"rate 1000", "outside 2500..1048576"},
		{"cl_predict 2", "outside 0 or 1"},
		{"net_fakelag abc", "not a number"},
		{"net_fakelag 10ms", "not a number"},
		{"net_fakelag NaN", "not a number"},
		{"net_fakelag Inf", "not a number"},
		{"net_fakelag 1 2", "not a number"},
		{"cl_updaterate 1.5", "not a whole number"},
		{"cl_updaterate 20.5", "not a whole number"},
		{"net_graph 2.5", "not a whole number"},
		{"cl_predict 0.5", "not a whole number"},
	}
	for _, c := range cases {
		name := strings.Fields(c.line)[0]
		before := g.cvars.Lookup(name).String()
		out := g.exec(c.line)
		if !strings.HasPrefix(out, "error: ") || !strings.Contains(out, c.want) || !strings.Contains(out, name) {
			t.Errorf("%q: %q, want an error naming %s with %q", c.line, out, name, c.want)
		}
		if g.cvars.Lookup(name).String() != before {
			t.Errorf("%q changed %s from %q to %q", c.line, name, before, g.cvars.Lookup(name).String())
		}
	}
	// The message gives the range for a non-number too.
	if out := g.exec("cl_interp_ratio x"); !strings.Contains(out, "1..5") {
		t.Errorf("cl_interp_ratio x: %q lacks the range", out)
	}
	// Limits themselves are accepted.
	for _, line := range []string{"cl_interp_ratio 1", "cl_interp_ratio 5", "net_fakelag 0", "net_fakelag 1000", "rate 2500", "cl_updaterate 128"} {
		if out := g.exec(line); strings.HasPrefix(out, "error") {
			t.Errorf("%q: %q", line, out)
		}
	}
	if err := g.cvars.Set("no_such_cvar", "1"); err == nil {
		t.Error("setting an unknown name succeeded")
	}
}

func TestConsoleUnknownAndHelp(t *testing.T) {
	g := newTestGame(Options{ServerCvars: serverCvarNames()})
	for _, line := range []string{"foo", "foo 1", "cl_nonsense 3", "NET_FAKELAG 1"} {
		if out := g.exec(line); !strings.Contains(out, "unknown command") {
			t.Errorf("%q: %q, want unknown command", line, out)
		}
	}
	help := g.exec("help")
	for _, c := range consoleCommands.names() {
		if !strings.Contains(help, c) {
			t.Errorf("help does not list command %s", c)
		}
	}
	for _, n := range g.cvars.Names() {
		if !strings.Contains(help, n) {
			t.Errorf("help does not list cvar %s", n)
		}
	}
	out := g.exec("help cl_predict")
	for _, want := range []string{"cl_predict", "0 or 1", `default "1"`, "predict"} {
		if !strings.Contains(out, want) {
			t.Errorf("help cl_predict: %q lacks %q", out, want)
		}
	}
	if out := g.exec("help net_fakeloss"); !strings.Contains(out, "0..100") || !strings.Contains(out, "percentage") {
		t.Errorf("help net_fakeloss: %q", out)
	}
	if out := g.exec("help rcon"); out != consoleCommands.lookup("rcon").helpLine() {
		t.Errorf("help rcon: %q", out)
	}
	if out := g.exec("help nothing_here"); !strings.Contains(out, "unknown") {
		t.Errorf("help nothing_here: %q", out)
	}
	// Every cvar has help text.
	for _, v := range g.cvars.All() {
		n := v.Name
		if v.Help == "" {
			t.Errorf("cvar %s has no help", n)
		}
	}
}

func TestConsoleCvarlist(t *testing.T) {
	g := newTestGame(Options{})
	g.exec("net_fakeloss 12.5")
	out := g.exec("cvarlist")
	lines := strings.Split(out, "\n")
	if len(lines) != len(g.cvars.All()) {
		t.Errorf("cvarlist has %d lines for %d cvars:\n%s", len(lines), len(g.cvars.All()), out)
	}
	listed := map[string]string{}
	for _, l := range lines {
		f := strings.Fields(l)
		if len(f) < 2 {
			t.Errorf("cvarlist line %q", l)
			continue
		}
		listed[f[0]] = l
	}
	for _, v := range g.cvars.All() {
		n := v.Name
		l, ok := listed[n]
		if !ok {
			t.Errorf("cvarlist lacks %s", n)
			continue
		}
		if !strings.Contains(l, v.RangeText()) {
			t.Errorf("cvarlist line %q lacks the range %s", l, v.RangeText())
		}
	}
	if f := strings.Fields(listed["net_fakeloss"]); len(f) < 2 || f[1] != "12.5" {
		t.Errorf("cvarlist shows net_fakeloss as %q, want 12.5", listed["net_fakeloss"])
	}
	if !slices.IsSorted(slices.Collect(func(yield func(string) bool) {
		for _, l := range lines {
			if !yield(strings.Fields(l)[0]) {
				return
			}
		}
	})) {
		t.Error("cvarlist is not sorted")
	}
}

func TestConsoleComplete(t *testing.T) {
	for _, host := range []bool{false, true} {
		opt := Options{ServerCvars: serverCvarNames()}
		if host {
			opt.Host = &hostStub{}
		}
		g := newTestGame(opt)
		check := func(line, want string, wantCands []string) {
			t.Helper()
			got, cands := g.con.complete(line)
			if got != want {
				t.Errorf("host %v: complete(%q) = %q, want %q", host, line, got, want)
			}
			if wantCands != nil && !slices.Equal(cands, wantCands) {
				t.Errorf("host %v: complete(%q) candidates %q, want %q", host, line, cands, wantCands)
			}
		}
		// Unique: completed with a trailing space.
		check("cl_pre", "cl_predict ", []string{"cl_predict"})
		check("cvarl", "cvarlist ", []string{"cvarlist"})
		check("net_g", "net_graph ", []string{"net_graph"})
		// net_fakelag is a client and a server cvar: still one candidate.
		check("net_fakela", "net_fakelag ", []string{"net_fakelag"})
		// Ambiguous: the longest common prefix, and the candidates.
		check("net_fake", "net_fake", []string{"net_fakejitter", "net_fakelag", "net_fakeloss"})
		check("net_fakel", "net_fakel", []string{"net_fakelag", "net_fakeloss"})
		check("cl_interp", "cl_interp", []string{"cl_interp", "cl_interp_ratio", "cl_interpolate"})
		check("cl_s", "cl_s", []string{"cl_screenshake", "cl_showerror", "cl_showhitboxes", "cl_smooth", "cl_smoothtime"})
		check("cl_sh", "cl_show", []string{"cl_showerror", "cl_showhitboxes"})
		// Nothing matches, or the name is complete and an argument follows.
		check("zzz", "zzz", nil)
		if _, c := g.con.complete("zzz"); len(c) != 0 {
			t.Errorf("complete(zzz) candidates %q", c)
		}
		check("net_fakelag 1", "net_fakelag 1", nil)
		// Server cvars complete only on the listen-server host.
		got, cands := g.con.complete("sv_")
		if host {
			if got != "sv_" || len(cands) < 2 || !slices.Contains(cands, "sv_unlag") {
				t.Errorf("host: complete(sv_) = %q, %q", got, cands)
			}
		} else if len(cands) != 0 {
			t.Errorf("non-host: complete(sv_) offers %q", cands)
		}
		// No duplicates anywhere, sorted.
		_, all := g.con.complete("")
		if !slices.IsSorted(all) {
			t.Errorf("host %v: candidates not sorted", host)
		}
		if d := slices.Compact(slices.Clone(all)); len(d) != len(all) {
			t.Errorf("host %v: duplicate candidates in %q", host, all)
		}
		for _, n := range g.cvars.Names() {
			if !slices.Contains(all, n) {
				t.Errorf("host %v: %s is not completed", host, n)
			}
		}
	}
}

func TestConsoleServerCvars(t *testing.T) {
	// Not the host: refused, saying who can.
	g := newTestGame(Options{ServerCvars: serverCvarNames()})
	for _, line := range []string{"sv_unlag 0", "sv_maxunlag 0.5", "sv_showimpacts"} {
		out := g.exec(line)
		if !strings.Contains(out, "only the listen-server host or rcon") {
			t.Errorf("%q on a non-host: %q, want it to say only the listen-server host or rcon can change it", line, out)
		}
	}
	// A name that is no server cvar either still points at rcon.
	if out := g.exec("sv_gravity 800"); !strings.Contains(out, "rcon") {
		t.Errorf("sv_gravity 800: %q", out)
	}
	// rcon without a host, not connected.
	if out := g.exec("rcon status"); out != "not connected" {
		t.Errorf("rcon status unconnected: %q", out)
	}
	if out := g.exec("rcon"); out != "usage: "+consoleCommands.lookup("rcon").helpLine() {
		t.Errorf("rcon alone: %q", out)
	}

	// The host: the line is forwarded to the listen server as typed.
	h := &hostStub{}
	g = newTestGame(Options{ServerCvars: serverCvarNames(), Host: h})
	if out := g.exec("sv_unlag 0"); out != "host ran: sv_unlag 0" {
		t.Errorf("sv_unlag 0 on the host: %q", out)
	}
	if out := g.exec("sv_maxunlag"); out != "host ran: sv_maxunlag" {
		t.Errorf("sv_maxunlag on the host: %q", out)
	}
	if out := g.exec("rcon net_fakelag 50"); out != "host ran: net_fakelag 50" {
		t.Errorf("rcon net_fakelag 50 on the host: %q", out)
	}
	// net_fakelag alone is the client's own cvar, even on the host.
	if out := g.exec("net_fakelag 20"); out != "net_fakelag = 20" {
		t.Errorf("net_fakelag 20 on the host: %q", out)
	}
	want := []string{"sv_unlag 0", "sv_maxunlag", "net_fakelag 50"}
	if !slices.Equal(h.lines, want) {
		t.Errorf("host received %q, want %q", h.lines, want)
	}
}

func TestConsoleConfigFile(t *testing.T) {
	dir := t.TempDir()
	good := filepath.Join(dir, "autoexec.cfg")
	content := strings.Join([]string{
		"// Tickshot client config",
		"# a shell-style comment",
		"",
		"   net_fakelag 80   ",
		"net_fakeloss 2.5",
		"\tcl_interp_ratio 3",
		"cl_updaterate 64\r", // a CRLF file
		"net_graph 2",
		"",
	}, "\n")
	if err := os.WriteFile(good, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	g := newTestGame(Options{})
	if err := g.loadConfig(good); err != nil {
		t.Fatalf("loadConfig: %v", err)
	}
	for name, want := range map[string]string{"net_fakelag": "80", "net_fakeloss": "2.5", "cl_interp_ratio": "3",
		"cl_updaterate": "64", "net_graph": "2", "cl_predict": "1"} {
		if got := g.cvars.Lookup(name).String(); got != want {
			t.Errorf("after config: %s = %q, want %q", name, got, want)
		}
	}

	for _, bad := range []struct {
		lines []string
		line  int
		want  string
	}{
		{[]string{"// ok", "net_fakelag 10", "cl_interp_ratio 9", "net_graph 1"}, 3, "1..5"},
		{[]string{"net_fakelag 10", "", "// x", "bogus_command 1"}, 4, "unknown command"},
		{[]string{"cl_updaterate fast"}, 1, "not a number"},
		{[]string{"cl_updaterate 1.5"}, 1, "not a whole number"},
	} {
		p := filepath.Join(dir, "bad.cfg")
		if err := os.WriteFile(p, []byte(strings.Join(bad.lines, "\n")), 0o644); err != nil {
			t.Fatal(err)
		}
		g := newTestGame(Options{})
		err := g.loadConfig(p)
		if err == nil {
			t.Errorf("%q: loadConfig accepted it", bad.lines)
			continue
		}
		loc := p + ":" + string(rune('0'+bad.line)) + ":"
		if !strings.Contains(err.Error(), loc) || !strings.Contains(err.Error(), bad.want) {
			t.Errorf("%q: error %q, want it to name %s and say %q", bad.lines, err, loc, bad.want)
		}
	}
	if err := newTestGame(Options{}).loadConfig(filepath.Join(dir, "missing.cfg")); err == nil {
		t.Error("loadConfig of a missing file succeeded")
	}
}

// TestConsoleNumbersAsWritten: values, ranges and errors print numbers as
// people write them, never in exponent form (1048576, not 1.048576e+06).
func TestConsoleNumbersAsWritten(t *testing.T) {
	g := newTestGame(Options{})
	cases := []struct{ line, want string }{
		{"rate 1048576", "rate = 1048576"},
		{"rate 1e6", "rate = 1000000"},
		{"cl_interp 0.00001", "cl_interp = 0.00001"},
		{"cl_interp -0", "cl_interp = 0"},
		{"rate 2000000", "error: rate: 2000000 is outside 2500..1048576"},
		{"cl_updaterate 1e1.5", `error: cl_updaterate: "1e1.5" is not a number (range 10..128)`},
		{"cl_updaterate 12345678.5", "error: cl_updaterate: 12345678.5 is not a whole number (range 10..128)"},
	}
	for _, c := range cases {
		if out := g.exec(c.line); out != c.want {
			t.Errorf("%q: %q, want %q", c.line, out, c.want)
		}
	}
	if out := g.exec("help rate"); !strings.Contains(out, "(2500..1048576,") {
		t.Errorf("help rate: %q, want the range 2500..1048576", out)
	}
	if out := g.exec("cvarlist"); strings.Contains(out, "e+") || strings.Contains(out, "e-0") {
		t.Errorf("cvarlist prints a number with an exponent:\n%s", out)
	}
	// Values taken from the options at start too.
	opt := Options{}
	opt.Config.Rate, opt.Config.UpdateRate, opt.Config.InterpRatio = 1048576, 20, 2
	g = newTestGame(opt)
	if err := g.initCvars(); err != nil {
		t.Fatal(err)
	}
	if v := g.cvars.Lookup("rate").String(); v != "1048576" {
		t.Errorf("rate from the options: %q, want 1048576", v)
	}
}

// TestConsoleFrameRateCvars: fps_max (0 = no limit) and mat_vsync, with
// Source's names and ranges.
func TestConsoleFrameRateCvars(t *testing.T) {
	g := newTestGame(Options{})
	// On the game loop's goroutine, as in the game: setting the cvars
	// calls into Ebiten.
	onFrame(func(*ebiten.Image) { testFrameRateCvars(t, g) })
}

func testFrameRateCvars(t *testing.T, g *Game) {
	for _, c := range []struct{ line, want string }{
		{"fps_max", `fps_max = 0 (0..1000, default "0")`},
		{"fps_max 60", "fps_max = 60"},
		{"fps_max 7.5", "fps_max = 7.5"},
		{"fps_max -1", "error: fps_max: -1 is outside 0..1000"},
		{"mat_vsync", `mat_vsync = 1 (0 or 1, default "1")`},
		{"mat_vsync 0", "mat_vsync = 0"},
		{"mat_vsync 2", "error: mat_vsync: 2 is outside 0 or 1"},
	} {
		if out := g.exec(c.line); out != c.want {
			t.Errorf("%q: %q, want %q", c.line, out, c.want)
		}
	}
	if ebiten.IsVsyncEnabled() {
		t.Errorf("mat_vsync 0 left vsync on")
	}
	g.exec("mat_vsync 1")
	if !ebiten.IsVsyncEnabled() {
		t.Errorf("mat_vsync 1 left vsync off")
	}
	g.exec("mat_vsync 0") // the test loop runs without
}

// fixedWidth measures text as 10 pixels a byte.
func fixedWidth(s string) float64 { return 10 * float64(len(s)) }

func TestConsoleWrapLine(t *testing.T) {
	cases := []struct {
		s    string
		maxW float64
		want []string
	}{
		{"short", 100, []string{"short"}},
		{"", 100, []string{""}},
		{"one two three four", 90, []string{"one two", "three", "four"}},
		{"one two three four", 100, []string{"one two", "three four"}},
		{"abcdefghijklmnop", 50, []string{"abcde", "fghij", "klmno", "p"}},
		{"ab  cdefghijklmnop", 50, []string{"ab", "cdefg", "hijkl", "mnop"}},
		{"ab cd ", 40, []string{"ab", "cd "}},
		{"x", 5, []string{"x"}}, // narrower than a letter: one a row
	}
	for _, c := range cases {
		if got := wrapLine(c.s, c.maxW, fixedWidth); !slices.Equal(got, c.want) {
			t.Errorf("wrapLine(%q, %v) = %q, want %q", c.s, c.maxW, got, c.want)
		}
	}
}

// TestConsoleWrapsAtWidth: with the console's font, every row of long
// output fits the console's width and no word is lost.
func TestConsoleWrapsAtWidth(t *testing.T) {
	// Text is measured on the game loop's goroutine, as in the game.
	onFrame(func(*ebiten.Image) { testConsoleWrapsAtWidth(t) })
}

func testConsoleWrapsAtWidth(t *testing.T) {
	g := newTestGame(Options{})
	g.w, g.h = 640, 360
	g.con.print(g.exec("help")) // long lines: every cvar's name
	g.con.print(strings.Repeat("x", 300))
	maxW := float64(g.w) - 2*conMargin
	width := func(s string) float64 { return textWidth(s, conFont, false) }
	rows := g.con.rows(maxW, width)
	if len(rows) <= len(g.con.lines) {
		t.Errorf("%d lines gave %d rows at %v px: nothing wrapped", len(g.con.lines), len(rows), maxW)
		return
	}
	for _, r := range rows {
		if w := width(r); w > maxW {
			t.Errorf("row %q is %.0f px wide, the console %.0f", r, w, maxW)
		}
	}
	if got, want := strings.Join(strings.Fields(strings.Join(rows, " ")), ""), strings.Join(strings.Fields(strings.Join(g.con.lines, " ")), ""); got != want {
		t.Errorf("wrapping lost or changed text:\n%s\nwant\n%s", got, want)
	}
	// A wider console gives fewer rows.
	if wide := len(g.con.rows(1260, width)); wide >= len(rows) {
		t.Errorf("1260 px wide: %d rows, 620 px wide: %d", wide, len(rows))
	}
}

// TestConsoleScrolls: PageUp and the wheel (scrollBy) move the view back
// through earlier output, PageDown forward; the view stops at the first
// and the newest rows, and stays on what is read when new output comes.
func TestConsoleScrolls(t *testing.T) {
	var c console
	for i := 1; i <= 100; i++ {
		c.print(fmt.Sprintf("line %d", i))
	}
	view := func() []string { return c.view(c.rows(1000, fixedWidth), 10) }
	first := func() string { return view()[0] }
	if v := view(); len(v) != 10 || v[0] != "line 91" || v[9] != "line 100" {
		t.Fatalf("at the bottom the view shows %q, want line 91..100", v)
	}
	c.scrollBy(9) // PageUp: a page less one row
	if v := view(); v[0] != "line 82" || v[9] != "line 91" {
		t.Errorf("a page up: %q, want line 82..91", v)
	}
	c.scrollBy(1000)
	if v := view(); v[0] != "line 1" || c.scroll != 90 {
		t.Errorf("scrolled past the top: %q (scroll %d), want line 1.. and scroll 90", v, c.scroll)
	}
	c.scrollBy(-9) // PageDown
	if f := first(); f != "line 10" {
		t.Errorf("a page down from the top shows %q first, want line 10", f)
	}
	c.print("new output")
	if f := first(); f != "line 10" {
		t.Errorf("new output moved a scrolled-back view: %q first, want line 10", f)
	}
	c.scrollBy(-1000)
	if v := view(); c.scroll != 0 || v[9] != "new output" {
		t.Errorf("back at the bottom: %q (scroll %d)", v, c.scroll)
	}
	c.print("more")
	if v := view(); v[9] != "more" {
		t.Errorf("at the bottom new output shows at once: %q", v)
	}
	c.clear()
	if v := view(); len(v) != 0 || c.scroll != 0 {
		t.Errorf("after clear: %q, scroll %d", v, c.scroll)
	}
}

// say needs a server; mute and unmute keep a list of hidden names.
func TestConsoleSayAndMute(t *testing.T) {
	g := newTestGame(Options{})
	if out := g.exec("say hello"); out != "not connected" {
		t.Errorf("say without a server: %q", out)
	}
	if out := g.exec("say"); !strings.HasPrefix(out, "usage: say TEXT") {
		t.Errorf("say alone: %q, want its help", out)
	}
	if out := g.exec("mute Bad Guy"); out != "muted Bad Guy" || !g.chat.muted["Bad Guy"] {
		t.Errorf("mute: %q, muted %v", out, g.chat.muted)
	}
	if out := g.exec("unmute Bad Guy"); out != "unmuted Bad Guy" || g.chat.muted["Bad Guy"] {
		t.Errorf("unmute: %q, muted %v", out, g.chat.muted)
	}
}

// The console splits words as Source's does: a quoted value of several
// words is one value (cl_master's URLs), and "" empties a text cvar.
func TestConsoleQuotedValues(t *testing.T) {
	g := newTestGame(Options{})
	if out := g.exec(`cl_master "http://a:8300 http://b:8300"`); out != "cl_master = http://a:8300 http://b:8300" {
		t.Errorf("a quoted value: %q", out)
	}
	if out := g.exec(`cl_master ""`); out != "cl_master = " || g.cvars.Lookup("cl_master").String() != "" {
		t.Errorf(`cl_master "": %q, value %q`, out, g.cvars.Lookup("cl_master").String())
	}
	if out := g.exec("cl_master http://a:8300"); out != "cl_master = http://a:8300" {
		t.Errorf("an unquoted URL (its // is no comment): %q", out)
	}
}
