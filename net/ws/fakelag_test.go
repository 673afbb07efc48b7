//go:build !js

package ws_test

import (
	"context"
	"math"
	"net/http"
	"net/http/httptest"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"tickshot/net/proto"
	"tickshot/net/ws"
)

// connPair returns the two ends of a real websocket on loopback: the
// dialling client and the server's upgraded Conn.
func connPair(t *testing.T) (client, server *proto.Conn) {
	t.Helper()
	accepted := make(chan *proto.Conn, 1)
	hs := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		tr, err := ws.Upgrade(w, r, proto.ServerOptions())
		if err != nil {
			t.Errorf("upgrade: %v", err)
			return
		}
		accepted <- proto.NewConn(tr)
	}))
	t.Cleanup(hs.Close)
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	tr, err := ws.Dial(ctx, "ws://"+strings.TrimPrefix(hs.URL, "http://")+"/ws", proto.ClientOptions())
	if err != nil {
		t.Fatal(err)
	}
	client = proto.NewConn(tr)
	select {
	case server = <-accepted:
	case <-time.After(5 * time.Second):
		t.Fatal("no server side connection")
	}
	t.Cleanup(func() {
		client.Close("test over")
		server.Close("test over")
	})
	return client, server
}

// sendSeq sends Cmds{Ack: seq}, waiting while the send queue is full, and
// returns when it was queued. It may run outside the test goroutine, so it
// reports failure with t.Error and returns false.
func sendSeq(t *testing.T, c *proto.Conn, seq uint32) (time.Time, bool) {
	deadline := time.Now().Add(5 * time.Second)
	for {
		now := time.Now()
		if c.Send(&proto.Cmds{Ack: seq}) {
			return now, true
		}
		select {
		case <-c.Done():
			t.Errorf("connection closed while sending: %v", reasonOf(c))
			return now, false
		default:
		}
		if now.After(deadline) {
			t.Error("send queue stuck")
			return now, false
		}
		time.Sleep(200 * time.Microsecond)
	}
}

func reasonOf(c *proto.Conn) string { r, _ := c.Reason(); return r }

// sendTimes records when each sequence number was queued, from the sending
// goroutine, for the test goroutine.
type sendTimes struct {
	mu sync.Mutex
	at map[uint32]time.Time
}

func (s *sendTimes) set(seq uint32, at time.Time) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.at == nil {
		s.at = map[uint32]time.Time{}
	}
	s.at[seq] = at
}

func (s *sendTimes) get(seq uint32) time.Time {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.at[seq]
}

type arrival struct {
	seq uint32
	at  time.Time
}

// collect reads Cmds messages from c until n arrived or timeout passed.
func collect(t *testing.T, c *proto.Conn, n int, timeout time.Duration, stop func() bool) []arrival {
	t.Helper()
	var got []arrival
	deadline := time.After(timeout)
	tick := time.NewTicker(10 * time.Millisecond)
	defer tick.Stop()
	for len(got) < n {
		select {
		case p, ok := <-c.Recv():
			if !ok {
				t.Fatalf("connection closed: %s", reasonOf(c))
			}
			cm, isCmds := p.Msg.(*proto.Cmds)
			if !isCmds {
				t.Fatalf("unexpected %s", p.Msg.Type())
			}
			got = append(got, arrival{cm.Ack, time.Now()})
		case <-tick.C:
			if stop != nil && stop() {
				return got
			}
		case <-deadline:
			return got
		}
	}
	return got
}

// Fake lag delays each message by the lag, once (not twice, not piling up),
// in order, and switched off it takes effect live. The lag is long beside
// what a busy machine adds (a stalled goroutine, a late timer: up to a few
// hundred ms), so the bounds that tell "once" from "twice" hold there too;
// no timer fires early, so the lower bound is exact.
func TestFakeLagDelaysMessages(t *testing.T) {
	const lag = 400 * time.Millisecond
	client, server := connPair(t)
	server.SetFakeConditions(proto.FakeConditions{LagMs: 400})
	if got := server.FakeConditions(); got.LagMs != 400 {
		t.Fatalf("FakeConditions() = %+v", got)
	}
	const n = 40
	var sent sendTimes
	go func() {
		for i := uint32(1); i <= n; i++ {
			at, ok := sendSeq(t, client, i)
			if !ok {
				return
			}
			sent.set(i, at)
			time.Sleep(5 * time.Millisecond)
		}
	}()
	got := collect(t, server, n, 5*time.Second, nil)
	if len(got) != n {
		t.Fatalf("received %d of %d messages", len(got), n)
	}
	var delays []float64
	for i, a := range got {
		if a.seq != uint32(i+1) {
			t.Fatalf("message %d arrived as number %d: order not kept", a.seq, i+1)
		}
		d := a.at.Sub(sent.get(a.seq))
		delays = append(delays, float64(d)/float64(time.Millisecond))
		if d < lag {
			t.Errorf("message %d arrived after %v, before the %v fake lag", a.seq, d, lag)
		}
		if d > lag*15/8 {
			t.Errorf("message %d arrived after %v, far more than the %v fake lag", a.seq, d, lag)
		}
	}
	sort.Float64s(delays)
	if med := delays[len(delays)/2]; med > 1.5*400 {
		t.Errorf("median delay %.1f ms with %v fake lag", med, lag)
	}
	t.Logf("delay ms: min %.1f median %.1f max %.1f", delays[0], delays[len(delays)/2], delays[len(delays)-1])

	// Turning fake lag off takes effect live.
	server.SetFakeConditions(proto.FakeConditions{})
	t0, _ := sendSeq(t, client, 1000)
	got = collect(t, server, 1, 2*time.Second, nil)
	if len(got) != 1 || got[0].seq != 1000 {
		t.Fatalf("after lag off: %+v", got)
	}
	if d := got[0].at.Sub(t0); d > lag/2 {
		t.Errorf("after lag off a message took %v", d)
	}
}

