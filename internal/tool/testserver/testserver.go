// Package testserver starts real Tickshot servers and clients on loopback
// for tests, and stops them when the test ends.
package testserver

import (
	"bytes"
	"context"
	"io"
	"log/slog"
	"sync"
	"testing"
	"time"

	"tickshot/client/netclient"
	"tickshot/net/proto"
	"tickshot/net/transport"
	"tickshot/server"
)

// Start runs a server with cfg on 127.0.0.1 and a free port (an empty
// cfg.Addr; give ":0" for every interface; a nil cfg.Logger discards the
// log). It stops when the test ends, failing the test if it does not stop
// within 10 s or Run errs.
func Start(t testing.TB, cfg server.Config) *server.Server {
	t.Helper()
	if cfg.Addr == "" {
		cfg.Addr = "127.0.0.1:0"
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	srv, err := server.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	if err := srv.Listen(); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- srv.Run(ctx) }()
	t.Cleanup(func() {
		cancel()
		select {
		case err := <-done:
			if err != nil {
				t.Errorf("server Run: %v", err)
			}
		case <-time.After(10 * time.Second):
			t.Errorf("server did not stop within 10 s")
		}
	})
	return srv
}

// Connect joins a client to addr within 10 s; it is closed when the test ends.
func Connect(t testing.TB, addr string, cfg netclient.Config) *netclient.Client {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	c, err := netclient.Connect(ctx, netclient.Websocket, addr, cfg)
	if err != nil {
		t.Fatalf("connect: %v", err)
	}
	t.Cleanup(func() { c.Close("test over") })
	return c
}

// PipeDialer dials srv over an in-memory transport.Pipe instead of a
// socket: each dial hands one end to srv.ServeTransport and returns the
// other, whatever the address. Nothing touches the network, so tests that
// step the server themselves run fast and alike everywhere.
func PipeDialer(srv *server.Server) netclient.Dialer {
	return func(ctx context.Context, addr string) (transport.Transport, error) {
		c, s := transport.Pipe(proto.ClientOptions(), proto.ServerOptions())
		go srv.ServeTransport(s)
		return c, nil
	}
}

// LogBuf is a log or output sink that a server or child process may write
// while the test reads it (a bytes.Buffer behind a mutex).
type LogBuf struct {
	mu sync.Mutex
	b  bytes.Buffer
}

// Write implements io.Writer.
func (l *LogBuf) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

// String returns everything written so far.
func (l *LogBuf) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}
