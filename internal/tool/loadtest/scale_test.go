package loadtest

import (
	"errors"
	"strings"
	"testing"

	"tickshot/server"
)

// TestScaleTable: the cells are issue 23's six, and the table has a
// Markdown row per cell with the figures of the "Done when", or why a cell
// did not run.
func TestScaleTable(t *testing.T) {
	cells := ScaleCells()
	if len(cells) != 6 || cells[0] != (ScaleCell{64, "arena", 64}) || cells[5] != (ScaleCell{1024, LiteBigMap, 128}) {
		t.Fatalf("cells %+v", cells)
	}
	rep := Report{Players: 64, Map: "arena", TickRate: 64, TickTimeUs: server.TickTimeStatus{P50: 900, P99: 1800, Max: 2900},
		ServerCPUPct: 18, BytesInPerClient: 6900, BytesOutPerClient: 6200, SnapshotBytesMean: 345, SnapshotBytesMax: 1149}
	var sb strings.Builder
	WriteScaleTable(&sb, []ScaleRow{{Cell: cells[0], Report: rep}, {Cell: cells[4], Err: errors.New("no such map\n|x")}})
	lines := strings.Split(strings.TrimSpace(sb.String()), "\n")
	if len(lines) != 4 {
		t.Fatalf("want a header, a rule and 2 rows:\n%s", sb.String())
	}
	for i, want := range []string{"| players | map | tick rate | tick p50 / p99 / max | budget | server CPU | per client in / out",
		"|---|", "| 64 | arena | 64/s | 900 / 1800 / 2900 µs | 15625 µs | 18 % | 6.9 / 6.2 kB/s | 345 / 1149 B | 0 / 0 / 0 |",
		"| 1024 | expanse | 64/s | not run: no such map  x | 15625 µs |"} {
		if !strings.HasPrefix(lines[i], want) {
			t.Errorf("line %d: %q, want it to start with %q", i, lines[i], want)
		}
	}
}
