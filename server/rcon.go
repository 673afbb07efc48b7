package server

import (
	"crypto/sha256"
	"crypto/subtle"
	"time"
)

// rcon password guessing limits, after Source's sv_rcon_maxfailures,
// sv_rcon_minfailuretime and sv_rcon_banpenalty: an address that gives
// RconMaxFailures wrong rcon passwords within RconFailureWindow has its
// connection kicked with RconKickReason, and every rcon attempt from that
// address in the next RconBanTime (the right password too) kicks again
// without a password check.
const (
	RconMaxFailures   = 3
	RconFailureWindow = time.Minute
	RconBanTime       = 10 * time.Minute
	RconKickReason    = "too many wrong rcon passwords"
	// rconMaxTracked bounds the addresses remembered; expired ones are
	// dropped first, and past the bound the oldest record goes.
	rconMaxTracked = 4096
)

// rconGuard counts wrong rcon passwords per remote IP address (tick
// goroutine only).
type rconGuard struct {
	addrs map[string]*rconAddr
}

type rconAddr struct {
	failures    int       // wrong passwords since windowStart
	windowStart time.Time // first failure of the current window
	bannedUntil time.Time
	logged      bool // a wrong password from here was logged
}

// rconKey is what wrong rcon passwords from ss count by: its client's
// address key (clientaddr.go: the forwarded address behind a trusted
// proxy, so one guesser cannot lock every admin behind it out), or the
// transport's name when it has none (a pipe). Loopback is not exempt.
func (ss *session) rconKey() string {
	if ss.client.key != "" {
		return ss.client.key
	}
	return ss.conn.RemoteAddr()
}

// rconPasswordOK compares a given rcon password with the server's in
// constant time: both are hashed with SHA-256 first, so neither a matching
// prefix nor the length shows (crypto/subtle), as checkPassword does.
func rconPasswordOK(want, given string) bool {
	w, g := sha256.Sum256([]byte(want)), sha256.Sum256([]byte(given))
	return subtle.ConstantTimeCompare(w[:], g[:]) == 1
}

// banned reports whether host is refused rcon at now.
func (g *rconGuard) banned(host string, now time.Time) bool {
	a := g.addrs[host]
	return a != nil && now.Before(a.bannedUntil)
}

// fail records a wrong password from host at now; it returns whether this
// was the first from host (to be logged) and whether host is now banned.
func (g *rconGuard) fail(host string, now time.Time) (first, ban bool) {
	if g.addrs == nil {
		g.addrs = map[string]*rconAddr{}
	}
	a := g.addrs[host]
	if a == nil {
		g.prune(now)
		a = &rconAddr{}
		g.addrs[host] = a
	}
	if a.failures == 0 || now.Sub(a.windowStart) > RconFailureWindow {
		a.failures, a.windowStart = 0, now
	}
	a.failures++
	first, a.logged = !a.logged, true
	if a.failures >= RconMaxFailures {
		a.failures = 0
		a.bannedUntil = now.Add(RconBanTime)
		return first, true
	}
	return first, false
}

// prune drops records whose window and ban are over; if the map is still
// at its bound, it drops the one with the oldest window.
func (g *rconGuard) prune(now time.Time) {
	if len(g.addrs) < rconMaxTracked {
		return
	}
	var oldest string
	for h, a := range g.addrs {
		if now.Sub(a.windowStart) > RconFailureWindow && !now.Before(a.bannedUntil) {
			delete(g.addrs, h)
			continue
		}
		if oldest == "" || a.windowStart.Before(g.addrs[oldest].windowStart) {
			oldest = h
		}
	}
	if len(g.addrs) >= rconMaxTracked {
		delete(g.addrs, oldest)
	}
}

// rconAllowed checks an rcon command's password from ss: on a wrong one
// it counts, logs once per address and kicks at the limit; an address under
// a ban is kicked at once. It returns whether the command may run.
func (ss *session) rconAllowed(s *Server, given string) bool {
	now := time.Now()
	host := ss.rconKey()
	if s.rcon.banned(host, now) {
		ss.kick(s, kickRconAuth, RconKickReason)
		return false
	}
	if rconPasswordOK(s.cfg.RconPassword, given) {
		return true
	}
	first, ban := s.rcon.fail(host, now)
	if first {
		s.log.Warn("bad rcon password", "player", ss.player.Name, "id", ss.player.ID, "remote", host)
	}
	if ban {
		s.log.Warn("rcon refused for a while: too many wrong passwords", "remote", host, "for", RconBanTime)
		ss.kick(s, kickRconAuth, RconKickReason)
		return false
	}
	ss.print("rcon: bad password")
	return false
}
