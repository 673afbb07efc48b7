//go:build !js

package ws_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
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
