//go:build linux

package netmeasure

import (
	"errors"
	"fmt"
	"os"
	"strings"
)

// Table renders rows as a Markdown table.
func Table(rows []Row) string {
	var b strings.Builder
	b.WriteString("| link (RTT / jitter / loss each way) | transport | snapshot gap p50 / p99 / max | freezes > 250 ms | time extrapolating | cmds dropped (deepest queue) | hitreg confirmed | rewind error p99 | link lost A→B / B→A |\n")
	b.WriteString("|---|---|---|---|---|---|---|---|---|\n")
	for _, r := range rows {
		if r.Err != "" {
			fmt.Fprintf(&b, "| %s | %s | failed: %s | | | | | | |\n", r.Cell, r.Cell.Transport, strings.ReplaceAll(r.Err, "|", "/"))
			continue
		}
		tr := r.Cell.Transport
		if len(r.EndedOn) > 0 {
			tr += " (" + strings.Join(r.EndedOn, ", ") + ")"
		}
		fmt.Fprintf(&b, "| %s | %s | %.0f / %.0f / %.0f ms | %d | %.1f %% | %d (%d) | %.1f %% (%d of %d) | %.2f | %.1f / %.1f %% |\n",
			r.Cell, tr, r.GapP50Ms, r.GapP99Ms, r.GapMaxMs, r.Freezes, r.ExtrapolatingPct,
			r.CmdsDropped, r.CmdQueueMax, r.Hitreg.ConfirmedPct, r.Hitreg.Confirmed, r.Hitreg.Shots, r.Hitreg.ErrP99,
			r.LostAtoBPct, r.LostBtoAPct)
	}
	return b.String()
}

// Section is the heading in docs/MEASUREMENTS.md that WriteDoc fills.
const Section = "## Real networks (issue 19)"

// The generated part of the section lies between these lines; the prose
// around them is kept.
const (
	beginMark = "<!-- make measure-network: begin (generated) -->"
	endMark   = "<!-- make measure-network: end -->"
)

// WriteDoc puts body (the command, the table) into path's Section between
// its markers, adding the section at the end when it is missing.
func WriteDoc(path, body string) error {
	old, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	s := string(old)
	gen := beginMark + "\n" + strings.TrimSpace(body) + "\n" + endMark
	i := strings.Index(s, Section+"\n")
	if i < 0 {
		s = strings.TrimRight(s, "\n") + "\n\n" + Section + "\n\n" + intro + "\n\n" + gen + "\n"
		return os.WriteFile(path, []byte(s), 0o644)
	}
	b, e := strings.Index(s[i:], beginMark), strings.Index(s[i:], endMark)
	if b < 0 || e < b {
		return errors.New(path + ": " + Section + " has no generated part between " + beginMark + " and " + endMark)
	}
	s = s[:i+b] + gen + s[i+e+len(endMark):]
	return os.WriteFile(path, []byte(s), 0o644)
}

// intro opens a new section.
const intro = `The game over real lossy links: two network namespaces joined by internal/netem's userspace
link emulator (docs/NETEM.md; real kernel TCP, real IP packet loss), the dedicated server with
bots and the hit-registration benchmark's server (` + "`hitreg --serve`" + `) in one, two headless
network clients (` + "`tickshot bot --json`" + `) and the benchmark's two clients (` + "`hitreg --server`" + `)
in the other. Per cell: snapshot gaps are the worse of the two bots' (time between snapshot
arrivals, timed at the bots' frames, 15.6 ms apart), freezes their sum, time extrapolating their
mean share of frames drawn past the newest snapshot; commands dropped are /status ` + "`cmds_dropped`" + `
of the four network players, the deepest ` + "`cmd_queue`" + ` sampled once a second; hitreg confirmed is the
share of its shots the server confirmed, the rewind error its p99 in world units (hitbox radius
16); the link's loss is what the emulator really dropped.`
