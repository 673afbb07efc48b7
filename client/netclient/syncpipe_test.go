package netclient_test

import (
	"time"

	"tickshot/net/transport"
)

// syncEnd is one end of an in-memory link that delivers on the sender's
// goroutine (transport.Pusher, as the lag lab's links do): a frame sent is
// decoded and queued at the peer's reader before Send returns, stamped with
// the test's fake clock. With server.Local stepped on the same goroutine,
// what the server reads at a tick is exactly what the client sent before
// it: no goroutine's timing, and no wall clock, decides it.
type syncEnd struct {
	*transport.Endpoint
	peer    *syncEnd
	name    string
	now     func() time.Time
	deliver func(transport.Frame)
	ended   func()
}

// syncPipe returns the client's and the server's end of a link whose
// frames arrive at now().
func syncPipe(now func() time.Time) (client, server *syncEnd) {
	client = &syncEnd{Endpoint: transport.NewEndpoint(), name: "sync:client", now: now}
	server = &syncEnd{Endpoint: transport.NewEndpoint(), name: "sync:server", now: now}
	client.peer, server.peer = server, client
	return client, server
}

// Push implements transport.Pusher.
func (e *syncEnd) Push(deliver func(transport.Frame), ended func()) {
	e.deliver, e.ended = deliver, ended
	select {
	case <-e.Done():
		ended()
	default:
	}
}

// Send implements transport.Transport: the peer's reader has the frame
// when it returns.
func (e *syncEnd) Send(b []byte) bool {
	select {
	case <-e.Done():
		return false
	default:
	}
	e.Sent(len(b))
	if p := e.peer; p.deliver != nil {
		select {
		case <-p.Done():
		default:
			p.Read(len(b))
			p.deliver(transport.Frame{Data: b, At: e.now()})
		}
	}
	return true
}

// RemoteAddr implements transport.Transport.
func (e *syncEnd) RemoteAddr() string { return e.peer.name }

// Close implements transport.Transport: both ends end, the peer with this
// end's reason as the remote's.
func (e *syncEnd) Close(reason string) { e.Abort(reason, false) }

// Abort implements transport.Transport.
func (e *syncEnd) Abort(reason string, remote bool) {
	if !e.End(reason, remote) {
		return
	}
	e.Release()
	if e.ended != nil {
		e.ended()
	}
	if !remote {
		e.peer.Abort(reason, true)
	}
}
