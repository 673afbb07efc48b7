// Package transporttest is the conformance suite every transport.Transport
// passes: the gorilla websocket, the in-memory pipe and the fake-lag
// decorator run the same checks of ordering, size limits and close reasons.
package transporttest

import (
	"bytes"
	"fmt"
	"testing"
	"time"

	"tickshot/net/transport"
)

// NewPair makes two connected ends with the given options (a dials, b accepts).
type NewPair func(t *testing.T, a, b transport.Options) (transport.Transport, transport.Transport)

// wait is how long any single expectation may take.
const wait = 10 * time.Second

func farewell(reason string) []byte { return append([]byte("bye:"), reason...) }

// Run runs the conformance suite against pairs made by newPair.
func Run(t *testing.T, newPair NewPair) {
	opts := transport.Options{ReadLimit: 1000, Farewell: farewell}
	t.Run("Order", func(t *testing.T) {
		a, b := newPair(t, opts, opts)
		if a.RemoteAddr() == "" || b.RemoteAddr() == "" {
			t.Error("empty RemoteAddr")
		}
		const n = 200 // under RecvQueue: a slow reader must not see drops
		go func() {
			for i := 0; i < n; i++ {
				for !a.Send(frame(i)) {
					select {
					case <-a.Done():
						return
					case <-time.After(time.Millisecond):
					}
				}
			}
		}()
		var bytesIn uint64
		for i := 0; i < n; i++ {
			f := next(t, b)
			if !bytes.Equal(f.Data, frame(i)) {
				t.Fatalf("frame %d arrived as %q: order or content not kept", i, f.Data[:min(len(f.Data), 12)])
			}
			if f.At.IsZero() {
				t.Fatal("frame without arrival time")
			}
			bytesIn += uint64(len(f.Data))
		}
		if s := b.Stats(); s.PacketsIn < n || s.BytesIn < bytesIn {
			t.Errorf("receiver stats %+v after %d frames of %d bytes", s, n, bytesIn)
		} else if _, ok := b.(transport.PacketCounter); !ok {
			t.Errorf("%T does not count its frames cheaply (transport.PacketCounter): the server's flood meter reads every session's count every tick", b)
		} else if got := transport.PacketsIn(b); got != s.PacketsIn {
			t.Errorf("PacketsIn %d, Stats().PacketsIn %d", got, s.PacketsIn)
		}
		deadline := time.Now().Add(wait)
		for a.Stats().PacketsOut < n && time.Now().Before(deadline) {
			time.Sleep(5 * time.Millisecond)
		}
		if s := a.Stats(); s.PacketsOut < n {
			t.Errorf("sender stats %+v after %d frames", s, n)
		}
		// And the other way.
		if !b.Send([]byte("pong")) {
			t.Fatal("send b->a failed")
		}
		if f := next(t, a); string(f.Data) != "pong" {
			t.Fatalf("b->a got %q", f.Data)
		}
	})
	t.Run("CloseReason", func(t *testing.T) {
		a, b := newPair(t, opts, opts)
		for i := 0; i < 5; i++ {
			a.Send(frame(i))
		}
		for i := 0; i < 5; i++ {
			if f := next(t, b); !bytes.Equal(f.Data, frame(i)) {
				t.Fatalf("frame %d wrong", i)
			}
		}
		a.Close("kicked: test ünïcode")
		select {
		case <-a.Done():
		default:
			t.Fatal("Done not closed right after Close")
		}
		if r, remote := a.Reason(); r != "kicked: test ünïcode" || remote {
			t.Errorf("closer's reason %q remote %v", r, remote)
		}
		if a.Send([]byte("late")) {
			t.Error("Send after Close returned true")
		}
		a.Close("again") // no effect, no panic
		if r, _ := a.Reason(); r != "kicked: test ünïcode" {
			t.Errorf("second Close changed the reason to %q", r)
		}
		got := drain(t, b)
		if len(got) != 1 || string(got[0].Data) != string(farewell("kicked: test ünïcode")) {
			t.Errorf("peer received %d frames after the close, want only the farewell: %q", len(got), datas(got))
		}
		if r, remote := b.Reason(); r != "kicked: test ünïcode" || !remote {
			t.Errorf("peer's reason %q remote %v, want the closer's reason from the peer", r, remote)
		}
		closed(t, a)
		closed(t, b)
	})
	t.Run("CloseWithQueuedFrames", func(t *testing.T) {
		// Frames still queued at Close may be lost, but none may arrive
		// after the farewell.
		a, b := newPair(t, opts, opts)
		for i := 0; i < transport.SendQueue; i++ {
			a.Send(frame(i))
		}
		a.Close("bye")
		got := drain(t, b)
		for i, f := range got {
			if string(f.Data) == string(farewell("bye")) {
				if i != len(got)-1 {
					t.Fatalf("%d frames arrived after the farewell", len(got)-1-i)
				}
				break
			}
			if !bytes.Equal(f.Data, frame(i)) {
				t.Fatalf("frame %d arrived out of order", i)
			}
		}
		if r, remote := b.Reason(); r != "bye" || !remote {
			t.Errorf("peer's reason %q remote %v", r, remote)
		}
	})
	t.Run("Abort", func(t *testing.T) {
		a, b := newPair(t, opts, opts)
		a.Abort("the peer said goodbye", true)
		if r, remote := a.Reason(); r != "the peer said goodbye" || !remote {
			t.Errorf("reason %q remote %v", r, remote)
		}
		for _, f := range drain(t, b) {
			if bytes.HasPrefix(f.Data, []byte("bye:")) {
				t.Errorf("Abort wrote a farewell: %q", f.Data)
			}
		}
	})
	t.Run("SizeLimit", func(t *testing.T) {
		a, b := newPair(t, opts, opts)
		at := make([]byte, 1000)
		at[0] = 'A'
		if !a.Send(at) {
			t.Fatal("send failed")
		}
		if f := next(t, b); len(f.Data) != 1000 {
			t.Fatalf("a frame of exactly the limit arrived with %d bytes", len(f.Data))
		}
		over := make([]byte, 1001)
		a.Send(over)
		want := "frame larger than 1000 bytes"
		if got := drain(t, b); len(got) != 0 {
			t.Errorf("receiver delivered %d frames after an oversized one", len(got))
		}
		if r, remote := b.Reason(); r != want || remote {
			t.Errorf("receiver's reason %q remote %v, want %q", r, remote, want)
		}
		got := drain(t, a)
		if len(got) != 1 || string(got[0].Data) != string(farewell(want)) {
			t.Errorf("sender received %q, want the receiver's farewell", datas(got))
		}
		if r, remote := a.Reason(); r != want || !remote {
			t.Errorf("sender's reason %q remote %v, want %q from the peer", r, remote, want)
		}
	})
	t.Run("NoFarewell", func(t *testing.T) {
		a, b := newPair(t, transport.Options{}, transport.Options{})
		b.Close("server shutting down")
		if got := drain(t, a); len(got) != 0 {
			t.Errorf("got %q without a farewell option", datas(got))
		}
		if r, remote := a.Reason(); r != "server shutting down" || !remote {
			t.Errorf("reason %q remote %v", r, remote)
		}
	})
}

