//go:build linux

package netem

import (
	"container/heap"
	"context"
	"errors"
	"fmt"
	"math"
	"net"
	"net/netip"
	"os"
	"os/exec"
	"sync"
	"sync/atomic"
	"syscall"
	"time"
)

// Side is one end of the link.
type Side int

// The two sides.
const (
	A Side = iota
	B
)

func (s Side) String() string { return [...]string{"A", "B"}[s] }

// The sides' addresses: a /30 of RFC 2544's benchmarking block
// 198.18.0.0/15, which no real network routes.
var (
	AddrA = netip.MustParseAddr("198.18.0.1")
	AddrB = netip.MustParseAddr("198.18.0.2")
)

// PrefixLen is the length of the link's prefix (198.18.0.0/30).
const PrefixLen = 30

// Device is the TUN device's name inside each namespace.
const Device = "netem0"

// Defaults of Config.
const (
	DefaultLifetime   = 10 * time.Minute
	DefaultQueueLimit = 10000 // packets in flight per direction (netem's limit is 1000)
	DefaultMTU        = 1500
)

// Config of a link.
type Config struct {
	AtoB, BtoA Dir // what each direction does to its packets
	// Lifetime is how long the link lives before it closes by itself
	// (DefaultLifetime when 0).
	Lifetime time.Duration
	// QueueLimit is the most packets held in one direction at once; more
	// are dropped and counted in Counters.Overflow (DefaultQueueLimit when 0).
	QueueLimit int
	MTU        int    // the TUN devices' MTU, bytes (DefaultMTU when 0; 576..65535)
	Seed       uint64 // the loss, jitter and reordering draws
}

// Counters are what one direction did, as the emulator recorded it.
// Delays are from the packet's read off the sender's TUN device to its
// write into the receiver's, ms.
type Counters struct {
	Packets    uint64 // IPv4 packets between the two addresses read
	Forwarded  uint64 // written to the other side
	Lost       uint64 // dropped by random loss (Dir.LossPct)
	BurstLost  uint64 // dropped by the Gilbert–Elliott model (Dir.Burst)
	Reordered  uint64 // sent on at once, past those queued (Dir.ReorderPct)
	Overflow   uint64 // dropped: QueueLimit packets were held already
	Foreign    uint64 // dropped: not IPv4 from this side's address to the other's
	WriteFails uint64 // the receiver's TUN device refused the write
	DelaySumMs float64
	DelayMinMs float64
	DelayMaxMs float64
	// LateMaxMs is the most a packet left after the time its delay gave
	// it: the emulator's own scheduling error, which a busy machine grows.
	LateMaxMs float64
}

// Dropped is every packet of the two addresses not forwarded.
func (c Counters) Dropped() uint64 { return c.Lost + c.BurstLost + c.Overflow + c.WriteFails }

// MeanDelayMs is the mean delay of the forwarded packets, ms.
func (c Counters) MeanDelayMs() float64 {
	if c.Forwarded == 0 {
		return 0
	}
	return c.DelaySumMs / float64(c.Forwarded)
}

// Link is a running link between two namespaces. Its methods may be
// called from any goroutine.
type Link struct {
	ns    [2]string   // namespace names, by Side
	tun   [2]*os.File // TUN devices, by Side
	pipes [2]*pipe    // A→B, B→A
	wg    sync.WaitGroup

	done      chan struct{} // closed when Close starts
	closeOnce sync.Once
	closeErr  error
}

var linkSeq atomic.Uint64

