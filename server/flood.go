package server

import "time"

// MaxMsgsPerSecond is the flood limit: more messages than this from one
// client per second of the time the server gave it to send them gets it
// kicked (msgMeter).
const MaxMsgsPerSecond = 400

// msgMeter is one client's message count for the flood limit: every frame
// its connection read (the connection's PacketsIn, including frames a full
// receive queue dropped: a burst that overflows the queue is a flood too),
// in a window that begins at a tick and ends at the first tick more than a
// second later. The limit is MaxMsgsPerSecond for each second the window
// spans, at least one: after the server stalls for seconds (a GC pause, a
// debugger, one huge tick), a client's messages of those seconds are all
// read at the tick after, and they are judged against the seconds they
// were sent in, not against one. A client sending at its cl_cmdrate stays
// under the limit however long the stall; one sending far more does not.
type msgMeter struct {
	start time.Time // the tick the window began at; zero before the first
	count int       // frames read in the window
	seen  uint64    // PacketsIn when last counted
}

// over counts the frames up to packetsIn, read by the tick at now, and
// reports whether the window holds more than its limit.
func (m *msgMeter) over(packetsIn uint64, now time.Time) bool {
	if m.start.IsZero() {
		m.start = now
	}
	m.count += int(packetsIn - m.seen)
	m.seen = packetsIn
	span := now.Sub(m.start)
	if float64(m.count) > MaxMsgsPerSecond*max(span, time.Second).Seconds() {
		return true
	}
	if span > time.Second {
		m.start, m.count = now, 0
	}
	return false
}
