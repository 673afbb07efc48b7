//go:build !js

package ws_test

import (
	"runtime"
	"testing"
	"time"

	"github.com/gorilla/websocket"

	"tickshot/net/proto"
	"tickshot/net/transport"
)

// linkRTT waits up to 3 s for the server end's ping round trip and
// returns the last LinkRTT read.
func linkRTT(t *testing.T, s transport.Transport, until func(transport.LinkRTT) bool) transport.LinkRTT {
	t.Helper()
	m, ok := s.(transport.RTTMeasurer)
	if !ok {
		t.Fatalf("%T does not measure its round trip", s)
	}
	var r transport.LinkRTT
	for end := time.Now().Add(3 * time.Second); time.Now().Before(end); time.Sleep(10 * time.Millisecond) {
		if r = m.LinkRTT(); until(r) {
			break
		}
	}
	return r
}

// TestLinkRTTMeasured: the server end of a real websocket knows its ping
// round trip within a moment of the connection (the first ping leaves at
// once), and on Linux the kernel's TCP round trip; on loopback both are
// small, and the peer is marked as loopback.
func TestLinkRTTMeasured(t *testing.T) {
	_, s := wsPair(t, proto.ClientOptions(), proto.ServerOptions())
	r := linkRTT(t, s, func(r transport.LinkRTT) bool { return r.PingMs >= 0 })
	t.Logf("%+v", r)
	if r.PingMs < 0 || r.PingMs > 100 {
		t.Errorf("ping round trip %v ms on loopback, within 3 s of connecting", r.PingMs)
	}
	if !r.Loopback {
		t.Errorf("a loopback peer not marked as one")
	}
	if runtime.GOOS == "linux" && runtime.GOARCH != "386" && (r.TCPMs <= 0 || r.TCPMs > 100) {
		t.Errorf("kernel TCP round trip %v ms on loopback", r.TCPMs)
	}
}

// TestLinkRTTHeldPongs: a peer that answers pings 300 ms late stretches
// the ping round trip, but not the kernel's TCP one (Linux), which lag
// compensation takes when it is the lower; a pong that answers no ping of
// ours is not a sample.
func TestLinkRTTHeldPongs(t *testing.T) {
	url, accepted := upgradeServer(t, proto.ServerOptions())
	d := websocket.Dialer{HandshakeTimeout: 3 * time.Second}
	c, _, err := d.Dial(url, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	// A forged pong first: it answers no ping.
	if err := c.WriteControl(websocket.PongMessage, []byte("forged"), time.Now().Add(time.Second)); err != nil {
		t.Fatal(err)
	}
	c.SetPingHandler(func(data string) error {
		time.Sleep(300 * time.Millisecond)
		return c.WriteControl(websocket.PongMessage, []byte(data), time.Now().Add(time.Second))
	})
	go func() {
		for {
			if _, _, err := c.ReadMessage(); err != nil {
				return
			}
		}
	}()
	var s transport.Transport
	select {
	case s = <-accepted:
	case <-time.After(3 * time.Second):
		t.Fatal("no server side connection")
	}
	defer s.Close("test over")
	time.Sleep(100 * time.Millisecond)
	if r := s.(transport.RTTMeasurer).LinkRTT(); r.PingMs >= 0 {
		t.Errorf("a pong answering no ping was taken as a sample: %+v", r)
	}
	r := linkRTT(t, s, func(r transport.LinkRTT) bool { return r.PingMs >= 0 })
	t.Logf("%+v", r)
	if r.PingMs < 290 || r.PingMs > 600 {
		t.Errorf("ping round trip %v ms with pongs held 300 ms", r.PingMs)
	}
	if runtime.GOOS == "linux" && runtime.GOARCH != "386" && (r.TCPMs <= 0 || r.TCPMs > 100) {
		t.Errorf("kernel TCP round trip %v ms: held pongs must not stretch it", r.TCPMs)
	}
}
