//go:build !js

package master

import (
	"bytes"
	"compress/gzip"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"html/template"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/netip"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"tickshot/net/lan"
	"tickshot/net/proto"
	"tickshot/net/realip"
)

// Master defaults (Config's zero values take them).
const (
	DefaultAddr = ":8300"
	// DefaultMaxServers is the most servers listed at once.
	DefaultMaxServers = 4096
	// DefaultMaxPerAddr is the most servers listed from one address
	// (addrKey: an IPv4 address, an IPv6 /64).
	DefaultMaxPerAddr = 16
	// DefaultExpiry drops a server not registered again within it: three
	// missed registers (3 × RegisterEvery = 45 s), as DDNet's master drops
	// a server after missing its heartbeats.
	DefaultExpiry = 3 * RegisterEvery
	// DefaultCheckTimeout bounds the master's fetch of a server's /status.
	DefaultCheckTimeout = 3 * time.Second
	// MaxCheckTimeout is the longest CheckTimeout: a register may wait
	// for two of them (RegisterRequest.Host's lookup, then the /status
	// fetch), and its answer must come within the registering server's
	// RegisterTimeout (10 s) and the master's own 10 s write timeout, or
	// the server hears a broken connection instead of the reason.
	MaxCheckTimeout = 4 * time.Second
	// DefaultMinRecheck: a register of the same server sooner than this
	// after its last check is answered from the list, without a new check
	// (a flood from one address does not make the master fetch each time).
	DefaultMinRecheck = 5 * time.Second
	// DefaultMaxChecks is the most /status checks running at once; a
	// register beyond them is answered 503 (CodeFull) at once.
	DefaultMaxChecks = 64
	// DefaultMaxAddrs is the most addresses whose register rate is kept.
	DefaultMaxAddrs = 1 << 16
	// shutdownGrace is how long requests in progress may go on after the
	// master is told to stop.
	shutdownGrace = 2 * time.Second
)

// Config configures a Master. Zero values take the Default* values.
type Config struct {
	// Addr is the listen address HOST:PORT of Run (DefaultAddr).
	Addr string
	// MaxServers, MaxPerAddr bound the list: a new server beyond them is
	// refused (CodeFull, CodePerAddr).
	MaxServers, MaxPerAddr int
	// Expiry drops a server whose last successful check is older.
	Expiry time.Duration
	// CheckTimeout bounds one fetch of a server's /status (the body is
	// read up to lan.MaxStatusBytes), and the lookup of a register's Host;
	// at most MaxCheckTimeout.
	CheckTimeout time.Duration
	// MinRecheck: see DefaultMinRecheck; at most Expiry/3; negative:
	// check every register.
	MinRecheck time.Duration
	// RegisterRate (registers per second) and RegisterBurst are one
	// address's token bucket; the defaults let MaxPerAddr servers register
	// twice per RegisterEvery: RegisterBurst 2 × MaxPerAddr, RegisterRate
	// 2 × MaxPerAddr / RegisterEvery. A register beyond it is answered 429
	// (CodeRate) with Retry-After, and nothing is checked.
	RegisterRate  float64
	RegisterBurst int
	// MaxChecks is the most /status checks at once, of which checks of
	// servers not listed yet take at most three quarters (newChecks); MaxAddrs the most
	// addresses whose rate is kept (a new one beyond them is refused
	// until some have been idle long enough to be forgotten).
	MaxChecks, MaxAddrs int
	// Logger receives the master's log (slog.Default() when nil): a line
	// when a server is listed or dropped; refused registers at debug.
	Logger *slog.Logger
	// TrustedProxies are reverse proxies in front of the master (an ingress
	// terminating TLS): from these peers only, a register's source address
	// is the one they forward (X-Forwarded-For or Forwarded, package
	// net/realip), and a register from one that forwards none is refused.
	// Without them the headers are ignored: the source is the TCP peer.
	TrustedProxies realip.Proxies
	// LookupIP resolves a RegisterRequest's Host (net.DefaultResolver's
	// LookupNetIP when nil).
	LookupIP func(ctx context.Context, host string) ([]netip.Addr, error)
}

