package proto

import (
	"testing"
	"time"

	"tickshot/net/transport"
)

// tapConns makes pipeConns' Conns over tapped pipes (tapPipe): the
// pipe's own goroutine decodes, as the native WebSocket's reader does.
var tapConns bool

func pipeConns(t *testing.T) (*Conn, *Conn, transport.Transport, transport.Transport) {
	t.Helper()
	ta, tb := transport.Pipe(ClientOptions(), ServerOptions())
	var xa, xb transport.Transport = ta, tb
	if tapConns {
		xa, xb = tapPipe{ta}, tapPipe{tb}
	}
	a, b := NewConn(xa), NewConn(xb)
	t.Cleanup(func() { a.Close("test over"); b.Close("test over") })
	return a, b, ta, tb
}

// A Disconnect ends the receiving connection with the peer's reason and is
// not answered with one of its own.
func TestConnDisconnectNotEchoed(t *testing.T) {
	a, b, _, tb := pipeConns(t)
	a.Close("player quit")
	select {
	case <-b.Done():
	case <-time.After(5 * time.Second):
		t.Fatal("the receiver never ended")
	}
	if r, remote := b.Reason(); r != "player quit" || !remote {
		t.Errorf("receiver's reason %q remote %v", r, remote)
	}
	select {
	case <-tb.Closed():
	case <-time.After(5 * time.Second):
		t.Fatal("the receiver's transport never closed")
	}
	if n := tb.Stats().PacketsOut; n != 0 {
		t.Errorf("the receiver wrote %d frames after the Disconnect", n)
	}
}

// Messages arrive decoded and in order; a malformed frame closes the
// connection with a protocol error that the peer is told.
func TestConnMessagesAndProtocolError(t *testing.T) {
	a, b, ta, _ := pipeConns(t)
	for i := uint32(1); i <= 50; i++ {
		a.Send(&Cmds{Seq: i})
	}
	for i := uint32(1); i <= 50; i++ {
		select {
		case p := <-b.Recv():
			if m, ok := p.Msg.(*Cmds); !ok || m.Seq != i || p.Size == 0 {
				t.Fatalf("message %d: %+v", i, p)
			}
		case <-time.After(5 * time.Second):
			t.Fatalf("message %d never arrived", i)
		}
	}
	ta.Send([]byte{0xee, 1, 2})
	select {
	case <-b.Done():
	case <-time.After(5 * time.Second):
		t.Fatal("a malformed frame did not end the connection")
	}
	r, remote := b.Reason()
	if remote || len(r) < 15 || r[:15] != "protocol error:" {
		t.Errorf("reason %q remote %v", r, remote)
	}
	select {
	case <-a.Done():
	case <-time.After(5 * time.Second):
		t.Fatal("the sender was not told")
	}
	if ra, remote := a.Reason(); ra != r || !remote {
		t.Errorf("sender's reason %q remote %v, want %q from the peer", ra, remote, r)
	}
}

// When the peer closes while fake lag holds frames back, the connection
// still ends at once (a departed player leaves at once): well within the
// 5 s the lag holds frames (a bound a busy machine keeps).
func TestConnEndsAtOnceUnderFakeLag(t *testing.T) {
	a, b, _, _ := pipeConns(t)
	b.SetFakeConditions(FakeConditions{LagMs: 5000})
	a.Send(&Cmds{Seq: 1})
	time.Sleep(20 * time.Millisecond)
	start := time.Now()
	a.Close("gone")
	select {
	case <-b.Done():
	case <-time.After(10 * time.Second):
		t.Fatal("never ended")
	}
	if d := time.Since(start); d > 1500*time.Millisecond {
		t.Errorf("ended %v after the peer closed, behind the 5 s fake lag", d)
	}
	if r, remote := b.Reason(); r != "gone" || !remote {
		t.Errorf("reason %q remote %v", r, remote)
	}
}

// datagramPipe is a pipe end whose frames all arrive as datagrams and
// whose SendDatagram is counted: a stand-in for a transport with a
// datagram path.
type datagramPipe struct {
	transport.Transport
	in        chan transport.Frame
	datagrams int
}

func newDatagramPipe(t transport.Transport) *datagramPipe {
	d := &datagramPipe{Transport: t, in: make(chan transport.Frame, transport.RecvQueue)}
	go func() {
		defer close(d.in)
		for f := range t.Recv() {
			f.Datagram = true
			d.in <- f
		}
	}()
	return d
}

