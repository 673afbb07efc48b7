package transport

import (
	"fmt"
	"sync"
	"time"
)

// HeldPipe returns the two ends of an in-memory link whose frames wait at
// the receiving end until its owner calls Flush: nothing is decoded, and
// no goroutine runs, until then. Both ends are Pushers (a proto.Conn over
// one starts no reader goroutine), so whoever drives the link decides on
// which goroutine, and at which moment of its virtual clock, each side's
// frames are read: the server benchmark (server's ServerTick) reads the
// clients' usercmds inside its timer and the clients' snapshots outside
// it. Each frame is stamped with now() when it is sent. Each end's
// Options apply as over a websocket: a frame over the receiver's read
// limit closes the receiver with the reason "frame larger than N bytes",
// and Close writes the farewell frame ahead of the end. Safe for
// concurrent use; deliver and ended run on the goroutine that calls
// Flush (or Close and Abort, for the end itself).
func HeldPipe(a, b Options, now func() time.Time) (*HeldEnd, *HeldEnd) {
	ea := &HeldEnd{Endpoint: NewEndpoint(), opt: a, now: now, name: "held:a"}
	eb := &HeldEnd{Endpoint: NewEndpoint(), opt: b, now: now, name: "held:b"}
	ea.peer, eb.peer = eb, ea
	return ea, eb
}

// HeldEnd is one end of a HeldPipe.
type HeldEnd struct {
	*Endpoint
	peer *HeldEnd
	opt  Options
	now  func() time.Time
	name string

	mu      sync.Mutex
	inbox   []Frame // arrived, not yet flushed
	spare   []Frame // the previous inbox, reused
	endWith *string // the peer ended: end with this (remote) reason once the inbox is flushed
	deliver func(Frame)
	ended   func()
}

// Push implements Pusher.
func (e *HeldEnd) Push(deliver func(Frame), ended func()) {
	e.mu.Lock()
	e.deliver, e.ended = deliver, ended
	e.mu.Unlock()
	select {
	case <-e.Done():
		ended()
	default:
	}
}

// Send implements Transport: the frame waits at the peer until the peer's
// Flush. It returns false once this end has ended.
func (e *HeldEnd) Send(b []byte) bool {
	select {
	case <-e.Done():
		return false
	default:
	}
	if !e.peer.arrive(Frame{Data: b, At: e.now()}) {
		e.CountDroppedOut()
		return false
	}
	e.Sent(len(b))
	return true
}

// arrive queues f at e for its next Flush; false once e's peer has closed
// towards it or e has ended.
func (e *HeldEnd) arrive(f Frame) bool {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.endWith != nil {
		return false
	}
	select {
	case <-e.Done():
		return false
	default:
	}
	e.inbox = append(e.inbox, f)
	return true
}

// Pending returns how many frames wait for Flush.
func (e *HeldEnd) Pending() int {
	e.mu.Lock()
	defer e.mu.Unlock()
	return len(e.inbox)
}

// Flush hands every waiting frame to the reader (Push's deliver), in the
// order sent, on the caller's goroutine, and returns how many; then, if
// the peer has ended, ends this end too with the peer's reason. A frame
// over this end's read limit closes it instead.
func (e *HeldEnd) Flush() int {
	e.mu.Lock()
	frames := e.inbox
	e.inbox, e.spare = e.spare[:0], nil
	deliver, endWith := e.deliver, e.endWith
	e.mu.Unlock()
	n := 0
	for i, f := range frames {
		frames[i] = Frame{} // the reader owns the bytes now
		select {
		case <-e.Done():
			continue
		default:
		}
		e.Read(len(f.Data))
		if limit := e.opt.Limit(); len(f.Data) > limit {
			e.Close(fmt.Sprintf("frame larger than %d bytes", limit))
			continue
		}
		if deliver != nil {
			deliver(f)
			n++
		} else {
			e.Deliver(f) // no Pusher reader: through Recv
		}
	}
	e.mu.Lock()
	if e.spare == nil {
		e.spare = frames[:0]
	}
	e.mu.Unlock()
	if endWith != nil {
		e.finish(*endWith, true)
	}
	return n
}

// RemoteAddr implements Transport.
func (e *HeldEnd) RemoteAddr() string { return e.peer.name }

// Kind implements Kinder.
func (e *HeldEnd) Kind() string { return KindPipe }

// Close implements Transport: the Options' farewell frame waits at the
// peer, which ends with the reason (as the remote's) after flushing it.
func (e *HeldEnd) Close(reason string) {
	if !e.finish(reason, false) {
		return
	}
	if e.opt.Farewell != nil {
		if b := e.opt.Farewell(reason); b != nil {
			e.peer.arriveLast(Frame{Data: b, At: e.now()}, reason)
			e.Sent(len(b))
			return
		}
	}
	e.peer.arriveLast(Frame{}, reason)
}

// Abort implements Transport: no farewell; the peer ends with the reason
// at its next Flush, after what already waits there (the link is gone).
func (e *HeldEnd) Abort(reason string, remote bool) {
	if e.finish(reason, remote) {
		e.peer.arriveLast(Frame{}, reason)
	}
}

// arriveLast queues f (when it has data) as the last frame for e and ends
// e with reason once flushed.
func (e *HeldEnd) arriveLast(f Frame, reason string) {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.endWith != nil {
		return
	}
	if f.Data != nil {
		e.inbox = append(e.inbox, f)
	}
	e.endWith = &reason
}

// finish ends e: Done, Closed, the receive channel, and the reader's
// ended; false when it had already ended.
func (e *HeldEnd) finish(reason string, remote bool) bool {
	if !e.End(reason, remote) {
		return false
	}
	e.CloseRecv()
	e.Release()
	e.mu.Lock()
	ended := e.ended
	e.mu.Unlock()
	if ended != nil {
		ended()
	}
	return true
}
