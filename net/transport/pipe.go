package transport

import (
	"fmt"
	"sync"
	"time"
)

// Pipe returns the two ends of an in-memory transport: frames sent on one
// arrive on the other in order, with each end's Options applied as a
// websocket would (read limit, farewell on close). No sockets, no
// timeouts: tests of everything above the transport run fast and alike
// on every machine.
func Pipe(a, b Options) (Transport, Transport) {
	pa := &pipeEnd{Endpoint: NewEndpoint(), opt: a, name: "pipe:a"}
	pb := &pipeEnd{Endpoint: NewEndpoint(), opt: b, name: "pipe:b"}
	pa.peer, pb.peer = pb, pa
	go pa.writeLoop()
	go pb.writeLoop()
	return pa, pb
}

type pipeEnd struct {
	*Endpoint
	opt  Options
	peer *pipeEnd
	name string
	wmu  sync.Mutex // one frame in flight: the writer's, or the farewell
}

func (p *pipeEnd) Send(b []byte) bool { return p.Queue(b) }

func (p *pipeEnd) RemoteAddr() string { return p.peer.name }

// Kind implements Kinder.
func (p *pipeEnd) Kind() string { return KindPipe }

func (p *pipeEnd) writeLoop() {
	for {
		select {
		case <-p.Done():
			return
		case b := <-p.Outgoing():
			p.wmu.Lock()
			ok := false
			select {
			case <-p.Done(): // closed meanwhile: nothing may follow the farewell
			default:
				ok = p.peer.receive(b)
			}
			p.wmu.Unlock()
			if ok {
				p.Sent(len(b))
			}
		}
	}
}

// receive is a frame from the peer arriving at p.
func (p *pipeEnd) receive(b []byte) bool {
	select {
	case <-p.Done():
		return false
	default:
	}
	p.Read(len(b))
	if limit := p.opt.Limit(); len(b) > limit {
		p.Close(fmt.Sprintf("frame larger than %d bytes", limit))
		return false
	}
	p.Deliver(Frame{Data: b, At: time.Now()})
	return true
}

// Close implements Transport: the farewell, then the peer ends with the
// reason as its remote reason.
func (p *pipeEnd) Close(reason string) { p.finish(reason, false, true) }

// Abort implements Transport.
func (p *pipeEnd) Abort(reason string, remote bool) { p.finish(reason, remote, false) }

func (p *pipeEnd) finish(reason string, remote, tell bool) {
	if !p.End(reason, remote) {
		return
	}
	go func() {
		p.wmu.Lock() // after the frame in flight
		if tell && p.opt.Farewell != nil {
			if b := p.opt.Farewell(reason); b != nil {
				p.peer.Read(len(b))
				p.peer.Deliver(Frame{Data: b, At: time.Now()})
				p.Sent(len(b))
			}
		}
		p.wmu.Unlock()
		p.peer.End(reason, true) // no effect when the peer ended first
		p.peer.CloseRecv()
		p.peer.Release()
		p.CloseRecv()
		p.Release()
	}()
}
