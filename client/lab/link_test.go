package lab

import (
	"testing"
	"time"

	"tickshot/net/proto"
	"tickshot/net/transport"
)

// testLink is a link with the given directions on a wire of its own, and
// the clock that drives it.
func testLink(up, down *Link) (now *time.Duration, w *wire, client, server *linkEnd) {
	now = new(time.Duration)
	w = &wire{now: now, epoch: epoch}
	client, server = newLink(w, up, down, 1)
	return now, w, client, server
}

// closed tells whether a Conn's Recv channel is closed (without waiting).
func closed(c *proto.Conn) bool {
	select {
	case _, ok := <-c.Recv():
		return !ok
	default:
		return false
	}
}

// A Conn over a link (no goroutine: the Pusher path) ends on both sides
// when one closes: the peer learns the reason once the farewell has
// crossed the link, and both Recv channels close.
func TestLinkConnCloses(t *testing.T) {
	up, down := Link{LagMs: 20}, Link{LagMs: 30}
	now, w, ce, se := testLink(&up, &down)
	cc, sc := proto.NewConn(ce), proto.NewServerConn(se)
	cc.Send(&proto.Command{Text: "say hi"})
	*now = 20 * time.Millisecond
	w.deliver()
	select {
	case p, ok := <-sc.Recv():
		if !ok || p.Msg.Type() != proto.MsgCommand {
			t.Fatalf("the server's end got %v, %v; want the command", p.Msg, ok)
		}
	default:
		t.Fatal("the command did not arrive after the link's 20 ms")
	}
	cc.Close("bye")
	if !closed(cc) {
		t.Error("the closing side's Recv is still open")
	}
	*now += 19 * time.Millisecond
	w.deliver()
	if closed(sc) {
		t.Error("the peer ended before the farewell crossed the link (20 ms)")
	}
	*now += time.Millisecond
	w.deliver()
	if !closed(sc) {
		t.Fatal("the peer's Recv stays open after the farewell arrived")
	}
	if r, remote := sc.Reason(); r != "bye" || !remote {
		t.Errorf("the peer's reason %q (remote %v), want the closer's \"bye\"", r, remote)
	}
}

// A Conn made over a link end that has already ended closes its Recv at
// once, as a goroutine reader's does (Pusher: ended is called all the same).
func TestLinkConnOverEndedLink(t *testing.T) {
	up, down := Link{}, Link{}
	_, _, ce, _ := testLink(&up, &down)
	ce.Abort("gone", false)
	if c := proto.NewConn(ce); !closed(c) {
		t.Error("a Conn over an ended link never closes its Recv")
	}
}

// With no latency the first reliable frame is due at 0; a later one must
// not hold back the datagrams (the data channel opened with the first).
func TestLinkDatagramsNotHeldWithoutLatency(t *testing.T) {
	up, down := Link{}, Link{}
	now, w, ce, se := testLink(&up, &down)
	var got []bool
	se.Push(func(f transport.Frame) { got = append(got, f.Datagram) }, func() {})
	ce.Send([]byte{1}) // the Hello, due at 0
	*now = 10 * time.Millisecond
	up.LagMs = 5
	ce.Send([]byte{2}) // reliable, due at 15 ms
	up.LagMs = 0
	ce.SendDatagram([]byte{3}) // due at 10 ms
	w.deliver()
	if len(got) != 2 || !got[1] {
		t.Errorf("at 10 ms the server's end got %v (datagram flags), want the Hello and the datagram", got)
	}
}
