//go:build !js

package server

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"context"
	"fmt"
	"io"
	"log/slog"
	"math/rand"
	"net"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"tickshot/assets/web"
)

// syntheticWasm makes the embedded browser client a synthetic one of the
// real one's size (4 MB, random bytes, so gzip cannot shrink it) for the
// test: the wasm is not built in tests (make wasm), and its downloads go
// through the same handlers (web.Client, the server's gate).
func syntheticWasm(t *testing.T, size int) {
	t.Helper()
	raw := make([]byte, size)
	rand.New(rand.NewSource(1)).Read(raw)
	var gz bytes.Buffer
	zw, _ := gzip.NewWriterLevel(&gz, gzip.NoCompression)
	_, _ = zw.Write(raw)
	_ = zw.Close()
	c := web.New(gz.Bytes(), []byte("// wasm_exec.js"))
	old := webClient
	webClient = func() *web.Client { return c }
	t.Cleanup(func() { webClient = old })
}

// runServer starts a server on a free loopback port until the test ends.
func runServer(t *testing.T, cfg Config) *Server {
	t.Helper()
	cfg.Addr = "127.0.0.1:0"
	cfg.Logger = slog.New(slog.NewTextHandler(io.Discard, nil))
	s, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Listen(); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- s.Run(ctx) }()
	t.Cleanup(func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("Run: %v", err)
		}
	})
	return s
}

// askWasm sends a request for the wasm on c.
func askWasm(c net.Conn) error {
	_, err := io.WriteString(c, "GET "+web.WasmPath+" HTTP/1.1\r\nHost: test\r\nAccept-Encoding: gzip\r\n\r\n")
	return err
}

// startDownload opens a connection with a small receive buffer and asks
// for the wasm; the caller reads the answer.
func startDownload(addr string) (net.Conn, error) {
	c, err := net.DialTimeout("tcp", addr, 10*time.Second)
	if err != nil {
		return nil, err
	}
	_ = c.(*net.TCPConn).SetReadBuffer(8 << 10)
	return c, askWasm(c)
}

// statusLatency GETs /status on a new connection, as a health check or a
// master server's reachability check does, and returns how long the whole
// answer took.
func statusLatency(addr string) (time.Duration, error) {
	return getLatency("http://" + addr + "/status")
}

// getLatency GETs url on a new connection and returns how long the whole
// answer took; an answer other than 200 is an error.
func getLatency(url string) (time.Duration, error) {
	cl := &http.Client{Timeout: 10 * time.Second, Transport: &http.Transport{DisableKeepAlives: true, Proxy: nil}}
	t0 := time.Now()
	resp, err := cl.Get(url)
	if err != nil {
		return 0, err
	}
	defer resp.Body.Close()
	if _, err := io.Copy(io.Discard, resp.Body); err != nil {
		return 0, err
	}
	if resp.StatusCode != http.StatusOK {
		return 0, fmt.Errorf("%s: %s", url, resp.Status)
	}
	return time.Since(t0), nil
}