func frame(i int) []byte {
	return append([]byte(fmt.Sprintf("frame %06d ", i)), bytes.Repeat([]byte{byte(i)}, i%700)...)
}

func next(t *testing.T, tr transport.Transport) transport.Frame {
	t.Helper()
	select {
	case f, ok := <-tr.Recv():
		if !ok {
			r, _ := tr.Reason()
			t.Fatalf("transport ended: %s", r)
		}
		return f
	case <-time.After(wait):
		t.Fatal("no frame")
	}
	return transport.Frame{}
}

// drain reads frames until Recv closes.
func drain(t *testing.T, tr transport.Transport) []transport.Frame {
	t.Helper()
	var got []transport.Frame
	timeout := time.After(wait)
	for {
		select {
		case f, ok := <-tr.Recv():
			if !ok {
				select {
				case <-tr.Done():
				default:
					t.Error("Recv closed but Done is not")
				}
				return got
			}
			got = append(got, f)
		case <-timeout:
			t.Fatal("Recv never closed")
			return got
		}
	}
}

func closed(t *testing.T, tr transport.Transport) {
	t.Helper()
	select {
	case <-tr.Closed():
	case <-time.After(wait):
		t.Error("Closed never closed")
	}
}

func datas(fs []transport.Frame) []string {
	var s []string
	for _, f := range fs {
		s = append(s, string(f.Data[:min(len(f.Data), 40)]))
	}
	return s
}
