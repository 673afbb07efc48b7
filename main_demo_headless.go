//go:build headless

package main

import (
	"fmt"
	"io"
)

func cmdPlaydemo(args []string, stderr io.Writer) int {
	fmt.Fprintln(stderr, prog+" playdemo:", headlessMsg)
	return 2
}
