//go:build !js

package server

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/netip"
	"sync"
	"sync/atomic"
	"time"

	"tickshot/assets/web"
	"tickshot/net/master"
	"tickshot/net/proto"
	"tickshot/net/rtc"
	"tickshot/net/ws"
)

// The server's listeners and HTTP serving: the TCP port with its HTTP
// endpoints (/ws, /status, /metrics, the browser client) and the UDP port
// of WebRTC, in native builds only. The browser build (listen_js.go), which
// runs the server inside the lag lab's page over in-memory transports,
// links neither net/http nor gorilla/websocket nor pion.

// Listen binds the listen address; Addr then reports the real one (useful
// with port 0).
func (s *Server) Listen() error {
	ln, err := net.Listen("tcp", s.cfg.Addr)
	if err != nil {
		return fmt.Errorf("listen on %s: %w", s.cfg.Addr, err)
	}
	s.ln = &limitListener{Listener: ln, max: int64(s.cfg.MaxConns), spare: HealthReserveConns}
	if s.cfg.Transports == TransportsWebSocket {
		return nil
	}
	udp := s.cfg.UDPAddr
	if udp == "" {
		udp = ln.Addr().String()
	}
	h, err := rtc.NewHost(rtc.HostConfig{Addr: udp, Public: s.cfg.PublicIPs})
	switch {
	case err == nil:
		s.hs.rtc = h
	case s.cfg.UDPAddr == "":
		s.log.Warn("no UDP port for WebRTC: players stay on the WebSocket", "err", err)
	default:
		_ = ln.Close()
		return err
	}
	return nil
}

// Run serves HTTP and runs the tick loop until ctx ends, then tells every
// client the server is shutting down and returns.
func (s *Server) Run(ctx context.Context) error {
	if s.ln == nil {
		if err := s.Listen(); err != nil {
			return err
		}
	}
	httpSrv := s.httpServer()
	httpErr := make(chan error, 1)
	go func() { httpErr <- httpSrv.Serve(s.ln) }()
	s.cfg.Lifecycle.Ready(s.cfg.MaxPlayers + s.vars.maxSpectators.Get()) // the listener is bound and served
	s.start = time.Now()
	s.log.Info("server started", "addr", s.Addr(), "map", s.w.Map.Name, "tickrate", s.cfg.TickRate,
		"maxplayers", s.cfg.MaxPlayers, "bots", s.cfg.Bots, "name", s.cfg.Hostname)
	udpAddr := ""
	if s.hs.rtc != nil {
		udpAddr = s.hs.rtc.Addr()
		s.log.Info("webrtc: snapshots and usercmds as datagrams on one UDP port (open it beside the TCP port)", "udp", udpAddr)
		defer s.hs.rtc.Close()
	}
	host, port := splitPort(s.Addr()) // portmap.go
	ip, _ := netip.ParseAddr(host)
	portMapped := awaitPortMap(&s.cfg, ip.IsLoopback())                     // before startPortMap, which reads cfg.PortMapped
	stopPortMap := startPortMap(&s.cfg, s.Addr(), udpAddr, s.hs.rtc, s.log) // portmap.go
	if wc := webClient(); wc.Available() {
		raw, gz := wc.Sizes()
		s.log.Info("browser client: players open http://"+browserHost(s.Addr())+"/", "lag_lab", "http://"+browserHost(s.Addr())+"/lab",
			"wasm_bytes", raw, "gzip_bytes", gz)
	} else {
		s.log.Warn("this server was built without the browser client; build it with 'make server' so players can join from a browser")
	}

	s.publishStatus() // /status answers with the server's name from the start
	stopAnnounce := s.announce()
	stopRegister := master.StartRegister(master.RegisterConfig{Masters: s.cfg.Masters, Every: s.cfg.MasterEvery, Logger: s.log,
		Request: master.RegisterRequest{Port: port, Region: s.cfg.Region}, Loopback: ip.IsLoopback(), After: portMapped})
	err := s.loop(ctx, httpErr)
	stopAnnounce() // first, so that browsers drop the server at once
	stopRegister()
	portMapDeleted := make(chan struct{})
	go func() { stopPortMap(); close(portMapDeleted) }() // the router is told beside the goodbyes

	// Everyone is told why: players by a Disconnect, connections still in
	// their handshake by a Reject and a Disconnect (serve sees stopped).
	s.hs.close()
	close(s.stopped)
	for _, ss := range s.sessions {
		ss.conn.Close(ShutdownReason)
	}
	// No new HTTP connections; an HTTP request still being sent (or a
	// download) is given HTTPShutdownGrace, then cut.
	shutCtx, cancel := context.WithTimeout(context.Background(), HTTPShutdownGrace)
	_ = httpSrv.Shutdown(shutCtx)
	cancel()
	_ = httpSrv.Close()
	// Give the goodbyes up to ShutdownGrace to be written before the
	// process may exit.
	deadline := time.After(ShutdownGrace)
	for _, ss := range s.sessions {
		select {
		case <-ss.conn.Closed():
		case <-deadline:
		}
	}
	handshakes := make(chan struct{})
	go func() { s.hs.handshakes.Wait(); close(handshakes) }()
	select {
	case <-handshakes:
	case <-deadline:
	}
	<-portMapDeleted
	s.log.Info("server stopped", "ticks", s.w.Tick)
	return err
}

