//go:build !js

package master

import (
	"net/netip"
	"time"
)

// addrKey is the address that per-address limits count: an IPv4 address as
// it is, an IPv6 address by its /64 prefix (one host holds a whole /64, so
// counting single IPv6 addresses would limit nothing).
func addrKey(ip netip.Addr) netip.Addr {
	ip = ip.Unmap()
	if ip.Is6() {
		p, _ := ip.Prefix(64)
		return p.Addr()
	}
	return ip
}

// bucket is a token bucket: tokens refill at rate per second up to burst;
// each register takes one.
type bucket struct {
	tokens float64
	at     time.Time
}

// rateTable holds one bucket per address (addrKey), at most max of them.
// Not safe for concurrent use: the Master's mutex guards it.
type rateTable struct {
	rate, burst float64
	max         int
	m           map[netip.Addr]*bucket
}

func newRateTable(rate float64, burst, max int) *rateTable {
	return &rateTable{rate: rate, burst: float64(burst), max: max, m: map[netip.Addr]*bucket{}}
}

// allow takes a token from key's bucket at now and reports whether there
// was one, and if not how long until there is. A new address when the table
// is full first forgets the addresses whose buckets have refilled (they are
// as good as new); if none has, it is refused.
func (t *rateTable) allow(key netip.Addr, now time.Time) (ok bool, retry time.Duration) {
	b := t.m[key]
	if b == nil {
		if len(t.m) >= t.max {
			t.sweep(now)
		}
		if len(t.m) >= t.max {
			return false, time.Second
		}
		b = &bucket{tokens: t.burst, at: now}
		t.m[key] = b
	}
	b.tokens = min(t.burst, b.tokens+now.Sub(b.at).Seconds()*t.rate)
	b.at = now
	if b.tokens < 1 {
		return false, time.Duration((1 - b.tokens) / t.rate * float64(time.Second))
	}
	b.tokens--
	return true, 0
}

// sweep forgets the buckets that are full again at now.
func (t *rateTable) sweep(now time.Time) {
	for k, b := range t.m {
		if b.tokens+now.Sub(b.at).Seconds()*t.rate >= t.burst {
			delete(t.m, k)
		}
	}
}
