package netem

import (
	"fmt"
	"math"
	"math/rand/v2"
	"time"
)

// Dir is what the link does to the packets of one direction.
type Dir struct {
	// DelayMs is the one-way delay added to every packet, ms (0..10000).
	DelayMs float64
	// JitterMs spreads each packet's delay uniformly over DelayMs ±
	// JitterMs (never below 0), as netem's "delay D J" does (0..DelayMs or
	// more; 0..10000). Without ReorderPct a packet never overtakes the one
	// before it: it waits for it, as on a single path.
	JitterMs float64
	// LossPct is the share of packets lost independently of each other,
	// percent (0..100).
	LossPct float64
	// Burst is Gilbert–Elliott burst loss on top of LossPct; the zero value
	// is off.
	Burst Burst
	// ReorderPct is the share of packets sent on at once without their
	// delay, so that they overtake the packets queued before them,
	// percent (0..100): netem's "reorder".
	ReorderPct float64
}

// Burst is the Gilbert–Elliott model of burst loss (Gilbert 1960, Elliott
// 1963; netem's "loss gemodel p r 1-h 1-k"): a two-state Markov chain,
// Good and Bad, stepped once per packet, each state with its own loss
// probability. Percentages, each 0..100. The mean length of a stay in Bad
// is 100/LeavePct packets.
type Burst struct {
	EnterPct    float64 // chance per packet of going from Good to Bad (netem's p)
	LeavePct    float64 // chance per packet of going from Bad back to Good (netem's r)
	LossBadPct  float64 // loss in Bad (netem's 1-h)
	LossGoodPct float64 // loss in Good (netem's 1-k)
}

// BurstLoss returns the Gilbert–Elliott model that loses every packet in
// Bad and none in Good, with meanLossPct percent of packets lost in the
// long run in bursts of meanRun packets on average (meanRun ≥ 1).
func BurstLoss(meanLossPct, meanRun float64) Burst {
	if meanLossPct <= 0 || meanRun < 1 {
		return Burst{}
	}
	leave := 1 / meanRun
	f := math.Min(meanLossPct/100, 0.99)
	// In the long run Bad holds enter/(enter+leave) of the packets.
	enter := leave * f / (1 - f)
	return Burst{EnterPct: 100 * math.Min(enter, 1), LeavePct: 100 * leave, LossBadPct: 100}
}

// On reports whether the model is in use.
func (b Burst) On() bool { return b != Burst{} }

// MeanLossPct is the long-run share of packets the model loses, percent.
func (b Burst) MeanLossPct() float64 {
	if b.EnterPct+b.LeavePct == 0 {
		return b.LossGoodPct
	}
	bad := b.EnterPct / (b.EnterPct + b.LeavePct)
	return bad*b.LossBadPct + (1-bad)*b.LossGoodPct
}

// check refuses values out of range, naming the field.
func (d Dir) check(name string) error {
	pct := func(field string, v float64) error {
		if math.IsNaN(v) || v < 0 || v > 100 {
			return fmt.Errorf("netem: %s.%s = %v: want a percentage 0..100", name, field, v)
		}
		return nil
	}
	ms := func(field string, v float64) error {
		if math.IsNaN(v) || v < 0 || v > 10000 {
			return fmt.Errorf("netem: %s.%s = %v: want 0..10000 ms", name, field, v)
		}
		return nil
	}
	for _, err := range []error{ms("DelayMs", d.DelayMs), ms("JitterMs", d.JitterMs), pct("LossPct", d.LossPct),
		pct("ReorderPct", d.ReorderPct), pct("Burst.EnterPct", d.Burst.EnterPct), pct("Burst.LeavePct", d.Burst.LeavePct),
		pct("Burst.LossBadPct", d.Burst.LossBadPct), pct("Burst.LossGoodPct", d.Burst.LossGoodPct)} {
		if err != nil {
			return err
		}
	}
	return nil
}

// Verdict is what the shaper decided for one packet.
type Verdict int

// Verdicts.
const (
	Pass      Verdict = iota // delivered after its delay
	Lost                     // dropped by random loss (Dir.LossPct)
	BurstLost                // dropped by the Gilbert–Elliott model
)

// shaper decides each packet of one direction: lost or not, and when it
// leaves. One goroutine owns it; it is deterministic for a seed and the
// sequence of arrival times.
type shaper struct {
	d    Dir
	rng  *rand.Rand
	bad  bool      // Gilbert–Elliott state
	last time.Time // the latest departure given (order is kept up to it)
}

func newShaper(d Dir, seed uint64) *shaper {
	return &shaper{d: d, rng: rand.New(rand.NewPCG(seed, 0x6e6574656d))}
}

// chance draws true with probability pct percent.
func (s *shaper) chance(pct float64) bool { return pct > 0 && s.rng.Float64()*100 < pct }

// decide returns the verdict for a packet that arrived at now and, for
// Pass, when it leaves, and whether it was sent on at once (reordered).
func (s *shaper) decide(now time.Time) (v Verdict, due time.Time, reordered bool) {
	if b := s.d.Burst; b.On() {
		// Step the chain, then lose by the state's probability.
		if s.bad {
			s.bad = !s.chance(b.LeavePct)
		} else {
			s.bad = s.chance(b.EnterPct)
		}
		lp := b.LossGoodPct
		if s.bad {
			lp = b.LossBadPct
		}
		if s.chance(lp) {
			return BurstLost, time.Time{}, false
		}
	}
	if s.chance(s.d.LossPct) {
		return Lost, time.Time{}, false
	}
	if s.chance(s.d.ReorderPct) {
		return Pass, now, true
	}
	delay := s.d.DelayMs
	if s.d.JitterMs > 0 {
		delay += (s.rng.Float64()*2 - 1) * s.d.JitterMs
	}
	due = now.Add(time.Duration(math.Max(delay, 0) * float64(time.Millisecond)))
	if due.Before(s.last) {
		due = s.last
	}
	s.last = due
	return Pass, due, false
}
