package proto

import (
	"testing"
	"time"

	"tickshot/net/transport"
)

func pipeConns(t *testing.T) (*Conn, *Conn, transport.Transport, transport.Transport) {
	t.Helper()
	ta, tb := transport.Pipe(ClientOptions(), ServerOptions())
	a, b := NewConn(ta), NewConn(tb)
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
