//go:build !js

package master_test

import (
	"bytes"
	"compress/gzip"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"tickshot/net/master"
	"tickshot/net/proto"
	"tickshot/server"
)

// quiet is a logger that drops everything.
var quiet = slog.New(slog.NewTextHandler(io.Discard, nil))

// fakeStatus is a minimal game server: its /status says name, with one
// human and one bot of 8 slots; hits counts the requests.
type fakeStatus struct {
	*httptest.Server
	hits atomic.Int64
}

func newFakeStatus(t *testing.T, name string) *fakeStatus {
	t.Helper()
	f := &fakeStatus{}
	f.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/status" {
			http.NotFound(w, r)
			return
		}
		f.hits.Add(1)
		_ = json.NewEncoder(w).Encode(map[string]any{"name": name, "map": "arena", "maxplayers": 8, "password": true,
			"protocol": proto.ProtocolVersion, "players": []map[string]any{{"bot": false}, {"bot": true}}})
	}))
	t.Cleanup(f.Close)
	return f
}

// port is the port of f's address.
func (f *fakeStatus) port() int {
	return int(netip.MustParseAddrPort(f.Listener.Addr().String()).Port())
}

func startMaster(t *testing.T, cfg master.Config) (*master.Master, *httptest.Server) {
	t.Helper()
	if cfg.Logger == nil {
		cfg.Logger = quiet
	}
	m := master.New(cfg)
	ts := httptest.NewServer(m.Handler())
	t.Cleanup(ts.Close)
	return m, ts
}

