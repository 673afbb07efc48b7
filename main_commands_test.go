//go:build !js

package main

import (
	"bytes"
	"strings"
	"testing"

	"tickshot/internal/cli"
)

// TestRunnersMatchCommandTable: every row of the command table that needs
// no window has its function in runners; the Window rows have theirs in
// the build with the window (main_window.go) and none in tickshot-server;
// no function runs a command the table does not describe.
func TestRunnersMatchCommandTable(t *testing.T) {
	window := hasWindow()
	for _, c := range cli.Commands {
		_, ok := runners[c.Name]
		if want := !c.Window || window; ok != want {
			t.Errorf("%s (Window %v): has a function %v, want %v in this build (window %v)", c.Name, c.Window, ok, want, window)
		}
	}
	for name := range runners {
		if _, ok := cli.Lookup(name); !ok {
			t.Errorf("runners has %q, which has no row in cli.Commands (and so no help)", name)
		}
	}
	// Every command the help lists, this build runs.
	u := usage()
	for _, c := range cli.Commands {
		listed := strings.Contains(u, "\n  "+c.Name+" ")
		if _, runs := runners[c.Name]; listed != runs {
			t.Errorf("%s: listed in the help %v, run by this build %v", c.Name, listed, runs)
		}
	}
}

// TestRunWindowCommandWithoutWindow: in tickshot-server a Window command
// is refused in one line that says which build has it, not as unknown.
func TestRunWindowCommandWithoutWindow(t *testing.T) {
	if hasWindow() {
		t.Skip("this build has the window (the headless one is tested with -tags headless, and by TestCLIHelpListsEverySubcommand)")
	}
	for _, c := range cli.Commands {
		if !c.Window {
			continue
		}
		var out, errb bytes.Buffer
		if code := run([]string{c.Name, "--help"}, &out, &errb); code != 2 || out.Len() != 0 ||
			!strings.Contains(errb.String(), "needs the game window") || strings.Count(errb.String(), "\n") != 1 {
			t.Errorf("%s --help: status %d, stdout %q, stderr %q; want 2 and one line saying it needs the window", c.Name, code, out.String(), errb.String())
		}
	}
}