func (c *Config) fill() {
	if c.Addr == "" {
		c.Addr = DefaultAddr
	}
	def := func(v *int, d int) {
		if *v <= 0 {
			*v = d
		}
	}
	def(&c.MaxServers, DefaultMaxServers)
	def(&c.MaxPerAddr, DefaultMaxPerAddr)
	def(&c.MaxChecks, DefaultMaxChecks)
	def(&c.MaxAddrs, DefaultMaxAddrs)
	def(&c.RegisterBurst, 2*c.MaxPerAddr)
	if c.Expiry <= 0 {
		c.Expiry = DefaultExpiry
	}
	if c.CheckTimeout <= 0 {
		c.CheckTimeout = DefaultCheckTimeout
	}
	c.CheckTimeout = min(c.CheckTimeout, MaxCheckTimeout)
	if c.MinRecheck == 0 {
		c.MinRecheck = DefaultMinRecheck
	}
	c.MinRecheck = min(c.MinRecheck, c.Expiry/3) // registers keep refreshing a server before it expires
	if c.RegisterRate <= 0 {
		c.RegisterRate = 2 * float64(c.MaxPerAddr) / RegisterEvery.Seconds()
	}
	if c.Logger == nil {
		c.Logger = slog.Default()
	}
	if c.LookupIP == nil {
		c.LookupIP = func(ctx context.Context, host string) ([]netip.Addr, error) {
			return net.DefaultResolver.LookupNetIP(ctx, "ip", host)
		}
	}
}

// Master is a master server: it lists the game servers that register with
// it (POST /register) once it has fetched each one's /status itself, drops
// those that stop registering (Config.Expiry), and serves the list as JSON
// (GET /servers.json: gzip when accepted, an ETag, 304 on If-None-Match)
// and as a page of links (GET /). Safe for concurrent use.
type Master struct {
	cfg    Config
	log    *slog.Logger
	client *http.Client
	checks chan struct{} // one token per check running

	mu       sync.Mutex
	servers  map[string]*listed // by the address checked (source IP:port)
	perAddr  map[netip.Addr]int // servers listed per addrKey
	inflight map[string]bool    // addresses being checked
	newRun   int                // checks running of servers not listed
	rate     *rateTable
	version  uint64    // bumped when the list's content changes
	out      *rendered // the list as served, for a version
}

// listed is one server in the list.
type listed struct {
	e       Entry
	key     netip.Addr // addrKey of its source address
	checked time.Time  // its last successful check
}

// rendered is the list as served: JSON, gzipped JSON, its ETag, the page.
type rendered struct {
	version uint64
	json    []byte
	gz      []byte
	etag    string
	page    []byte
}

// New returns a master with cfg (zero fields take the defaults).
func New(cfg Config) *Master {
	cfg.fill()
	return &Master{cfg: cfg, log: cfg.Logger,
		client: &http.Client{
			Timeout: cfg.CheckTimeout,
			// A check goes to the address it names: no proxy from the
			// environment, no redirect elsewhere, no connection kept.
			Transport:     &http.Transport{Proxy: nil, DisableKeepAlives: true, ResponseHeaderTimeout: cfg.CheckTimeout},
			CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
		},
		checks:   make(chan struct{}, cfg.MaxChecks),
		servers:  map[string]*listed{},
		perAddr:  map[netip.Addr]int{},
		inflight: map[string]bool{},
		rate:     newRateTable(cfg.RegisterRate, cfg.RegisterBurst, cfg.MaxAddrs),
		version:  1,
	}
}

// Handler returns the master's endpoints: POST /register, GET
// /servers.json and GET / (the page).
func (m *Master) Handler() http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("POST "+RegisterPath, m.handleRegister)
	mux.HandleFunc("GET "+ListPath, m.handleList)
	mux.HandleFunc("GET /{$}", m.handlePage)
	return mux
}

