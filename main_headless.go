//go:build headless

package main

import (
	"fmt"
	"io"
)

const headlessMsg = "this is the dedicated-server build (-tags headless), which has no game window; build without -tags headless to play"

func cmdPlay(args []string, stderr io.Writer) int {
	fmt.Fprintln(stderr, "tickshot play:", headlessMsg)
	return 2
}

func cmdConnect(args []string, stderr io.Writer) int {
	fmt.Fprintln(stderr, "tickshot connect:", headlessMsg)
	return 2
}
