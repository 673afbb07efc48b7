package server_test

import (
	"bufio"
	"fmt"
	"io"
	"net"
	"net/http"
	"testing"
	"time"

	"tickshot/server"
)

// keepAlive opens a TCP connection to addr and makes one keep-alive GET
// /status on it, reading the whole answer; the connection stays open. An
// answer other than 200 that keeps the connection is an error.
func keepAlive(t *testing.T, addr string) (net.Conn, error) {
	t.Helper()
	c, err := net.DialTimeout("tcp", addr, 2*time.Second)
	if err != nil {
		return nil, err
	}
	t.Cleanup(func() { c.Close() })
	_ = c.SetDeadline(time.Now().Add(3 * time.Second))
	if _, err := io.WriteString(c, "GET /status HTTP/1.1\r\nHost: test\r\n\r\n"); err != nil {
		return c, err
	}
	resp, err := http.ReadResponse(bufio.NewReader(c), nil)
	if err != nil {
		return c, err
	}
	defer resp.Body.Close()
	if _, err := io.Copy(io.Discard, resp.Body); err != nil {
		return c, err
	}
	if resp.StatusCode != http.StatusOK || resp.Close {
		// Close: a spare connection over MaxConns (HealthReserveConns).
		return c, fmt.Errorf("/status: %s, close %v", resp.Status, resp.Close)
	}
	return c, nil
}

// closedWithin reports whether the server closes c (EOF or reset, nothing
// more to read) within d, and when.
func closedWithin(c net.Conn, d time.Duration) (bool, time.Duration) {
	start := time.Now()
	_ = c.SetReadDeadline(start.Add(d))
	buf := make([]byte, 512)
	for {
		_, err := c.Read(buf)
		if err != nil {
			if ne, ok := err.(net.Error); ok && ne.Timeout() {
				return false, time.Since(start)
			}
			return true, time.Since(start)
		}
	}
}

// TestHTTPIdleConnectionsClosed: keep-alive connections left idle after a
// /status request are closed by the server after HTTPIdleTimeout, a client
// that sends half a request header is dropped after HTTPReadHeaderTimeout,
// and a player's websocket outlives both and the read/write timeouts.
func TestHTTPIdleConnectionsClosed(t *testing.T) {
	const idle, header = 400 * time.Millisecond, 300 * time.Millisecond
	_, addr := startServer(t, server.Config{HTTPIdleTimeout: idle, HTTPReadHeaderTimeout: header,
		HTTPReadTimeout: 300 * time.Millisecond, HTTPWriteTimeout: 300 * time.Millisecond})
	good := startGoodClient(t, addr, "player")

	const n = 8
	conns := make([]net.Conn, n)
	for i := range conns {
		c, err := keepAlive(t, addr)
		if err != nil {
			t.Fatalf("keep-alive connection %d: %v", i, err)
		}
		conns[i] = c
	}
	for i, c := range conns {
		if closed, after := closedWithin(c, 3*time.Second); !closed {
			t.Errorf("idle keep-alive connection %d still open after %v (HTTPIdleTimeout %v)", i, after, idle)
		}
	}

	half, err := net.DialTimeout("tcp", addr, 2*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	defer half.Close()
	if _, err := io.WriteString(half, "GET /status HTTP/1.1\r\nHost: test\r\n"); err != nil {
		t.Fatal(err)
	}
	if closed, after := closedWithin(half, 3*time.Second); !closed {
		t.Errorf("half-sent header still open after %v (HTTPReadHeaderTimeout %v)", after, header)
	}

	good.healthy(t, time.Second) // the websocket has no HTTP deadline
}

// getOnce opens a connection to addr, GETs path on it and reads the
// whole answer.
func getOnce(addr, path string) (*http.Response, error) {
	c, err := net.DialTimeout("tcp", addr, 2*time.Second)
	if err != nil {
		return nil, err
	}
	defer c.Close()
	_ = c.SetDeadline(time.Now().Add(3 * time.Second))
	if _, err := io.WriteString(c, "GET "+path+" HTTP/1.1\r\nHost: test\r\n\r\n"); err != nil {
		return nil, err
	}
	resp, err := http.ReadResponse(bufio.NewReader(c), nil)
	if err != nil {
		return nil, err
	}
	_, err = io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	return resp, err
}

// TestMaxConns: with MaxConns 4, while four connections are held, a fifth
// is served the health endpoints only (one of HealthReserveConns spare
// connections: /status is answered and the connection closed; a page is
// answered 503 and counted as refused), a connection beyond the spare ones
// is closed at once, and the cap's slot is served again when one of the
// four closes.
func TestMaxConns(t *testing.T) {
	const max = 4
	_, addr := startServer(t, server.Config{MaxConns: max, HTTPIdleTimeout: time.Minute})
	// startServer's status polls may leave pooled keep-alive connections.
	http.DefaultTransport.(*http.Transport).CloseIdleConnections()

	var held []net.Conn
	waitFor(t, 3*time.Second, "4 keep-alive connections held", func() bool {
		c, err := keepAlive(t, addr)
		if err != nil {
			return false // a slot not yet given back by a pooled connection
		}
		held = append(held, c)
		return len(held) == max
	})
	for _, path := range []string{"/status", "/metrics"} {
		resp, err := getOnce(addr, path)
		if err != nil || resp.StatusCode != http.StatusOK || !resp.Close {
			t.Fatalf("%s on a spare connection: %v, %v: want 200 OK and the connection closed", path, resp, err)
		}
	}
	resp, err := getOnce(addr, "/")
	if err != nil || resp.StatusCode != http.StatusServiceUnavailable || resp.Header.Get("Retry-After") == "" || !resp.Close {
		t.Fatalf("the page on a spare connection: %v, %v: want 503 with Retry-After, and the connection closed", resp, err)
	}
	// Every spare connection taken (by connections that send nothing):
	// one more is closed on accept (connections are accepted in order).
	for i := 0; i < server.HealthReserveConns; i++ {
		c, err := net.DialTimeout("tcp", addr, 2*time.Second)
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
		held = append(held, c)
	}
	if _, err := keepAlive(t, addr); err == nil {
		t.Fatalf("connection %d served with MaxConns %d and %d spare", len(held)+1, max, server.HealthReserveConns)
	}
	for _, c := range held[max:] {
		c.Close()
	}
	held = held[:max]
	held[0].Close()
	waitFor(t, 3*time.Second, "a slot given back", func() bool {
		_, err := keepAlive(t, addr)
		return err == nil
	})
	// The refusal is counted in /metrics (a slot is needed to read it).
	for _, c := range held {
		c.Close()
	}
	var refused float64
	waitFor(t, 3*time.Second, "/metrics", func() bool {
		m, err := getMetrics(addr)
		if err == nil {
			refused, _ = m.value("tickshot_connections_refused_total", "reason", server.RefuseConnLimit)
		}
		return err == nil
	})
	if refused < 1 {
		t.Errorf("tickshot_connections_refused_total{reason=conn_limit} = %v after a connection over MaxConns", refused)
	}
}