// Start makes the namespaces and devices and starts the emulator. The
// link closes itself when ctx ends or after cfg.Lifetime; Close closes it
// sooner. A failure part way removes what was made.
func Start(ctx context.Context, cfg Config) (*Link, error) {
	if err := Available(); err != nil {
		return nil, err
	}
	if err := firstErr(cfg.AtoB.check("AtoB"), cfg.BtoA.check("BtoA")); err != nil {
		return nil, err
	}
	if cfg.Lifetime <= 0 {
		cfg.Lifetime = DefaultLifetime
	}
	if cfg.QueueLimit <= 0 {
		cfg.QueueLimit = DefaultQueueLimit
	}
	if cfg.MTU == 0 {
		cfg.MTU = DefaultMTU
	}
	if cfg.MTU < 576 || cfg.MTU > 65535 {
		return nil, fmt.Errorf("netem: MTU %d: want 576..65535 bytes", cfg.MTU)
	}
	removeLeftovers()
	base := fmt.Sprintf("%s%d-%d", nsPrefix, os.Getpid(), linkSeq.Add(1))
	l := &Link{ns: [2]string{base + "-a", base + "-b"}, done: make(chan struct{})}
	addrs := [2]netip.Addr{AddrA, AddrB}
	for s := A; s <= B; s++ {
		if err := ip("netns", "add", l.ns[s]); err != nil {
			l.teardown()
			return nil, err
		}
		tun, err := openTUN(l.ns[s], Device)
		if err == nil {
			l.tun[s] = tun
			err = firstErr(ip("-n", l.ns[s], "link", "set", "lo", "up"),
				ip("-n", l.ns[s], "addr", "add", fmt.Sprintf("%s/%d", addrs[s], PrefixLen), "dev", Device),
				ip("-n", l.ns[s], "link", "set", Device, "mtu", fmt.Sprint(cfg.MTU), "up"))
		}
		if err != nil {
			l.teardown()
			return nil, fmt.Errorf("netem: side %s: %w", s, err)
		}
	}
	l.pipes[A] = newPipe(l.tun[A], l.tun[B], AddrA, AddrB, newShaper(cfg.AtoB, cfg.Seed), cfg.QueueLimit)
	l.pipes[B] = newPipe(l.tun[B], l.tun[A], AddrB, AddrA, newShaper(cfg.BtoA, cfg.Seed+1), cfg.QueueLimit)
	for _, p := range l.pipes {
		l.wg.Add(2)
		go func() { defer l.wg.Done(); p.read(l.done) }()
		go func() { defer l.wg.Done(); p.write(l.done) }()
	}
	go func() {
		t := time.NewTimer(cfg.Lifetime)
		defer t.Stop()
		select {
		case <-ctx.Done():
		case <-t.C:
		case <-l.done:
			return
		}
		l.Close()
	}()
	return l, nil
}

// Namespace returns the name of a side's network namespace (for `ip netns
// exec NAME`; /var/run/netns/NAME).
func (l *Link) Namespace(s Side) string { return l.ns[s] }

// Addr returns a side's address (AddrA or AddrB).
func (l *Link) Addr(s Side) netip.Addr {
	if s == A {
		return AddrA
	}
	return AddrB
}

// Command returns a command that runs name with args inside side s's
// namespace (`ip netns exec`), killed when ctx ends, when this process
// dies (SIGKILL by the parent-death signal) or at the latest by Close.
func (l *Link) Command(ctx context.Context, s Side, name string, args ...string) *exec.Cmd {
	cmd := exec.CommandContext(ctx, "ip", append([]string{"netns", "exec", l.ns[s], name}, args...)...)
	cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
	return cmd
}

// Do runs fn on an OS thread that has joined side s's namespace, and
// returns its error. Sockets fn opens (net.Listen, net.Dial, net.ListenUDP)
// belong to that namespace and may be used from any goroutine afterwards;
// goroutines fn starts do not run in it.
func (l *Link) Do(s Side, fn func() error) error { return inNamespace(l.ns[s], fn) }

// Dial connects from inside side s (net.Dialer.DialContext made on a
// thread in its namespace); the connection works from any goroutine.
func (l *Link) Dial(ctx context.Context, s Side, network, addr string) (c net.Conn, err error) {
	err = l.Do(s, func() error {
		var d net.Dialer
		c, err = d.DialContext(ctx, network, addr)
		return err
	})
	return c, err
}

// Counters returns what a direction did so far: from is the sending side
// (A for A→B).
func (l *Link) Counters(from Side) Counters { return l.pipes[from].counters() }

// Done is closed when the link starts closing (Close, its context, or its
// lifetime).
func (l *Link) Done() <-chan struct{} { return l.done }

// Close stops the emulator, kills what still runs in the namespaces and
// removes them with their devices. Later calls return the first's error.
func (l *Link) Close() error {
	l.closeOnce.Do(func() {
		close(l.done)
		l.closeErr = l.teardown()
	})
	return l.closeErr
}