// Run listens on Config.Addr and serves until ctx ends (SIGINT/SIGTERM in
// `tickshot-server master`), then lets requests in progress finish for up
// to 2 s and returns. Errors: the address cannot be bound, or serving failed.
func (m *Master) Run(ctx context.Context) error {
	ln, err := net.Listen("tcp", m.cfg.Addr)
	if err != nil {
		return fmt.Errorf("listen on %s: %w", m.cfg.Addr, err)
	}
	srv := &http.Server{Handler: m.Handler(), ReadHeaderTimeout: 5 * time.Second, ReadTimeout: 10 * time.Second,
		WriteTimeout: 10 * time.Second, IdleTimeout: 60 * time.Second, MaxHeaderBytes: 8 << 10}
	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(ln) }()
	m.log.Info("master server started", "addr", ln.Addr().String(), "list", ListPath, "register", RegisterPath,
		"expiry", m.cfg.Expiry, "max_servers", m.cfg.MaxServers, "max_per_addr", m.cfg.MaxPerAddr)
	select {
	case err = <-errc:
		return fmt.Errorf("http: %w", err)
	case <-ctx.Done():
	}
	shut, cancel := context.WithTimeout(context.Background(), shutdownGrace)
	defer cancel()
	_ = srv.Shutdown(shut)
	m.log.Info("master server stopped")
	return nil
}

// Servers returns the servers listed now, in the list's order.
func (m *Master) Servers() []Entry {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.expire(time.Now())
	return m.sorted()
}

// reply writes a register's answer.
func reply(w http.ResponseWriter, status int, r RegisterReply) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(r)
}

// refuse answers a register that is not listed, and logs it at debug.
func (m *Master) refuse(w http.ResponseWriter, r *http.Request, status int, code, addr, msg string) {
	m.log.Debug("register refused", "remote", r.RemoteAddr, "addr", addr, "code", code, "err", msg)
	reply(w, status, RegisterReply{Addr: addr, Error: msg, Code: code})
}

func (m *Master) handleRegister(w http.ResponseWriter, r *http.Request) {
	ap, err := netip.ParseAddrPort(r.RemoteAddr)
	if err != nil {
		m.refuse(w, r, http.StatusBadRequest, CodeBadRequest, "", "no source address")
		return
	}
	ap, _, err = m.cfg.TrustedProxies.Client(ap, r.Header.Values("X-Forwarded-For"), r.Header.Values("Forwarded"))
	if err != nil {
		m.refuse(w, r, http.StatusBadRequest, CodeBadRequest, "", "the proxy in front of the master forwarded no usable address: "+err.Error())
		return
	}
	ip := ap.Addr().Unmap().WithZone("")
	key := addrKey(ip)
	now := time.Now()
	m.mu.Lock()
	ok, retry := m.rate.allow(key, now)
	m.mu.Unlock()
	if !ok {
		w.Header().Set("Retry-After", strconv.Itoa(int(retry/time.Second)+1))
		m.refuse(w, r, http.StatusTooManyRequests, CodeRate, "",
			fmt.Sprintf("too many registers from %s: at most %d at once, then %.2g a second", key, m.cfg.RegisterBurst, m.cfg.RegisterRate))
		return
	}
	var req RegisterRequest
	if err := json.NewDecoder(io.LimitReader(r.Body, MaxRegisterBytes)).Decode(&req); err != nil {
		m.refuse(w, r, http.StatusBadRequest, CodeBadRequest, "", "the body is not a register request: "+err.Error())
		return
	}
	if req.Port < 1 || req.Port > 65535 {
		m.refuse(w, r, http.StatusBadRequest, CodeBadRequest, "", fmt.Sprintf("port %d: want 1..65535", req.Port))
		return
	}
	checkAddr := netip.AddrPortFrom(ip, uint16(req.Port)).String()
	listAddr := checkAddr
	if req.Host != "" {
		if err := m.checkHost(r.Context(), req.Host, ip); err != nil {
			m.refuse(w, r, http.StatusBadRequest, CodeHost, checkAddr, err.Error())
			return
		}
		listAddr = net.JoinHostPort(req.Host, strconv.Itoa(req.Port))
	}
	region := proto.CleanName(req.Region, MaxRegionLen)
	status, rep := m.check(r.Context(), key, checkAddr, listAddr, region)
	if rep.Error != "" {
		m.refuse(w, r, status, rep.Code, rep.Addr, rep.Error)
		return
	}
	reply(w, status, rep)
}

