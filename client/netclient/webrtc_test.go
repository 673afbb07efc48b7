package netclient_test

import (
	"context"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"tickshot/client/netclient"
	"tickshot/internal/tool/testserver"
	"tickshot/net/rtc"
	"tickshot/net/transport"
	"tickshot/server"
)

// playFor connects to srv with cl_transport mode and plays (moving right)
// until done says so or 8 s pass (the servers run the open range map with
// a fixed seed: the spawn has room to the right); it returns the client and every console
// line the connection printed.
func playFor(t *testing.T, srv *server.Server, mode rtc.Mode, done func(*netclient.Client) bool) (*netclient.Client, []string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	c, err := netclient.Connect(ctx, netclient.Dial(mode), srv.Addr(), netclient.DefaultConfig("datagram"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close("test over") })
	waitFirstSnapshot(t, c)
	var prints []string
	dt := time.Second / 64
	deadline := time.Now().Add(8 * time.Second)
	for !done(c) && time.Now().Before(deadline) {
		time.Sleep(dt)
		if err := c.Poll(); err != nil {
			t.Fatalf("poll: %v", err)
		}
		prints = append(prints, c.Match().TakePrints()...)
		c.Tick(dt, netclient.Input{MoveX: 1})
	}
	return c, prints
}

// playerTransport waits up to 3 s for /status to name the transport of the
// only human player, and returns it.
func playerTransport(t *testing.T, srv *server.Server, want string) string {
	t.Helper()
	got := ""
	for deadline := time.Now().Add(3 * time.Second); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		for _, p := range srv.CurrentStatus().Players {
			if !p.Bot {
				got = p.Transport
			}
		}
		if got == want {
			break
		}
	}
	return got
}

// A real server and the native client over WebRTC on loopback: the
// client's default (auto) opens the data channel, snapshots arrive as
// datagrams, the usercmds sent on it move the player, and /status, the
// console and NetStats say webrtc.
func TestWebRTCPlays(t *testing.T) {
	srv := testserver.Start(t, server.Config{Bots: 1, Map: "range", Seed: 1, Logger: testLogger(t)})
	var start float64
	c, prints := playFor(t, srv, rtc.ModeAuto, func(c *netclient.Client) bool {
		if start == 0 {
			start = c.View().ServerState.X
		}
		return c.Net().DatagramSnapshots >= 64 && c.View().ServerState.X > start+50
	})
	if n := c.Net().DatagramSnapshots; n < 64 {
		t.Fatalf("%d snapshots came as datagrams (of %d); prints %q", n, c.View().Stats.SnapshotsReceived, prints)
	}
	if moved := c.View().ServerState.X - start; moved <= 50 {
		t.Errorf("the server moved the player %.1f units right", moved)
	}
	if c.Net().Transport != transport.KindWebRTC {
		t.Errorf("NetStats.Transport %q", c.Net().Transport)
	}
	if got := playerTransport(t, srv, transport.KindWebRTC); got != transport.KindWebRTC {
		t.Errorf("/status transport %q", got)
	}
	if !strings.Contains(strings.Join(prints, "\n"), "transport: webrtc") {
		t.Errorf("the console was not told: %q", prints)
	}
	resp, err := http.Get("http://" + srv.Addr() + "/metrics")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	if want := `tickshot_clients_by_transport{transport="webrtc"} 1`; !strings.Contains(string(body), want) {
		t.Errorf("/metrics lacks %s", want)
	}
}

// A server with sv_transports websocket refuses the offer: the client says
// so once, stays on the WebSocket within FallbackAfter, and plays.
func TestWebRTCRefusedFallsBack(t *testing.T) {
	srv := testserver.Start(t, server.Config{Transports: server.TransportsWebSocket, Map: "range", Seed: 1, Logger: testLogger(t)})
	var start float64
	c, prints := playFor(t, srv, rtc.ModeAuto, func(c *netclient.Client) bool {
		if start == 0 {
			start = c.View().ServerState.X
		}
		return c.View().Stats.SnapshotsReceived >= 64 && c.View().ServerState.X > start+50
	})
	if len(prints) != 1 || !strings.Contains(prints[0], "staying on the WebSocket") {
		t.Fatalf("console lines %q, want one saying the client stays on the WebSocket", prints)
	}
	if c.Net().DatagramSnapshots != 0 {
		t.Errorf("%d datagram snapshots", c.Net().DatagramSnapshots)
	}
	if moved := c.View().ServerState.X - start; moved <= 50 {
		t.Errorf("the server moved the player %.1f units right", moved)
	}
	if got := playerTransport(t, srv, transport.KindWebSocket); got != transport.KindWebSocket {
		t.Errorf("/status transport %q", got)
	}
}
