package server

import (
	"sync"
	"time"
)

// The client address of a connection: who it counts as for every
// per-address limit (sv_maxplayers_per_ip, the join rate, the pre-Hello
// cap, join password and rcon guessing). A connection from a peer that is
// not a trusted proxy (Config.TrustedProxies) is its peer's; one from a
// trusted proxy is the address the proxy forwards (package realip:
// X-Forwarded-For, or Forwarded). requestClient (clientaddr_native.go)
// owns that decision for HTTP requests, directClient for other transports.
//
// Loopback exemption: a connection straight from a loopback address is
// the host's own (the listen server's player, loadtest, hitreg, the
// tests) and is exempt from sv_maxplayers_per_ip and the join rate. A
// connection through a trusted proxy is never exempt, even when the
// address forwarded is a loopback one, and neither is a trusted proxy's
// connection that forwards no address (counted as the proxy's own):
// behind a proxy on the same host every player came from loopback, and a
// proxy that forwards nothing must make the limits too tight (which shows)
// rather than lift them (which does not).

// clientAddr is who a connection is, for the per-address limits.
type clientAddr struct {
	// key is the address key (addrKey: IPv4 as is, IPv6 by /64) of the
	// client's address; "" when it has none (a transport.Pipe), such
	// sessions are not counted per address.
	key string
	// exempt: straight from loopback, not through a trusted proxy.
	exempt bool
}

// directClient is the client address of a connection whose peer is
// remote ("host:port") and that came through no proxy.
func directClient(remote string) clientAddr {
	k := remoteIP(remote)
	return clientAddr{key: k, exempt: isLoopbackKey(k)}
}

// addrLog spaces log lines: at most one line per key (an address, or one
// kind of event from anywhere) per addrLogEvery, carrying how many events
// came since the last (wrong join passwords per address, a trusted proxy
// that forwards no address, connections refused before their Hello a
// flood over the caps of prehello.go). Behind a
// proxy on loopback, wrong passwords once ran at about 3 000 a second,
// each an INFO line (issue 22: 24 793 lines in 8 s). Any goroutine.
type addrLog struct {
	mu    sync.Mutex
	addrs addrTable[addrLogEntry] // at most addrLogMaxTracked; those not logged for addrLogEvery go first
}

type addrLogEntry struct {
	loggedAt time.Time // the last line
	count    int       // events since it
}

const (
	// addrLogEvery is the least time between two lines about one address.
	addrLogEvery = 10 * time.Second
	// addrLogMaxTracked bounds the addresses remembered.
	addrLogMaxTracked = 4096
)

// note counts an event from key at now and returns how many events the
// line due now reports (this one included), or 0 when the last line
// about key was written less than addrLogEvery ago.
func (l *addrLog) note(key string, now time.Time) int {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.addrs.max = addrLogMaxTracked
	e, _ := l.addrs.get(key, func(e *addrLogEntry) bool { return now.Sub(e.loggedAt) >= addrLogEvery })
	e.count++
	if !e.loggedAt.IsZero() && now.Sub(e.loggedAt) < addrLogEvery {
		return 0
	}
	n := e.count
	e.count, e.loggedAt = 0, now
	return n
}
