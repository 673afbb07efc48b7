//go:build !js

package ws_test

import (
	"bytes"
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gorilla/websocket"

	"tickshot/net/proto"
	"tickshot/net/transport"
	"tickshot/net/transport/transporttest"
	"tickshot/net/ws"
)

// upgradeServer serves websocket upgrades on loopback until the test ends:
// it returns the ws:// URL to dial and the channel the server-side
// transport of each connection arrives on.
func upgradeServer(t *testing.T, server transport.Options) (url string, accepted <-chan transport.Transport) {
	t.Helper()
	ch := make(chan transport.Transport, 1)
	hs := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		tr, err := ws.Upgrade(w, r, server)
		if err != nil {
			t.Errorf("upgrade: %v", err)
			return
		}
		ch <- tr
	}))
	t.Cleanup(hs.Close)
	return "ws://" + strings.TrimPrefix(hs.URL, "http://") + "/ws", ch
}

// wsPair returns the two ends of a real websocket on loopback.
func wsPair(t *testing.T, client, server transport.Options) (transport.Transport, transport.Transport) {
	t.Helper()
	url, accepted := upgradeServer(t, server)
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	c, err := ws.Dial(ctx, url, client)
	if err != nil {
		t.Fatal(err)
	}
	select {
	case s := <-accepted:
		t.Cleanup(func() { c.Close("test over"); s.Close("test over") })
		return c, s
	case <-time.After(5 * time.Second):
		t.Fatal("no server side connection")
	}
	return nil, nil
}

// The gorilla transport passes the same conformance suite as the pipe.
func TestGorillaConformance(t *testing.T) {
	transporttest.Run(t, func(t *testing.T, a, b transport.Options) (transport.Transport, transport.Transport) {
		return wsPair(t, a, b)
	})
}

// The fake-lag decorator over a real websocket passes it too.
func TestGorillaFakeLagConformance(t *testing.T) {
	transporttest.Run(t, func(t *testing.T, a, b transport.Options) (transport.Transport, transport.Transport) {
		c, s := wsPair(t, a, b)
		fs := transport.NewFakeLag(s)
		fs.Set(transport.FakeConditions{LagMs: 5, JitterMs: 5})
		return transport.NewFakeLag(c), fs
	})
}

