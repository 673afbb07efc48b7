package loadtest

import (
	"context"
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
	dropped := rep
	dropped.ClientsDropped, dropped.DropReason = 3, "client lite7 stopped: kicked"
	WriteScaleTable(&sb, []ScaleRow{{Cell: cells[0], Report: rep}, {Cell: cells[4], Err: errors.New("no such map\n|x")}, {Cell: cells[0], Report: dropped}})
	lines := strings.Split(strings.TrimSpace(sb.String()), "\n")
	if len(lines) != 5 {
		t.Fatalf("want a header, a rule and 3 rows:\n%s", sb.String())
	}
	for i, want := range []string{"| players | map | tick rate | tick p50 / p99 / max | budget | server CPU | per client in / out",
		"|---|", "| 64 | arena | 64/s | 900 / 1800 / 2900 µs | 15625 µs | 18 % | 6.9 / 6.2 kB/s | 345 / 1149 B | 0 / 0 / 0 | 0 |",
		"| 1024 | expanse | 64/s | not run: no such map  x | 15625 µs | | | | | |",
		"| 64 | arena | 64/s | 900 / 1800 / 2900 µs | 15625 µs | 18 % | 6.9 / 6.2 kB/s | 345 / 1149 B | 0 / 0 / 0 | 3 (client lite7 stopped: kicked) |"} {
		if !strings.HasPrefix(lines[i], want) {
			t.Errorf("line %d: %q, want it to start with %q", i, lines[i], want)
		}
	}
}

// fakeMember is a client that stopped (err) or plays.
type fakeMember struct{ err error }

func (f fakeMember) name() string         { return "fake" }
func (f fakeMember) state() (bool, error) { return f.err == nil, f.err }
func (f fakeMember) stopped() error       { return f.err }
func (f fakeMember) mark() counters       { return counters{} }
func (f fakeMember) read() counters       { return counters{} }

// TestDroppedClients: a full run stops at the first failed client; a
// --lite run counts the failed ones, keeps the first reason and measures
// the others.
func TestDroppedClients(t *testing.T) {
	bad := errors.New("kicked: message flood")
	strict := &dropped{}
	if err := strict.drop(bad); err != bad || strict.n != 0 {
		t.Errorf("strict: drop = %v (n %d), want the error back", err, strict.n)
	}
	d := &dropped{tolerate: true}
	clients := []member{fakeMember{}, fakeMember{bad}, fakeMember{}}
	joined := make(chan error, 3)
	joined <- nil
	joined <- bad
	joined <- nil
	playing, err := awaitJoins(context.Background(), clients, joined, d)
	if err != nil || len(playing) != 2 || d.n != 1 || !strings.Contains(d.first, "kicked: message flood") {
		t.Fatalf("awaitJoins: %d playing, %v; dropped %d (%q); want 2, nil, 1 with the reason", len(playing), err, d.n, d.first)
	}
	clients = []member{fakeMember{}, fakeMember{errors.New("ping unanswered")}}
	b, a := d.leaveOut(clients, []counters{{snaps: 1}, {snaps: 2}}, []counters{{snaps: 3}, {snaps: 4}})
	if len(b) != 1 || len(a) != 1 || b[0].snaps != 1 || a[0].snaps != 3 || d.n != 2 || !strings.Contains(d.first, "kicked") {
		t.Errorf("leaveOut: before %v, after %v, dropped %d (%q)", b, a, d.n, d.first)
	}
	if _, err := awaitJoins(context.Background(), []member{fakeMember{bad}}, joinedNil(1), &dropped{tolerate: true}); err == nil {
		t.Error("every client failed: want an error")
	}
}

func joinedNil(n int) chan error {
	c := make(chan error, n)
	for range n {
		c <- nil
	}
	return c
}
