//go:build !headless

package client

import (
	"strings"
	"testing"
)

// The command table on its own: rows of its own, run without a window or
// a connection (the functions ignore the Game).
func TestCommandTable(t *testing.T) {
	var ran []string
	rec := func(_ *Game, a []string) string { ran = a; return "ran " + strings.Join(a, "|") }
	tab := newCommandTable([]command{
		{name: "zeta", help: "no arguments", run: rec},
		{name: "echo", args: "TEXT", minArgs: 1, maxArgs: anyArgs, help: "say it back", run: rec},
		{name: "pair", args: "A B", minArgs: 2, maxArgs: 2, quoted: true, help: "two quoted words", run: rec},
	})
	if got := strings.Join(tab.names(), " "); got != "echo pair zeta" {
		t.Errorf("names %q, want them sorted", got)
	}
	if c := tab.lookup("echo"); c == nil || c.usage() != "echo TEXT" || c.helpLine() != "echo TEXT: say it back" {
		t.Errorf("echo: %+v", c)
	}
	if tab.lookup("nope") != nil {
		t.Error("lookup of an unknown name found a row")
	}
	if out, found := tab.exec(nil, "  echo a   b "); !found || out != "ran a|b" {
		t.Errorf("echo a b: %q, %v", out, found)
	}
	if out, found := tab.exec(nil, `pair "x y" z`); !found || out != "ran x y|z" || len(ran) != 2 {
		t.Errorf("pair with a quoted argument: %q, %v, args %q", out, found, ran)
	}
	if out, found := tab.exec(nil, "nope 1"); found || out != "" {
		t.Errorf("an unknown command: %q, found %v", out, found)
	}
	if _, found := tab.exec(nil, "   "); found {
		t.Error("a blank line found a command")
	}
	// Argument counts are checked before the function runs, and the
	// answer is the usage with the help.
	for _, line := range []string{"echo", "pair x", "pair x y z", "zeta 1"} {
		ran = nil
		out, found := tab.exec(nil, line)
		name := strings.Fields(line)[0]
		if want := "usage: " + tab.lookup(name).helpLine(); !found || out != want {
			t.Errorf("%q: %q, want %q", line, out, want)
		}
		if ran != nil {
			t.Errorf("%q ran with a wrong argument count", line)
		}
	}
	if got, want := tab.list(), "echo TEXT: say it back\npair A B: two quoted words\nzeta: no arguments"; got != want {
		t.Errorf("list:\n%s\nwant:\n%s", got, want)
	}
	for _, rows := range [][]command{
		{{name: "x", run: rec}},  // no help
		{{name: "x", help: "h"}}, // no function
		{{help: "h", run: rec}},  // no name
		{{name: "x", help: "h", run: rec}, {name: "x", help: "h", run: rec}}, // twice
	} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("rows %+v accepted", rows)
				}
			}()
			newCommandTable(rows)
		}()
	}
}

// The console's own table: every row has help that says what it does;
// help and cmdlist list every row; an unknown command and a wrong argument
// count answer clearly.
func TestConsoleCommandRows(t *testing.T) {
	g := newTestGame(Options{})
	help, list := g.exec("help"), g.exec("cmdlist")
	for _, c := range consoleCommands.rows {
		if len(c.help) < 10 || strings.HasPrefix(c.help, c.usage()+":") {
			t.Errorf("%s: help %q (a sentence, without the usage, which the table adds)", c.name, c.help)
		}
		if c.maxArgs >= 0 && c.maxArgs < c.minArgs {
			t.Errorf("%s: takes %d..%d arguments", c.name, c.minArgs, c.maxArgs)
		}
		if (c.args == "") != (c.maxArgs == 0) {
			t.Errorf("%s: arguments %q but at most %d of them", c.name, c.args, c.maxArgs)
		}
		if !strings.Contains(help, c.name) {
			t.Errorf("help does not list %s", c.name)
		}
		if !strings.Contains(list, c.helpLine()) {
			t.Errorf("cmdlist lacks %q", c.helpLine())
		}
		if out := g.exec("help " + c.name); out != c.helpLine() {
			t.Errorf("help %s: %q", c.name, out)
		}
	}
	if out := g.exec("frobnicate 3"); out != `unknown command "frobnicate" (try help)` {
		t.Errorf("an unknown command: %q", out)
	}
	if out := g.exec("connect"); out != "usage: connect HOST:PORT: join another server" {
		t.Errorf("connect without an address: %q", out)
	}
	if out := g.exec("kill now"); !strings.HasPrefix(out, "usage: kill: ") {
		t.Errorf("kill with an argument: %q", out)
	}
	if out := g.exec("kill"); out != "not connected" {
		t.Errorf("kill unconnected: %q", out)
	}
	if out := g.exec("demo_pause"); !strings.Contains(out, "no demo is playing") {
		t.Errorf("demo_pause without a demo: %q", out)
	}
	if out := g.exec("incrementvar net_graph 0 x 1"); !strings.Contains(out, `"x" is not a number`) {
		t.Errorf("incrementvar with a bad bound: %q", out)
	}
}
