package server

import (
	"fmt"
	"sync"
	"time"
)

// Caps on websocket connections that have not yet sent their Hello (they
// have up to proto.HandshakeTimeout to do so). Without them a client could
// open connections and say nothing, each holding a goroutine and buffers
// for the handshake timeout, a slowloris on the websocket handshake.
const (
	// MaxPreHelloPerIP is the most connections from one IP address that
	// may be waiting for their Hello at once. Loopback is counted too.
	MaxPreHelloPerIP = 8
	// MaxPreHello is the most connections waiting for their Hello at
	// once, all addresses together.
	MaxPreHello = 64
	// preHelloLogEvery spaces the log lines about refused connections: a
	// flood over the caps is logged once, then with its count at most this
	// often, not a line per connection.
	preHelloLogEvery = 10 * time.Second
)

// preHello counts connections waiting for their Hello, per IP address and
// in all (any goroutine).
type preHello struct {
	mu    sync.Mutex
	total int
	perIP map[string]int
	// Refusals not yet logged, and when the last log line was written.
	refused  int
	loggedAt time.Time
}

// noteRefusal counts a connection refused at now and returns how many
// refusals the log line due now reports (this one included), or 0 when
// the last line was written less than preHelloLogEvery ago.
func (p *preHello) noteRefusal(now time.Time) int {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.refused++
	if !p.loggedAt.IsZero() && now.Sub(p.loggedAt) < preHelloLogEvery {
		return 0
	}
	n := p.refused
	p.refused, p.loggedAt = 0, now
	return n
}

// enter counts a new connection from ip, or returns why it is refused.
func (p *preHello) enter(ip string) refusal {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.total >= MaxPreHello {
		return refusal{refusePendingTotal, fmt.Sprintf("too many connections waiting for their hello (%d, server-wide)", MaxPreHello)}
	}
	if p.perIP[ip] >= MaxPreHelloPerIP {
		return refusal{refusePendingPerAddr, fmt.Sprintf("too many connections without a hello from your address (%d)", MaxPreHelloPerIP)}
	}
	if p.perIP == nil {
		p.perIP = make(map[string]int)
	}
	p.total++
	p.perIP[ip]++
	return refusal{}
}

// leave uncounts a connection from ip that sent its Hello or ended.
func (p *preHello) leave(ip string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.total--
	if p.perIP[ip]--; p.perIP[ip] <= 0 {
		delete(p.perIP, ip)
	}
}
