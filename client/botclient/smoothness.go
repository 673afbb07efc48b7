package botclient

import (
	"math"
	"sort"
	"time"
)

// FreezeMs is the snapshot gap, ms, past which the world visibly stops:
// a player sees others freeze (or slide on extrapolation) for longer than
// the default interpolation period (100 ms) and cl_extrapolate_amount
// (250 ms) together cover.
const FreezeMs = 250

// Smoothness records how evenly snapshots arrive at a client and how
// often it draws others past the newest snapshot (extrapolating), from
// what the client already shows each frame (netclient.View): the count of
// snapshots received, the render tick and the newest snapshot's tick. The
// gaps are timed at the frames, so their resolution is one frame (one
// tick at 64 ticks/s: 15.6 ms); snapshots that arrive together add gaps
// of 0. The zero value is ready; one goroutine owns it.
type Smoothness struct {
	last     time.Time // the frame the newest snapshot was seen at (zero: none yet)
	received int       // snapshots received by then
	gaps     []float64 // ms between arrivals
	frames   int       // frames observed since the first snapshot
	extrap   int       // of them, drawn past the newest snapshot
	// dgFrom is 1 + the number of gaps recorded when the client was first
	// seen on a datagram path (OnDatagrams); 0: never.
	dgFrom int
}

// OnDatagrams records that the client's snapshots travel as datagrams
// from now on: call it before the Frame that first sees a snapshot that
// came as one (netclient.NetStats.DatagramSnapshots), so that the gap that
// ends there, which spans the switch, is not counted. Only the first call
// counts.
func (s *Smoothness) OnDatagrams() {
	if s.dgFrom == 0 {
		s.dgFrom = len(s.gaps) + 1
	}
}

// Frame records one frame at now: received is the client's count of
// snapshots received (Stats.SnapshotsReceived), renderTick where it draws
// others (View.RenderTick) and newestTick the newest snapshot's tick
// (View.SnapshotTick; 0 before the first).
func (s *Smoothness) Frame(now time.Time, received int, renderTick float64, newestTick uint32) {
	if newestTick == 0 {
		return
	}
	if n := received - s.received; n > 0 {
		if !s.last.IsZero() {
			s.gaps = append(s.gaps, float64(now.Sub(s.last))/float64(time.Millisecond))
			for i := 1; i < n; i++ {
				s.gaps = append(s.gaps, 0)
			}
		}
		s.last, s.received = now, received
	}
	s.frames++
	if renderTick > float64(newestTick) {
		s.extrap++
	}
}

// GapStats are quantiles of the time between snapshot arrivals, ms
// (nearest rank: the smallest gap that at least that share of the gaps
// do not exceed).
type GapStats struct {
	P50 float64 `json:"p50"`
	P99 float64 `json:"p99"`
	Max float64 `json:"max"`
}

// Gaps returns the gap quantiles so far, rounded to 0.1 ms (zero before
// the second snapshot).
func (s *Smoothness) Gaps() GapStats {
	n := len(s.gaps)
	if n == 0 {
		return GapStats{}
	}
	g := append([]float64(nil), s.gaps...)
	sort.Float64s(g)
	q := func(p float64) float64 {
		return math.Round(g[min(max(int(math.Ceil(p*float64(n)))-1, 0), n-1)]*10) / 10
	}
	return GapStats{P50: q(0.5), P99: q(0.99), Max: q(1)}
}

// Freezes counts the gaps longer than FreezeMs.
func (s *Smoothness) Freezes() int {
	k := 0
	for _, g := range s.gaps {
		if g > FreezeMs {
			k++
		}
	}
	return k
}

// FreezesOnDatagrams counts the gaps longer than FreezeMs recorded after
// OnDatagrams but the first, which may span the switch from the WebSocket
// (a stall there); 0 if OnDatagrams was never called.
func (s *Smoothness) FreezesOnDatagrams() int {
	if s.dgFrom == 0 {
		return 0
	}
	k := 0
	for _, g := range s.gaps[min(s.dgFrom, len(s.gaps)):] {
		if g > FreezeMs {
			k++
		}
	}
	return k
}

// ExtrapolatingPct is the share of frames drawn past the newest snapshot,
// percent rounded to 0.1 (0 before the first snapshot).
func (s *Smoothness) ExtrapolatingPct() float64 {
	if s.frames == 0 {
		return 0
	}
	return math.Round(float64(s.extrap)/float64(s.frames)*1000) / 10
}
