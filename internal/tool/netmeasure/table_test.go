//go:build linux

package netmeasure

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"tickshot/internal/tool/hitreg"
)

// WriteDoc adds the section with its prose once, then replaces only the
// generated part between the markers, keeping what is around it.
func TestWriteDocReplacesOnlyTheGeneratedPart(t *testing.T) {
	path := filepath.Join(t.TempDir(), "M.md")
	if err := os.WriteFile(path, []byte("# Measurements\n\n## Soak\n\ntext\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	rows := []Row{{Cell: Cell{150, 10, 2, "websocket"}, GapP50Ms: 47, GapP99Ms: 262, GapMaxMs: 480, Freezes: 3, ExtrapolatingPct: 6.8,
		Hitreg: hitreg.Result{Shots: 80, Confirmed: 78, ConfirmedPct: 97.5, ErrP99: 0.5}, LostAtoBPct: 2.1, LostBtoAPct: 1.9},
		{Cell: Cell{60, 0, 0, "websocket"}, Err: "no server | here"},
		{Cell: Cell{60, 0, 0, "auto"}, EndedOn: []string{"netbot2 on websocket"}}}
	if err := WriteDoc(path, "first\n\n"+Table(rows)); err != nil {
		t.Fatal(err)
	}
	b, _ := os.ReadFile(path)
	s := string(b)
	for _, want := range []string{"## Soak\n\ntext\n", Section, "| 150 ms / 10 ms / 2 % | websocket | 47 / 262 / 480 ms | 3 | 6.8 % | 0 (0) | 97.5 % (78 of 80) | 0.50 | 2.1 / 1.9 % |",
		"failed: no server / here", "first", "| auto (netbot2 on websocket) |"} {
		if !strings.Contains(s, want) {
			t.Errorf("after the first write, missing %q in:\n%s", want, s)
		}
	}
	// Hand-written prose after the generated part stays.
	if err := os.WriteFile(path, []byte(s+"\nA note.\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := WriteDoc(path, "second"); err != nil {
		t.Fatal(err)
	}
	b, _ = os.ReadFile(path)
	s = string(b)
	if strings.Contains(s, "first") || !strings.Contains(s, "second") || !strings.Contains(s, "A note.") ||
		strings.Count(s, Section) != 1 || !strings.Contains(s, "## Soak\n\ntext\n") {
		t.Errorf("after the second write:\n%s", s)
	}
}
