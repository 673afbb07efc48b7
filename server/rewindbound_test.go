package server

import (
	"math"
	"testing"

	"tickshot/net/proto"
	"tickshot/net/transport"
)

// measuredPipe is a Pipe end that reports a fixed LinkRTT, as the
// websocket transport measures it.
type measuredPipe struct {
	transport.Transport
	rtt transport.LinkRTT
}

func (m measuredPipe) LinkRTT() transport.LinkRTT { return m.rtt }

// TestRewindBoundTakesTheLowestCredibleRTT checks rewindBound's rule, as
// docs/LAGCOMP.md states it: credible RTT = min(ack RTT, min(ping, TCP) +
// the server's own net_fakelag + net_fakejitter), the TCP RTT skipped for
// a loopback peer, an unanswered first ping counted as 0; bound = credible
// RTT + lerp + UnlagSlackMs; no bound with sv_cheats 1 or a link without
// its own measure.
func TestRewindBoundTakesTheLowestCredibleRTT(t *testing.T) {
	const lerp = 100.0
	for _, tc := range []struct {
		name    string
		link    *transport.LinkRTT // nil: a plain Pipe
		ackRTT  float64
		cvars   [][2]string
		wantRTT float64 // -1: no bound
	}{
		{"ping only", &transport.LinkRTT{PingMs: 80, TCPMs: -1}, 600, nil, 80},
		{"TCP lower than ping (held pongs)", &transport.LinkRTT{PingMs: 400, TCPMs: 30}, 600, nil, 30},
		{"TCP of a loopback peer is the hop to a proxy", &transport.LinkRTT{PingMs: 120, TCPMs: 0.05, Loopback: true}, 600, nil, 120},
		{"no pong yet", &transport.LinkRTT{PingMs: -1, TCPMs: -1}, 600, nil, 0},
		{"ack RTT lower than the link's", &transport.LinkRTT{PingMs: 80, TCPMs: 70}, 50, nil, 50},
		{"no ack yet", &transport.LinkRTT{PingMs: 80, TCPMs: -1}, -1, nil, 80},
		{"the server's own fake lag is added back", &transport.LinkRTT{PingMs: 2, TCPMs: -1}, 600,
			[][2]string{{"net_fakelag", "150"}, {"net_fakejitter", "20"}}, 172},
		{"sv_cheats 1 trusts the acks", &transport.LinkRTT{PingMs: 2, TCPMs: 1}, 600, [][2]string{{"sv_cheats", "1"}}, -1},
		{"a link without its own measure", nil, 600, nil, -1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := lcServer(t, Config{Seed: 1, Bots: 1, Cvars: tc.cvars})
			ss := lcSession(s.w.Players[0], tc.ackRTT)
			a, b := transport.Pipe(proto.ServerOptions(), proto.ClientOptions())
			defer a.Close("test over")
			defer b.Close("test over")
			var tr transport.Transport = a
			if tc.link != nil {
				tr = measuredPipe{Transport: a, rtt: *tc.link}
			}
			ss.conn = proto.NewConn(tr)
			rtt, bound := s.rewinder.rewindBound(ss, lerp)
			if tc.wantRTT < 0 {
				if rtt >= 0 || bound >= 0 {
					t.Fatalf("rtt %v, bound %v: want no bound", rtt, bound)
				}
				return
			}
			if math.Abs(rtt-tc.wantRTT) > 1e-9 || math.Abs(bound-(tc.wantRTT+lerp+UnlagSlackMs)) > 1e-9 {
				t.Fatalf("rtt %v, bound %v: want %v and %v", rtt, bound, tc.wantRTT, tc.wantRTT+lerp+UnlagSlackMs)
			}
		})
	}
}
