//go:build !headless && !js

package main

import (
	"fmt"
	"io"
	"strings"
	"time"

	"tickshot/client"
	"tickshot/client/lab"
)

// labUsage is lab --help's synopsis; the preset names follow it.
const labUsage = `Usage: tickshot lab [flags]

The lag lab: a real server and two real clients in this process, each client with its own
simulated network (lag, jitter, loss each way), drawn side by side as player 1's screen,
the server's authoritative world and player 2's screen. Every shot is drawn in all three in
its own colour: the shooter's tracer and where it saw the target, the server's trace through
the hitbox it rewound, and where the victim stood on its own screen, with the verdict.
Click a knob to change it (left: up or on, right: down or off).

Keys: Space or P pause, N step one server tick, [ and ] slow motion x0.1..x1, Left/Right scrub
back through the last 10 s while paused (Shift: 0.5 s), 1-7 presets, 0 free play, R restart,
V and B change who drives player 1 and player 2 (keyboard, bot, script, idle), F12 saves a PNG,
F5 saves the run (reopen it with --open), Esc quits. Player 1: WASD move, the mouse over its pane aims, left click fires. Player 2 on the
keyboard: IJKL move, Enter fires at player 1 where player 2's client draws him.

Presets: `

// cmdLab opens the lag lab (client.RunLab, package lab): player 1, the
// server and player 2 side by side, all in this process.
func cmdLab(args []string, stdout, stderr io.Writer) int {
	fs := newFlags("lab", labUsage+presetList(), stderr)
	preset := fs.String("preset", "", "start with this experiment (see above); empty: free play")
	seed := fs.Uint64("seed", 1, "seed of the links' jitter and loss and of the bots (the same seed gives the same run)")
	shot := fs.String("screenshot", "", "run the preset for its duration on the lab's virtual clock as fast as it can, save a PNG of the window to this file, and exit")
	shotAt := fs.Duration("screenshot-at", 0, "with --screenshot: the moment to picture, virtual time (0: the preset's duration)")
	speed := fs.Float64("speed", 1, "slow motion at start, 0.1..1 (real time x speed)")
	paused := fs.Bool("paused", false, "start paused")
	open := fs.String("open", "", "reopen a run saved with the Save run button (F5): replayed to where it was saved and shown paused there (with --screenshot: pictured there)")
	report := fs.String("exit-report", "", "write a JSON report of the controls' state (preset, paused, speed, knobs, drivers) to this file on exit (testing)")
	svCvars := &cvarFlags{}
	fs.Var(svCvars, "sv", "set a server knob at start, over the preset's, repeatable: sv_unlag, sv_maxunlag (s), sv_mutualkills (e.g. --preset behind-wall --sv sv_unlag=0: the same shot misses)")
	list := fs.Bool("list", false, "print the presets with their explanations and exit")
	width := fs.Int("width", 1280, "window width in pixels (960..16384)")
	height := fs.Int("height", 720, "window height in pixels (540..16384)")
	if code, done := parse(fs, args); done {
		return code
	}
	if *list {
		for _, p := range lab.Presets() {
			fmt.Fprintf(stdout, "%s\t%s\n\t%s\n", p.Name, p.Title, p.Explain)
		}
		return 0
	}
	if refused(stderr, "lab", noArgs(fs), checkPreset(*preset),
		outOfRange(finite(*speed) && *speed >= 0.1 && *speed <= 1, "speed", *speed, "0.1..1"),
		outOfRange(*shotAt >= 0 && *shotAt <= time.Minute, "screenshot-at", *shotAt, "0..1m"),
		outOfRange(*width >= 960 && *width <= 16384, "width", *width, "960..16384 pixels"),
		outOfRange(*height >= 540 && *height <= 16384, "height", *height, "540..16384 pixels"), checkLabCvars(*svCvars)) {
		return 2
	}
	err := client.RunLab(client.LabOptions{Preset: *preset, Seed: *seed, ScreenshotPath: *shot, ScreenshotAt: *shotAt,
		Speed: *speed, Paused: *paused, Open: *open, ServerCvars: *svCvars, ReportPath: *report, Width: *width, Height: *height, Quit: interrupted()})
	if failed(stderr, "lab", err) {
		return 1
	}
	return 0
}

// checkLabCvars refuses --sv settings the lab has no knob for.
func checkLabCvars(cvars cvarFlags) error {
	var k lab.Knobs
	for _, kv := range cvars {
		if err := k.SetServerCvar(kv[0], kv[1]); err != nil {
			return fmt.Errorf("--sv %s=%s: %w", kv[0], kv[1], err)
		}
	}
	return nil
}

// presetList names the lab's presets for the help.
func presetList() string {
	var names []string
	for _, p := range lab.Presets() {
		names = append(names, p.Name+" ("+p.Title+")")
	}
	if len(names) == 0 {
		return "none yet."
	}
	return strings.Join(names, ", ") + "."
}

// checkPreset refuses a preset the lab does not have, listing those it has.
func checkPreset(name string) error {
	if name == "" {
		return nil
	}
	var names []string
	for _, p := range lab.Presets() {
		if p.Name == name {
			return nil
		}
		names = append(names, p.Name)
	}
	return fmt.Errorf("--preset %q: no such experiment (have: %s)", name, strings.Join(names, ", "))
}
