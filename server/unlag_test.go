package server_test

import (
	"context"
	"log/slog"
	"sync"
	"testing"
	"time"

	"github.com/gorilla/websocket"

	"tickshot/internal/tool/testserver"
	"tickshot/net/proto"
	"tickshot/server"
	"tickshot/shared"
)

// shotLog collects the server's debug "shot" lines: one per lag-compensated
// shot, with the rewind it decided (rewind_ms) and its bound (bound_ms).
type shotLog struct {
	mu    sync.Mutex
	shots []map[string]any
}

func (h *shotLog) Enabled(context.Context, slog.Level) bool { return true }
func (h *shotLog) WithAttrs([]slog.Attr) slog.Handler       { return h }
func (h *shotLog) WithGroup(string) slog.Handler            { return h }
func (h *shotLog) Handle(_ context.Context, r slog.Record) error {
	if r.Message != "shot" {
		return nil
	}
	m := map[string]any{}
	r.Attrs(func(a slog.Attr) bool { m[a.Key] = a.Value.Any(); return true })
	h.mu.Lock()
	h.shots = append(h.shots, m)
	h.mu.Unlock()
	return nil
}

func (h *shotLog) taken() []map[string]any {
	h.mu.Lock()
	defer h.mu.Unlock()
	return append([]map[string]any(nil), h.shots...)
}

// num reads a numeric attribute of a logged shot.
func num(t *testing.T, m map[string]any, k string) float64 {
	t.Helper()
	v, ok := numOK(m, k)
	if !ok {
		t.Fatalf("shot log has no number %q: %v", k, m)
	}
	return v
}

// numOK is num reporting false for a missing or non-numeric attribute.
func numOK(m map[string]any, k string) (float64, bool) {
	switch v := m[k].(type) {
	case float64:
		return v, true
	case int64:
		return float64(v), true
	case uint64:
		return float64(v), true
	}
	return 0, false
}

// heldAckShooter joins as a real websocket client that reads every
// snapshot at once (its websocket answers the server's pings at once too)
// but acknowledges each only holdMs after it arrived, and fires the rifle
// every tick, each command claiming the render time an honest client with
// the newest acknowledged snapshot would have drawn: the "backtrack by
// faking ping" cheat. It runs for minDur, then until enough reports true
// or maxDur has passed, and returns.
func heldAckShooter(t *testing.T, addr string, interpMs uint16, holdMs int, minDur, maxDur time.Duration, enough func() bool) {
	t.Helper()
	d := websocket.Dialer{HandshakeTimeout: 3 * time.Second}
	ws, _, err := d.Dial("ws://"+addr+"/ws", nil)
	if err != nil {
		t.Fatalf("dial: %v", err)
	}
	defer ws.Close()
	hello := &proto.Hello{Protocol: proto.ProtocolVersion, Name: "backtracker", Rate: 100000, UpdateRate: 64,
		CmdRate: 64, InterpMs: interpMs, InterpRatio: 1}
	if err := ws.WriteMessage(websocket.BinaryMessage, proto.MustEncode(hello)); err != nil {
		t.Fatal(err)
	}
	type got struct {
		seq, tick uint32
		at        time.Time
	}
	var (
		mu       sync.Mutex
		arrived  []got
		accept   *proto.Accept
		acceptCh = make(chan struct{})
	)
	go func() { // the reader: takes every frame at once (and so answers pings)
		for {
			_, data, err := ws.ReadMessage()
			if err != nil {
				return
			}
			m, err := proto.Decode(data)
			if err != nil {
				continue
			}
			switch m := m.(type) {
			case *proto.Accept:
				accept = m
				close(acceptCh)
			case *proto.Snapshot:
				mu.Lock()
				arrived = append(arrived, got{m.Seq, m.Tick, time.Now()})
				mu.Unlock()
			}
		}
	}()
	select {
	case <-acceptCh:
	case <-time.After(3 * time.Second):
		t.Fatal("no Accept")
	}
	tr := int(accept.TickRate)
	tk := time.NewTicker(time.Second / time.Duration(tr))
	defer tk.Stop()
	var n uint32
	start := time.Now()
	for {
		if el := time.Since(start); el >= maxDur || (el >= minDur && enough()) {
			return
		}
		<-tk.C
		// Ack the newest snapshot that arrived at least holdMs ago.
		mu.Lock()
		var ack got
		for _, g := range arrived {
			if time.Since(g.at) >= time.Duration(holdMs)*time.Millisecond {
				ack = g
			}
		}
		mu.Unlock()
		if ack.seq == 0 {
			continue
		}
		n++
		cmd := shared.UserCmd{CommandNumber: n, TickCount: ack.tick, Msec: shared.MsecFor(tr), LerpMsec: interpMs,
			Buttons: shared.ButtonAttack}
		_ = ws.SetWriteDeadline(time.Now().Add(time.Second))
		if err := ws.WriteMessage(websocket.BinaryMessage, proto.MustEncode(&proto.Cmds{Ack: ack.seq, Cmds: []shared.UserCmd{cmd}})); err != nil {
			t.Fatalf("send: %v", err)
		}
	}
}

