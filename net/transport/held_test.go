package transport_test

import (
	"testing"
	"time"

	"tickshot/net/transport"
	"tickshot/net/transport/transporttest"
)

// A HeldPipe flushed by a goroutine of its own passes the conformance
// suite as any transport does: order, size limits, farewells and close
// reasons (with no Pusher reader, Flush delivers through Recv).
func TestHeldPipeConformance(t *testing.T) {
	transporttest.Run(t, func(t *testing.T, a, b transport.Options) (transport.Transport, transport.Transport) {
		ea, eb := transport.HeldPipe(a, b, time.Now)
		stop := make(chan struct{})
		go func() {
			for {
				ea.Flush()
				eb.Flush()
				select {
				case <-stop:
					return
				case <-time.After(time.Millisecond):
				}
			}
		}()
		t.Cleanup(func() { close(stop) })
		return ea, eb
	})
}

// Frames sent on a HeldPipe wait at the receiver until its Flush, which
// hands them to a Pusher's reader in order on the caller's goroutine,
// stamped with the sender's clock; the peer's Close ends the receiver,
// after its farewell, only at the receiver's next Flush.
func TestHeldPipeWaitsForFlush(t *testing.T) {
	at := time.Unix(1000, 0)
	a, b := transport.HeldPipe(transport.Options{}, transport.Options{Farewell: func(r string) []byte { return []byte("bye " + r) }},
		func() time.Time { return at })
	var got []string
	var stamps []time.Time
	ended := false
	a.Push(func(f transport.Frame) { got = append(got, string(f.Data)); stamps = append(stamps, f.At) }, func() { ended = true })
	b.Send([]byte("one"))
	at = at.Add(time.Second)
	b.Send([]byte("two"))
	if len(got) != 0 || a.Pending() != 2 {
		t.Fatalf("before Flush: delivered %q, %d pending; want nothing delivered, 2 pending", got, a.Pending())
	}
	if n := a.Flush(); n != 2 || len(got) != 2 || got[0] != "one" || got[1] != "two" {
		t.Fatalf("Flush delivered %d: %q, want one, two", n, got)
	}
	if !stamps[0].Equal(time.Unix(1000, 0)) || !stamps[1].Equal(time.Unix(1001, 0)) {
		t.Errorf("stamps %v, want the sender's clock at each Send", stamps)
	}
	b.Close("over")
	if ended {
		t.Fatal("ended before the Flush that carries the close")
	}
	a.Flush()
	if !ended || got[2] != "bye over" {
		t.Fatalf("after the close's Flush: ended %v, frames %q; want the farewell then the end", ended, got)
	}
	if r, remote := a.Reason(); r != "over" || !remote {
		t.Errorf("reason %q remote %v, want the peer's \"over\"", r, remote)
	}
	if a.Send([]byte("late")) || b.Send([]byte("late")) {
		t.Error("Send after the end succeeded")
	}
}
