//go:build !js

package server

import (
	"context"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"tickshot/net/portmap/portmaptest"
)

// TestRegisterAfterPortMap: a server with UPnP and a master registers
// only once its port mapping has an outcome, so the master never checks a
// port the router does not forward yet (and the host is never told to
// forward by hand a port the router is about to map).
func TestRegisterAfterPortMap(t *testing.T) {
	igd := portmaptest.NewIGD(t, "WANIPConnection:2", "203.0.113.7")
	withFakeRouter(t, igd)
	var mu sync.Mutex
	var mapped, registered time.Time
	fake := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		if registered.IsZero() {
			registered = time.Now()
		}
		mu.Unlock()
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write([]byte(`{"addr":"203.0.113.7:1","every_s":15}`))
	}))
	defer fake.Close()
	var log lockedBuffer
	srv, err := New(Config{Addr: ":0", UPnP: true, Masters: []string{fake.URL}, Logger: slog.New(slog.NewTextHandler(&log, nil)),
		PortMapped: func(string, string) {
			mu.Lock()
			mapped = time.Now()
			mu.Unlock()
		}})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- srv.Run(ctx) }()
	defer func() { cancel(); <-done }()
	deadline := time.Now().Add(10 * time.Second)
	for {
		mu.Lock()
		m, r := mapped, registered
		mu.Unlock()
		if !r.IsZero() {
			if m.IsZero() || r.Before(m) {
				t.Fatalf("registered at %v, before the port mapping's outcome (%v)", r, m)
			}
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("no register in 10 s (mapped %v); log:\n%s", m, log.String())
		}
		time.Sleep(10 * time.Millisecond)
	}
	if !strings.Contains(log.String(), "listed on the master server") {
		t.Errorf("no line saying the server is listed:\n%s", log.String())
	}
}