// waitList polls the master's /servers.json (through Fetch) until want
// says the list is as wanted, for at most limit.
func waitList(t *testing.T, url string, limit time.Duration, what string, want func([]master.Entry) bool) []master.Entry {
	t.Helper()
	t0 := time.Now()
	for {
		l, err := master.Fetch(context.Background(), nil, url)
		if err != nil {
			t.Fatal(err)
		}
		if want(l) {
			return l
		}
		if time.Since(t0) > limit {
			t.Fatalf("after %v the list is not %s: %+v", limit, what, l)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// TestDefaults: a server registers every 15 s and the master drops it
// after three missed registers (45 s), as the issue asks; the tests below
// shorten both.
func TestDefaults(t *testing.T) {
	if master.RegisterEvery != 15*time.Second || master.DefaultExpiry != 45*time.Second {
		t.Errorf("RegisterEvery %v, DefaultExpiry %v: want 15s and 45s", master.RegisterEvery, master.DefaultExpiry)
	}
	if server.MaxRegionLen != master.MaxRegionLen {
		t.Errorf("server.MaxRegionLen %d != master.MaxRegionLen %d", server.MaxRegionLen, master.MaxRegionLen)
	}
}

// TestThreeServersOneStops: three real game servers started with a master
// register with it and are listed with what their /status says; one stops,
// and within the master's expiry (three registers; 45 s by default, 2 s
// here) the list shows the other two, which stay.
func TestThreeServersOneStops(t *testing.T) {
	const every, expiry = 250 * time.Millisecond, 2 * time.Second
	_, ts := startMaster(t, master.Config{Expiry: expiry})
	type running struct {
		srv  *server.Server
		stop context.CancelFunc
		done chan error
	}
	var servers []running
	for i := range 3 {
		srv, err := server.New(server.Config{Addr: "127.0.0.1:0", Hostname: fmt.Sprintf("master test %d", i), Bots: i,
			MaxPlayers: 6, Masters: []string{ts.URL}, MasterEvery: every, Region: "test-region", Logger: quiet})
		if err != nil {
			t.Fatal(err)
		}
		if err := srv.Listen(); err != nil {
			t.Fatal(err)
		}
		ctx, stop := context.WithCancel(context.Background())
		r := running{srv, stop, make(chan error, 1)}
		go func() { r.done <- srv.Run(ctx) }()
		servers = append(servers, r)
		t.Cleanup(func() { stop(); <-r.done })
	}
	addrs := func(l []master.Entry) map[string]master.Entry {
		m := map[string]master.Entry{}
		for _, e := range l {
			m[e.Addr] = e
		}
		return m
	}
	l := waitList(t, ts.URL, 15*time.Second, "three servers", func(l []master.Entry) bool { return len(l) == 3 })
	byAddr := addrs(l)
	for i, r := range servers {
		e, ok := byAddr[r.srv.Addr()]
		if !ok {
			t.Fatalf("server %d (%s) not listed: %+v", i, r.srv.Addr(), l)
		}
		if e.Name != fmt.Sprintf("master test %d", i) || e.Bots != i || e.Players != 0 || e.MaxPlayers != 6 ||
			e.Map == "" || e.Password || e.Protocol != proto.ProtocolVersion || e.Region != "test-region" {
			t.Errorf("server %d listed as %+v", i, e)
		}
	}

	servers[1].stop()
	if err := <-servers[1].done; err != nil {
		t.Fatal(err)
	}
	servers[1].done <- nil // for the cleanup
	t0 := time.Now()
	l = waitList(t, ts.URL, expiry+10*time.Second, "the two running servers", func(l []master.Entry) bool { return len(l) == 2 })
	t.Logf("the stopped server left the list after %v (expiry %v)", time.Since(t0).Round(time.Millisecond), expiry)
	byAddr = addrs(l)
	if _, ok := byAddr[servers[1].srv.Addr()]; ok {
		t.Fatalf("the stopped server is still listed: %+v", l)
	}
	// The two still registering stay listed past another expiry.
	time.Sleep(expiry + every)
	l = waitList(t, ts.URL, time.Second, "still the two", func(l []master.Entry) bool { return len(l) == 2 })
	byAddr = addrs(l)
	for _, i := range []int{0, 2} {
		if _, ok := byAddr[servers[i].srv.Addr()]; !ok {
			t.Errorf("server %d dropped though it runs: %+v", i, l)
		}
	}
}

// closedPort returns a loopback port where nothing listens.
func closedPort(t *testing.T) int {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	p := ln.Addr().(*net.TCPAddr).Port
	ln.Close()
	return p
}

// TestUnreachableNotListed: a register claiming a port where nothing
// answers is refused (422, CodeUnreachable, the master's reason naming the
// address) and not listed; the registering server logs it once however
// often it registers, with what to do (forward the port, docs/HOSTING.md),
// and once more when it is listed after all.
func TestUnreachableNotListed(t *testing.T) {
	_, ts := startMaster(t, master.Config{CheckTimeout: time.Second})
	port := closedPort(t)
	_, err := master.Register(context.Background(), nil, ts.URL, master.RegisterRequest{Port: port})
	var re *master.RegisterError
	if !errors.As(err, &re) || re.Status != http.StatusUnprocessableEntity || re.Code != master.CodeUnreachable ||
		!strings.Contains(re.Msg, "127.0.0.1:"+strconv.Itoa(port)) {
		t.Fatalf("register of a closed port: %v (%+v); want 422 %s naming the address", err, re, master.CodeUnreachable)
	}
	if l, err := master.Fetch(context.Background(), nil, ts.URL); err != nil || len(l) != 0 {
		t.Fatalf("list %+v, %v: want empty", l, err)
	}

	// A server on that port that does not answer yet: one warning.
	var logs syncBuffer
	stop := master.StartRegister(master.RegisterConfig{Masters: []string{ts.URL}, Every: 40 * time.Millisecond,
		Request: master.RegisterRequest{Port: port}, Logger: slog.New(slog.NewTextHandler(&logs, nil))})
	defer stop()
	time.Sleep(600 * time.Millisecond) // about 15 registers
	if n := strings.Count(logs.String(), "level=WARN"); n != 1 || !strings.Contains(logs.String(), "docs/HOSTING.md") ||
		!strings.Contains(logs.String(), "forward TCP and UDP port "+strconv.Itoa(port)) || !strings.Contains(logs.String(), "could not fetch") {
		t.Fatalf("%d warnings: want one saying to forward the port, with the master's reason:\n%s", n, logs.String())
	}
	// The server comes up on that port: listed, and one line says so.
	ln, err := net.Listen("tcp", "127.0.0.1:"+strconv.Itoa(port))
	if err != nil {
		t.Skipf("port %d taken meanwhile: %v", port, err)
	}
	f := &fakeStatus{}
	f.Server = httptest.NewUnstartedServer(newFakeStatus(t, "late").Config.Handler)
	f.Listener.Close()
	f.Listener = ln
	f.Start()
	defer f.Close()
	waitList(t, ts.URL, 5*time.Second, "the late server", func(l []master.Entry) bool { return len(l) == 1 && l[0].Name == "late" })
	time.Sleep(200 * time.Millisecond)
	if n := strings.Count(logs.String(), "listed on the master"); n != 1 {
		t.Errorf("%d lines saying listed: want 1:\n%s", n, logs.String())
	}
}

// syncBuffer is a bytes.Buffer safe for the registrar's goroutine.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// TestRegisterFlood: a flood of registers from one address is refused with
// 429 and Retry-After past the address's burst, and the refused ones are
// not checked (the fake server's /status is fetched once per register
// let through); with the default MinRecheck a register soon after a check
// is answered from the list without a new fetch.
func TestRegisterFlood(t *testing.T) {
	f := newFakeStatus(t, "flooded")
	_, ts := startMaster(t, master.Config{RegisterBurst: 5, RegisterRate: 1, MinRecheck: -1})
	ok, limited := 0, 0
	t0 := time.Now()
	for range 60 {
		resp, err := http.Post(ts.URL+master.RegisterPath, "application/json", strings.NewReader(fmt.Sprintf(`{"port":%d}`, f.port())))
		if err != nil {
			t.Fatal(err)
		}
		var rep master.RegisterReply
		_ = json.NewDecoder(resp.Body).Decode(&rep)
		resp.Body.Close()
		switch resp.StatusCode {
		case http.StatusOK:
			ok++
		case http.StatusTooManyRequests:
			limited++
			if resp.Header.Get("Retry-After") == "" || rep.Code != master.CodeRate {
				t.Fatalf("429 without Retry-After or code %s: %+v", master.CodeRate, rep)
			}
		default:
			t.Fatalf("register: %s %+v", resp.Status, rep)
		}
	}
	allowed := 5 + int(time.Since(t0).Seconds()*1) + 1
	if ok > allowed || limited < 60-allowed || ok < 5 {
		t.Errorf("%d registers listed, %d limited in %v: want 5 (the burst) plus 1/s", ok, limited, time.Since(t0))
	}
	if h := int(f.hits.Load()); h != ok {
		t.Errorf("/status fetched %d times for %d registers let through: a refused register must not be checked", h, ok)
	}

	g := newFakeStatus(t, "cached")
	_, ts2 := startMaster(t, master.Config{})
	for range 5 {
		if _, err := master.Register(context.Background(), nil, ts2.URL, master.RegisterRequest{Port: g.port()}); err != nil {
			t.Fatal(err)
		}
	}
	if h := g.hits.Load(); h != 1 {
		t.Errorf("5 registers within MinRecheck fetched /status %d times, want 1", h)
	}
}

// TestPerAddressAndListCaps: one address lists at most MaxPerAddr servers
// (429, CodePerAddr), the list at most MaxServers (503, CodeFull); a
// listed server registering again is not refused by either.
func TestPerAddressAndListCaps(t *testing.T) {
	a, b, c := newFakeStatus(t, "a"), newFakeStatus(t, "b"), newFakeStatus(t, "c")
	for _, tc := range []struct {
		cfg    master.Config
		status int
		code   string
	}{
		{master.Config{MaxPerAddr: 2}, http.StatusTooManyRequests, master.CodePerAddr},
		{master.Config{MaxServers: 2}, http.StatusServiceUnavailable, master.CodeFull},
	} {
		_, ts := startMaster(t, tc.cfg)
		for _, f := range []*fakeStatus{a, b} {
			if _, err := master.Register(context.Background(), nil, ts.URL, master.RegisterRequest{Port: f.port()}); err != nil {
				t.Fatal(err)
			}
		}
		_, err := master.Register(context.Background(), nil, ts.URL, master.RegisterRequest{Port: c.port()})
		var re *master.RegisterError
		if !errors.As(err, &re) || re.Status != tc.status || re.Code != tc.code {
			t.Errorf("%+v: a third server: %v, want %d %s", tc.cfg, err, tc.status, tc.code)
		}
		if _, err := master.Register(context.Background(), nil, ts.URL, master.RegisterRequest{Port: a.port()}); err != nil {
			t.Errorf("%+v: a listed server registering again: %v", tc.cfg, err)
		}
	}
}

// TestListGzipETag: /servers.json is gzipped for a client that accepts it
// (and plain for one that does not), both with one ETag; If-None-Match
// with it answers 304 without a body; registers that change nothing keep
// the ETag; a new server changes it.
func TestListGzipETag(t *testing.T) {
	a, b := newFakeStatus(t, "a"), newFakeStatus(t, "b")
	_, ts := startMaster(t, master.Config{MinRecheck: -1})
	if _, err := master.Register(context.Background(), nil, ts.URL, master.RegisterRequest{Port: a.port(), Region: "eu"}); err != nil {
		t.Fatal(err)
	}
	get := func(enc, inm string) (*http.Response, []byte) {
		t.Helper()
		req, _ := http.NewRequest(http.MethodGet, ts.URL+master.ListPath, nil)
		req.Header.Set("Accept-Encoding", enc) // set by hand: the transport leaves the body compressed
		if inm != "" {
			req.Header.Set("If-None-Match", inm)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		body, _ := io.ReadAll(resp.Body)
		return resp, body
	}
	resp, body := get("gzip, deflate", "")
	etag := resp.Header.Get("ETag")
	if resp.StatusCode != 200 || resp.Header.Get("Content-Encoding") != "gzip" || etag == "" {
		t.Fatalf("GET with gzip: %s, encoding %q, ETag %q", resp.Status, resp.Header.Get("Content-Encoding"), etag)
	}
	zr, err := gzip.NewReader(bytes.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	plain, _ := io.ReadAll(zr)
	var l master.List
	if err := json.Unmarshal(plain, &l); err != nil || len(l.Servers) != 1 || l.Servers[0].Name != "a" ||
		l.Servers[0].Players != 1 || l.Servers[0].Bots != 1 || !l.Servers[0].Password || l.Servers[0].Region != "eu" {
		t.Fatalf("gunzipped list %s: %v", plain, err)
	}
	resp, body2 := get("identity", "")
	if resp.Header.Get("Content-Encoding") != "" || !bytes.Equal(body2, plain) || resp.Header.Get("ETag") != etag {
		t.Errorf("GET without gzip: encoding %q, ETag %q (want %q), body %s", resp.Header.Get("Content-Encoding"), resp.Header.Get("ETag"), etag, body2)
	}
	for _, enc := range []string{"gzip", ""} {
		resp, body = get(enc, etag)
		if resp.StatusCode != http.StatusNotModified || len(body) != 0 {
			t.Errorf("If-None-Match %s (encoding %q): %s with %d bytes, want 304 and none", etag, enc, resp.Status, len(body))
		}
	}
	// The same server again, nothing changed: the same list and ETag.
	if _, err := master.Register(context.Background(), nil, ts.URL, master.RegisterRequest{Port: a.port(), Region: "eu"}); err != nil {
		t.Fatal(err)
	}
	if resp, _ = get("gzip", etag); resp.StatusCode != http.StatusNotModified {
		t.Errorf("a register that changes nothing changed the list: %s", resp.Status)
	}
	if _, err := master.Register(context.Background(), nil, ts.URL, master.RegisterRequest{Port: b.port()}); err != nil {
		t.Fatal(err)
	}
	resp, _ = get("gzip", etag)
	if resp.StatusCode != 200 || resp.Header.Get("ETag") == etag {
		t.Errorf("after a new server: %s, ETag %q (was %q): want 200 and a new ETag", resp.Status, resp.Header.Get("ETag"), etag)
	}
}

// TestPageEscapesNames: GET / lists each server with a link to its
// browser page; a hostile name (markup, a bidi override) is cleaned and
// escaped, in the page and in the JSON.
func TestPageEscapesNames(t *testing.T) {
	f := newFakeStatus(t, "<script>alert(1)</script>\u202Elive")
	_, ts := startMaster(t, master.Config{})
	if _, err := master.Register(context.Background(), nil, ts.URL, master.RegisterRequest{Port: f.port()}); err != nil {
		t.Fatal(err)
	}
	resp, err := http.Get(ts.URL + "/")
	if err != nil {
		t.Fatal(err)
	}
	page, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	link := fmt.Sprintf(`href="http://127.0.0.1:%d/"`, f.port())
	if !strings.Contains(string(page), link) || !strings.Contains(string(page), "&lt;script&gt;alert(1)&lt;/script&gt;live") ||
		strings.Contains(string(page), "<script>") || strings.ContainsRune(string(page), 0x202E) {
		t.Errorf("page without the link %s or with the name unescaped:\n%s", link, page)
	}
	l, err := master.Fetch(context.Background(), nil, ts.URL)
	if err != nil || len(l) != 1 || l[0].Name != "<script>alert(1)</script>live" {
		t.Errorf("list %+v, %v: want the name without its override", l, err)
	}
}

// TestRegisterHost: a register may name a host to be listed under, which
// must resolve to the address the register came from.
func TestRegisterHost(t *testing.T) {
	f := newFakeStatus(t, "named")
	lookup := func(_ context.Context, host string) ([]netip.Addr, error) {
		switch host {
		case "play.example":
			return []netip.Addr{netip.MustParseAddr("127.0.0.1")}, nil
		case "elsewhere.example":
			return []netip.Addr{netip.MustParseAddr("192.0.2.1")}, nil
		}
		return nil, errors.New("no such host")
	}
	_, ts := startMaster(t, master.Config{LookupIP: lookup})
	for _, host := range []string{"elsewhere.example", "nowhere.example", "192.0.2.1", "bad host/"} {
		_, err := master.Register(context.Background(), nil, ts.URL, master.RegisterRequest{Port: f.port(), Host: host})
		var re *master.RegisterError
		if !errors.As(err, &re) || re.Code != master.CodeHost {
			t.Errorf("host %q: %v, want %s", host, err, master.CodeHost)
		}
	}
	rep, err := master.Register(context.Background(), nil, ts.URL, master.RegisterRequest{Port: f.port(), Host: "play.example"})
	if want := "play.example:" + strconv.Itoa(f.port()); err != nil || rep.Addr != want || rep.Entry == nil || rep.Entry.Addr != want {
		t.Errorf("host play.example: %+v, %v; want listed as %s", rep, err, want)
	}
}

// TestBadRegisters: a body that is no register, or a port out of range,
// is refused with 400 and nothing is listed.
func TestBadRegisters(t *testing.T) {
	m, ts := startMaster(t, master.Config{})
	for _, body := range []string{`nonsense`, `{"port":0}`, `{"port":70000}`, strings.Repeat(" ", master.MaxRegisterBytes+10) + `{"port":1}`} {
		resp, err := http.Post(ts.URL+master.RegisterPath, "application/json", strings.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusBadRequest {
			t.Errorf("body %.20q: %s, want 400", body, resp.Status)
		}
	}
	if l := m.Servers(); len(l) != 0 {
		t.Errorf("listed %+v", l)
	}
}

// TestTrustedProxy: behind a trusted proxy the master checks and lists a
// registering server at the address the proxy forwards (a fake server on
// 127.0.0.2, the register from 127.0.0.1 with X-Forwarded-For 127.0.0.2);
// without the proxy trusted the header is ignored (the check goes to
// 127.0.0.1, where nothing answers on that port); a trusted proxy that
// forwards nothing is refused.
func TestTrustedProxy(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.2:0")
	if err != nil {
		t.Skipf("cannot listen on 127.0.0.2 here: %v", err)
	}
	f := newFakeStatus(t, "behind")
	far := httptest.NewUnstartedServer(f.Config.Handler)
	far.Listener.Close()
	far.Listener = ln
	far.Start()
	defer far.Close()
	port := ln.Addr().(*net.TCPAddr).Port
	register := func(url string, xff string) (int, master.RegisterReply) {
		req, _ := http.NewRequest(http.MethodPost, url+master.RegisterPath, strings.NewReader(fmt.Sprintf(`{"port":%d}`, port)))
		if xff != "" {
			req.Header.Set("X-Forwarded-For", xff)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		var rep master.RegisterReply
		_ = json.NewDecoder(resp.Body).Decode(&rep)
		return resp.StatusCode, rep
	}
	_, trusting := startMaster(t, master.Config{TrustedProxies: []netip.Prefix{netip.MustParsePrefix("127.0.0.1/32")}, CheckTimeout: time.Second})
	want := "127.0.0.2:" + strconv.Itoa(port)
	if code, rep := register(trusting.URL, "192.0.2.9, 127.0.0.2"); code != 200 || rep.Addr != want {
		t.Errorf("through the trusted proxy: %d %+v, want listed as %s", code, rep, want)
	}
	if code, rep := register(trusting.URL, ""); code != http.StatusBadRequest || rep.Code != master.CodeBadRequest {
		t.Errorf("a trusted proxy forwarding nothing: %d %+v, want 400", code, rep)
	}
	_, plain := startMaster(t, master.Config{CheckTimeout: time.Second})
	if code, rep := register(plain.URL, "127.0.0.2"); code == 200 || rep.Addr == want {
		t.Errorf("X-Forwarded-For from a peer not trusted was taken: %d %+v", code, rep)
	}
}

// TestRegisterFromLoopbackOnly: a server listening on loopback registers
// only with masters on loopback; one elsewhere, which could never reach
// it, is named in one warning and never asked.
func TestRegisterFromLoopbackOnly(t *testing.T) {
	f := newFakeStatus(t, "local")
	_, ts := startMaster(t, master.Config{})
	var asked atomic.Int64
	far := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { asked.Add(1) }))
	defer far.Close()
	farURL := strings.Replace(far.URL, "127.0.0.1", "127.0.0.1.nip.invalid", 1) // not a loopback name: never resolved
	var logs syncBuffer
	stop := master.StartRegister(master.RegisterConfig{Masters: []string{farURL, ts.URL}, Loopback: true, Every: time.Hour,
		Request: master.RegisterRequest{Port: f.port()}, Logger: slog.New(slog.NewTextHandler(&logs, nil))})
	defer stop()
	waitList(t, ts.URL, 5*time.Second, "the loopback server", func(l []master.Entry) bool { return len(l) == 1 })
	if n := strings.Count(logs.String(), "listens on loopback only"); n != 1 || !strings.Contains(logs.String(), farURL) {
		t.Errorf("want one warning naming %s:\n%s", farURL, logs.String())
	}
	if strings.Contains(logs.String(), "cannot register") || asked.Load() != 0 {
		t.Errorf("the far master was asked:\n%s", logs.String())
	}
}

// TestRegisterAfter: with After the first register waits until it closes
// (the server's port mapping has its outcome), then goes at once.
func TestRegisterAfter(t *testing.T) {
	f := newFakeStatus(t, "mapped")
	_, ts := startMaster(t, master.Config{})
	after := make(chan struct{})
	stop := master.StartRegister(master.RegisterConfig{Masters: []string{ts.URL}, Every: time.Hour, After: after,
		Request: master.RegisterRequest{Port: f.port()}, Logger: quiet})
	defer stop()
	time.Sleep(300 * time.Millisecond)
	if h := f.hits.Load(); h != 0 {
		t.Fatalf("registered (%d checks) before After closed", h)
	}
	close(after)
	waitList(t, ts.URL, 5*time.Second, "listed once After closed", func(l []master.Entry) bool { return len(l) == 1 })
}

// TestSilentPortsLeaveChecksForListed: registers of ports that accept a
// connection and never answer (each holds a check for CheckTimeout) take
// at most three quarters of MaxChecks; one more is refused (503, CodeFull)
// at once, and a listed server's register still gets its check and stays
// listed meanwhile.
func TestSilentPortsLeaveChecksForListed(t *testing.T) {
	listedSrv := newFakeStatus(t, "listed")
	_, ts := startMaster(t, master.Config{MaxChecks: 4, MinRecheck: -1, CheckTimeout: master.MaxCheckTimeout})
	if _, err := master.Register(context.Background(), nil, ts.URL, master.RegisterRequest{Port: listedSrv.port()}); err != nil {
		t.Fatal(err)
	}
	accepted := make(chan net.Conn, 8)
	var silent []int
	for range 4 {
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		defer ln.Close()
		go func() {
			for {
				c, err := ln.Accept()
				if err != nil {
					return
				}
				accepted <- c // held open, never answered
			}
		}()
		silent = append(silent, ln.Addr().(*net.TCPAddr).Port)
	}
	defer func() {
		for len(accepted) > 0 {
			(<-accepted).Close()
		}
	}()
	var held []net.Conn
	for _, port := range silent[:3] {
		go func() { _, _ = master.Register(context.Background(), nil, ts.URL, master.RegisterRequest{Port: port}) }()
		select {
		case c := <-accepted:
			held = append(held, c)
		case <-time.After(master.MaxCheckTimeout):
			t.Fatal("the master did not connect to a silent port to check it")
		}
	}
	defer func() {
		for _, c := range held {
			c.Close()
		}
	}()
	// Three of four checks run on silent ports: a fourth new one is
	// refused at once, and the listed server is checked.
	_, err := master.Register(context.Background(), nil, ts.URL, master.RegisterRequest{Port: silent[3]})
	var re *master.RegisterError
	if !errors.As(err, &re) || re.Status != http.StatusServiceUnavailable || re.Code != master.CodeFull {
		t.Errorf("a fourth silent port while three are checked: %v, want 503 %s", err, master.CodeFull)
	}
	hits := listedSrv.hits.Load()
	if _, err := master.Register(context.Background(), nil, ts.URL, master.RegisterRequest{Port: listedSrv.port()}); err != nil {
		t.Errorf("the listed server's register while silent ports hold checks: %v", err)
	}
	if listedSrv.hits.Load() != hits+1 {
		t.Errorf("the listed server's register was not checked (/status fetched %d times, want %d)", listedSrv.hits.Load(), hits+1)
	}
}