// Handler returns the server's HTTP endpoints: /ws (the game), /status
// (JSON), /metrics (Prometheus, metrics.go) and the browser client (package web: / is its page,
// /tickshot.wasm and /wasm_exec.js its files). The wasm's downloads are
// capped (Config.MaxDownloads, downloads.go); /status and /metrics share
// no lock nor queue with them.
func (s *Server) Handler() http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("/ws", s.hs.handleWS) // handshake.go
	mux.HandleFunc("/status", s.handleStatus)
	mux.Handle("/metrics", s.metrics.handler()) // metrics.go
	webClient().RegisterGated(mux, s.downloads.gate(s.cfg.HTTPWriteTimeout))
	return mux
}

// webClient is the embedded browser client, read once.
var webClient = sync.OnceValue(web.Load)

func (s *Server) loop(ctx context.Context, httpErr chan error) error {
	interval := time.Second / time.Duration(s.cfg.TickRate)
	next := time.Now()
	timer := time.NewTimer(0)
	defer timer.Stop()
	for {
		select {
		case <-ctx.Done():
			return nil
		case err := <-httpErr:
			if errors.Is(err, http.ErrServerClosed) {
				return nil
			}
			return fmt.Errorf("http: %w", err)
		case <-timer.C:
		}
		now := time.Now()
		if now.Sub(next) >= interval {
			s.metrics.ticksBehind.Add(1) // started a whole tick late
		}
		s.runTick(now)
		next = next.Add(interval)
		if d := time.Until(next); d > -10*interval {
			timer.Reset(max(d, 0))
		} else {
			// Far behind (the machine stalled): do not try to catch up.
			next = time.Now()
			timer.Reset(0)
		}
	}
}

// handleWS upgrades a player's connection and serves it.
func (s *handshaker) handleWS(w http.ResponseWriter, r *http.Request) {
	client, remote := s.requestClient(r) // clientaddr_native.go
	// Counted before the upgrade, so connections are counted in the order
	// their upgrades began, not in the order their goroutines got there.
	refused := s.preHello.enter(client.key) // prehello.go
	var once sync.Once
	release := func() {
		if !refused.refused() {
			once.Do(func() { s.preHello.leave(client.key) })
		}
	}
	defer release()
	wsConn, err := ws.UpgradeFrom(w, r, proto.ServerOptions(), remote)
	if err != nil {
		// Debug: any HTTP client can repeat a bad upgrade on one
		// keep-alive connection (it got HTTP 400 already).
		s.log.Debug("websocket upgrade failed", "remote", remote, "err", err)
		return
	}
	// Snapshots and usercmds may move to a data channel the client offers
	// after its Accept; the rest stays on the WebSocket.
	t := s.rtc.Wrap(wsConn, proto.ServerOptions())
	if refused.refused() {
		// Counted in the metrics per connection, logged at most every
		// addrLogEvery, all addresses together: a flood must not write a
		// line per connection.
		if n := s.addrLog.note("pre-hello refusals", time.Now()); n > 0 {
			s.log.Warn("connections refused before their hello: "+refused.reason, "remote", remote, "refused", n,
				"logged_at_most_every", addrLogEvery)
		}
		s.sendReject(proto.NewConn(t), refused)
		return
	}
	s.serve(t, client, release)
}

