// Package soak is the soak test (`make soak`, scripts/soak): a real
// dedicated server process with server bots, loaded by headless network
// clients (package loadtest: the real client netcode over websockets on
// loopback) for a long time, sampled at a fixed interval. It fails when
// the server's resident memory or goroutine count grows between the first
// and the last third of the run, when the tick time's 99th percentile
// exceeds the tick interval, or when players drop out. A leak that a 20 s
// load test cannot see (a goroutine per disconnect, an unbounded map, a
// ring that never wraps) shows here as growth at a steady player count.
package soak

import (
	"fmt"
	"io"
	"slices"
	"time"
)

// Sample is one reading of the server during the soak.
type Sample struct {
	Elapsed    time.Duration // since the first sample
	RSSBytes   uint64        // resident set size of the server process (/proc/PID/status VmRSS), bytes
	Goroutines int           // the server's goroutine count (/status "goroutines")
	TickP99Us  float64       // 99th percentile of the server's tick time over its last 512 ticks (/status), µs
	Players    int           // players on the server (bots and clients)
}

// Tolerance is how much growth the judge allows between the median of the
// first third of the samples and the median of the last third. Medians
// ignore one garbage-collection peak or a status read caught mid-accept.
type Tolerance struct {
	// RSSFrac and RSSBytes: the resident set may grow by the larger of
	// RSSFrac of its first-third median and RSSBytes (a Go heap settles
	// within a few GC cycles, but the runtime returns memory to the OS
	// lazily, so a few MiB of drift is not a leak).
	RSSFrac  float64
	RSSBytes uint64
	// Goroutines may grow by this many (keep-alive HTTP connections of the
	// sampler itself and timers come and go).
	Goroutines int
}

// DefaultTolerance is the tolerance `make soak` judges with: RSS may grow
// by 10 % or 4 MiB, whichever is more, goroutines by 8. A leak of 1 MiB a
// minute moves the thirds' medians about 6.7 MiB apart in 10 minutes, one
// goroutine a minute about 7, a goroutine per 30 s about 13.
var DefaultTolerance = Tolerance{RSSFrac: 0.10, RSSBytes: 4 << 20, Goroutines: 8}

// MinSamples is the fewest samples the judge accepts: one per third.
const MinSamples = 3

// Verdict is the judge's finding on a run.
type Verdict struct {
	// The medians of the first and the last third of the samples.
	RSSFirst, RSSLast               uint64
	GoroutinesFirst, GoroutinesLast int
	// The growth allowed for each (Tolerance applied to RSSFirst).
	RSSAllowed        uint64
	GoroutinesAllowed int
	// TickP99WorstUs is the largest tick-time p99 of any sample, µs, and
	// TickIntervalUs the tick interval it must stay under.
	TickP99WorstUs, TickIntervalUs float64
	// Failures says what failed, one sentence each; empty when the run passes.
	Failures []string
}

// OK reports whether the run passed.
func (v Verdict) OK() bool { return len(v.Failures) == 0 }

// thirds returns the first and the last third of n samples as index
// ranges [0, k) and [n-k, n), k = n/3 (at least 1).
func thirds(n int) (k int) { return max(n/3, 1) }

// median returns the median of v (the mean of the middle two for an even
// count; RSS and goroutine counts are far below overflow).
func median[T uint64 | int](v []T) T {
	s := slices.Clone(v)
	slices.Sort(s)
	n := len(s)
	if n%2 == 1 {
		return s[n/2]
	}
	return (s[n/2-1] + s[n/2]) / 2
}

