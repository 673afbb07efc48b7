package server

import (
	"log/slog"
	"sync"
	"time"
)

// Join rate limit per address (issue 12, join/leave churn): one address
// with 4 connections joined and left about 259 times a second, and every
// join and leave is a notice to every player. Each IP address has a token
// bucket (the shape of Source's and Quake 3's per-address connection
// throttles, e.g. ioquake3's SVC_RateLimitAddress): JoinBurst joins at
// once, then JoinsPerSecond. A Hello that finds the bucket empty gets
// Reject JoinTooFastReason and does not join; the refusals are counted,
// the first from an address logged, and the count logged when that
// address next joins. Loopback addresses (127.0.0.0/8, ::1) are exempt,
// as for sv_maxplayers_per_ip (squat.go): a connection from the host is
// its operator's (the listen server's own player, loadtest, hitreg, the
// tests) or a reverse proxy's, behind which every player would share the
// bucket; the event budget (events.go) still bounds what any churn
// costs the players.
const (
	JoinBurst          = 5
	JoinsPerSecond     = 2
	JoinTooFastReason  = "joining too fast; wait a second"
	joinMaxTracked     = 4096 // addresses remembered; full buckets are forgotten first
	joinBucketFullTime = time.Second * JoinBurst / JoinsPerSecond
)

// joinLimiter holds the join token bucket of each address (any goroutine).
type joinLimiter struct {
	mu    sync.Mutex
	addrs map[string]*joinBucket
}

type joinBucket struct {
	tokens  float64
	at      time.Time // when tokens was last brought up to date
	refused int       // joins refused since the last one allowed
}

// allow takes a join token for ip at now; it returns false when the
// address must wait. log receives the first refusal from an address, and
// how many there were once it joins again.
func (l *joinLimiter) allow(ip string, now time.Time, log *slog.Logger) bool {
	if ip == "" || isLoopbackKey(ip) {
		return true
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	b := l.addrs[ip]
	if b == nil {
		if l.addrs == nil {
			l.addrs = map[string]*joinBucket{}
		}
		l.prune(now)
		b = &joinBucket{tokens: JoinBurst, at: now}
		l.addrs[ip] = b
	}
	b.tokens = min(b.tokens+now.Sub(b.at).Seconds()*JoinsPerSecond, JoinBurst)
	b.at = now
	if b.tokens < 1 {
		if b.refused++; b.refused == 1 {
			log.Warn("joins refused: "+JoinTooFastReason, "ip", ip, "burst", JoinBurst, "per_second", JoinsPerSecond)
		}
		return false
	}
	b.tokens--
	if b.refused > 0 {
		log.Info("join allowed again after refusals", "ip", ip, "refused", b.refused)
		b.refused = 0
	}
	return true
}

// prune forgets the addresses whose buckets are full again, and past
// joinMaxTracked any one, so that the map stays bounded.
func (l *joinLimiter) prune(now time.Time) {
	if len(l.addrs) < joinMaxTracked {
		return
	}
	for ip, b := range l.addrs {
		if now.Sub(b.at) >= joinBucketFullTime {
			delete(l.addrs, ip)
		}
	}
	for ip := range l.addrs {
		if len(l.addrs) < joinMaxTracked {
			break
		}
		delete(l.addrs, ip)
	}
}
