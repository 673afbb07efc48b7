//go:build unix && !js

package main

import (
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"tickshot/client/netclient"
)

// TestServerUnderAgones runs the tickshot-server process as Agones would,
// with AGONES_SDK_HTTP_PORT naming a fake sidecar that records the calls
// (method, path, body): the --agones-* flags must give Ready, health
// pings, a joining and leaving player's connect and disconnect, and
// Shutdown at the first match end after the player left; SIGTERM then
// ends the server with status 0.
func TestServerUnderAgones(t *testing.T) {
	_, headless := binaries(t)
	var mu sync.Mutex
	var calls []string
	sc := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		mu.Lock()
		calls = append(calls, r.Method+" "+r.URL.Path+" "+string(b))
		mu.Unlock()
		io.WriteString(w, "{}")
	}))
	defer sc.Close()
	_, port, _ := net.SplitHostPort(sc.Listener.Addr().String())
	t.Setenv("AGONES_SDK_HTTP_PORT", port) // the child inherits it
	waitCall := func(want string) int {
		t.Helper()
		for end := time.Now().Add(15 * time.Second); time.Now().Before(end); time.Sleep(20 * time.Millisecond) {
			mu.Lock()
			for i, c := range calls {
				if c == want {
					mu.Unlock()
					return i
				}
			}
			mu.Unlock()
		}
		mu.Lock()
		defer mu.Unlock()
		t.Fatalf("no %q within 15 s; calls:\n%s", want, strings.Join(calls, "\n"))
		return -1
	}
	// A 3 s match (mp_timelimit 0.05 min): the player leaves before its end.
	addr, srv := startServerProcess(t, headless, "--bots", "1", "--maxplayers", "4", "--lan=false",
		"--cvar", "mp_timelimit=0.05", "--cvar", "sv_maxspectators=2",
		"--agones-player-tracking", "--agones-shutdown-when-empty", "--agones-health-interval", "100ms")
	ready := waitCall("POST /ready {}")
	c := connectRetry(t, addr, netclient.DefaultConfig("dana"))
	connect := waitCall(`POST /alpha/player/connect {"playerID":"dana"}`)
	c.Close("bye")
	disconnect := waitCall(`POST /alpha/player/disconnect {"playerID":"dana"}`)
	shutdown := waitCall("POST /shutdown {}")
	capacity := waitCall(`PUT /alpha/player/capacity {"count":"6"}`)
	health := waitCall("POST /health {}")
	// Health pings run beside the player calls from their own goroutine:
	// only the first is ordered, after Ready.
	if !(capacity < ready && ready < health && ready < connect && connect < disconnect && disconnect < shutdown) {
		mu.Lock()
		t.Errorf("want capacity, ready, then health pings, and connect, disconnect, shutdown in that order; calls:\n%s", strings.Join(calls, "\n"))
		mu.Unlock()
	}
	if err := srv.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- srv.Wait() }()
	select {
	case err := <-done:
		if err != nil {
			t.Errorf("server exit after SIGTERM: %v, want status 0", err)
		}
	case <-time.After(10 * time.Second):
		t.Errorf("server still running 10 s after SIGTERM")
	}
}

// TestAgonesFlagsRefused: a bad health interval is a command-line mistake
// (status 2); a bad AGONES_SDK_HTTP_PORT stops the server (status 1).
func TestAgonesFlagsRefused(t *testing.T) {
	_, headless := binaries(t)
	r := runBin(t, headless, nil, "server", "--agones-health-interval", "0s")
	if r.code != 2 || !strings.Contains(r.stderr, "--agones-health-interval") {
		t.Errorf("--agones-health-interval 0s: want status 2 naming the flag; got %s", r)
	}
	r = runBin(t, headless, []string{"AGONES_SDK_HTTP_PORT=x"}, "server", "--lan=false", "--addr", "127.0.0.1:"+strconv.Itoa(pickPort(t)))
	if r.code != 1 || !strings.Contains(r.stderr, "AGONES_SDK_HTTP_PORT") {
		t.Errorf("AGONES_SDK_HTTP_PORT=x: want status 1 naming the variable; got %s", r)
	}
}
