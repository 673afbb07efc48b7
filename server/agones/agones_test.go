package agones_test

import (
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"tickshot/client/netclient"
	"tickshot/internal/tool/testserver"
	"tickshot/server"
	"tickshot/server/agones"
)

// call is one request the fake sidecar received.
type call struct {
	at           time.Time
	method, path string
	body         string
	status       int // what the sidecar answered
}

// sidecar stands in for Agones' SDK sidecar: it records every request and
// answers 200 with the bodies the REST gateway gives (sdk.swagger.json,
// alpha.swagger.json), or the status fail returns when it is not 0.
type sidecar struct {
	*httptest.Server
	mu    sync.Mutex
	calls []call
	fail  func(c call, nth int) int // nth: how many calls to c.path came before
}

func newSidecar(t *testing.T, fail func(c call, nth int) int) *sidecar {
	sc := &sidecar{fail: fail}
	sc.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		c := call{at: time.Now(), method: r.Method, path: r.URL.Path, body: string(b), status: http.StatusOK}
		sc.mu.Lock()
		nth := 0
		for _, o := range sc.calls {
			if o.path == c.path {
				nth++
			}
		}
		if sc.fail != nil {
			if st := sc.fail(c, nth); st != 0 {
				c.status = st
			}
		}
		sc.calls = append(sc.calls, c)
		sc.mu.Unlock()
		if c.status != http.StatusOK {
			http.Error(w, `{"error":"injected"}`, c.status)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		if strings.HasPrefix(c.path, "/alpha/player/") && c.path != "/alpha/player/capacity" {
			io.WriteString(w, `{"bool":true}`)
			return
		}
		io.WriteString(w, `{}`)
	}))
	t.Cleanup(sc.Close)
	return sc
}

func (sc *sidecar) snapshot() []call {
	sc.mu.Lock()
	defer sc.mu.Unlock()
	return append([]call(nil), sc.calls...)
}

// waitFor waits up to 10 s for a call to path whose body contains sub and
// that was answered 200, and returns its index in the record.
func (sc *sidecar) waitFor(t *testing.T, path, sub string) int {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for time.Now().Before(deadline) {
		for i, c := range sc.snapshot() {
			if c.path == path && strings.Contains(c.body, sub) && c.status == http.StatusOK {
				return i
			}
		}
		time.Sleep(10 * time.Millisecond)
	}
	t.Fatalf("no successful %s with %q within 10 s; calls: %v", path, sub, paths(sc.snapshot()))
	return -1
}

func paths(cs []call) []string {
	var out []string
	for _, c := range cs {
		out = append(out, c.method+" "+c.path+" "+c.body)
	}
	return out
}

// logBuf collects a server's log while the test reads it.
type logBuf = testserver.LogBuf

func logger(t *testing.T) (*slog.Logger, *logBuf) {
	lb := &logBuf{}
	t.Cleanup(func() {
		if t.Failed() {
			t.Logf("log:\n%s", lb.String())
		}
	})
	return slog.New(slog.NewTextHandler(lb, nil)), lb
}

// matchSpy passes the server's calls on to the SDK and counts match ends.
type matchSpy struct {
	*agones.SDK
	ends atomic.Int32
}

func (m *matchSpy) MatchEnded() { m.ends.Add(1); m.SDK.MatchEnded() }

