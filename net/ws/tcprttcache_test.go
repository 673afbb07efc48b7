//go:build !js

package ws

import (
	"context"
	"math"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"tickshot/net/transport"
)

// countingTCPRTT is a fake kernel read that counts its calls and returns
// 7, 8, 9... ms.
func countingTCPRTT(reads *atomic.Int32) tcpRTTFunc {
	return func() (float64, bool) { return float64(6 + reads.Add(1)), true }
}

// TestTCPRTTRefreshRules: LinkRTT reads nothing itself (it returns the
// last read and asks for a new one); the reader's refresh reads only when
// asked and tcpRTTEvery after the last read. On a conn of no socket and no
// goroutines, with the times given.
func TestTCPRTTRefreshRules(t *testing.T) {
	var reads atomic.Int32
	c := &conn{tcp: countingTCPRTT(&reads), pingRTT: -1}
	c.tcpRTT.Store(math.Float64bits(-1)) // as newConn
	t0 := time.Date(2026, 11, 27, 0, 0, 0, 0, time.UTC)
	c.readTCPRTT(t0) // the upgrade's
	check := func(step string, wantReads int32, wantMs float64) {
		t.Helper()
		if n := reads.Load(); n != wantReads {
			t.Fatalf("%s: %d reads, want %d", step, n, wantReads)
		}
		if got := c.LinkRTT().TCPMs; got != wantMs {
			t.Fatalf("%s: TCPMs %v, want %v", step, got, wantMs)
		}
	}
	c.tcpWant.Store(false)
	for range 100 {
		c.LinkRTT()
	}
	check("100 LinkRTTs after the upgrade's read", 1, 7) // and it asks
	c.refreshTCPRTT(t0.Add(tcpRTTEvery - time.Millisecond))
	check("a frame within tcpRTTEvery of the read", 1, 7)
	c.refreshTCPRTT(t0.Add(tcpRTTEvery))
	check("a frame tcpRTTEvery after, asked", 2, 8)
	c.tcpWant.Store(false) // the check's LinkRTT asked: take the ask back
	c.refreshTCPRTT(t0.Add(3 * tcpRTTEvery))
	if n := reads.Load(); n != 2 {
		t.Fatalf("a frame with no LinkRTT since the last refresh read: %d reads, want 2", n)
	}
	c.LinkRTT()
	c.refreshTCPRTT(t0.Add(3 * tcpRTTEvery))
	check("asked again, long after", 3, 9)
}

// TestTCPRTTReadOnTheConnectionsGoroutines: over a real websocket the
// kernel's round trip is read at the upgrade, by the reader at a frame
// after a LinkRTT asked (tcpRTTEvery after the last read), and by the
// writer at its ping tick with no frame at all; LinkRTT then shows the
// newest read.
func TestTCPRTTReadOnTheConnectionsGoroutines(t *testing.T) {
	var reads atomic.Int32
	newTCPRTT = func(net.Conn) tcpRTTFunc { return countingTCPRTT(&reads) }
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
	if r := m.LinkRTT(); r.TCPMs < 7 { // and it asks
		t.Fatalf("TCPMs %v after the upgrade: want its read", r.TCPMs)
	}
	// A frame tcpRTTEvery after the upgrade, asked: the reader reads (or
	// the writer's ping tick did, on a slow machine: either is a read).
	n := reads.Load()
	time.Sleep(tcpRTTEvery + 20*time.Millisecond)
	if !c.Send([]byte{1}) {
		t.Fatal("send refused")
	}
	select {
	case <-s.Recv():
	case <-time.After(5 * time.Second):
		t.Fatal("frame not received")
	}
	if got := reads.Load(); got <= n {
		t.Fatalf("no read after an asked frame: %d reads", got)
	}
	// No frames and no asks: the writer's ping tick reads within
	// PingInterval.
	n = reads.Load()
	deadline := time.Now().Add(PingInterval + 3*time.Second)
	for reads.Load() == n && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	if got := reads.Load(); got == n {
		t.Fatalf("no read in %v without frames: the writer's ping tick does not read", PingInterval+3*time.Second)
	}
	if got, want := m.LinkRTT().TCPMs, float64(6+reads.Load()); got > want || got < 7 {
		t.Errorf("TCPMs %v, want a read's (7..%v)", got, want)
	}
}
