package server

import (
	"net"
	"net/http"
	"sync"
	"sync/atomic"
	"time"
)

// HTTP limits (Config fields of the same names; zero takes these). They
// keep idle and slow HTTP clients from holding the server's descriptors:
// Go's http.Server closes nothing on its own.
const (
	// DefaultHTTPReadHeaderTimeout is how long a client may take to send a
	// request's headers (slowloris guard; http.Server.ReadHeaderTimeout).
	DefaultHTTPReadHeaderTimeout = 5 * time.Second
	// DefaultHTTPIdleTimeout is how long a keep-alive connection may wait
	// for its next request (http.Server.IdleTimeout).
	DefaultHTTPIdleTimeout = 30 * time.Second
	// DefaultHTTPReadTimeout bounds reading a whole request on the
	// non-websocket routes (/status, the browser client's files).
	DefaultHTTPReadTimeout = 10 * time.Second
	// DefaultHTTPWriteTimeout bounds writing a response on the
	// non-websocket routes: long enough for the gzipped browser client
	// (a few MB) over a slow link.
	DefaultHTTPWriteTimeout = 2 * time.Minute
	// DefaultMaxConns is the most TCP connections the server holds at
	// once, HTTP and websocket (players and spectators) together.
	DefaultMaxConns = 1024
)

// fillHTTP applies the HTTP defaults.
func (c *Config) fillHTTP() {
	def := func(d *time.Duration, v time.Duration) {
		if *d <= 0 {
			*d = v
		}
	}
	def(&c.HTTPReadHeaderTimeout, DefaultHTTPReadHeaderTimeout)
	def(&c.HTTPIdleTimeout, DefaultHTTPIdleTimeout)
	def(&c.HTTPReadTimeout, DefaultHTTPReadTimeout)
	def(&c.HTTPWriteTimeout, DefaultHTTPWriteTimeout)
	if c.MaxConns <= 0 {
		c.MaxConns = DefaultMaxConns
	}
}

// httpServer is the server's http.Server with the limits of cfg. Read and
// write timeouts are not set server-wide, where they would also cut the
// websocket of a game in progress: withDeadlines sets them per request on
// every route but /ws.
func (s *Server) httpServer() *http.Server {
	return &http.Server{
		Handler:           withDeadlines(s.Handler(), s.cfg.HTTPReadTimeout, s.cfg.HTTPWriteTimeout),
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

// limitListener accepts at most max connections at once; one over the cap
// is closed at once (the peer sees the connection reset or closed rather
// than waiting in the kernel's backlog), and counted. Like
// golang.org/x/net/netutil.LimitListener, but refusing instead of blocking.
type limitListener struct {
	net.Listener
	max     int64
	open    atomic.Int64
	refused atomic.Int64
}

func (l *limitListener) Accept() (net.Conn, error) {
	for {
		c, err := l.Listener.Accept()
		if err != nil {
			return nil, err
		}
		if l.open.Add(1) > l.max {
			l.open.Add(-1)
			l.refused.Add(1)
			_ = c.Close()
			continue
		}
		return &limitConn{Conn: c, l: l}, nil
	}
}

// limitConn gives its slot back once, on the first Close.
type limitConn struct {
	net.Conn
	l    *limitListener
	once sync.Once
}

// NetConn returns the accepted connection, so the websocket transport can
// read its kernel TCP round trip (net/ws, LinkRTT).
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