// Close must not block its caller (the server's tick goroutine) when the
// writer is stuck behind a peer that stopped reading: the goodbye is
// written in the background, bounded in time. Blocked, Close would take
// ws.WriteTimeout (5 s); a fifth of that is far more than Close needs even
// on a busy machine.
func TestCloseDoesNotBlockBehindStuckWriter(t *testing.T) {
	url, accepted := upgradeServer(t, proto.ServerOptions())
	d := websocket.Dialer{ReadBufferSize: 1024}
	peer, _, err := d.Dial(url, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer peer.Close() // never reads
	c := <-accepted

	// Fill the socket: the peer reads nothing, so the writer blocks.
	big := make([]byte, 256<<10)
	big[0] = byte(proto.MsgPrint)
	for i := 0; i < transport.SendQueue; i++ {
		c.Send(big)
	}
	time.Sleep(300 * time.Millisecond) // let the writer get stuck in a write

	start := time.Now()
	c.Close("kicked: test")
	if d := time.Since(start); d > ws.WriteTimeout/5 {
		t.Fatalf("Close took %v behind a stuck writer", d)
	}
	select {
	case <-c.Done():
	default:
		t.Fatal("Done not closed after Close")
	}
	if r, _ := c.Reason(); r != "kicked: test" {
		t.Fatalf("reason %q", r)
	}
	select {
	case <-c.Closed():
	case <-time.After(ws.WriteTimeout + 3*time.Second):
		t.Fatal("socket never closed")
	}
}

// Short addresses used to panic (slice bounds out of range); every form
// of address maps to the game endpoint's URL.
func TestURL(t *testing.T) {
	cases := []struct{ in, want string }{
		{"h:123", "ws://h:123/ws"},
		{"h", "ws://h:27015/ws"},
		{"ab", "ws://ab:27015/ws"},
		{"192.0.2.10", "ws://192.0.2.10:27015/ws"},
		{"192.0.2.10:27016", "ws://192.0.2.10:27016/ws"},
		{"[::1]", "ws://[::1]:27015/ws"},
		{"[::1]:9", "ws://[::1]:9/ws"},
		{"ws://x:1/ws", "ws://x:1/ws"},
		{"wss://example.org/ws", "wss://example.org/ws"},
		{" host:1 ", "ws://host:1/ws"},
	}
	for _, c := range cases {
		got, err := ws.URL(c.in)
		if err != nil || got != c.want {
			t.Errorf("URL(%q) = %q, %v; want %q", c.in, got, err, c.want)
		}
	}
	for _, bad := range []string{"", "   ", "http://x:1/", "https://x", "host:"} {
		if got, err := ws.URL(bad); err == nil {
			t.Errorf("URL(%q) = %q, want an error", bad, got)
		}
	}
	// Dial itself must fail cleanly, not panic, on a short unreachable address.
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	if _, err := ws.Dial(ctx, "h:123", proto.ClientOptions()); err == nil {
		t.Error("Dial(h:123) succeeded")
	}
}

// tapFrame is the i-th frame of the tap tests: its number, then i%300
// bytes of i.
func tapFrame(i int) []byte {
	return append([]byte(fmt.Sprintf("tap %05d ", i)), bytes.Repeat([]byte{byte(i)}, i%300)...)
}

// A tap (transport.Tapper, as net/rtc uses it) gets the frames queued on
// Recv before it first, then every later one, all in order, on no more
// than one goroutine at a time; ended comes once, after the last, and
// nothing arrives on Recv.
func TestTapTakesQueuedFramesFirst(t *testing.T) {
	// No farewell: the frames delivered are the test's alone.
	client, server := wsPair(t, transport.Options{ReadLimit: 4096}, transport.Options{ReadLimit: 4096})
	const before, after = 60, 140
	for i := range before {
		if !client.Send(tapFrame(i)) {
			t.Fatalf("send %d refused", i)
		}
	}
	deadline := time.Now().Add(5 * time.Second)
	for server.Stats().PacketsIn < before && time.Now().Before(deadline) {
		time.Sleep(2 * time.Millisecond) // queued on Recv, unread
	}
	var (
		mu      sync.Mutex
		got     [][]byte
		busy    bool
		overlap bool
		ends    int
		endedAt int // frames delivered when ended came
	)
	endedCh := make(chan struct{})
	deliver := func(f transport.Frame) {
		mu.Lock()
		if busy {
			overlap = true
		}
		busy = true
		got = append(got, f.Data)
		mu.Unlock()
		time.Sleep(10 * time.Microsecond)
		mu.Lock()
		busy = false
		mu.Unlock()
	}
	server.(transport.Tapper).Tap(deliver, func() {
		mu.Lock()
		ends++
		endedAt = len(got)
		mu.Unlock()
		close(endedCh)
	})
	mu.Lock()
	if len(got) < before {
		t.Errorf("Tap returned with %d of the %d frames queued before it delivered", len(got), before)
	}
	mu.Unlock()
	for i := before; i < before+after; i++ {
		for !client.Send(tapFrame(i)) {
			time.Sleep(time.Millisecond) // the send queue is full
		}
	}
	for {
		mu.Lock()
		n := len(got)
		mu.Unlock()
		if n == before+after {
			break
		}
		if time.Now().After(deadline.Add(5 * time.Second)) {
			t.Fatalf("%d of %d frames delivered", n, before+after)
		}
		time.Sleep(2 * time.Millisecond)
	}
	client.Close("test over")
	select {
	case <-endedCh:
	case <-time.After(10 * time.Second):
		t.Fatal("ended not called after the peer closed")
	}
	select {
	case f, ok := <-server.Recv():
		if ok {
			t.Errorf("a frame arrived on Recv after Tap: %q", f.Data)
		}
	case <-time.After(time.Second):
		t.Error("Recv not closed once the reader ended")
	}
	mu.Lock()
	defer mu.Unlock()
	for i, b := range got {
		if !bytes.Equal(b, tapFrame(i)) {
			t.Fatalf("frame %d delivered as %q: order or content not kept", i, b[:min(len(b), 10)])
		}
	}
	if overlap {
		t.Error("deliver ran on two goroutines at once")
	}
	if ends != 1 || endedAt != before+after {
		t.Errorf("ended called %d times, after %d frames; want once, after %d", ends, endedAt, before+after)
	}
}

// A tap set after the reader has ended still gets what was queued, then
// ended, once, before Tap returns.
func TestTapAfterTheReaderEnded(t *testing.T) {
	client, server := wsPair(t, transport.Options{ReadLimit: 4096}, transport.Options{ReadLimit: 4096})
	for i := range 3 {
		client.Send(tapFrame(i))
	}
	client.Close("bye")
	select {
	case <-server.Done(): // the reader saw the close
	case <-time.After(10 * time.Second):
		t.Fatal("server end not done after the peer closed")
	}
	time.Sleep(100 * time.Millisecond) // the reader's end runs after Done
	var got [][]byte
	ends := 0
	server.(transport.Tapper).Tap(func(f transport.Frame) { got = append(got, f.Data) }, func() { ends++ })
	if ends != 1 {
		t.Fatalf("ended called %d times by the time Tap returned; want once", ends)
	}
	if len(got) != 3 {
		t.Fatalf("%d frames delivered, want the 3 queued", len(got))
	}
	for i, b := range got {
		if !bytes.Equal(b, tapFrame(i)) {
			t.Fatalf("frame %d delivered as %q", i, b)
		}
	}
}
