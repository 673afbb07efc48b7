package server_test

import (
	"net"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/gorilla/websocket"

	"tickshot/client/netclient"
	"tickshot/internal/tool/testserver"
	"tickshot/server"
)

// dialFrom opens a websocket to addr's /ws from local address ip and sends
// nothing.
func dialFrom(t *testing.T, ip, addr string) *raw {
	t.Helper()
	nd := &net.Dialer{LocalAddr: &net.TCPAddr{IP: net.ParseIP(ip)}}
	d := websocket.Dialer{HandshakeTimeout: 3 * time.Second, NetDial: nd.Dial}
	ws, _, err := d.Dial("ws://"+addr+"/ws", nil)
	if err != nil {
		t.Fatalf("dial from %s: %v", ip, err)
	}
	t.Cleanup(func() { ws.Close() })
	return &raw{t: t, ws: ws}
}

// TestPreHelloCap opens websockets from one address that never send a
// Hello: the first MaxPreHelloPerIP are kept waiting, every further one is
// refused at once with a Reject and a close naming the reason, a normal
// client from another address still joins meanwhile, and once the silent
// ones are gone their address may connect again.
func TestPreHelloCap(t *testing.T) {
	_, addr := startServer(t, server.Config{MaxPlayers: 4})
	var held []*raw
	for range server.MaxPreHelloPerIP {
		held = append(held, dialFrom(t, "127.0.0.2", addr))
	}
	for i := range 4 {
		e := dialFrom(t, "127.0.0.2", addr).readEnd(2 * time.Second)
		if !e.closed || !e.rejected || !e.mentions("without a hello") {
			t.Errorf("extra silent connection %d was not refused with a reason: %v", i, e)
		}
	}
	for i, r := range held {
		if e := r.readEnd(50 * time.Millisecond); e.closed {
			t.Errorf("silent connection %d within the cap was closed early: %v", i, e)
		}
	}
	c := testserver.Connect(t, addr, netclient.Config{Name: "normal"})
	if c.View().ID == 0 {
		t.Errorf("normal client got no player id while silent connections were held")
	}
	for _, r := range held {
		r.ws.Close()
	}
	waitFor(t, 3*time.Second, "address freed", func() bool {
		r := dialFrom(t, "127.0.0.2", addr)
		defer r.ws.Close()
		return !r.readEnd(100 * time.Millisecond).closed
	})
}

// TestPreHelloRefusalsLogOnce: connections refused by the pre-Hello cap
// and plain GETs of /ws without an upgrade are a flood anyone can send, so
// they must not write a log line each (they wrote one per connection, and
// one per request on a single keep-alive connection): the refusals make
// one line with their count at most every few seconds, failed upgrades
// none at the info level.
func TestPreHelloRefusalsLogOnce(t *testing.T) {
	var log testserver.LogBuf
	addr, _ := runServer(t, server.Config{}, &log)
	for range server.MaxPreHelloPerIP {
		dialFrom(t, "127.0.0.3", addr)
	}
	const extra = 10
	for i := range extra {
		if e := dialFrom(t, "127.0.0.3", addr).readEnd(2 * time.Second); !e.rejected {
			t.Fatalf("extra silent connection %d was not refused: %v", i, e)
		}
	}
	cl := http.Client{Timeout: 2 * time.Second}
	for range 20 {
		resp, err := cl.Get("http://" + addr + "/ws")
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusBadRequest {
			t.Fatalf("GET /ws without an upgrade: %s, want 400", resp.Status)
		}
	}
	out := log.String()
	if n := strings.Count(out, "without a hello"); n != 1 {
		t.Errorf("%d refused connections made %d log lines about it, want 1:\n%s", extra, n, out)
	}
	if n := strings.Count(out, "upgrade failed"); n != 0 {
		t.Errorf("20 plain GETs of /ws made %d info log lines, want 0:\n%s", n, out)
	}
}