// check lists the server at checkAddr (as listAddr) once its /status
// answers, unless a cap refuses it first; it returns the HTTP status and
// the reply.
func (m *Master) check(ctx context.Context, key netip.Addr, checkAddr, listAddr, region string) (int, RegisterReply) {
	rep := RegisterReply{Addr: listAddr, EverySec: int(RegisterEvery / time.Second)}
	m.mu.Lock()
	now := time.Now()
	m.expire(now)
	l := m.servers[checkAddr]
	switch {
	case l != nil && now.Sub(l.checked) < m.cfg.MinRecheck && l.e.Addr == listAddr && l.e.Region == region:
		e := l.e
		m.mu.Unlock()
		rep.Entry = &e
		return http.StatusOK, rep
	case m.inflight[checkAddr]:
		m.mu.Unlock()
		rep.Error, rep.Code = "a check of "+checkAddr+" is running already", CodeRate
		return http.StatusTooManyRequests, rep
	}
	if err := m.room(l, key); err != nil {
		m.mu.Unlock()
		rep.Error, rep.Code = err.Error(), codeOf(err)
		return statusOf(err), rep
	}
	isNew := l == nil
	if isNew && m.newRun >= newChecks(m.cfg.MaxChecks) {
		m.mu.Unlock()
		rep.Error, rep.Code = fmt.Sprintf("the master is checking %d new servers already: try again later", m.newRun), CodeFull
		return http.StatusServiceUnavailable, rep
	}
	if isNew {
		m.newRun++
	}
	m.inflight[checkAddr] = true
	m.mu.Unlock()
	defer func() {
		m.mu.Lock()
		delete(m.inflight, checkAddr)
		if isNew {
			m.newRun--
		}
		m.mu.Unlock()
	}()
	select {
	case m.checks <- struct{}{}:
		defer func() { <-m.checks }()
	default:
		rep.Error, rep.Code = fmt.Sprintf("the master is checking %d servers already: try again later", m.cfg.MaxChecks), CodeFull
		return http.StatusServiceUnavailable, rep
	}
	cctx, cancel := context.WithTimeout(ctx, m.cfg.CheckTimeout)
	st, err := lan.GetStatus(cctx, m.client, checkAddr)
	cancel()
	m.mu.Lock()
	defer m.mu.Unlock()
	if err != nil {
		if m.servers[checkAddr] != nil {
			m.drop(checkAddr, "its /status did not answer a check")
		}
		rep.Error, rep.Code = fmt.Sprintf("the master could not fetch http://%s/status: %v", checkAddr, err), CodeUnreachable
		return http.StatusUnprocessableEntity, rep
	}
	e := Entry{Name: proto.CleanName(st.Name, 64), Addr: listAddr, Map: proto.CleanName(st.Map, 64),
		Players: st.Players, Bots: st.Bots, MaxPlayers: st.MaxPlayers, Password: st.Password, Protocol: st.Version, Region: region}
	l = m.servers[checkAddr]
	if l == nil {
		if err := m.room(nil, key); err != nil { // another register may have filled it meanwhile
			rep.Error, rep.Code = err.Error(), codeOf(err)
			return statusOf(err), rep
		}
		l = &listed{key: key}
		m.servers[checkAddr] = l
		m.perAddr[key]++
		m.log.Info("server listed", "addr", listAddr, "name", e.Name, "map", e.Map, "servers", len(m.servers))
	}
	if l.e != e {
		l.e = e
		m.version++
	}
	l.checked = time.Now()
	rep.Entry = &e
	return http.StatusOK, rep
}

// newChecks is how many of maxChecks checks servers not listed yet may
// run at once: three quarters, at least one. The rest are kept for the
// listed servers' registers, so that registers of ports where nothing
// answers (each holds a check for CheckTimeout; the rate limit lets one
// address start 32 at once) cannot take every check and let the listed
// servers expire for want of one.
func newChecks(maxChecks int) int { return max(1, maxChecks*3/4) }

// errCap is a cap that refuses a new server.
type errCap struct {
	code string
	msg  string
}

func (e errCap) Error() string { return e.msg }

func codeOf(err error) string {
	var c errCap
	if errors.As(err, &c) {
		return c.code
	}
	return CodeBadRequest
}

func statusOf(err error) int {
	if codeOf(err) == CodeFull {
		return http.StatusServiceUnavailable
	}
	return http.StatusTooManyRequests
}

