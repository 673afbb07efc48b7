//go:build !js

package main

import (
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"tickshot/internal/tool/testserver"
	"tickshot/server"
)

// TestCLIHealthcheck runs tickshot-server healthcheck, as a container's
// HEALTHCHECK does, against a real server (healthy, status 0) and against
// what must count as unhealthy (status 1): an HTTP error, a body that is
// not a Tickshot status, a closed port, a server that never answers.
// Mistakes on its command line exit 2.
func TestCLIHealthcheck(t *testing.T) {
	_, headless := binaries(t)

	srv := testserver.Start(t, server.Config{TickRate: 64, MaxPlayers: 4, Bots: 2, Map: "arena", Hostname: "probe me"})
	res := runBin(t, headless, nil, "healthcheck", "--url", "http://"+srv.Addr()+"/status")
	if res.code != 0 || !strings.Contains(res.stdout, `healthy: "probe me" on arena`) || !strings.Contains(res.stdout, "64 ticks/s") {
		t.Errorf("a running server: want status 0 and a healthy line naming it, got %s", res)
	}

	failing := map[string]http.HandlerFunc{
		"HTTP 503": func(w http.ResponseWriter, r *http.Request) {
			http.Error(w, "overloaded", http.StatusServiceUnavailable)
		},
		"not JSON": func(w http.ResponseWriter, r *http.Request) { w.Write([]byte("<html>hello</html>")) },
		"no map":   func(w http.ResponseWriter, r *http.Request) { w.Write([]byte(`{"name":"x","tickrate":64}`)) },
	}
	for name, h := range failing {
		hs := httptest.NewServer(h)
		res := runBin(t, headless, nil, "healthcheck", "--url", hs.URL+"/status")
		hs.Close()
		if res.code != 1 || !strings.Contains(res.stderr, "unhealthy") {
			t.Errorf("%s: want status 1 and \"unhealthy\", got %s", name, res)
		}
	}

	// A hung tick loop still serves its last status: the tick must advance.
	frozen := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Write([]byte(`{"name":"x","map":"arena","tickrate":64,"tick":4242}`))
	}))
	res = runBin(t, headless, nil, "healthcheck", "--url", frozen.URL+"/status")
	frozen.Close()
	if res.code != 1 || !strings.Contains(res.stderr, "stalled: tick 4242 did not advance") {
		t.Errorf("frozen tick: want status 1 and \"stalled\", got %s", res)
	}
	if res := runBin(t, headless, nil, "healthcheck", "--stall", "0", "--url", "http://"+srv.Addr()+"/status"); res.code != 0 {
		t.Errorf("--stall 0 (one read) on a running server: want status 0, got %s", res)
	}

	// A port nobody listens on: refused at once.
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	closed := ln.Addr().String()
	ln.Close()
	if res := runBin(t, headless, nil, "healthcheck", "--url", "http://"+closed+"/status"); res.code != 1 || !strings.Contains(res.stderr, "refused") {
		t.Errorf("closed port: want status 1 and \"refused\", got %s", res)
	}

	// A server that accepts and never answers: the timeout ends the check.
	hang, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer hang.Close()
	go func() {
		var held []net.Conn
		for {
			c, err := hang.Accept()
			if err != nil {
				for _, c := range held {
					c.Close()
				}
				return
			}
			held = append(held, c)
		}
	}()
	if res := runBin(t, headless, nil, "healthcheck", "--timeout", "300ms", "--url", "http://"+hang.Addr().String()+"/status"); res.code != 1 || !strings.Contains(res.stderr, "deadline exceeded") {
		t.Errorf("silent server: want status 1 and \"deadline exceeded\", got %s", res)
	}

	for _, args := range [][]string{{"--url", "ftp://127.0.0.1/status"}, {"--url", "127.0.0.1:27015"}, {"--timeout", "0s"}, {"--stall", "100ms"}, {"extra"}} {
		res := runBin(t, headless, nil, append([]string{"healthcheck"}, args...)...)
		if res.code != 2 || res.stderr == "" {
			t.Errorf("healthcheck %v: want status 2 and the mistake named, got %s", args, res)
		}
	}
	if res := runBin(t, headless, nil, "healthcheck", "--help"); res.code != 0 || !strings.Contains(res.stderr, "Usage: tickshot healthcheck") || !strings.Contains(res.stderr, "-url") {
		t.Errorf("healthcheck --help: want the usage and flags, status 0; got %s", res)
	}
}
