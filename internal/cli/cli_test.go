package cli

import (
	"strings"
	"testing"
)

// TestUsage: every command on one line of its own, with the program's
// name; the headless build marks the window's commands as absent.
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
					if absent := strings.Contains(l, "[not in this build]"); absent != (c.Window && !window) {
						t.Errorf("window %v: line %q marks the command absent: %v", window, l, absent)
					}
				}
			}
			if n != 1 {
				t.Errorf("window %v: %d lines for %q, want 1", window, n, c.Name)
			}
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
