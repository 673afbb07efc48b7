package cli

import (
	"strings"
	"testing"
)

// TestUsage: every command this build runs on one line of its own, with
// the program's name; the headless build leaves out the window's commands
// and names them once, as in the build with the window.
func TestUsage(t *testing.T) {
	for _, window := range []bool{true, false} {
		u := Usage("tickshot-x", window)
		if !strings.Contains(u, "Usage: tickshot-x [COMMAND]") {
			t.Errorf("usage without the program's name:\n%s", u)
		}
		for _, c := range Commands {
			n := 0
			for _, l := range strings.Split(u, "\n") {
				if strings.HasPrefix(l, "  "+c.Name+" ") {
					n++
					if !strings.Contains(l, c.Summary) {
						t.Errorf("window %v: line %q without the summary %q", window, l, c.Summary)
					}
				}
			}
			if want := 1; c.Window && !window {
				if n != 0 {
					t.Errorf("headless: %d lines for %q, which needs the window", n, c.Name)
				}
				if !strings.Contains(u, c.Name+",") && !strings.Contains(u, c.Name+"\n") {
					t.Errorf("headless: the help does not say %q is in the build with the window:\n%s", c.Name, u)
				}
			} else if n != want {
				t.Errorf("window %v: %d lines for %q, want 1", window, n, c.Name)
			}
		}
	}
}

// TestCommandTable: every row has a name as typed (one lowercase word, no
// two alike), a one-line summary, and a synopsis that starts no new line.
func TestCommandTable(t *testing.T) {
	seen := map[string]bool{}
	for _, c := range Commands {
		if c.Name == "" || c.Name != strings.ToLower(c.Name) || strings.ContainsAny(c.Name, " \t-") {
			t.Errorf("command %q: want one lowercase word", c.Name)
		}
		if seen[c.Name] {
			t.Errorf("two rows for %q", c.Name)
		}
		seen[c.Name] = true
		if len(c.Summary) < 10 || strings.Contains(c.Summary+c.Args, "\n") {
			t.Errorf("%s: summary %q, args %q: want one line of help", c.Name, c.Summary, c.Args)
		}
		if got, ok := Lookup(c.Name); !ok || got != c {
			t.Errorf("Lookup(%q) = %+v, %v", c.Name, got, ok)
		}
	}
	if _, ok := Lookup("nothing"); ok {
		t.Error("Lookup found a command that is not in the table")
	}
	// The commands the argument rule falls back on are rows.
	for _, name := range []string{"menu", "play", "help"} {
		if !seen[name] {
			t.Errorf("Split can return %q, which has no row", name)
		}
	}
}

// TestSplit: the argument rule, as main's run and NoDisplay apply it.
func TestSplit(t *testing.T) {
	for _, tc := range []struct {
		args []string
		name string
		rest []string
	}{
		{nil, "menu", nil},
		{[]string{}, "menu", nil},
		{[]string{"--bots", "3"}, "play", []string{"--bots", "3"}},
		{[]string{"-name=x"}, "play", []string{"-name=x"}},
		{[]string{"server", "--bots", "2"}, "server", []string{"--bots", "2"}},
		{[]string{"connect", "h"}, "connect", []string{"h"}},
		{[]string{"--help"}, "help", []string{}},
		{[]string{"-h", "bot"}, "help", []string{"bot"}},
		{[]string{"-help"}, "help", []string{}},
		{[]string{"help", "hitreg"}, "help", []string{"hitreg"}},
		{[]string{"nothing", "x"}, "nothing", []string{"x"}},
		{[]string{""}, "", []string{}},
	} {
		name, rest := Split(tc.args)
		if name != tc.name || strings.Join(rest, "\x00") != strings.Join(tc.rest, "\x00") || len(rest) != len(tc.rest) {
			t.Errorf("Split(%q) = %q, %q; want %q, %q", tc.args, name, rest, tc.name, tc.rest)
		}
	}
}

// TestNoDisplay: without a display the windowed build prints the help for
// a bare help request, and otherwise one line naming what to run.
func TestNoDisplay(t *testing.T) {
	for _, args := range [][]string{{"--help"}, {"-h"}, {"help"}} {
		code, text, stdout := NoDisplay("tickshot", args, "DISPLAY is not set")
		if code != 0 || !stdout || text != Usage("tickshot", true) {
			t.Errorf("%v: code %d, stdout %v, text %q; want the usage, 0", args, code, stdout, text)
		}
	}
	for _, tc := range []struct {
		args []string
		want string
	}{
		{nil, "tickshot menu: no display (DISPLAY is not set), so the game window cannot open"},
		{[]string{"--bots", "3"}, "tickshot play: no display"},
		{[]string{"connect", "h"}, "tickshot connect: no display"},
		{[]string{"server", "--bots", "2"}, "run `tickshot-server server --bots 2` instead"},
		{[]string{"help", "hitreg"}, "run `tickshot-server help hitreg` instead"},
	} {
		code, text, stdout := NoDisplay("tickshot", tc.args, "DISPLAY is not set")
		if code != 1 || stdout || !strings.Contains(text, tc.want) || strings.Count(text, "\n") != 1 {
			t.Errorf("%v: code %d, stdout %v, text %q; want one line with %q, status 1", tc.args, code, stdout, text, tc.want)
		}
	}
}
