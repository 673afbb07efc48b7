package hitreg

import (
	"math/rand/v2"
	"net"
	"sync"
	"time"
)

// delayProxy is a TCP proxy in front of the server that delays every byte
// by a fixed time plus a uniform random 0..jitter in each direction (never
// reordered): network latency below the socket, as
// a real lagged link has it. Unlike net_fakelag (applied above the socket,
// to whole messages), the websocket's pings and the server's measure of the
// link see it, so the server needs no sv_cheats to compensate it.
type delayProxy struct {
	ln     net.Listener
	target string
	oneWay time.Duration
	jitter time.Duration
	mu     sync.Mutex
	conns  []net.Conn
	closed bool
}

// startDelayProxy listens on a free loopback port and forwards each
// connection to target, oneWay + 0..jitter later in each direction.
func startDelayProxy(target string, oneWay, jitter time.Duration) (*delayProxy, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	p := &delayProxy{ln: ln, target: target, oneWay: oneWay, jitter: jitter}
	go p.serve()
	return p, nil
}

// Addr is the proxy's host:port.
func (p *delayProxy) Addr() string { return p.ln.Addr().String() }

// Close stops accepting and cuts every forwarded connection.
func (p *delayProxy) Close() {
	_ = p.ln.Close()
	p.mu.Lock()
	defer p.mu.Unlock()
	p.closed = true
	for _, c := range p.conns {
		_ = c.Close()
	}
}

func (p *delayProxy) track(c net.Conn) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.closed {
		_ = c.Close()
		return false
	}
	p.conns = append(p.conns, c)
	return true
}

func (p *delayProxy) serve() {
	for {
		c, err := p.ln.Accept()
		if err != nil {
			return
		}
		go func() {
			s, err := net.Dial("tcp", p.target)
			if err != nil {
				_ = c.Close()
				return
			}
			if !p.track(c) || !p.track(s) {
				_ = c.Close()
				_ = s.Close()
				return
			}
			go p.forward(s, c)
			go p.forward(c, s)
		}()
	}
}

// forward copies src to dst, each chunk oneWay + 0..jitter after it was
// read, in order.
func (p *delayProxy) forward(dst, src net.Conn) {
	type chunk struct {
		b  []byte
		at time.Time
	}
	ch := make(chan chunk, 4096)
	go func() {
		for ck := range ch {
			time.Sleep(time.Until(ck.at))
			if _, err := dst.Write(ck.b); err != nil {
				_ = src.Close()
				_ = dst.Close()
				for range ch {
				}
				return
			}
		}
		if tc, ok := dst.(*net.TCPConn); ok {
			_ = tc.CloseWrite()
		}
	}()
	buf := make([]byte, 32<<10)
	var last time.Time
	for {
		n, err := src.Read(buf)
		if n > 0 {
			at := time.Now().Add(p.oneWay)
			if p.jitter > 0 {
				at = at.Add(time.Duration(rand.Int64N(int64(p.jitter))))
			}
			if at.Before(last) {
				at = last
			}
			last = at
			ch <- chunk{append([]byte(nil), buf[:n]...), at}
		}
		if err != nil {
			close(ch)
			return
		}
	}
}
