//go:build !headless && !js

package main

import (
	"fmt"
	"io"
	"path/filepath"

	"tickshot/client"
	"tickshot/client/demo"
)

// cmdPlaydemo opens the window playing a demo back (Source's playdemo).
func cmdPlaydemo(args []string, _, stderr io.Writer) int {
	fs := newFlags("playdemo", "Usage: tickshot playdemo NAME|PATH [flags]\n\nPlays a demo back in the game window: NAME is a demo recorded with the console's\n'record NAME' (NAME.dem in the demos folder of the config directory), or a .dem file's path.\nKeys: Space or P pause, [ and ] (or - and +) speed x0.25..x4, Left/Right 5 s back/on, F3 net_graph, Esc quit.", stderr)
	cf := addClientFlags(fs)
	name, rest, code, done := parseOperand(fs, args) // main_client.go
	if done {
		return code
	}
	if name == "" {
		fmt.Fprintf(stderr, "%s playdemo: missing the demo's NAME or PATH (see 'listdemos' in the console)\n", prog)
		return 2
	}
	if len(rest) > 0 {
		fmt.Fprintf(stderr, "%s playdemo: unexpected argument %q: playdemo takes one demo\n", prog, rest[0])
		return 2
	}
	if refused(stderr, "playdemo", cf.check()) {
		return 2
	}
	path, err := demo.Path(name)
	if err != nil {
		fmt.Fprintf(stderr, "%s playdemo: %v\n", prog, err)
		return 1
	}
	d, err := demo.Load(path)
	if err != nil {
		fmt.Fprintf(stderr, "%s playdemo: %v\n", prog, err)
		return 1
	}
	opts := cf.options("", "Tickshot - demo "+filepath.Base(path))
	opts.Start = client.PlayDemo(path)
	opts.Quit = interrupted()
	fmt.Fprintln(stderr, "playing", d.Describe())
	if err := client.Run(opts); err != nil {
		fmt.Fprintf(stderr, "%s playdemo: %v\n", prog, err)
		return 1
	}
	return 0
}
