package server

import (
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
// and logged at most once per address per addrLogEvery with their count
// (serve, clientaddr.go's addrLog): a guesser at the limit once wrote two
// lines a token, four a second. A connection straight from loopback (127.0.0.0/8,
// ::1) is exempt, as for sv_maxplayers_per_ip (squat.go): it is the
// host's own (the listen server's own player, loadtest, hitreg, the
// tests); the event budget (events.go) still bounds what any churn costs
// the players. Behind a trusted reverse proxy the bucket is the forwarded
// address's, never exempt (clientaddr.go), so a join password cannot be
// guessed faster than this through the proxy.
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
	addrs addrTable[joinBucket] // at most joinMaxTracked; full buckets are forgotten first
}

type joinBucket struct {
	tokens float64
	at     time.Time // when tokens was last brought up to date
}

// allow takes a join token for the address key ip at now; it returns
// false when the address must wait. The caller skips exempt clients
// (clientAddr.exempt); "" (no address) is allowed.
func (l *joinLimiter) allow(ip string, now time.Time) bool {
	if ip == "" {
		return true
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	l.addrs.max = joinMaxTracked
	b, fresh := l.addrs.get(ip, func(b *joinBucket) bool { return now.Sub(b.at) >= joinBucketFullTime })
	if fresh {
		b.tokens, b.at = JoinBurst, now
	}
	b.tokens = min(b.tokens+now.Sub(b.at).Seconds()*JoinsPerSecond, JoinBurst)
	b.at = now
	if b.tokens < 1 {
		return false
	}
	b.tokens--
	return true
}
