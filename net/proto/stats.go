package proto

import (
	"math"
	"time"
)

// Meter measures a flow of packets over a sliding window: packets/s,
// bytes/s and the last packet's size. Not safe for concurrent use.
type Meter struct {
	// Window is the averaging period (default 1 s).
	Window  time.Duration
	ring    [512]meterEntry
	head, n int
	bytes   int
	last    int
}

type meterEntry struct {
	at   time.Time
	size int
}

// Add records a packet of size bytes at time at (times must not decrease).
func (m *Meter) Add(at time.Time, size int) {
	if m.n == len(m.ring) {
		m.bytes -= m.ring[m.head].size
		m.head = (m.head + 1) % len(m.ring)
		m.n--
	}
	m.ring[(m.head+m.n)%len(m.ring)] = meterEntry{at, size}
	m.n++
	m.bytes += size
	m.last = size
	m.expire(at)
}

func (m *Meter) window() time.Duration {
	if m.Window <= 0 {
		return time.Second
	}
	return m.Window
}

func (m *Meter) expire(now time.Time) {
	// The window is (now-Window, now]: a packet exactly Window old is out,
	// so a steady 64/s stream reads 64/s, not 65.
	for m.n > 0 && now.Sub(m.ring[m.head].at) >= m.window() {
		m.bytes -= m.ring[m.head].size
		m.head = (m.head + 1) % len(m.ring)
		m.n--
	}
}

// Rates returns packets/s and bytes/s over the window ending at now.
func (m *Meter) Rates(now time.Time) (packets, bytes float64) {
	m.expire(now)
	w := m.window().Seconds()
	return float64(m.n) / w, float64(m.bytes) / w
}

// Last returns the size of the newest packet in bytes.
func (m *Meter) Last() int { return m.last }

// SeqTracker counts packets that never arrived from their sequence numbers
// (1, 2, 3, ...), over the last 256 packets expected.
type SeqTracker struct {
	newest   uint32
	expected [256]bool // per recent sequence number: arrived? (a ring)
	head     int       // index of the oldest entry in expected
	received int
	lost     int
	Total    int // all-time lost
}

// Arrive records the arrival of sequence number seq. Duplicates and
// packets older than the newest are ignored (a reordered packet counts as
// lost; the transport keeps order, so only jitter buffers could reorder).
func (t *SeqTracker) Arrive(seq uint32) {
	if seq <= t.newest {
		return
	}
	if t.newest != 0 {
		gap := int(seq - t.newest - 1)
		t.Total += gap
		// Only the last len(expected) of a long gap can be in the window:
		// a forged or wrapped number must not cost billions of steps.
		for i := 0; i < min(gap, len(t.expected)); i++ {
			t.push(false)
		}
	}
	t.push(true)
	t.newest = seq
}

func (t *SeqTracker) push(arrived bool) {
	i := (t.head + t.received + t.lost) % len(t.expected)
	if t.received+t.lost == len(t.expected) {
		// Full: the oldest entry (at head, = i) leaves the window.
		if t.expected[i] {
			t.received--
		} else {
			t.lost--
		}
		t.head = (t.head + 1) % len(t.expected)
	}
	t.expected[i] = arrived
	if arrived {
		t.received++
	} else {
		t.lost++
	}
}

// LossPct returns the percentage of the last (up to 256) expected packets
// that never arrived.
func (t *SeqTracker) LossPct() float64 {
	n := t.received + t.lost
	if n == 0 {
		return 0
	}
	return 100 * float64(t.lost) / float64(n)
}

// Jitter estimates the variation of packet transit time as RFC 3550 does
// (section 6.4.1, interarrival jitter): J += (|D| - J)/16, where D is the
// difference between the spacing of arrivals and the spacing of sending.
type Jitter struct {
	have        bool
	lastSent    float64 // seconds
	lastArrival time.Time
	lastTransit float64 // seconds (AddTransit)
	J           float64 // seconds
}

// Add records a packet sent at sentSec (on the sender's clock, e.g. its
// tick / tick rate) that arrived at at.
func (j *Jitter) Add(sentSec float64, at time.Time) {
	if j.have {
		j.step(at.Sub(j.lastArrival).Seconds()-(sentSec-j.lastSent), math.Inf(1))
	}
	j.have, j.lastSent, j.lastArrival = true, sentSec, at
}

// AddTransit records a packet whose transit time, on any clock of the
// caller's (the server measures in ticks the time from a usercmd's
// TickCount to the tick that reads it), was transitSec; each difference
// counts at most maxStepSec, so that one stall is not seconds of jitter.
func (j *Jitter) AddTransit(transitSec, maxStepSec float64) {
	if j.have {
		j.step(transitSec-j.lastTransit, maxStepSec)
	}
	j.have, j.lastTransit = true, transitSec
}

// step moves J a sixteenth of the way to |d|, at most max (RFC 3550).
func (j *Jitter) step(d, max float64) { j.J += (math.Min(math.Abs(d), max) - j.J) / 16 }

// Ms returns the jitter in milliseconds.
func (j *Jitter) Ms() float64 { return j.J * 1000 }
