//go:build headless

package main

import (
	"fmt"
	"io"
)

// hasWindow: this build has no game window (play, connect).
const hasWindow = false

const headlessMsg = "this is the dedicated-server build (-tags headless), which has no game window; build without -tags headless to play"

func cmdPlay(args []string, stderr io.Writer) int {
	fmt.Fprintln(stderr, prog+" play:", headlessMsg)
	return 2
}

// cmdMenu is what `tickshot-server` without arguments did before the
// menu existed: play's message.
func cmdMenu(args []string, stderr io.Writer) int { return cmdPlay(args, stderr) }

func cmdConnect(args []string, stderr io.Writer) int {
	fmt.Fprintln(stderr, prog+" connect:", headlessMsg)
	return 2
}
