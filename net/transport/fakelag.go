package transport

import (
	"math/rand/v2"
	"sync"
	"sync/atomic"
	"time"
)

// FakeConditions are simulated network conditions applied to the frames a
// transport receives (as Source's net_fakelag, net_fakejitter and
// net_fakeloss): each frame is dropped with probability LossPct/100, else
// delivered LagMs plus a uniform random 0..JitterMs later. Delivery order is
// kept: a frame never overtakes an earlier one.
type FakeConditions struct {
	LagMs    float64 // net_fakelag, ms, 0..1000
	JitterMs float64 // net_fakejitter, ms, 0..500
	LossPct  float64 // net_fakeloss, percent, 0..100
	// LossBurst is the mean length, frames, of a run of lost frames, 1..100
	// (0 or 1: each frame lost on its own). The losses then come from a
	// Gilbert–Elliott chain that loses every frame in its Bad state, with
	// LossPct of the frames lost in the long run (burstChain), as on a
	// congested or wireless link. Tests and tools set it; no cvar does.
	LossBurst float64
}

// burstChain returns the Gilbert–Elliott transition probabilities, per
// frame, for lossPct percent lost in runs of meanRun frames on average:
// leave (Bad to Good) is 1/meanRun and enter (Good to Bad) is such that
// Bad holds lossPct of the frames in the long run (Gilbert 1960; Elliott
// 1963; netem's "loss gemodel" with 1-h = 100 %, 1-k = 0).
func burstChain(lossPct, meanRun float64) (enter, leave float64) {
	leave = 1 / meanRun
	f := min(lossPct/100, 0.99)
	return min(leave*f/(1-f), 1), leave
}

// Clamp limits each field to its range (NaN and negatives become 0).
func (f FakeConditions) Clamp() FakeConditions {
	cl := func(v, hi float64) float64 {
		if v != v || v < 0 {
			return 0
		}
		if v > hi {
			return hi
		}
		return v
	}
	return FakeConditions{LagMs: cl(f.LagMs, 1000), JitterMs: cl(f.JitterMs, 500), LossPct: cl(f.LossPct, 100), LossBurst: cl(f.LossBurst, 100)}
}

// FakeLag decorates a Transport with simulated conditions on what it
// receives, changeable live (Set). It works over any transport, so the
// browser build has net_fakelag too. A delayed frame is stamped with its
// simulated arrival, so RTT and net_graph see fake lag as real latency.
// With no conditions set, frames pass straight through. When the inner
// transport ends, frames still held back arrive at their time, then Recv
// closes.
type FakeLag struct {
	Transport
	in        chan Frame
	wake      chan struct{}
	mu        sync.Mutex
	cond      FakeConditions
	rng       *rand.Rand
	dropped   uint64 // by net_fakeloss
	bad       bool   // the burst-loss chain is in its Bad state
	droppedIn atomic.Uint64
}

type delayed struct {
	f  Frame
	at time.Time
}

// NewFakeLag wraps inner; it starts one goroutine that ends with inner,
// and the frames arrive on Recv.
func NewFakeLag(inner Transport) *FakeLag {
	f := NewFakeLagInline(inner)
	f.in = make(chan Frame, RecvQueue)
	go func() {
		defer close(f.in)
		f.serve(func(fr Frame) bool { f.deliver(fr); return true }, nil, nil, true)
	}()
	return f
}

// NewFakeLagInline wraps inner with no goroutine of its own: the owner runs
// the simulated network on its goroutine with Serve, and Recv is nil. A
// frame then crosses one goroutine fewer (proto.Conn's reader: at 1 024
// clients the server receives some 65 000 frames a second).
func NewFakeLagInline(inner Transport) *FakeLag {
	return &FakeLag{Transport: inner, wake: make(chan struct{}, 1),
		rng: rand.New(rand.NewPCG(uint64(time.Now().UnixNano()), 1))}
}

// Set changes the simulated conditions, live (clamped to their ranges).
func (f *FakeLag) Set(c FakeConditions) {
	f.mu.Lock()
	f.cond = c.Clamp()
	f.mu.Unlock()
	select {
	case f.wake <- struct{}{}:
	default:
	}
}

