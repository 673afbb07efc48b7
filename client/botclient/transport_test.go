package botclient_test

import (
	"context"
	"testing"
	"time"

	"tickshot/client/botclient"
	"tickshot/client/netclient"
	"tickshot/internal/tool/testserver"
	"tickshot/net/rtc"
	"tickshot/server"
)

// A bot's summary names the transport it played on: webrtc when it dials
// with cl_transport auto and the data channel comes up, websocket with the
// default dialer.
func TestSummaryTransport(t *testing.T) {
	srv := testserver.Start(t, server.Config{})
	for _, c := range []struct {
		dial netclient.Dialer
		want string
		play time.Duration // long enough for the data channel to open on a busy machine
	}{{netclient.Dial(rtc.ModeAuto), "webrtc", 5 * time.Second}, {nil, "websocket", time.Second}} {
		sums := botclient.Run(context.Background(), botclient.Options{Server: srv.Addr(), Duration: c.play,
			Config: netclient.DefaultConfig(""), Seed: 1, Dial: c.dial})
		if len(sums) != 1 || sums[0].Error != "" || sums[0].SnapshotsReceived == 0 {
			t.Fatalf("summaries %+v", sums)
		}
		if sums[0].Transport != c.want {
			t.Errorf("transport %q, want %q", sums[0].Transport, c.want)
		}
	}
}