func TestFakeJitterKeepsOrder(t *testing.T) {
	client, server := connPair(t)
	server.SetFakeConditions(proto.FakeConditions{LagMs: 20, JitterMs: 80})
	const n = 300
	var sent sendTimes
	go func() {
		for i := uint32(1); i <= n; i++ {
			at, ok := sendSeq(t, client, i)
			if !ok {
				return
			}
			sent.set(i, at)
			if i%10 == 0 {
				time.Sleep(time.Millisecond)
			}
		}
	}()
	got := collect(t, server, n, 10*time.Second, nil)
	if len(got) != n {
		t.Fatalf("received %d of %d (jitter must not lose messages)", len(got), n)
	}
	maxD := time.Duration(0)
	for i, a := range got {
		if a.seq != uint32(i+1) {
			t.Fatalf("position %d holds message %d: jitter reordered messages", i+1, a.seq)
		}
		d := a.at.Sub(sent.get(a.seq))
		if d < 20*time.Millisecond {
			t.Errorf("message %d after %v, under the 20 ms lag", a.seq, d)
		}
		maxD = max(maxD, d)
	}
	// In order, no message waits more than lag + jitter (100 ms) behind
	// the one before; a busy machine may add a few hundred ms, piled-up
	// jitter (300 messages) far more.
	if maxD > 600*time.Millisecond {
		t.Errorf("max delay %v with lag 20 + jitter 80 ms", maxD)
	}
	if s := server.Stats(); s.DroppedIn != 0 {
		t.Errorf("%d messages dropped by the receive queue", s.DroppedIn)
	}
}

func TestFakeLossDropsAboutThatShare(t *testing.T) {
	client, server := connPair(t)
	server.SetFakeConditions(proto.FakeConditions{LossPct: 20})
	const n = 2000
	go func() {
		for i := uint32(1); i <= n; i++ {
			if _, ok := sendSeq(t, client, i); !ok {
				return
			}
			if i%32 == 0 { // a pace the receiver keeps up with on a slow machine
				time.Sleep(time.Millisecond)
			}
		}
	}()
	// Read until every frame has come off the wire and been either
	// delivered or dropped by net_fakeloss.
	var got []arrival
	deadline := time.Now().Add(20 * time.Second)
	for time.Now().Before(deadline) {
		got = append(got, collect(t, server, n, 20*time.Millisecond, nil)...)
		st := server.Stats()
		if st.PacketsIn == n && uint64(len(got))+server.FakeDropped()+st.DroppedIn >= n {
			break
		}
	}
	dropped := server.FakeDropped()
	if st := server.Stats(); st.PacketsIn != n || st.DroppedIn != 0 {
		t.Fatalf("stats %+v: want %d packets in, none dropped by the queue", st, n)
	}
	if uint64(len(got))+dropped != n {
		t.Fatalf("received %d + fake-dropped %d != sent %d", len(got), dropped, n)
	}
	pct := float64(dropped) / n * 100
	t.Logf("net_fakeloss 20: dropped %d of %d (%.1f%%)", dropped, n, pct)
	if pct < 15 || pct > 25 {
		t.Errorf("dropped %.1f%% with net_fakeloss 20", pct)
	}
	for i := 1; i < len(got); i++ {
		if got[i].seq <= got[i-1].seq {
			t.Fatalf("loss reordered messages: %d after %d", got[i].seq, got[i-1].seq)
		}
	}
}

func TestFakeConditionsClamp(t *testing.T) {
	nan := math.NaN()
	cases := []struct{ in, want proto.FakeConditions }{
		{proto.FakeConditions{}, proto.FakeConditions{}},
		{proto.FakeConditions{LagMs: 100, JitterMs: 20, LossPct: 5}, proto.FakeConditions{LagMs: 100, JitterMs: 20, LossPct: 5}},
		{proto.FakeConditions{LagMs: -5, JitterMs: -1, LossPct: -0.1}, proto.FakeConditions{}},
		{proto.FakeConditions{LagMs: 5000, JitterMs: 501, LossPct: 150}, proto.FakeConditions{LagMs: 1000, JitterMs: 500, LossPct: 100}},
		{proto.FakeConditions{LagMs: nan, JitterMs: nan, LossPct: nan}, proto.FakeConditions{}},
		{proto.FakeConditions{LagMs: math.Inf(1), JitterMs: math.Inf(-1), LossPct: math.Inf(1)}, proto.FakeConditions{LagMs: 1000, LossPct: 100}},
		{proto.FakeConditions{LagMs: 1000, JitterMs: 500, LossPct: 100}, proto.FakeConditions{LagMs: 1000, JitterMs: 500, LossPct: 100}},
	}
	for _, c := range cases {
		if got := c.in.Clamp(); got != c.want {
			t.Errorf("%+v.Clamp() = %+v, want %+v", c.in, got, c.want)
		}
	}
	client, _ := connPair(t)
	client.SetFakeConditions(proto.FakeConditions{LagMs: 1e9, JitterMs: -3, LossPct: nan})
	if got, want := client.FakeConditions(), (proto.FakeConditions{LagMs: 1000}); got != want {
		t.Errorf("SetFakeConditions stored %+v, want %+v", got, want)
	}
}
