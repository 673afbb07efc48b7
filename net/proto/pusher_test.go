package proto_test

import (
	"runtime"
	"testing"

	"tickshot/net/proto"
	"tickshot/net/transport"
)

// pusher is a transport.Pusher for tests: the test pushes frames and ends
// it on its own goroutine; what the Conn sends is kept.
type pusher struct {
	*transport.Endpoint
	deliver func(transport.Frame)
	ended   func()
	sent    [][]byte
}

func (p *pusher) Push(deliver func(transport.Frame), ended func()) {
	p.deliver, p.ended = deliver, ended
}
func (p *pusher) Send(b []byte) bool  { p.sent = append(p.sent, b); return true }
func (p *pusher) RemoteAddr() string  { return "test" }
func (p *pusher) Close(reason string) { p.Abort(reason, false) }
func (p *pusher) Abort(reason string, remote bool) {
	if p.End(reason, remote) {
		p.Release()
		p.ended()
	}
}

// Over a transport.Pusher a Conn starts no goroutine: each pushed frame
// is decoded and handed over before Push's deliver returns, a malformed
// one closes the connection with the decode error, and Recv is closed
// once the transport has ended; net_fake* does nothing there.
func TestConnOverPusher(t *testing.T) {
	p := &pusher{Endpoint: transport.NewEndpoint()}
	before := runtime.NumGoroutine()
	c := proto.NewConn(p)
	if n := runtime.NumGoroutine(); n > before {
		t.Errorf("NewConn over a Pusher: %d goroutines, was %d; want no reader goroutine", n, before)
	}
	p.deliver(transport.Frame{Data: proto.MustEncode(&proto.Print{Text: "hello"})})
	select {
	case pk := <-c.Recv():
		if m, ok := pk.Msg.(*proto.Print); !ok || m.Text != "hello" {
			t.Errorf("received %#v, want the print", pk.Msg)
		}
	default:
		t.Fatal("a pushed frame was not handed over when deliver returned")
	}
	c.SetFakeConditions(proto.FakeConditions{LagMs: 100})
	if f := c.FakeConditions(); f != (proto.FakeConditions{}) {
		t.Errorf("fake conditions %+v over a Pusher, want none", f)
	}
	p.deliver(transport.Frame{Data: []byte{0xff, 1, 2}})
	select {
	case _, ok := <-c.Recv():
		if ok {
			t.Fatal("a message after a malformed frame")
		}
	default:
		t.Fatal("Recv stays open after a malformed frame")
	}
	if r, remote := c.Reason(); remote || len(r) < len("protocol error") || r[:len("protocol error")] != "protocol error" {
		t.Errorf("reason %q (remote %v), want our protocol error", r, remote)
	}
	p.deliver(transport.Frame{Data: proto.MustEncode(&proto.Print{Text: "late"})}) // after the end: dropped, no panic
}
