//go:build headless

package main

import (
	"os"
	"testing"
)

// binPath is the windowed binary that main_window_test.go's TestMain
// builds; the headless test build has none (binaries builds one).
var binPath string

func TestMain(m *testing.M) {
	code := m.Run()
	removeBuilt()
	os.Exit(code)
}