// room says whether a server not yet listed (l nil) from key fits under
// MaxServers and MaxPerAddr (m.mu held); a listed one always does.
func (m *Master) room(l *listed, key netip.Addr) error {
	switch {
	case l != nil:
		return nil
	case len(m.servers) >= m.cfg.MaxServers:
		return errCap{CodeFull, fmt.Sprintf("the list is full (%d servers)", m.cfg.MaxServers)}
	case m.perAddr[key] >= m.cfg.MaxPerAddr:
		return errCap{CodePerAddr, fmt.Sprintf("%s has %d servers listed already, the most from one address", key, m.cfg.MaxPerAddr)}
	}
	return nil
}

// checkHost refuses a RegisterRequest.Host that is not a DNS name or IP
// address, or does not resolve (within CheckTimeout) to ip.
func (m *Master) checkHost(ctx context.Context, host string, ip netip.Addr) error {
	if len(host) > 253 || strings.Trim(host, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789.-") != "" {
		return fmt.Errorf("host %q: want a DNS name or an IPv4 address", proto.CleanName(host, 64))
	}
	if a, err := netip.ParseAddr(host); err == nil {
		if a.Unmap() != ip {
			return fmt.Errorf("host %s is not the address the register came from (%s)", host, ip)
		}
		return nil
	}
	ctx, cancel := context.WithTimeout(ctx, m.cfg.CheckTimeout)
	defer cancel()
	addrs, err := m.cfg.LookupIP(ctx, host)
	if err != nil {
		return fmt.Errorf("host %s: %v", host, err)
	}
	for _, a := range addrs {
		if a.Unmap().WithZone("") == ip {
			return nil
		}
	}
	return fmt.Errorf("host %s does not resolve to the address the register came from (%s)", host, ip)
}

// expire drops the servers not checked within Expiry (m.mu held).
func (m *Master) expire(now time.Time) {
	for a, l := range m.servers {
		if now.Sub(l.checked) > m.cfg.Expiry {
			m.drop(a, fmt.Sprintf("no register within %v", m.cfg.Expiry))
		}
	}
}

// drop removes the server checked at addr (m.mu held).
func (m *Master) drop(addr, why string) {
	l := m.servers[addr]
	delete(m.servers, addr)
	if m.perAddr[l.key]--; m.perAddr[l.key] <= 0 {
		delete(m.perAddr, l.key)
	}
	m.version++
	m.log.Info("server dropped", "addr", l.e.Addr, "name", l.e.Name, "why", why, "servers", len(m.servers))
}

// sorted returns the list in its order (m.mu held): most players (bots
// included) first, then by name and address.
func (m *Master) sorted() []Entry {
	out := make([]Entry, 0, len(m.servers))
	for _, l := range m.servers {
		out = append(out, l.e)
	}
	sort.Slice(out, func(i, j int) bool {
		a, b := out[i], out[j]
		if a.Players+a.Bots != b.Players+b.Bots {
			return a.Players+a.Bots > b.Players+b.Bots
		}
		if a.Name != b.Name {
			return a.Name < b.Name
		}
		return a.Addr < b.Addr
	})
	return out
}

// current returns the list as served, rendering it again only when it
// changed since.
func (m *Master) current() *rendered {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.expire(time.Now())
	if m.out != nil && m.out.version == m.version {
		return m.out
	}
	list := fitList(m.sorted(), MaxListBytes)
	js, _ := json.Marshal(List{Servers: list})
	var gz bytes.Buffer
	zw, _ := gzip.NewWriterLevel(&gz, gzip.BestCompression)
	_, _ = zw.Write(js)
	_ = zw.Close()
	sum := sha256.Sum256(js)
	var page bytes.Buffer
	_ = pageTemplate.Execute(&page, pageRows(list))
	// Weak: the gzipped and the plain body are one content.
	m.out = &rendered{version: m.version, json: js, gz: gz.Bytes(), etag: `W/"` + hex.EncodeToString(sum[:12]) + `"`, page: page.Bytes()}
	return m.out
}

// fitList returns the longest head of list whose /servers.json body
// ({"servers":[...]}) is at most budget bytes. Clients read at most
// MaxListBytes of it (Fetch): a longer body would reach none of them, and
// 4096 servers with names of escaped characters (a '<' is 6 bytes of JSON)
// and 253-byte hosts would make one. The list is in its order, so the
// servers cut are those with the fewest players.
func fitList(list []Entry, budget int) []Entry {
	n := len(`{"servers":[]}`)
	for i, e := range list {
		b, _ := json.Marshal(e)
		if i > 0 {
			n++ // the comma
		}
		if n += len(b); n > budget {
			return list[:i]
		}
	}
	return list
}

