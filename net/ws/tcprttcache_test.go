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
// server end reads the kernel's round trip at the upgrade, on its reader
// at a frame that arrives after a LinkRTT asked (tcpRTTEvery after the
// last read: three such frames make three reads, which the writer's
// ticks, a second apart, cannot), and on its writer at the ping tick with
// no frame at all; LinkRTT shows the newest read. Each end's reads are
// counted apart (the fake knows the server's end by its local address).
func TestTCPRTTReadOnTheConnectionsGoroutines(t *testing.T) {
	var srvReads, cliReads atomic.Int32
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
	srvAddr := hs.Listener.Addr().String()
	newTCPRTT = func(nc net.Conn) tcpRTTFunc {
		if nc.LocalAddr().String() == srvAddr {
			return countingTCPRTT(&srvReads)
		}
		return countingTCPRTT(&cliReads)
	}
	t.Cleanup(func() { newTCPRTT = tcpRTTOf })
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
	// Three frames, each tcpRTTEvery after the last read, each asked for.
	n := srvReads.Load()
	for k := range 3 {
		if k > 0 {
			m.LinkRTT()
		}
		time.Sleep(tcpRTTEvery + 50*time.Millisecond)
		if !c.Send([]byte{1}) {
			t.Fatal("send refused")
		}
		select {
		case <-s.Recv():
		case <-time.After(5 * time.Second):
			t.Fatal("frame not received")
		}
	}
	if got := srvReads.Load() - n; got < 3 {
		t.Fatalf("%d reads for three asked frames, want at least 3: the reader does not read", got)
	}
	// No frames and no asks: the writer's ping tick reads within
	// PingInterval.
	n = srvReads.Load()
	deadline := time.Now().Add(PingInterval + 3*time.Second)
	for srvReads.Load() == n && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	if srvReads.Load() == n {
		t.Fatalf("no read in %v without frames: the writer's ping tick does not read", PingInterval+3*time.Second)
	}
	// The newest read, or the one before while a read is between its
	// count and its store.
	before := srvReads.Load()
	got := m.LinkRTT().TCPMs
	after := srvReads.Load()
	if got < float64(6+before-1) || got > float64(6+after) {
		t.Errorf("TCPMs %v with the server's reads at %d..%d: want the newest read (%d..%d)", got, before, after, 6+before-1, 6+after)
	}
}