// teardown kills the namespaces' processes, closes the devices (which
// stops the readers), waits for the emulator and deletes the namespaces.
func (l *Link) teardown() error {
	var errs []error
	for s := A; s <= B; s++ {
		if l.ns[s] != "" {
			killIn(l.ns[s])
		}
	}
	for _, t := range l.tun {
		if t != nil {
			errs = append(errs, t.Close())
		}
	}
	l.wg.Wait()
	for s := A; s <= B; s++ {
		if l.ns[s] != "" && namespaceExists(l.ns[s]) {
			errs = append(errs, ip("netns", "del", l.ns[s]))
		}
	}
	return errors.Join(errs...)
}

// pipe is one direction: a reader that takes each packet off the
// sender's device and asks the shaper about it, and a writer that holds
// the packets passed until they are due.
type pipe struct {
	src, dst *os.File
	from, to [4]byte
	sh       *shaper
	q        chan packet // reader to writer, QueueLimit deep

	mu sync.Mutex
	c  Counters
}

type packet struct {
	b    []byte
	read time.Time
	due  time.Time
	seq  uint64
}

func newPipe(src, dst *os.File, from, to netip.Addr, sh *shaper, limit int) *pipe {
	return &pipe{src: src, dst: dst, from: from.As4(), to: to.As4(), sh: sh, q: make(chan packet, limit)}
}

func (p *pipe) counters() Counters {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.c
}

func (p *pipe) count(f func(c *Counters)) {
	p.mu.Lock()
	f(&p.c)
	p.mu.Unlock()
}

// between reports whether b is an IPv4 packet from p.from to p.to.
func (p *pipe) between(b []byte) bool {
	return len(b) >= 20 && b[0]>>4 == 4 && [4]byte(b[12:16]) == p.from && [4]byte(b[16:20]) == p.to
}

func (p *pipe) read(done <-chan struct{}) {
	buf := make([]byte, 65536)
	var seq uint64
	for {
		n, err := p.src.Read(buf)
		if err != nil {
			return // the device closed (teardown)
		}
		now := time.Now()
		b := buf[:n]
		if !p.between(b) {
			p.count(func(c *Counters) { c.Foreign++ })
			continue
		}
		v, due, reordered := p.sh.decide(now)
		p.count(func(c *Counters) {
			c.Packets++
			switch v {
			case Lost:
				c.Lost++
			case BurstLost:
				c.BurstLost++
			}
			if reordered {
				c.Reordered++
			}
		})
		if v != Pass {
			continue
		}
		seq++
		select {
		case p.q <- packet{b: append([]byte(nil), b...), read: now, due: due, seq: seq}:
		case <-done:
			return
		default:
			p.count(func(c *Counters) { c.Overflow++ })
		}
	}
}

func (p *pipe) write(done <-chan struct{}) {
	var h packetHeap
	t := time.NewTimer(time.Hour)
	defer t.Stop()
	for {
		if len(h) > 0 {
			t.Reset(time.Until(h[0].due))
		}
		select {
		case pk := <-p.q:
			heap.Push(&h, pk)
		case <-t.C:
		case <-done:
			return
		}
		for len(h) > 0 && !time.Now().Before(h[0].due) {
			pk := heap.Pop(&h).(packet)
			_, err := p.dst.Write(pk.b)
			now := time.Now()
			p.count(func(c *Counters) {
				if err != nil {
					c.WriteFails++
					return
				}
				d := float64(now.Sub(pk.read)) / float64(time.Millisecond)
				if c.Forwarded == 0 || d < c.DelayMinMs {
					c.DelayMinMs = d
				}
				c.Forwarded++
				c.DelaySumMs += d
				c.DelayMaxMs = math.Max(c.DelayMaxMs, d)
				c.LateMaxMs = math.Max(c.LateMaxMs, float64(now.Sub(pk.due))/float64(time.Millisecond))
			})
		}
	}
}

// packetHeap orders packets by due time, then by arrival.
type packetHeap []packet

func (h packetHeap) Len() int { return len(h) }
func (h packetHeap) Less(i, j int) bool {
	if !h[i].due.Equal(h[j].due) {
		return h[i].due.Before(h[j].due)
	}
	return h[i].seq < h[j].seq
}
func (h packetHeap) Swap(i, j int) { h[i], h[j] = h[j], h[i] }
func (h *packetHeap) Push(x any)   { *h = append(*h, x.(packet)) }
func (h *packetHeap) Pop() any {
	old := *h
	x := old[len(old)-1]
	*h = old[:len(old)-1]
	return x
}

func firstErr(errs ...error) error {
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}