// Conditions returns the current simulated conditions.
func (f *FakeLag) Conditions() FakeConditions {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.cond
}

// Dropped returns how many received frames net_fakeloss dropped.
func (f *FakeLag) Dropped() uint64 {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.dropped
}

// Recv implements Transport: the frames as the simulated network delivers
// them (nil for NewFakeLagInline's: Serve hands them over).
func (f *FakeLag) Recv() <-chan Frame { return f.in }

// PacketsIn implements PacketCounter: the inner transport's count (frames
// fake loss drops were received, and are counted there).
func (f *FakeLag) PacketsIn() uint64 { return PacketsIn(f.Transport) }

// Stats implements Transport: the inner counters, plus frames dropped
// because the owner did not keep up.
func (f *FakeLag) Stats() Stats {
	s := f.Transport.Stats()
	s.DroppedIn += f.droppedIn.Load()
	return s
}

func (f *FakeLag) deliver(fr Frame) {
	select {
	case f.in <- fr:
	default:
		f.droppedIn.Add(1)
	}
}

// schedule decides a frame's fate under the current conditions: pass it on
// now (ok false, nothing held), drop it, or hold it until at.
func (f *FakeLag) schedule(fr Frame, held bool, last time.Time) (at time.Time, hold, drop bool) {
	f.mu.Lock()
	defer f.mu.Unlock()
	c := f.cond
	if c == (FakeConditions{}) && !held {
		return time.Time{}, false, false
	}
	if c.LossPct > 0 && f.lose(c) {
		f.dropped++
		return time.Time{}, false, true
	}
	at = fr.At.Add(time.Duration((c.LagMs + f.rng.Float64()*c.JitterMs) * float64(time.Millisecond)))
	if at.Before(last) {
		at = last // keep order
	}
	return at, true, false
}

// lose decides whether the next frame is lost under c (f.mu held).
func (f *FakeLag) lose(c FakeConditions) bool {
	if c.LossBurst <= 1 {
		return f.rng.Float64()*100 < c.LossPct
	}
	enter, leave := burstChain(c.LossPct, c.LossBurst)
	if f.bad {
		f.bad = f.rng.Float64() >= leave
	} else {
		f.bad = f.rng.Float64() < enter
	}
	return f.bad
}

// Serve runs the simulated network of a FakeLag made by NewFakeLagInline
// on the caller's goroutine: each frame the inner transport receives goes
// to deliver at its simulated arrival, in order, until deliver returns
// false or the inner link ends (Serve returns true), or stop closes
// (false). When linkDone (the inner transport's Done) closes, the frames
// already received are handed over and those fake lag holds are lost, as
// a departed peer's are on a real network; Serve returns true.
func (f *FakeLag) Serve(deliver func(Frame) bool, stop, linkDone <-chan struct{}) bool {
	return f.serve(deliver, stop, linkDone, false)
}

// serve is Serve; with drainHeld, the frames still held when the inner
// transport's Recv closes arrive at their time before it returns (the
// goroutine of NewFakeLag).
func (f *FakeLag) serve(deliver func(Frame) bool, stop, linkDone <-chan struct{}, drainHeld bool) bool {
	var timer *time.Timer // armed only while frames are held
	defer func() {
		if timer != nil {
			timer.Stop()
		}
	}()
	var queue []delayed
	var last time.Time
	src := f.Transport.Recv()
	for {
		var due <-chan time.Time
		if len(queue) > 0 {
			now := time.Now()
			for len(queue) > 0 && !queue[0].at.After(now) {
				fr := queue[0].f
				fr.At = now // it "arrives" now
				queue = queue[1:]
				if !deliver(fr) {
					return true
				}
			}
			if len(queue) > 0 {
				wait := queue[0].at.Sub(now)
				if timer == nil {
					timer = time.NewTimer(wait)
				} else {
					timer.Reset(wait)
				}
				due = timer.C
			}
		}
		if src == nil && len(queue) == 0 {
			return true
		}
		select {
		case fr, ok := <-src:
			if !ok {
				// The link ended: what the simulated network still holds
				// arrives at its time (a goodbye too) where drainHeld asks.
				if !drainHeld {
					return true
				}
				src = nil
				continue
			}
			if !f.take(fr, &queue, &last, deliver) {
				return true
			}
		case <-due:
		case <-f.wake:
		case <-linkDone:
			for {
				select {
				case fr, ok := <-src:
					if ok && f.take(fr, &queue, &last, deliver) {
						continue
					}
				default:
				}
				return true
			}
		case <-stop:
			return false
		}
	}
}

