package server

import (
	"fmt"
	"sync"
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
)

// preHello counts connections waiting for their Hello, per IP address and
// in all (any goroutine).
type preHello struct {
	mu    sync.Mutex
	total int
	perIP map[string]int
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
