//go:build !js

package main

import (
	"strings"
	"testing"
)

// TestCLILoadtestLiteHelp: loadtest's help explains --lite, its client
// cap and its default map, and a --lite run with a flag the in-process
// server alone takes and --server is refused in one line.
func TestCLILoadtestLiteHelp(t *testing.T) {
	_, headless := binaries(t)
	res := runBin(t, headless, nil, "loadtest", "--help")
	for _, want := range []string{"[--lite]", "-lite", "speak only the wire protocol", "0..1024 with --lite", "expanse"} {
		if res.code != 0 || !strings.Contains(res.stderr, want) {
			t.Errorf("tickshot-server loadtest --help: want status 0 and %q; got %s", want, res)
		}
	}
	res = runBin(t, headless, nil, "loadtest", "--lite", "--clients", "2", "--server", "127.0.0.1:1", "--tickrate", "64")
	checkRefused(t, "tickshot-server", []string{"loadtest", "--lite", "--server", "--tickrate"}, "--tickrate applies only to the in-process server", res)
}