// TestStatusAnswersDuringDownloadRush: while 500 clients download the 4 MB
// wasm, again and again on their keep-alive connections, /status answers
// within 200 ms, the requirement of issue 22 (500 such downloads had kept
// /status waiting for more than 3 s on 2 cores).
//
// The clients read 32 kB every 16 ms (2 MB/s each) through a 32 kB socket
// buffer, so a download stays in flight at the server (its write waits for
// the reader) instead of landing in kernel buffers at once, and the load
// lasts as long as the test. The cap does the work: MaxDownloads (32) are
// sent at once and the rest wait their turn, which the test checks in the
// server's own counts before measuring and at every sample (the slots
// full, more waiting), with the bytes the clients received meanwhile. With the cap off (MaxDownloads 600) the same
// test measured a median of 325 ms (max 0.8 s) on a 2-core machine with a
// load average of 14, and 0.9 ms with it on.
//
// /status is measured 15 times, each on a new connection as a health check
// makes it, and each beside the same request to a control: a handler that
// only writes "ok", on a listener of its own in this process. The median
// is held to 200 ms, or, where the process itself is that slow (CI's make
// test-loaded runs two busy loops beside -race on 2 cores; 500 readers
// and their GC share them), to twice the control's median and 20 ms: a
// /status that waited behind the downloads' gate or lock waits where the
// control does not. That the downloads cannot take the CPU it needs is
// the cap's, asserted in the server's own counts: never more than
// MaxDownloads sent at once, at every sample.
func TestStatusAnswersDuringDownloadRush(t *testing.T) {
	if testing.Short() {
		t.Skip("500 connections downloading 4 MB each; not in -short")
	}
	const clients, size, limit = 500, 4 << 20, 200 * time.Millisecond
	const chunk, readEvery = 32 << 10, 16 * time.Millisecond // 2 MB/s a client
	syntheticWasm(t, size)
	s := runServer(t, Config{})
	addr := s.Addr()
	if s.cfg.MaxDownloads != DefaultMaxDownloads || clients <= s.cfg.MaxDownloads {
		t.Fatalf("MaxDownloads %d: want the default, below %d clients", s.cfg.MaxDownloads, clients)
	}

	var received atomic.Int64
	var wg sync.WaitGroup
	stop, start := make(chan struct{}), make(chan struct{})
	defer func() { close(stop); wg.Wait() }()
	for i := 0; i < clients; i++ {
		c, err := net.DialTimeout("tcp", addr, 10*time.Second)
		if err != nil {
			t.Fatalf("client %d: %v", i, err)
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer c.Close()
			go func() { <-stop; c.Close() }()
			select {
			case <-start:
			case <-stop:
				return
			}
			_ = c.(*net.TCPConn).SetReadBuffer(chunk)
			br := bufio.NewReaderSize(c, chunk)
			buf := make([]byte, chunk)
			for {
				if err := askWasm(c); err != nil {
					return
				}
				resp, err := http.ReadResponse(br, nil)
				if err != nil {
					return
				}
				for tick := time.NewTicker(readEvery); ; <-tick.C {
					n, err := io.ReadFull(resp.Body, buf)
					received.Add(int64(n))
					if err != nil {
						tick.Stop()
						break
					}
				}
				resp.Body.Close()
			}
		}()
	}

	close(start)
	inFlight := func() (active, waiting int) { return s.downloads.active(), int(s.downloads.waiting.Load()) }
	// busy: the slots are taken and most clients are downloading or
	// waiting (a client whose last bytes sit in its socket buffer, or
	// that is asking again, is neither for a moment).
	busy := func(a, w int) bool { return a >= s.cfg.MaxDownloads*3/4 && a+w >= clients*3/4 }
	// capped: the slots are taken and more wait for one: the cap binds.
	// (Once the rush runs, fewer wait than at its start: the last MB of a
	// download fit the kernel's send buffer, so its slot is free while
	// its client still reads; on a loaded machine, where the measuring
	// takes seconds, a few hundred clients may be there.)
	capped := func(a, w int) bool { return a >= s.cfg.MaxDownloads*3/4 && w > 0 }
	deadline := time.Now().Add(30 * time.Second)
	for {
		a, w := inFlight()
		if busy(a, w) {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("after 30 s %d downloads are sent and %d wait: want about %d and %d", a, w, s.cfg.MaxDownloads, clients-s.cfg.MaxDownloads)
		}
		time.Sleep(50 * time.Millisecond)
	}

	// The control: "ok" on a listener of its own in this process, what any
	// handler here answers in, the machine's and the process's load alone.
	control := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { _, _ = io.WriteString(w, "ok") }))
	defer control.Close()
	before := received.Load()
	var took, ctl []time.Duration
	maxActive, idle := 0, 0
	for i := 0; i < 15; i++ {
		d, err := statusLatency(addr)
		if err != nil {
			t.Fatalf("/status during the downloads: %v", err)
		}
		took = append(took, d)
		a, w := inFlight()
		maxActive = max(maxActive, a)
		if !capped(a, w) {
			idle++
		}
		if d, err = getLatency(control.URL); err != nil {
			t.Fatalf("the control during the downloads: %v", err)
		}
		ctl = append(ctl, d)
		time.Sleep(100 * time.Millisecond)
	}
	got := received.Load() - before
	a, w := inFlight()
	maxActive = max(maxActive, a)
	slices.Sort(took)
	slices.Sort(ctl)
	median, ctlMedian := took[len(took)/2], ctl[len(ctl)/2]
	t.Logf("/status during %d downloads (%d sent, %d waiting after; at most %d sent at a sample): min %v, median %v, max %v; the control: median %v, max %v; the clients received %.1f MB meanwhile",
		clients, a, w, maxActive, took[0].Round(time.Microsecond), median.Round(time.Microsecond), took[len(took)-1].Round(time.Microsecond),
		ctlMedian.Round(time.Microsecond), ctl[len(ctl)-1].Round(time.Microsecond), float64(got)/1e6)
	if maxActive > s.cfg.MaxDownloads {
		t.Errorf("%d downloads sent at once: the cap is %d", maxActive, s.cfg.MaxDownloads)
	}
	if !capped(a, w) {
		idle++
	}
	if idle > 0 {
		t.Errorf("at %d of 16 samples fewer than %d downloads were sent or none waited (%d sent and %d waiting after measuring): the rush eased, the test measured less than it says",
			idle, s.cfg.MaxDownloads*3/4, a, w)
	}
	if got < 10<<20 {
		t.Errorf("the clients received %d bytes while /status was measured: want them downloading", got)
	}
	if bound := max(limit, 2*ctlMedian+20*time.Millisecond); median > bound {
		t.Errorf("/status median %v (of %v) during the downloads, the control's %v: want at most %v (200 ms, or twice the control's and 20 ms)", median, took, ctlMedian, bound)
	}

	// /metrics answers too, and says the same.
	resp, err := http.Get("http://" + addr + "/metrics")
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if want := fmt.Sprintf(`tickshot_downloads{state="active"} %d`, s.cfg.MaxDownloads); !strings.Contains(string(body), want) {
		t.Errorf("/metrics lacks %q", want)
	}
}

