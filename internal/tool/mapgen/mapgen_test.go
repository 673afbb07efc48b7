package mapgen

import (
	"bytes"
	"os"
	"testing"
)

// TestExpanseCommitted: assets/maps/expanse.tmx is what the generator
// writes today (run `go generate ./assets` after changing it), and two
// runs write the same bytes (no clock, no map order, a fixed seed).
func TestExpanseCommitted(t *testing.T) {
	got := Expanse()
	if !bytes.Equal(got, Expanse()) {
		t.Fatal("two runs of Expanse differ")
	}
	want, err := os.ReadFile("../../../assets/maps/expanse.tmx")
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Fatal("assets/maps/expanse.tmx is not the generator's output: run go generate ./assets")
	}
}