// Judge compares the first and the last third of samples (in time order):
// it fails when the RSS or goroutine median grew by more than tol allows,
// when any sample's tick-time p99 exceeds tickInterval, or when any sample
// counts fewer than wantPlayers players (0: not checked).
func Judge(samples []Sample, tickInterval time.Duration, wantPlayers int, tol Tolerance) Verdict {
	v := Verdict{TickIntervalUs: float64(tickInterval) / float64(time.Microsecond)}
	n := len(samples)
	if n < MinSamples {
		v.Failures = append(v.Failures, fmt.Sprintf("only %d samples: at least %d are needed to compare the first and the last third (run longer or sample more often)", n, MinSamples))
		return v
	}
	k := thirds(n)
	rss := func(s []Sample) []uint64 {
		out := make([]uint64, len(s))
		for i, x := range s {
			out[i] = x.RSSBytes
		}
		return out
	}
	gor := func(s []Sample) []int {
		out := make([]int, len(s))
		for i, x := range s {
			out[i] = x.Goroutines
		}
		return out
	}
	v.RSSFirst, v.RSSLast = median(rss(samples[:k])), median(rss(samples[n-k:]))
	v.GoroutinesFirst, v.GoroutinesLast = median(gor(samples[:k])), median(gor(samples[n-k:]))
	v.RSSAllowed = max(uint64(tol.RSSFrac*float64(v.RSSFirst)), tol.RSSBytes)
	v.GoroutinesAllowed = tol.Goroutines
	if v.RSSLast > v.RSSFirst+v.RSSAllowed {
		v.Failures = append(v.Failures, fmt.Sprintf("server RSS grew from %.1f MiB (median of the first third) to %.1f MiB (last third): +%.1f MiB, more than the %.1f MiB allowed",
			mib(v.RSSFirst), mib(v.RSSLast), mib(v.RSSLast-v.RSSFirst), mib(v.RSSAllowed)))
	}
	if v.GoroutinesLast > v.GoroutinesFirst+v.GoroutinesAllowed {
		v.Failures = append(v.Failures, fmt.Sprintf("server goroutines grew from %d (median of the first third) to %d (last third): +%d, more than the %d allowed",
			v.GoroutinesFirst, v.GoroutinesLast, v.GoroutinesLast-v.GoroutinesFirst, v.GoroutinesAllowed))
	}
	for _, s := range samples {
		v.TickP99WorstUs = max(v.TickP99WorstUs, s.TickP99Us)
		if s.TickP99Us > v.TickIntervalUs {
			v.Failures = append(v.Failures, fmt.Sprintf("at %v the tick time p99 was %.0f µs, more than the tick interval of %.0f µs",
				s.Elapsed.Round(time.Second), s.TickP99Us, v.TickIntervalUs))
		}
		if wantPlayers > 0 && s.Players < wantPlayers {
			v.Failures = append(v.Failures, fmt.Sprintf("at %v the server had %d players, want %d: someone was dropped",
				s.Elapsed.Round(time.Second), s.Players, wantPlayers))
		}
	}
	return v
}

func mib(b uint64) float64 { return float64(b) / (1 << 20) }

// WriteTable prints the samples as a Markdown table and the verdict under it.
func WriteTable(w io.Writer, samples []Sample, v Verdict) {
	fmt.Fprintln(w, "| t | server RSS, MiB | goroutines | tick time p99 (worst since the last row), µs | players |")
	fmt.Fprintln(w, "| ---: | ---: | ---: | ---: | ---: |")
	for _, s := range samples {
		fmt.Fprintf(w, "| %v | %.1f | %d | %.0f | %d |\n", s.Elapsed.Round(time.Second), mib(s.RSSBytes), s.Goroutines, s.TickP99Us, s.Players)
	}
	fmt.Fprintln(w)
	if len(samples) >= MinSamples {
		k := thirds(len(samples))
		fmt.Fprintf(w, "Medians of the first and last %d samples: RSS %.1f → %.1f MiB (allowed +%.1f), goroutines %d → %d (allowed +%d); worst tick p99 %.0f µs of a %.0f µs tick.\n",
			k, mib(v.RSSFirst), mib(v.RSSLast), mib(v.RSSAllowed), v.GoroutinesFirst, v.GoroutinesLast, v.GoroutinesAllowed, v.TickP99WorstUs, v.TickIntervalUs)
	}
	if v.OK() {
		fmt.Fprintln(w, "soak: PASS")
		return
	}
	for _, f := range v.Failures {
		fmt.Fprintln(w, "soak: FAIL:", f)
	}
}