// TestDownloadWaitsThenRetryAfter: with one download slot, a second
// download waits for DownloadWait and is answered 503 with Retry-After;
// once the first is done, the next is sent; /status never waits.
func TestDownloadWaitsThenRetryAfter(t *testing.T) {
	syntheticWasm(t, 4<<20)
	const wait = 300 * time.Millisecond
	s := runServer(t, Config{MaxDownloads: 1, DownloadWait: wait})
	addr := s.Addr()
	first, err := startDownload(addr) // not read: it holds the slot
	if err != nil {
		t.Fatal(err)
	}
	defer first.Close()
	for s.downloads.active() != 1 {
		time.Sleep(10 * time.Millisecond)
	}
	if d, err := statusLatency(addr); err != nil {
		t.Fatalf("/status while the slot is taken: %v", err)
	} else {
		t.Logf("/status while the only slot is taken: %v", d)
	}

	second, err := startDownload(addr)
	if err != nil {
		t.Fatal(err)
	}
	defer second.Close()
	t0 := time.Now()
	_ = second.SetReadDeadline(t0.Add(10 * time.Second))
	resp, err := http.ReadResponse(bufio.NewReader(second), nil)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if waited := time.Since(t0); resp.StatusCode != http.StatusServiceUnavailable || resp.Header.Get("Retry-After") != fmt.Sprint(DownloadRetryAfter) || waited < wait-50*time.Millisecond {
		t.Errorf("second download: %s, Retry-After %q after %v: want 503, Retry-After %d after DownloadWait %v",
			resp.Status, resp.Header.Get("Retry-After"), waited, DownloadRetryAfter, wait)
	}
	if n := s.downloads.refused.Load(); n != 1 {
		t.Errorf("refused downloads counted %d, want 1", n)
	}

	first.Close() // the slot comes back
	cl := &http.Client{Timeout: 20 * time.Second, Transport: &http.Transport{Proxy: nil}}
	resp, err = cl.Get("http://" + addr + web.WasmPath)
	if err != nil {
		t.Fatal(err)
	}
	n, _ := io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK || n != 4<<20 {
		t.Errorf("the download after the first ended: %s, %d bytes", resp.Status, n)
	}
}