// TestHeldAcksDoNotBuyBacktrack: a client that holds its acks back 600 ms
// (so the ack round trip the server measures is about 600 ms) while the
// link itself is loopback fast gets no rewind deeper than the link's round
// trip + its lerp + UnlagSlackMs, nor deeper than sv_maxunlag. Before the
// bound the same client was rewound about 715 ms (cl_interp 100) and the
// full second (cl_interp 500). With sv_cheats 1 the acks are trusted.
// The link's round trip is what the server measured (the shots' log): on
// a busy machine loopback's may be tens of ms, and the bound follows it.
func TestHeldAcksDoNotBuyBacktrack(t *testing.T) {
	for _, tc := range []struct {
		name     string
		interpMs uint16
		cvars    [][2]string
		maxMs    float64
		minMs    float64
		plusLink bool // maxMs grows by the link round trip the server measured
	}{
		// sv_maxunlag 1 so that only the latency bound can stop it.
		{"cl_interp 100, sv_maxunlag 1", 100, [][2]string{{"sv_maxunlag", "1"}}, 100 + server.UnlagSlackMs + 20, 0, true},
		// The defaults of a dedicated server.
		{"cl_interp 500, defaults", 500, nil, 1000 * server.DefaultMaxUnlag, 0, false},
		// sv_cheats 1 trusts the acks (client-side net_fakelag looks the
		// same): the held acks then buy their 600 ms, as before the bound.
		{"cl_interp 100, sv_maxunlag 1, sv_cheats 1", 100, [][2]string{{"sv_maxunlag", "1"}, {"sv_cheats", "1"}}, 1000, 600, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			log := &shotLog{}
			srv := testserver.Start(t, server.Config{Bots: 1, MaxPlayers: 4, Map: "range", Seed: 5, NoDamage: true,
				Cvars: tc.cvars, Logger: slog.New(log)})
			// 4 s at least, then until the server has logged enough shots
			// with the held acks showing (a busy machine runs the shooter
			// late: it once logged one shot in 4 s), 30 s at most.
			heldAckShooter(t, srv.Addr(), tc.interpMs, 600, 4*time.Second, 30*time.Second, func() bool {
				shots := log.taken()
				if len(shots) < 8 {
					return false
				}
				rtt, ok := numOK(shots[len(shots)-1], "rtt_ms")
				return ok && rtt >= 550
			})
			shots := log.taken()
			if len(shots) < 5 {
				t.Fatalf("only %d shots logged", len(shots))
			}
			var deepest, link float64
			for _, s := range shots {
				deepest = max(deepest, (num(t, s, "tick")-num(t, s, "rewound_to"))*1000/64)
				if _, ok := s["link_rtt_ms"]; ok {
					link = max(link, num(t, s, "link_rtt_ms"))
				}
			}
			maxMs := tc.maxMs
			if tc.plusLink {
				// The held acks' 600 ms must not show through a slow link
				// measurement: it must stay far under them.
				if link > 300 {
					t.Fatalf("the link's round trip measured %.0f ms on loopback: too slow to tell held acks apart", link)
				}
				maxMs += link
			}
			last := shots[len(shots)-1]
			t.Logf("%d shots; deepest rewind %.0f ms; last: ack rtt %.0f ms, link rtt %v ms, bound %v ms",
				len(shots), deepest, num(t, last, "rtt_ms"), last["link_rtt_ms"], last["bound_ms"])
			if num(t, last, "rtt_ms") < 550 {
				t.Fatalf("the held acks did not show: ack RTT %.0f ms", num(t, last, "rtt_ms"))
			}
			if deepest > maxMs {
				t.Errorf("a shot was rewound %.0f ms; held acks must not buy more than %.0f ms (link round trip %.0f ms)", deepest, maxMs, link)
			}
			if deepest < tc.minMs {
				t.Errorf("the deepest rewind was %.0f ms; with sv_cheats 1 the held acks should still show (>= %.0f ms)", deepest, tc.minMs)
			}
		})
	}
}
