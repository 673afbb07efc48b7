package loadtest

import (
	"fmt"
	"io"
	"time"
)

// ScaleCell is one cell of issue 23's scale table: Players --lite
// clients on Map at TickRate ticks/s.
type ScaleCell struct {
	Players  int
	Map      string
	TickRate int
}

// ScaleCells are the cells of `make measure-scale`: players 64 / 256 /
// 1 024 on arena, sprawl and LiteBigMap (the same player density), each at
// 64 and 128 ticks/s.
func ScaleCells() []ScaleCell {
	var cells []ScaleCell
	for _, p := range []struct {
		n int
		m string
	}{{64, "arena"}, {256, "sprawl"}, {1024, LiteBigMap}} {
		for _, rate := range []int{64, 128} {
			cells = append(cells, ScaleCell{Players: p.n, Map: p.m, TickRate: rate})
		}
	}
	return cells
}

// ScaleRow is one measured cell: its report, or why it could not run.
type ScaleRow struct {
	Cell   ScaleCell
	Report Report
	Err    error
}

// WriteScaleTable prints rows as the Markdown table of issue 23's "Done
// when": tick p50 / p99 against the tick interval, the server's CPU, and
// what each client received and sent per second.
func WriteScaleTable(w io.Writer, rows []ScaleRow) {
	fmt.Fprintln(w, "| players | map | tick rate | tick p50 / p99 / max | budget | server CPU | per client in / out | snapshot mean / max | lost / choked / decode errors | clients dropped |")
	fmt.Fprintln(w, "|---|---|---|---|---|---|---|---|---|---|")
	for _, r := range rows {
		c := r.Cell
		budget := time.Second / time.Duration(c.TickRate)
		if r.Err != nil {
			fmt.Fprintf(w, "| %d | %s | %d/s | not run: %s | %d µs | | | | | |\n", c.Players, c.Map, c.TickRate, oneLine(r.Err.Error()), budget.Microseconds())
			continue
		}
		p, t := r.Report, r.Report.TickTimeUs
		cpu := "not measured"
		if p.ServerCPUPct >= 0 {
			cpu = fmt.Sprintf("%.0f %%", p.ServerCPUPct)
		}
		drops := "0"
		if p.ClientsDropped > 0 {
			drops = fmt.Sprintf("%d (%s)", p.ClientsDropped, oneLine(p.DropReason))
		}
		fmt.Fprintf(w, "| %d | %s | %d/s | %.0f / %.0f / %.0f µs | %d µs | %s | %.1f / %.1f kB/s | %.0f / %d B | %d / %d / %d | %s |\n",
			p.Players, p.Map, p.TickRate, t.P50, t.P99, t.Max, budget.Microseconds(), cpu,
			p.BytesInPerClient/1000, p.BytesOutPerClient/1000, p.SnapshotBytesMean, p.SnapshotBytesMax,
			p.SnapshotsLost, p.SnapshotsChoked, p.DecodeErrors, drops)
	}
}

// oneLine is s with its line breaks and table bars replaced.
func oneLine(s string) string {
	b := []byte(s)
	for i, c := range b {
		if c == '\n' || c == '|' {
			b[i] = ' '
		}
	}
	return string(b)
}
