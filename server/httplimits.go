package server

import "time"

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

// HealthReserveConns is how many TCP connections beyond MaxConns are
// accepted for the health endpoints alone: on such a spare connection
// GET /status and GET /metrics are answered (and the connection closed
// after the answer); any other request is answered 503 with Retry-After
// and counted as refused for the connection cap. So a container's health
// check or a master server's reachability check still gets an answer from
// a server whose connections are all taken by players and downloads.
// A connection beyond MaxConns + HealthReserveConns is closed on accept.
const HealthReserveConns = 8

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
	if c.MaxDownloads <= 0 {
		c.MaxDownloads = DefaultMaxDownloads
	}
	def(&c.DownloadWait, DefaultDownloadWait)
}