// TestLifecycleOverWebsocket runs a real server whose SDK talks to a fake
// sidecar, joins and leaves with a real websocket client, ends the match,
// and checks what the sidecar received: capacity, Ready, then health pings
// at the interval, the player's connect and disconnect under its name, and
// Shutdown, in that order.
func TestLifecycleOverWebsocket(t *testing.T) {
	sc := newSidecar(t, nil)
	log, _ := logger(t)
	const interval = 100 * time.Millisecond
	sdk, err := agones.New(agones.Config{BaseURL: sc.URL, HealthInterval: interval, PlayerTracking: true,
		ShutdownWhenEmpty: true, Logger: log})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { sdk.Close(2 * time.Second) })
	spy := &matchSpy{SDK: sdk}
	// Capacity: 4 player slots and 2 spectator slots.
	srv := testserver.Start(t, server.Config{MaxPlayers: 4, Bots: 1, Lifecycle: spy, Logger: log,
		Cvars: [][2]string{{"sv_maxspectators", "2"}, {"mp_chattime", "5"}}}) // the waits below allow for 5 s of intermission

	ready := sc.waitFor(t, "/ready", "")
	// Health pings: count those inside a 1.5 s window well after Ready.
	time.Sleep(3 * interval)
	from := time.Now()
	time.Sleep(15 * interval)
	to := time.Now()
	n := 0
	for _, c := range sc.snapshot() {
		if c.path == "/health" && !c.at.Before(from) && c.at.Before(to) {
			n++
			if c.method != http.MethodPost || c.body != "{}" {
				t.Errorf("health ping %s %q, want POST {}", c.method, c.body)
			}
		}
	}
	if want := int(to.Sub(from) / interval); n < want/2 || n > want+want/2 {
		t.Errorf("%d health pings in %v, want about %d (one per %v)", n, to.Sub(from).Round(time.Millisecond), want, interval)
	}

	cl := testserver.Connect(t, srv.Addr(), netclient.DefaultConfig("alice"))
	connect := sc.waitFor(t, "/alpha/player/connect", `"playerID":"alice"`)
	// A spectator is a tracked player too, and keeps the server up.
	specCfg := netclient.DefaultConfig("eve")
	specCfg.Spectate = true
	spec := testserver.Connect(t, srv.Addr(), specCfg)
	sc.waitFor(t, "/alpha/player/connect", `"playerID":"eve"`)
	cl.Close("bye")
	disconnect := sc.waitFor(t, "/alpha/player/disconnect", `"playerID":"alice"`)
	// A match that ends with the spectator still there is not the last.
	srv.Exec("mp_timelimit 0.01") // 0.6 s, already past: the match ends now
	for deadline := time.Now().Add(10 * time.Second); spy.ends.Load() == 0; time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("no match end within 10 s of mp_timelimit 0.01")
		}
	}
	srv.Exec("mp_timelimit 10")
	spec.Close("bye")
	specLeft := sc.waitFor(t, "/alpha/player/disconnect", `"playerID":"eve"`)
	for _, c := range sc.snapshot() {
		if c.path == "/shutdown" {
			t.Fatalf("Shutdown while a spectator was connected: %v", paths(sc.snapshot()))
		}
	}
	// The next match (after the intermission) ends at once: the last one.
	ends := spy.ends.Load()
	srv.Exec("mp_timelimit 0.01")
	shutdown := sc.waitFor(t, "/shutdown", "")
	if spy.ends.Load() <= ends {
		t.Errorf("Shutdown without a match end")
	}

	calls := sc.snapshot()
	capacity := -1
	firstHealth := -1
	for i, c := range calls {
		if c.path == "/alpha/player/capacity" && capacity < 0 {
			capacity = i
			if c.method != http.MethodPut || c.body != `{"count":"6"}` {
				t.Errorf("capacity: %s %s, want PUT {\"count\":\"6\"} (maxplayers 4 + sv_maxspectators 2)", c.method, c.body)
			}
		}
		if c.path == "/health" && firstHealth < 0 {
			firstHealth = i
		}
		if c.path == "/ready" && (c.method != http.MethodPost || c.body != "{}") {
			t.Errorf("ready: %s %s, want POST {}", c.method, c.body)
		}
	}
	for _, i := range []int{connect, disconnect} {
		if c := calls[i]; c.method != http.MethodPost || c.body != `{"playerID":"alice"}` {
			t.Errorf("%s: %s %s, want POST {\"playerID\":\"alice\"}", c.path, c.method, c.body)
		}
	}
	if c := calls[shutdown]; c.method != http.MethodPost || c.body != "{}" {
		t.Errorf("shutdown: %s %s, want POST {}", c.method, c.body)
	}
	order := []int{capacity, ready, firstHealth, connect, disconnect, specLeft, shutdown}
	for i := 1; i < len(order); i++ {
		if order[i-1] < 0 || order[i-1] >= order[i] {
			t.Fatalf("want capacity, ready, health, connect, disconnect (alice, then eve), shutdown in that order; got indexes %v in %v", order, paths(calls))
		}
	}
	n = 0
	for _, c := range calls {
		if c.path == "/shutdown" || c.path == "/ready" {
			n++
		}
	}
	if n != 2 {
		t.Errorf("want one Ready and one Shutdown, got %v", paths(calls))
	}
}