func (m *Master) handleList(w http.ResponseWriter, r *http.Request) {
	c := m.current()
	h := w.Header()
	h.Set("ETag", c.etag)
	h.Set("Vary", "Accept-Encoding")
	h.Set("Cache-Control", "no-cache") // use it, but ask again (a 304 when unchanged)
	h.Set("Access-Control-Allow-Origin", "*")
	if etagMatch(r.Header.Get("If-None-Match"), c.etag) {
		w.WriteHeader(http.StatusNotModified)
		return
	}
	h.Set("Content-Type", "application/json")
	body := c.json
	if acceptsGzip(r.Header.Get("Accept-Encoding")) {
		h.Set("Content-Encoding", "gzip")
		body = c.gz
	}
	h.Set("Content-Length", strconv.Itoa(len(body)))
	_, _ = w.Write(body)
}

func (m *Master) handlePage(w http.ResponseWriter, r *http.Request) {
	c := m.current()
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Header().Set("Content-Security-Policy", "default-src 'none'; style-src 'unsafe-inline'")
	_, _ = w.Write(c.page)
}

// etagMatch reports whether an If-None-Match header names etag, by the weak
// comparison of RFC 9110 §13.1.2 ("*" matches any).
func etagMatch(header, etag string) bool {
	for _, t := range strings.Split(header, ",") {
		t = strings.TrimSpace(t)
		if t == "*" || strings.TrimPrefix(t, "W/") == strings.TrimPrefix(etag, "W/") {
			return true
		}
	}
	return false
}

// acceptsGzip reports whether an Accept-Encoding header takes gzip (named,
// or "*", without q=0).
func acceptsGzip(header string) bool {
	for _, t := range strings.Split(header, ",") {
		name, params, _ := strings.Cut(strings.TrimSpace(t), ";")
		if n := strings.ToLower(strings.TrimSpace(name)); n != "gzip" && n != "*" {
			continue
		}
		q := strings.ReplaceAll(strings.ToLower(params), " ", "")
		if v, ok := strings.CutPrefix(q, "q="); ok {
			f, err := strconv.ParseFloat(v, 64)
			return err == nil && f > 0
		}
		return true
	}
	return false
}

// pageRow is one server on the page.
type pageRow struct {
	Entry
	URL     template.URL // http://Addr/: built here from an address the master checked
	Players string
}

func pageRows(list []Entry) []pageRow {
	rows := make([]pageRow, len(list))
	for i, e := range list {
		if e.Name == "" {
			e.Name = e.Addr
		}
		rows[i] = pageRow{Entry: e, URL: template.URL("http://" + e.Addr + "/"), Players: proto.PlayersText(e.Players, e.Bots, e.MaxPlayers)}
	}
	return rows
}

// pageTemplate is GET /: the list with a link to each server's browser
// page. html/template escapes every name.
var pageTemplate = template.Must(template.New("page").Parse(`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Tickshot servers</title>
<style>body{font:16px system-ui,sans-serif;margin:1em;background:#14161b;color:#e6e6e6}a{color:#7fc4ff}
table{border-collapse:collapse;width:100%}td,th{padding:.4em .6em;text-align:left;border-bottom:1px solid #333}
.dim{color:#999}</style></head><body>
<h1>Tickshot servers</h1>
<p>{{len .}} servers. Open one to play in the browser, or join from the game: <code>tickshot connect ADDRESS</code>.
The list as JSON: <a href="/servers.json">/servers.json</a>.</p>
<table><tr><th>Server</th><th>Map</th><th>Players</th><th>Region</th><th>Address</th></tr>
{{range .}}<tr><td><a href="{{.URL}}">{{.Name}}</a>{{if .Password}} <span class="dim">(password)</span>{{end}}</td><td>{{.Map}}</td><td>{{.Players}}</td><td>{{.Region}}</td><td class="dim">{{.Addr}}</td></tr>
{{end}}</table></body></html>
`))
