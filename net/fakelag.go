package net

import (
	"math/rand/v2"
	"sync"
	"time"
)

// FakeConditions are simulated network conditions applied to the messages a
// connection receives (as Source's net_fakelag, net_fakejitter and
// net_fakeloss): each message is dropped with probability LossPct/100, else
// delivered LagMs plus a uniform random 0..JitterMs later. Delivery order is
// kept: a message never overtakes an earlier one.
type FakeConditions struct {
	LagMs    float64 // net_fakelag, ms, 0..1000
	JitterMs float64 // net_fakejitter, ms, 0..500
	LossPct  float64 // net_fakeloss, percent, 0..100
}

// Clamp limits each field to its range.
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
	return FakeConditions{LagMs: cl(f.LagMs, 1000), JitterMs: cl(f.JitterMs, 500), LossPct: cl(f.LossPct, 100)}
}

type fakeNet struct {
	mu      sync.Mutex
	cond    FakeConditions
	rng     *rand.Rand
	queue   []delayed
	last    time.Time
	wake    chan struct{}
	done    chan struct{}
	started bool
	dropped uint64
	deliver func(Packet)
}

type delayed struct {
	p  Packet
	at time.Time
}

func newFakeNet(deliver func(Packet)) *fakeNet {
	return &fakeNet{deliver: deliver, rng: rand.New(rand.NewPCG(uint64(time.Now().UnixNano()), 1)),
		wake: make(chan struct{}, 1), done: make(chan struct{})}
}

// SetFakeConditions changes the simulated conditions of received messages, live.
func (c *Conn) SetFakeConditions(f FakeConditions) {
	c.fake.set(f.Clamp())
}

// FakeConditions returns the current simulated conditions.
func (c *Conn) FakeConditions() FakeConditions {
	c.fake.mu.Lock()
	defer c.fake.mu.Unlock()
	return c.fake.cond
}

// FakeDropped returns how many received messages net_fakeloss dropped.
func (c *Conn) FakeDropped() uint64 {
	c.fake.mu.Lock()
	defer c.fake.mu.Unlock()
	return c.fake.dropped
}

func (f *fakeNet) set(cond FakeConditions) {
	f.mu.Lock()
	f.cond = cond
	if !f.started && (cond != FakeConditions{}) {
		f.started = true
		go f.run()
	}
	f.mu.Unlock()
}

func (f *fakeNet) active() bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.cond != (FakeConditions{}) || len(f.queue) > 0
}

func (f *fakeNet) push(p Packet) {
	f.mu.Lock()
	if f.cond.LossPct > 0 && f.rng.Float64()*100 < f.cond.LossPct {
		f.dropped++
		f.mu.Unlock()
		return
	}
	d := time.Duration((f.cond.LagMs + f.rng.Float64()*f.cond.JitterMs) * float64(time.Millisecond))
	at := p.At.Add(d)
	if at.Before(f.last) {
		at = f.last // keep order
	}
	f.last = at
	f.queue = append(f.queue, delayed{p, at})
	f.mu.Unlock()
	select {
	case f.wake <- struct{}{}:
	default:
	}
}

func (f *fakeNet) stop() {
	f.mu.Lock()
	defer f.mu.Unlock()
	select {
	case <-f.done:
	default:
		close(f.done)
	}
}

func (f *fakeNet) run() {
	timer := time.NewTimer(time.Hour)
	defer timer.Stop()
	for {
		f.mu.Lock()
		var wait time.Duration = time.Hour
		now := time.Now()
		for len(f.queue) > 0 && !f.queue[0].at.After(now) {
			p := f.queue[0].p
			p.At = now // it "arrives" now: RTT measures include the fake lag
			f.queue = f.queue[1:]
			// Delivered under f.mu, so that a packet the reader hands over
			// directly (conditions just switched off) cannot overtake it.
			// deliver never blocks and never takes f.mu.
			f.deliver(p)
		}
		if len(f.queue) > 0 {
			wait = time.Until(f.queue[0].at)
		}
		f.mu.Unlock()
		timer.Reset(wait)
		select {
		case <-f.done:
			return
		case <-f.wake:
		case <-timer.C:
		}
	}
}