// TestShutdownWhenEmptyRule drives the SDK directly: a match end with a
// player connected, or before anyone joined, does not shut the server
// down; the first match end after the last player left does, once; and
// without ShutdownWhenEmpty nothing ever does.
func TestShutdownWhenEmptyRule(t *testing.T) {
	for _, on := range []bool{true, false} {
		sc := newSidecar(t, nil)
		log, _ := logger(t)
		sdk, err := agones.New(agones.Config{BaseURL: sc.URL, ShutdownWhenEmpty: on, Logger: log})
		if err != nil {
			t.Fatal(err)
		}
		sdk.Ready(4)
		sdk.MatchEnded() // nobody ever joined: a fresh server stays in the pool
		sdk.PlayerConnected("a")
		sdk.PlayerConnected("b")
		sdk.MatchEnded() // two playing
		sdk.PlayerDisconnected("a")
		sdk.MatchEnded() // b still there
		sdk.PlayerDisconnected("b")
		sdk.MatchEnded() // empty: the last match is over
		sdk.MatchEnded()
		sdk.Close(5 * time.Second)
		shutdowns := 0
		for _, c := range sc.snapshot() {
			if strings.HasPrefix(c.path, "/alpha/") {
				t.Errorf("player tracking off, yet %s %s", c.method, c.path)
			}
			if c.path == "/shutdown" {
				shutdowns++
			}
		}
		want := 0
		if on {
			want = 1
		}
		if shutdowns != want {
			t.Errorf("ShutdownWhenEmpty %v: %d Shutdown calls, want %d; calls %v", on, shutdowns, want, paths(sc.snapshot()))
		}
	}
}

// TestSidecarFailuresDoNotStopTheGame: a sidecar that answers 500 (to the
// first Ready calls and to every health ping) or refuses connections
// leaves the game running: players join, Ready is retried until it
// succeeds, and each kind of failure is logged once.
func TestSidecarFailuresDoNotStopTheGame(t *testing.T) {
	t.Run("500", func(t *testing.T) {
		sc := newSidecar(t, func(c call, nth int) int {
			if (c.path == "/ready" && nth < 3) || c.path == "/health" || c.path == "/alpha/player/connect" {
				return http.StatusInternalServerError
			}
			return 0
		})
		log, lb := logger(t)
		sdk, err := agones.New(agones.Config{BaseURL: sc.URL, HealthInterval: 50 * time.Millisecond,
			PlayerTracking: true, Capacity: 4, Logger: log})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { sdk.Close(time.Second) })
		srv := testserver.Start(t, server.Config{MaxPlayers: 4, Lifecycle: sdk, Logger: log})
		sc.waitFor(t, "/ready", "") // the 4th attempt, after 0.25 + 0.5 + 1 s of backoff
		testserver.Connect(t, srv.Addr(), netclient.DefaultConfig("bob"))
		if st := srv.CurrentStatus(); st.Tick == 0 {
			t.Errorf("server not ticking")
		}
		deadline := time.Now().Add(10 * time.Second)
		for {
			ok, failed := sdk.Counts("/alpha/player/connect")
			if ok == 0 && failed == 3 {
				break // tried 3 times, then given up
			}
			if time.Now().After(deadline) {
				t.Fatalf("player connect: %d ok, %d failed; want 0 and 3", ok, failed)
			}
			time.Sleep(20 * time.Millisecond)
		}
		if _, failed := sdk.Counts("/health"); failed < 3 {
			t.Errorf("%d failed health pings, want several", failed)
		}
		logs := lb.String()
		if n := strings.Count(logs, "path=/health"); n != 1 {
			t.Errorf("health failures logged %d times, want once:\n%s", n, logs)
		}
		if n := strings.Count(logs, "sidecar call failed") - strings.Count(logs, "path=/health"); n != 2 {
			t.Errorf("want one failure line for /ready and one for /alpha/player/connect, got %d:\n%s", n, logs)
		}
	})
	t.Run("refused", func(t *testing.T) {
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		url := "http://" + ln.Addr().String()
		ln.Close() // nothing listens there now: connections are refused
		log, lb := logger(t)
		sdk, err := agones.New(agones.Config{BaseURL: url, HealthInterval: 50 * time.Millisecond,
			PlayerTracking: true, Capacity: 4, ShutdownWhenEmpty: true, Logger: log})
		if err != nil {
			t.Fatal(err)
		}
		srv := testserver.Start(t, server.Config{MaxPlayers: 4, Lifecycle: sdk, Logger: log})
		cl := testserver.Connect(t, srv.Addr(), netclient.DefaultConfig("carol"))
		cl.Close("bye")
		time.Sleep(500 * time.Millisecond)
		if _, failed := sdk.Counts("/ready"); failed < 2 {
			t.Errorf("Ready tried %d times against a refusing sidecar, want retries", failed)
		}
		if n := strings.Count(lb.String(), "path=/health"); n != 1 {
			t.Errorf("refused health pings logged %d times, want once", n)
		}
		start := time.Now()
		sdk.Close(200 * time.Millisecond)
		if d := time.Since(start); d > 3*time.Second {
			t.Errorf("Close took %v with Ready still being retried", d)
		}
	})
}

