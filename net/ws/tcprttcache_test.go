//go:build !js

package ws

import (
	"context"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"tickshot/net/transport"
)

// TestTCPRTTReadOffTheCaller: LinkRTT makes no read of the kernel's TCP
// round trip (a system call) itself: it returns the reader goroutine's
// last read, taken once at the upgrade and again at a frame that arrives
// tcpRTTEvery or more after the last read, only when a LinkRTT asked for
// it since. The read is a fake that counts and returns 7, 8, 9... ms.
func TestTCPRTTReadOffTheCaller(t *testing.T) {
	var reads atomic.Int32
	newTCPRTT = func(net.Conn) tcpRTTFunc {
		return func() (float64, bool) { return float64(6 + reads.Add(1)), true }
	}
	t.Cleanup(func() { newTCPRTT = tcpRTTOf })
	accepted := make(chan transport.Transport, 1)
	hs := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		tr, err := Upgrade(w, r, transport.Options{})
		if err != nil {
			t.Errorf("upgrade: %v", err)
			return
		}
		accepted <- tr
	}))
	t.Cleanup(hs.Close)
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	c, err := Dial(ctx, "ws://"+strings.TrimPrefix(hs.URL, "http://")+"/ws", transport.Options{})
	if err != nil {
		t.Fatal(err)
	}
	var s transport.Transport
	select {
	case s = <-accepted:
	case <-time.After(5 * time.Second):
		t.Fatal("no server side connection")
	}
	t.Cleanup(func() { c.Close("test over"); s.Close("test over") })
	m := s.(transport.RTTMeasurer)
	// send has the client send a frame and waits until the server has it.
	send := func() {
		t.Helper()
		if !c.Send([]byte{1}) {
			t.Fatal("send refused")
		}
		select {
		case <-s.Recv():
		case <-time.After(5 * time.Second):
			t.Fatal("frame not received")
		}
	}
	// Each end made one read at its upgrade or dial; the server's is 7 or 8
	// ms, whichever end read first.
	first := reads.Load()
	if first != 2 {
		t.Fatalf("%d reads after connecting, want one an end", first)
	}
	r0 := m.LinkRTT().TCPMs
	if r0 != 7 && r0 != 8 {
		t.Fatalf("TCPMs %v after the upgrade, want its read (7 or 8)", r0)
	}
	for range 100 {
		if got := m.LinkRTT().TCPMs; got != r0 {
			t.Fatalf("TCPMs moved to %v with no frame read", got)
		}
	}
	if n := reads.Load(); n != first {
		t.Fatalf("LinkRTT read the kernel's round trip itself: %d reads, want %d", n, first)
	}
	// A frame within tcpRTTEvery of the last read: no read, asked or not.
	send()
	if n := reads.Load(); n != first {
		t.Fatalf("a frame within tcpRTTEvery of the last read read again: %d reads", n)
	}
	// After tcpRTTEvery, a frame with no LinkRTT since the last one asked:
	// the ask of the loop above still stands, so this one reads.
	time.Sleep(tcpRTTEvery + 20*time.Millisecond)
	send()
	if n := reads.Load(); n != first+1 {
		t.Fatalf("%d reads after a frame past tcpRTTEvery with a LinkRTT waiting, want %d", n, first+1)
	}
	if got := m.LinkRTT().TCPMs; got != float64(6+first+1) {
		t.Fatalf("TCPMs %v after the reader's read, want %v", got, 6+first+1)
	}
	// That LinkRTT asked again; without it a later frame would not read.
	// Answer it, then check a frame with no ask reads nothing.
	time.Sleep(tcpRTTEvery + 20*time.Millisecond)
	send()
	if n := reads.Load(); n != first+2 {
		t.Fatalf("%d reads, want %d", n, first+2)
	}
	time.Sleep(tcpRTTEvery + 20*time.Millisecond)
	send()
	if n := reads.Load(); n != first+2 {
		t.Fatalf("a frame read the round trip that no LinkRTT asked for: %d reads, want %d", n, first+2)
	}
}