func (d *datagramPipe) Recv() <-chan transport.Frame { return d.in }

func (d *datagramPipe) SendDatagram(b []byte) bool { d.datagrams++; return d.Send(b) }

// Snapshot and Cmds take the datagram path and may arrive on it; any other
// message arriving there is a protocol error that names it.
func TestConnDatagramPath(t *testing.T) {
	ta, tb := transport.Pipe(ClientOptions(), ServerOptions())
	da, db := newDatagramPipe(ta), newDatagramPipe(tb)
	a, b := NewConn(da), NewConn(db)
	t.Cleanup(func() { a.Close("test over"); b.Close("test over") })
	a.Send(&Cmds{Seq: 1})
	a.Send(&Settings{InterpRatio: 1})
	if da.datagrams != 1 {
		t.Errorf("%d messages took the datagram path, want the cmds only", da.datagrams)
	}
	select {
	case p := <-b.Recv():
		if m, ok := p.Msg.(*Cmds); !ok || m.Seq != 1 {
			t.Fatalf("got %+v", p.Msg)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("no cmds")
	}
	select {
	case <-b.Done():
	case <-time.After(5 * time.Second):
		t.Fatal("settings on the datagram path did not end the connection")
	}
	if r, _ := b.Reason(); r != "protocol error: settings on the datagram channel" {
		t.Errorf("reason %q", r)
	}
	if p, _, _, _ := pipeConns(t); p.Transport() != transport.KindPipe {
		t.Errorf("Transport() = %q over a pipe", p.Transport())
	}
}

// The Conn's tests again over transports whose reader hands each frame
// over (transport.Tapper: FakeLag.StartTapped, no reader goroutine of the
// Conn's), with fake lag's timer; and such a Conn ends as soon as its
// transport does, while the transport's reader goes on (a WebSocket reads
// through its farewell and drain for up to two seconds more).
func TestConnTapped(t *testing.T) {
	tapConns = true
	defer func() { tapConns = false }()
	t.Run("DisconnectNotEchoed", TestConnDisconnectNotEchoed)
	t.Run("MessagesAndProtocolError", TestConnMessagesAndProtocolError)
	t.Run("EndsAtOnceUnderFakeLag", TestConnEndsAtOnceUnderFakeLag)
	t.Run("FakeLagKeepsOrder", func(t *testing.T) {
		a, b, _, _ := pipeConns(t)
		b.SetFakeConditions(FakeConditions{LagMs: 30, JitterMs: 20})
		for i := uint32(1); i <= 30; i++ {
			a.Send(&Cmds{Seq: i})
		}
		for i := uint32(1); i <= 30; i++ {
			select {
			case p := <-b.Recv():
				if m, ok := p.Msg.(*Cmds); !ok || m.Seq != i {
					t.Fatalf("message %d arrived as %+v", i, p.Msg)
				}
			case <-time.After(5 * time.Second):
				t.Fatalf("message %d never arrived", i)
			}
		}
	})
	t.Run("EndsWithItsTransport", func(t *testing.T) {
		e := readerGoesOn{transport.NewEndpoint()}
		c := NewConn(e)
		e.Deliver(transport.Frame{Data: MustEncode(&Cmds{Seq: 1}), At: time.Now()})
		e.End("connection stalled", false) // Done closes; the reader has not stopped
		select {
		case <-c.Done():
		case <-time.After(5 * time.Second):
			t.Fatal("the Conn did not end with its transport")
		}
		if r, _ := c.Reason(); r != "connection stalled" {
			t.Errorf("reason %q, want the transport's", r)
		}
		var got []uint32
		for p := range c.Recv() { // closes: nothing more is handed over
			got = append(got, p.Msg.(*Cmds).Seq)
		}
		if len(got) != 1 || got[0] != 1 {
			t.Errorf("Recv held %v, want the frame that came before the end", got)
		}
	})
}

// readerGoesOn is a tapped transport whose end (Done) does not stop its
// reader: CloseRecv is never called.
type readerGoesOn struct{ *transport.Endpoint }

func (e readerGoesOn) Tap(deliver func(transport.Frame), ended func()) { e.TapRecv(deliver, ended) }
func (readerGoesOn) Send([]byte) bool                                  { return true }
func (e readerGoesOn) Close(reason string)                             { e.End(reason, false) }
func (e readerGoesOn) Abort(reason string, remote bool)                { e.End(reason, remote) }
func (readerGoesOn) RemoteAddr() string                                { return "test" }
