package server

// Snapshot phase groups. A client's snapshots go out every
// tickrate/cl_updaterate ticks (rateControl); left to itself, each
// client's phase is the tick it joined, so the clients that send on one
// tick have acked snapshots of different ticks, and few of them share an
// entity's record (proto.EntityDeltaCache: encode once, send many). The
// clients of one update rate are instead spread over a few phase groups,
// each sending on the same ticks: as many groups as keep the ticks' load
// even (at cl_updaterate 20 and 64 ticks/s, 3 groups of a third of the
// clients, on 60 of 64 ticks one group), so that the clients of a group
// (with similar RTTs) delta against the same tick and share its records.
// All of them on one tick would share the most but put every snapshot on
// a third of the ticks, tripling those ticks' snapshot time
// (BenchmarkSnapshotSharing, docs/MEASUREMENTS.md).

// maxPhaseGroups is the most phase groups the clients of one update rate
// are spread over.
const maxPhaseGroups = 8

// phaseGroupCount is how many phase groups the clients of cl_updaterate
// ur at tickrate tr are spread over: the fewest (1..maxPhaseGroups) that
// load the ticks most evenly, ties within 5 % going to fewer. n groups
// evenly spaced send on a tick ceil(n*ur/tr) or floor(n*ur/tr) at a time,
// n*ur/tr on average, so the busiest tick carries ceil(x)/x times the mean
// snapshots, x = n*ur/tr.
func phaseGroupCount(ur, tr int) int {
	if ur <= 0 || ur >= tr {
		return 1 // every tick
	}
	best, bestBurst := 1, 0.0
	for n := 1; n <= maxPhaseGroups; n++ {
		busiest := (n*ur + tr - 1) / tr
		burst := float64(busiest*tr) / float64(n*ur)
		if n == 1 || burst < bestBurst-0.05 {
			best, bestBurst = n, burst
		}
	}
	return best
}

// phaseGroups puts each client's snapshots on its phase group's ticks: at
// its first snapshot and after a change of its update rate, a client
// joins the next group of its update rate, round robin. The tick
// goroutine owns it (snapshotWriter).
type phaseGroups struct {
	next map[int]int // by update rate: the group the next client joins
}

// assign puts r in the next phase group of its update rate at tickrate
// tr; a nil phaseGroups leaves r on the phase of its join.
func (p *phaseGroups) assign(r *rateControl, tr int) {
	if p == nil {
		return
	}
	if p.next == nil {
		p.next = make(map[int]int)
	}
	n := phaseGroupCount(r.updateRate, tr)
	g := p.next[r.updateRate] % n
	p.next[r.updateRate] = (g + 1) % n
	r.phase, r.phased = g*tr/n, true
}
