package server

import (
	"fmt"
	"net"
	"net/netip"
	"time"
)

// Slot squatting (issue 12): a client that joins and then sends nothing
// would hold its slot for ever, since the websocket's pongs keep the
// connection alive. Two limits close it:
//
//   - sv_timeout (Source's name): a player or spectator that sends no Cmds
//     message for this many seconds is kicked ("timed out: no input for
//     N s"). Every netclient sends Cmds at cl_cmdrate, spectators too (empty
//     commands, for the acks); only a browser tab hidden from view sends
//     none (no animation frames, so no Update), which is why the default is
//     well above Source's 65 s: an honest player who looks at another tab
//     for under 2 min keeps the slot. Other messages (Settings, Command) do
//     not count: they cost the squatter as little as a pong.
//   - sv_maxplayers_per_ip: the most sessions (players and spectators) from
//     one IP address; the next join is refused with a Reject. Connections
//     straight from loopback (127.0.0.0/8, ::1) are exempt: a connection
//     from the host itself is its operator's (the listen server's own
//     player, loadtest, hitreg, the tests). Behind a reverse proxy on the
//     host, where every player would share one loopback address, list it
//     with --trusted-proxy: its players count by the addresses it forwards,
//     never exempt (clientaddr.go).

// Defaults of the squatting limits.
const (
	DefaultTimeoutSec      = 120
	DefaultMaxPlayersPerIP = 4
	maxTimeoutSec          = 3600
	maxPlayersPerIPLimit   = MaxPlayersLimit
)

// remoteIP is the address key of a "host:port" remote address (addrKey),
// or "" when it has none (a transport.Pipe in tests and the listen
// server): such sessions are not counted per address.
func remoteIP(remote string) string {
	h, _, err := net.SplitHostPort(remote)
	if err != nil {
		return ""
	}
	return addrKey(h)
}

// addrKey is what the per-address limits count by (sv_maxplayers_per_ip,
// the join rate, the pre-Hello cap, rcon guessing): an IPv4 address as
// is, an IPv6 address by its /64 prefix ("2001:db8:1:2::/64"), since one
// subscriber is routinely given a whole /64 and could otherwise take a new
// address per connection (RFC 6177; the same grouping as DDNet's and most
// rate limiters'). IPv4-mapped IPv6 counts as IPv4, IPv6 loopback stays
// "::1". Anything unparsable is returned as it is.
func addrKey(host string) string {
	a, err := netip.ParseAddr(host)
	if err != nil {
		return host
	}
	a = a.Unmap()
	if a.Is4() || a.IsLoopback() {
		return a.WithZone("").String()
	}
	p, err := a.WithZone("").Prefix(64)
	if err != nil {
		return a.String()
	}
	return p.String()
}

// isLoopbackKey reports whether an address key (addrKey) is a loopback
// address: a direct connection from one is exempt from the per-player and
// join-rate limits (directClient).
func isLoopbackKey(key string) bool {
	a, err := netip.ParseAddr(key)
	return err == nil && a.IsLoopback()
}

// perIPReject returns why a join from client is refused by
// sv_maxplayers_per_ip (limit) with sessions connected, or the zero
// refusal.
func perIPReject(sessions []*session, limit int, client clientAddr) refusal {
	if limit <= 0 || client.key == "" || client.exempt {
		return refusal{}
	}
	n := 0
	for _, ss := range sessions {
		if ss.client.key == client.key {
			n++
		}
	}
	if n >= limit {
		return refusal{refusePlayersPerAddr, fmt.Sprintf("too many players from your address (%d/%d, sv_maxplayers_per_ip)", n, limit)}
	}
	return refusal{}
}

// checkTimeout kicks a session that sent no Cmds for sv_timeout seconds
// (0: never).
func (ss *session) checkTimeout(s *Server, now time.Time) {
	limit := s.vars.timeout.Get()
	if limit <= 0 || ss.kicked != "" {
		return
	}
	if now.Sub(ss.lastInput) > time.Duration(limit)*time.Second {
		ss.kick(s, kickTimeout, fmt.Sprintf("timed out: no input for %d s", limit))
	}
}
