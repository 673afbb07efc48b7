package transport

import (
	"sync"
	"sync/atomic"
)

// Endpoint is the bookkeeping every Transport implementation shares: the
// receive queue, the send queue, the end state with its reason, and the
// counters. An implementation embeds it and adds Send's writer, Close and
// RemoteAddr. Make one with NewEndpoint.
type Endpoint struct {
	in        chan Frame
	out       chan []byte
	done      chan struct{}
	closed    chan struct{}
	endOnce   sync.Once
	closeOnce sync.Once
	mu        sync.Mutex // guards reason, remote, inClosed, tap and tapEnded (the last three set holding tmu too)
	reason    string
	remote    bool
	inClosed  bool
	// tap and tapEnded take the received frames in place of the channel
	// (TapRecv); tmu is held while they run, so they run one at a time.
	tmu      sync.Mutex
	tap      func(Frame)
	tapEnded func()

	packetsIn, packetsOut, bytesIn, bytesOut, droppedIn, droppedOut atomic.Uint64
}

// NewEndpoint returns an endpoint with RecvQueue and SendQueue slots.
func NewEndpoint() *Endpoint {
	return &Endpoint{
		in:     make(chan Frame, RecvQueue),
		out:    make(chan []byte, SendQueue),
		done:   make(chan struct{}),
		closed: make(chan struct{}),
	}
}

// Recv implements Transport.
func (e *Endpoint) Recv() <-chan Frame { return e.in }

// Done implements Transport.
func (e *Endpoint) Done() <-chan struct{} { return e.done }

// Closed implements Transport.
func (e *Endpoint) Closed() <-chan struct{} { return e.closed }

// Reason implements Transport.
func (e *Endpoint) Reason() (string, bool) {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.reason, e.remote
}

// PacketsIn implements PacketCounter: Stats().PacketsIn, one atomic load.
func (e *Endpoint) PacketsIn() uint64 { return e.packetsIn.Load() }

// Stats implements Transport.
func (e *Endpoint) Stats() Stats {
	return Stats{
		PacketsIn: e.packetsIn.Load(), PacketsOut: e.packetsOut.Load(),
		BytesIn: e.bytesIn.Load(), BytesOut: e.bytesOut.Load(),
		DroppedIn: e.droppedIn.Load(), DroppedOut: e.droppedOut.Load(),
	}
}

// Queue puts b on the send queue without blocking (Transport.Send).
func (e *Endpoint) Queue(b []byte) bool {
	select {
	case <-e.done:
		return false
	default:
	}
	select {
	case e.out <- b:
		return true
	default:
		e.droppedOut.Add(1)
		return false
	}
}

// Outgoing is the send queue, for the implementation's writer.
func (e *Endpoint) Outgoing() <-chan []byte { return e.out }

// Sent counts one written frame of n bytes.
func (e *Endpoint) Sent(n int) {
	e.packetsOut.Add(1)
	e.bytesOut.Add(uint64(n))
}

// CountDroppedOut counts one outgoing frame the link could not take.
func (e *Endpoint) CountDroppedOut() { e.droppedOut.Add(1) }

// Read counts one frame of n bytes read from the link (delivered or not).
func (e *Endpoint) Read(n int) {
	e.packetsIn.Add(1)
	e.bytesIn.Add(uint64(n))
}

// Deliver hands a received frame to the owner; it never blocks: with the
// queue full the frame is dropped and counted, and after CloseRecv it is
// ignored.
//
// After TapRecv the frame goes to the tap instead, on the caller's
// goroutine, one caller at a time: Deliver then waits while another
// caller's frame is handed over (CPU work: a decode), and returns once its
// own was.
func (e *Endpoint) Deliver(f Frame) {
	e.mu.Lock()
	if e.inClosed {
		e.mu.Unlock()
		return
	}
	if e.tap == nil {
		select {
		case e.in <- f:
		default:
			e.droppedIn.Add(1) // the owner is not keeping up, or a flood
		}
		e.mu.Unlock()
		return
	}
	e.mu.Unlock()
	e.tmu.Lock()
	defer e.tmu.Unlock()
	if !e.inClosed { // CloseRecv sets it holding tmu too: no second lock of mu
		e.tap(f)
	}
}

// TapRecv implements Tapper for a transport whose frames all come through
// Deliver (net/rtc, whose WebSocket frames and datagrams come on two
// goroutines): the frames already queued go to deliver first, in order,
// then each later one on the goroutine that delivers it, never two at
// once; ended runs once, after the last, when CloseRecv is called (in
// TapRecv, when it was already).
func (e *Endpoint) TapRecv(deliver func(Frame), ended func()) {
	e.tmu.Lock()
	defer e.tmu.Unlock()
	e.mu.Lock()
	var queued []Frame
	for more := true; more; {
		select {
		case f, ok := <-e.in:
			if more = ok; ok {
				queued = append(queued, f)
			}
		default:
			more = false
		}
	}
	e.tap, e.tapEnded = deliver, ended
	closed := e.inClosed
	e.mu.Unlock()
	for _, f := range queued {
		deliver(f)
	}
	if closed {
		ended()
	}
}

// CloseRecv closes the receive channel (the reader has stopped), and runs
// the tap's ended (TapRecv). Safe to call more than once.
func (e *Endpoint) CloseRecv() {
	e.tmu.Lock()
	defer e.tmu.Unlock()
	e.mu.Lock()
	if e.inClosed {
		e.mu.Unlock()
		return
	}
	e.inClosed = true
	close(e.in)
	ended := e.tapEnded
	e.mu.Unlock()
	if ended != nil {
		ended()
	}
}

// End records why the endpoint ended and closes Done. Only the first call
// counts; it reports whether this call was it.
func (e *Endpoint) End(reason string, remote bool) bool {
	first := false
	e.endOnce.Do(func() {
		first = true
		e.mu.Lock()
		e.reason, e.remote = reason, remote
		e.mu.Unlock()
		close(e.done)
	})
	return first
}

// Release closes Closed (the link is gone). Safe to call more than once.
func (e *Endpoint) Release() { e.closeOnce.Do(func() { close(e.closed) }) }