// take decides a received frame's fate (schedule): dropped, held in queue
// until its time, or passed to deliver now (its result returned).
func (f *FakeLag) take(fr Frame, queue *[]delayed, last *time.Time, deliver func(Frame) bool) bool {
	at, hold, drop := f.schedule(fr, len(*queue) > 0, *last)
	switch {
	case drop:
	case hold:
		*last = at
		*queue = append(*queue, delayed{fr, at})
	default:
		return deliver(fr)
	}
	return true
}

// tapped is a FakeLag's simulated network run on the reader goroutine of
// a Tapper inner transport (StartTapped): a frame no condition holds is
// handed over on that goroutine as it arrives, and one held back by a
// timer's, one at a time, in order.
type tapped struct {
	f       *FakeLag
	deliver func(Frame) bool
	mu      sync.Mutex // held while deliver runs: one frame at a time
	queue   []delayed
	last    time.Time
	timer   *time.Timer // armed only while frames are held
	off     bool        // nothing more is delivered
	over    chan struct{}
}

// StartTapped runs the simulated network of a FakeLag made by
// NewFakeLagInline on the reader goroutine of its inner transport, tp,
// with no goroutine of its own: each frame tp's reader hands over goes to
// deliver at once when no condition holds it (a frame one hand-off and one
// goroutine wake-up nearer its owner than with Serve: at 1 024 clients
// the server receives some 65 000 a second), else at its simulated
// arrival from a timer. deliver is never called twice at once. over closes
// when deliver returns false or the reader stops; frames fake lag still
// holds then are lost, as Serve loses them. stop ends it at once: after
// stop returns deliver is not called again.
func (f *FakeLag) StartTapped(tp Tapper, deliver func(Frame) bool) (over <-chan struct{}, stop func()) {
	t := &tapped{f: f, deliver: deliver, over: make(chan struct{})}
	tp.Tap(t.frame, t.ended)
	return t.over, t.stop
}

// frame takes one frame from the reader.
func (t *tapped) frame(fr Frame) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.off || !t.flush(time.Now()) {
		return
	}
	if !t.f.take(fr, &t.queue, &t.last, t.deliver) {
		t.end()
		return
	}
	t.arm()
}

// fire is the timer's: the held frames now due arrive.
func (t *tapped) fire() {
	t.mu.Lock()
	defer t.mu.Unlock()
	if !t.off && t.flush(time.Now()) {
		t.arm()
	}
}

// flush delivers the held frames due by now, stamped now (t.mu held);
// false when deliver said stop (t ended).
func (t *tapped) flush(now time.Time) bool {
	for len(t.queue) > 0 && !t.queue[0].at.After(now) {
		fr := t.queue[0].f
		fr.At = now // it "arrives" now
		t.queue = t.queue[1:]
		if !t.deliver(fr) {
			t.end()
			return false
		}
	}
	return true
}

// arm sets the timer for the oldest held frame (t.mu held).
func (t *tapped) arm() {
	if len(t.queue) == 0 {
		return
	}
	wait := time.Until(t.queue[0].at)
	if t.timer == nil {
		t.timer = time.AfterFunc(wait, t.fire)
	} else {
		t.timer.Reset(wait)
	}
}

// ended is the reader's: it stopped.
func (t *tapped) ended() {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.end()
}

// stop is the owner's.
func (t *tapped) stop() {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.halt()
}

// halt stops deliveries and drops the held frames (t.mu held).
func (t *tapped) halt() {
	t.off = true
	if t.timer != nil {
		t.timer.Stop()
	}
	t.queue = nil
}

// end halts and closes over, once (t.mu held).
func (t *tapped) end() {
	t.halt()
	select {
	case <-t.over:
	default:
		close(t.over)
	}
}
