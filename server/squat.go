package server

import (
	"fmt"
	"net"
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
//     one IP address; the next join is refused with a Reject. Loopback
//     addresses (127.0.0.0/8, ::1) are exempt: a connection from the host
//     itself is its operator's (the listen server's own player, loadtest,
//     hitreg, the tests), or a reverse proxy on the host, behind which every
//     player would share one address.

// Defaults of the squatting limits.
const (
	DefaultTimeoutSec      = 120
	DefaultMaxPlayersPerIP = 4
	maxTimeoutSec          = 3600
	maxPlayersPerIPLimit   = MaxPlayersLimit
)

// remoteIP is the IP of a "host:port" remote address, or "" when it has
// none (a transport.Pipe in tests and the listen server): such sessions
// are not counted per address.
func remoteIP(remote string) string {
	h, _, err := net.SplitHostPort(remote)
	if err != nil {
		return ""
	}
	return h
}

// perIPReject returns why a join from remote is refused by
// sv_maxplayers_per_ip, or "" (tick goroutine).
func (s *Server) perIPReject(remote string) string {
	limit := s.vars.maxPerIP.Get()
	ip := remoteIP(remote)
	if limit <= 0 || ip == "" {
		return ""
	}
	if a := net.ParseIP(ip); a == nil || a.IsLoopback() {
		return ""
	}
	n := 0
	for _, ss := range s.sessions {
		if ss.ip == ip {
			n++
		}
	}
	if n >= limit {
		return fmt.Sprintf("too many players from your address (%d/%d, sv_maxplayers_per_ip)", n, limit)
	}
	return ""
}

// checkTimeout kicks a session that sent no Cmds for sv_timeout seconds
// (0: never).
func (s *Server) checkTimeout(ss *session, now time.Time) {
	limit := s.vars.timeout.Get()
	if limit <= 0 || ss.kicked != "" {
		return
	}
	if now.Sub(ss.lastInput) > time.Duration(limit)*time.Second {
		s.kick(ss, fmt.Sprintf("timed out: no input for %d s", limit))
	}
}