func (s *Server) handleStatus(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Access-Control-Allow-Origin", "*")
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	_ = enc.Encode(s.CurrentStatus())
}

// httpServer is the server's http.Server with the limits of cfg. Read and
// write timeouts are not set server-wide, where they would also cut the
// websocket of a game in progress: withDeadlines sets them per request on
// every route but /ws.
func (s *Server) httpServer() *http.Server {
	var h http.Handler = withDeadlines(s.Handler(), s.cfg.HTTPReadTimeout, s.cfg.HTTPWriteTimeout)
	if l, ok := s.ln.(*limitListener); ok {
		h = l.healthLane(h) // healthlane.go
	}
	return &http.Server{
		Handler:           h,
		ConnContext:       connContext,
		ReadHeaderTimeout: s.cfg.HTTPReadHeaderTimeout,
		IdleTimeout:       s.cfg.HTTPIdleTimeout,
	}
}

// withDeadlines gives each non-websocket request read to be read and
// write to be answered (http.ResponseController).
// A later request on the same keep-alive connection sets its own; /ws gets
// none (the websocket library clears deadlines when it takes the socket
// over, and keeps its own read and write deadlines, §1 of PROTOCOL.md).
func withDeadlines(h http.Handler, read, write time.Duration) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/ws" {
			rc := http.NewResponseController(w)
			now := time.Now()
			_ = rc.SetReadDeadline(now.Add(read))
			_ = rc.SetWriteDeadline(now.Add(write))
		}
		h.ServeHTTP(w, r)
	})
}

// limitListener accepts at most max connections at once, and spare more
// that serve only the health endpoints (healthlane.go); one over both is
// closed at once (the peer sees the connection reset or closed rather than
// waiting in the kernel's backlog), and counted. Like
// golang.org/x/net/netutil.LimitListener, but refusing instead of blocking.
type limitListener struct {
	net.Listener
	max, spare int64
	open       atomic.Int64
	refused    atomic.Int64
}

func (l *limitListener) Accept() (net.Conn, error) {
	for {
		c, err := l.Listener.Accept()
		if err != nil {
			return nil, err
		}
		n := l.open.Add(1)
		if n > l.max+l.spare {
			l.open.Add(-1)
			l.refused.Add(1)
			_ = c.Close()
			continue
		}
		return &limitConn{Conn: c, l: l, spare: n > l.max}, nil
	}
}

// limitConn gives its slot back once, on the first Close. A spare one was
// accepted over max: it serves only the health endpoints.
type limitConn struct {
	net.Conn
	l     *limitListener
	spare bool
	once  sync.Once
}

// NetConn returns the accepted connection, so the websocket transport can
// read its kernel TCP round trip (net/ws, tcpRTTOf).
func (c *limitConn) NetConn() net.Conn { return c.Conn }

func (c *limitConn) Close() error {
	err := c.Conn.Close()
	c.once.Do(func() { c.l.open.Add(-1) })
	return err
}

// CloseWrite half-closes the connection (TCP FIN) when the one it wraps
// can: the websocket transport does so after its close frame, then drains
// (net/ws), so that a peer still sending gets no reset.
func (c *limitConn) CloseWrite() error {
	if cw, ok := c.Conn.(interface{ CloseWrite() error }); ok {
		return cw.CloseWrite()
	}
	return nil
}

// awaitPortMap returns what closes when the port mapping of cfg (UPnP) has
// its outcome, for the first register with the masters to wait for: it
// wraps cfg.PortMapped. Nil (nothing to wait for) without masters, without
// UPnP, or on loopback, where nothing is mapped.
func awaitPortMap(cfg *Config, loopback bool) <-chan struct{} {
	if !cfg.UPnP || len(cfg.Masters) == 0 || loopback {
		return nil
	}
	done := make(chan struct{})
	heard := cfg.PortMapped
	var once sync.Once
	cfg.PortMapped = func(sentence, link string) {
		if heard != nil {
			heard(sentence, link)
		}
		once.Do(func() { close(done) })
	}
	return done
}