// TestURLFromEnv reads AGONES_SDK_HTTP_PORT.
func TestURLFromEnv(t *testing.T) {
	t.Setenv(agones.EnvHTTPPort, "9358")
	if u, ok, err := agones.URLFromEnv(); u != "http://localhost:9358" || !ok || err != nil {
		t.Errorf("9358: %q %v %v", u, ok, err)
	}
	t.Setenv(agones.EnvHTTPPort, "")
	if _, ok, err := agones.URLFromEnv(); ok || err != nil {
		t.Errorf("unset: %v %v", ok, err)
	}
	for _, bad := range []string{"x", "0", "70000", "-1"} {
		t.Setenv(agones.EnvHTTPPort, bad)
		if _, ok, err := agones.URLFromEnv(); ok || err == nil {
			t.Errorf("%q: want an error", bad)
		}
	}
}

// TestHealthPingsFollowTheTick: with Config.Healthy from TickAdvancing,
// health pings stop once the watched tick stands still (a hung tick loop,
// whose /status still answers) and resume when it moves again; without it
// the pings came from their own goroutine and said Healthy for ever.
func TestHealthPingsFollowTheTick(t *testing.T) {
	sc := newSidecar(t, nil)
	log, lb := logger(t)
	var tick atomic.Uint32
	var frozen atomic.Bool
	stopTicks := make(chan struct{})
	ticked := make(chan struct{})
	go func() {
		defer close(ticked)
		for {
			select {
			case <-stopTicks:
				return
			case <-time.After(5 * time.Millisecond):
				if !frozen.Load() {
					tick.Add(1)
				}
			}
		}
	}()
	defer func() { close(stopTicks); <-ticked }()
	sdk, err := agones.New(agones.Config{BaseURL: sc.URL, HealthInterval: 20 * time.Millisecond, Logger: log,
		Healthy: agones.TickAdvancing(tick.Load, 200*time.Millisecond)})
	if err != nil {
		t.Fatal(err)
	}
	defer sdk.Close(time.Second)
	sdk.Ready(4)
	healthOK := func() int { ok, _ := sdk.Counts("/health"); return ok }
	deadline := time.Now().Add(5 * time.Second)
	for healthOK() < 3 {
		if time.Now().After(deadline) {
			t.Fatalf("%d health pings while the tick advanced, want 3 or more", healthOK())
		}
		time.Sleep(10 * time.Millisecond)
	}
	frozen.Store(true)
	time.Sleep(400 * time.Millisecond) // past the 200 ms stall
	before := healthOK()
	time.Sleep(300 * time.Millisecond)
	if after := healthOK(); after != before {
		t.Errorf("%d health pings while the tick stood still, want none", after-before)
	}
	if !strings.Contains(lb.String(), "health pings withheld") {
		t.Errorf("withheld pings not logged:\n%s", lb.String())
	}
	frozen.Store(false)
	deadline = time.Now().Add(5 * time.Second)
	for healthOK() == before {
		if time.Now().After(deadline) {
			t.Fatalf("no health ping once the tick advanced again")
		}
		time.Sleep(10 * time.Millisecond)
	}
}
