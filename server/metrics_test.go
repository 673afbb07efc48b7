package server_test

import (
	"fmt"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gorilla/websocket"
	dto "github.com/prometheus/client_model/go"
	"github.com/prometheus/common/expfmt"
	"github.com/prometheus/common/model"

	"tickshot/net/proto"
	"tickshot/server"
)

// scrape is one parsed GET /metrics.
type scrape map[string]*dto.MetricFamily

func getMetrics(addr string) (scrape, error) {
	cl := http.Client{Timeout: 2 * time.Second}
	resp, err := cl.Get("http://" + addr + "/metrics")
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("/metrics: %s", resp.Status)
	}
	p := expfmt.NewTextParser(model.UTF8Validation)
	return p.TextToMetricFamilies(resp.Body)
}

func mustMetrics(t *testing.T, addr string) scrape {
	t.Helper()
	m, err := getMetrics(addr)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// value is the value of the series of family name with the given label
// pairs (name, value, ...); ok is false when there is none.
func (s scrape) value(name string, labels ...string) (float64, bool) {
	f := s[name]
	if f == nil {
		return 0, false
	}
next:
	for _, m := range f.Metric {
		for i := 0; i+1 < len(labels); i += 2 {
			found := false
			for _, lp := range m.Label {
				if lp.GetName() == labels[i] && lp.GetValue() == labels[i+1] {
					found = true
				}
			}
			if !found {
				continue next
			}
		}
		switch {
		case m.Counter != nil:
			return m.Counter.GetValue(), true
		case m.Gauge != nil:
			return m.Gauge.GetValue(), true
		case m.Untyped != nil:
			return m.Untyped.GetValue(), true
		case m.Histogram != nil:
			return float64(m.Histogram.GetSampleCount()), true
		}
	}
	return 0, false
}

func (s scrape) must(t *testing.T, name string, labels ...string) float64 {
	t.Helper()
	v, ok := s.value(name, labels...)
	if !ok {
		t.Fatalf("/metrics has no %s%v", name, labels)
	}
	return v
}

// traffic is the four traffic counters as /metrics gives them.
func (s scrape) traffic(t *testing.T) server.TrafficStatus {
	t.Helper()
	return server.TrafficStatus{
		BytesIn: uint64(s.must(t, "tickshot_network_bytes_total", "direction", "in")), BytesOut: uint64(s.must(t, "tickshot_network_bytes_total", "direction", "out")),
		PacketsIn: uint64(s.must(t, "tickshot_network_packets_total", "direction", "in")), PacketsOut: uint64(s.must(t, "tickshot_network_packets_total", "direction", "out")),
	}
}

// stableTraffic waits until /status's traffic stays the same over 300 ms
// (every connection released) and returns it.
func stableTraffic(t *testing.T, addr string) server.TrafficStatus {
	t.Helper()
	var last server.TrafficStatus
	var got bool
	waitFor(t, 10*time.Second, "traffic to settle", func() bool {
		st, err := getStatus(addr)
		if err != nil {
			return false
		}
		if got && st.Traffic == last {
			return true
		}
		last, got = st.Traffic, true
		time.Sleep(300 * time.Millisecond)
		return false
	})
	return last
}

// sink reads a raw connection to its end in the background, counting the
// binary frames and their bytes, and remembering the last one.
type sink struct {
	mu     sync.Mutex
	frames int
	bytes  int
	last   []byte
	done   chan struct{}
}

func drain(r *raw) *sink {
	s := &sink{done: make(chan struct{})}
	go func() {
		defer close(s.done)
		_ = r.ws.SetReadDeadline(time.Now().Add(15 * time.Second))
		for {
			kind, data, err := r.ws.ReadMessage()
			if err != nil {
				return
			}
			if kind == websocket.BinaryMessage {
				s.mu.Lock()
				s.frames++
				s.bytes += len(data)
				s.last = data
				s.mu.Unlock()
			}
		}
	}()
	return s
}

// TestMetricsAfterScriptedSession: after a scripted session on a real
// server over loopback websockets, GET /metrics parses with the Prometheus
// text parser and says what happened: players by kind (2 humans, 2 bots,
// 1 spectator), one kick by the operator (rcon kick) counted as reason
// "admin" whatever message it gave, one refused join (protocol version),
// decode errors before and after the Hello, one match played; the traffic equals /status's, and a
// connection's share of it equals, byte for byte, what that client sent
// and received.
func TestMetricsAfterScriptedSession(t *testing.T) {
	const pw = "metrics-rcon"
	srv, addr := startServer(t, server.Config{Bots: 2, MaxPlayers: 8, RconPassword: pw,
		Cvars: [][2]string{{"mp_fraglimit", "0"}}})

	m := mustMetrics(t, addr)
	for _, name := range []string{"go_goroutines", "process_resident_memory_bytes", "tickshot_tick_duration_seconds"} {
		if _, ok := m[name]; !ok {
			t.Errorf("/metrics has no %s", name)
		}
	}
	if m["tickshot_tick_duration_seconds"].GetType() != dto.MetricType_HISTOGRAM {
		t.Errorf("tickshot_tick_duration_seconds is a %v, want a histogram", m["tickshot_tick_duration_seconds"].GetType())
	}

	victim := startGoodClient(t, addr, "victim")
	admin := dialRaw(t, addr)
	admin.join("admin")
	spec := dialRaw(t, addr)
	spec.mustSend(proto.MustEncode(&proto.Hello{Protocol: proto.ProtocolVersion, Name: "watcher", Rate: 100000,
		UpdateRate: 20, CmdRate: 64, InterpMs: 100, InterpRatio: 2, Spectate: true}))
	specIn := drain(spec)
	old := dialRaw(t, addr)
	old.mustSend(helloFrame("old", proto.ProtocolVersion+1))
	if end := old.readEnd(5 * time.Second); !end.mentions("protocol version") {
		t.Fatalf("old client not refused for its version: %v", end)
	}
	garbage := dialRaw(t, addr)
	garbage.mustSend([]byte{0xc1}) // never a valid msgpack byte
	if end := garbage.readEnd(5 * time.Second); !end.closed {
		t.Fatalf("garbage not refused: %v", end)
	}

	players := func(m scrape) [3]float64 {
		return [3]float64{m.must(t, "tickshot_players", "kind", "human"), m.must(t, "tickshot_players", "kind", "bot"),
			m.must(t, "tickshot_players", "kind", "spectator")}
	}
	waitFor(t, 5*time.Second, "2 humans, 2 bots, 1 spectator in /metrics", func() bool {
		return players(mustMetrics(t, addr)) == [3]float64{2, 2, 1}
	})
	waitFor(t, 5*time.Second, "the victim to receive snapshots", func() bool { return victim.snaps.Load() > 10 })

	// The operator kicks the victim over rcon by its id (from rcon
	// status), with a message that reads like another reason and like
	// label syntax: the label says "admin", and no series is added.
	victimID := ""
	admin.mustSend(proto.MustEncode(&proto.Command{Text: "rcon status", Password: pw}))
	text, ok := admin.readPrint(3 * time.Second)
	for _, line := range strings.Split(text, "\n") {
		if f := strings.Fields(line); len(f) > 1 && f[1] == "victim" {
			victimID = f[0]
		}
	}
	if !ok || victimID == "" {
		t.Fatalf("rcon status answered %q, %v: no victim", text, ok)
	}
	admin.mustSend(proto.MustEncode(&proto.Command{Text: "rcon kickid " + victimID + ` timed out",reason="x`, Password: pw}))
	if text, ok := admin.readPrint(3 * time.Second); !ok || !strings.HasPrefix(text, "kicked victim") {
		t.Fatalf("rcon kickid answered %q, %v", text, ok)
	}
	waitFor(t, 5*time.Second, "the victim to be disconnected", func() bool {
		victim.mu.Lock()
		defer victim.mu.Unlock()
		return victim.err != nil
	})
	if victim.err == nil || !strings.Contains(victim.err.Error(), `kicked: timed out",reason="x`) {
		t.Errorf("victim ended with %v, want the operator's message", victim.err)
	}

	// One match: mp_timelimit 0.01 min ends the running one at once; 0
	// keeps the next one from ending.
	admin.mustSend(proto.MustEncode(&proto.Command{Text: "rcon mp_timelimit 0.01", Password: pw}))
	waitFor(t, 5*time.Second, "a match to end", func() bool {
		v, _ := mustMetrics(t, addr).value("tickshot_matches_total")
		return v >= 1
	})
	admin.mustSend(proto.MustEncode(&proto.Command{Text: "rcon mp_timelimit 0", Password: pw}))
	waitFor(t, 5*time.Second, "1 human, 2 bots, 1 spectator in /metrics", func() bool {
		return players(mustMetrics(t, addr)) == [3]float64{1, 2, 1}
	})

	m = mustMetrics(t, addr)
	want := map[string]float64{server.KickAdmin: 1}
	for _, r := range server.KickReasons {
		if got := m.must(t, "tickshot_kicks_total", "reason", r); got != want[r] {
			t.Errorf("tickshot_kicks_total{reason=%q} = %v, want %v", r, got, want[r])
		}
	}
	if n := len(m["tickshot_kicks_total"].Metric); n != len(server.KickReasons) {
		t.Errorf("tickshot_kicks_total has %d series, want %d", n, len(server.KickReasons))
	}
	want = map[string]float64{server.RefuseProtocolVersion: 1}
	for _, r := range server.RefuseReasons {
		if got := m.must(t, "tickshot_connections_refused_total", "reason", r); got != want[r] {
			t.Errorf("tickshot_connections_refused_total{reason=%q} = %v, want %v", r, got, want[r])
		}
	}
	for name, want := range map[string]float64{"tickshot_decode_errors_total": 1, "tickshot_matches_total": 1, "tickshot_max_players": 8} {
		if got := m.must(t, name); got != want {
			t.Errorf("%s = %v, want %v", name, got, want)
		}
	}
	if v := m.must(t, "tickshot_tick_duration_seconds"); v < m.must(t, "tickshot_ticks_total") {
		t.Errorf("tick duration histogram has %v samples, fewer than ticks_total %v", v, m.must(t, "tickshot_ticks_total"))
	}
	if tr := m.traffic(t); tr.BytesOut == 0 || tr.PacketsOut == 0 || tr.BytesIn == 0 || tr.PacketsIn == 0 {
		t.Errorf("traffic %+v, want every counter above 0", tr)
	}
	specIn.mu.Lock()
	specBytes := specIn.bytes
	specIn.mu.Unlock()
	if out := m.must(t, "tickshot_network_bytes_total", "direction", "out"); out < float64(specBytes) {
		t.Errorf("bytes out %v, less than the spectator alone received (%d)", out, specBytes)
	}
	if m.must(t, "tickshot_snapshots_total", "kind", "delta") == 0 {
		t.Error("no delta snapshots counted")
	}

	// Everyone leaves, the admin by sending a frame that does not decode
	// (a decode error, not a kick); then /metrics and /status agree
	// exactly.
	admin.mustSend([]byte{0xc1})
	spec.ws.Close()
	waitFor(t, 5*time.Second, "only the bots left", func() bool {
		return players(mustMetrics(t, addr)) == [3]float64{0, 2, 0}
	})
	m = mustMetrics(t, addr)
	if v := m.must(t, "tickshot_decode_errors_total"); v != 2 {
		t.Errorf("tickshot_decode_errors_total = %v after a joined client's bad frame, want 2", v)
	}
	if v := m.must(t, "tickshot_kicks_total", "reason", server.KickProtocolError); v != 0 {
		t.Errorf("a decode error counted as a kick: tickshot_kicks_total{reason=protocol_error} = %v", v)
	}
	before := stableTraffic(t, addr)
	if got := mustMetrics(t, addr).traffic(t); got != before {
		t.Fatalf("/metrics traffic %+v, /status says %+v", got, before)
	}

	// One more client, which sends its Hello only and reads everything
	// until the operator kicks it by name: the traffic grows by exactly
	// what it sent and received, the kick's Disconnect included.
	exact := dialRaw(t, addr)
	hello := helloFrame("exact", proto.ProtocolVersion)
	exact.mustSend(hello)
	got := drain(exact)
	waitFor(t, 5*time.Second, "exact to receive snapshots", func() bool {
		got.mu.Lock()
		defer got.mu.Unlock()
		return got.frames > 20
	})
	if out := srv.Exec("kick exact"); !strings.HasPrefix(out, "kicked exact") {
		t.Fatalf("kick exact: %q", out)
	}
	<-got.done
	after := stableTraffic(t, addr)
	if m := mustMetrics(t, addr).traffic(t); m != after {
		t.Fatalf("/metrics traffic %+v, /status says %+v", m, after)
	}
	last, err := proto.Decode(got.last)
	if d, ok := last.(*proto.Disconnect); err != nil || !ok || !strings.Contains(d.Reason, server.KickAdminReason) {
		t.Fatalf("exact's last frame %v (%v), want the kick's Disconnect", last, err)
	}
	wantDelta := server.TrafficStatus{BytesIn: uint64(len(hello)), PacketsIn: 1,
		BytesOut: uint64(got.bytes), PacketsOut: uint64(got.frames)}
	delta := server.TrafficStatus{BytesIn: after.BytesIn - before.BytesIn, BytesOut: after.BytesOut - before.BytesOut,
		PacketsIn: after.PacketsIn - before.PacketsIn, PacketsOut: after.PacketsOut - before.PacketsOut}
	if delta != wantDelta {
		t.Errorf("traffic grew by %+v, the client sent and received %+v", delta, wantDelta)
	}
	if v := mustMetrics(t, addr).must(t, "tickshot_kicks_total", "reason", server.KickAdmin); v != 2 {
		t.Errorf("tickshot_kicks_total{reason=admin} = %v after the second kick, want 2", v)
	}
}
