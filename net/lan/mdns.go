//go:build !js

package lan

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/grandcat/zeroconf"

	"tickshot/net/proto"
)

// Browser keeps a live list of LAN servers until closed.
//
// Every QueryInterval it sends a DNS-SD browse query (a PTR question for
// ServiceType) on every multicast interface and on loopback, and GETs the
// /status of every server that answered. A server is listed while its last
// /status succeeded and it answered mDNS within Expiry. A server that stops
// withdraws its announcement (an mDNS goodbye) and closes its /status, so
// it leaves the list at the next poll, within about QueryInterval.
type Browser struct {
	ctx    context.Context
	cancel context.CancelFunc
	wg     sync.WaitGroup
	http   *http.Client

	mu      sync.Mutex
	entries map[string]*entry // by DNS-SD instance name
	list    []Server          // the listed servers, sorted; rebuilt on change
	ignored int               // answers for new instances beyond MaxServers
}

// entry is one announced instance.
type entry struct {
	instance string
	txt      Server   // what the announcement said
	addrs    []string // host:port candidates, best first
	seen     time.Time
	polling  bool
	polled   time.Time
	ok       bool   // the last /status succeeded
	srv      Server // from that /status
}

// NewBrowser starts browsing. It fails when no interface can join the
// mDNS group (not even loopback).
func NewBrowser() (*Browser, error) {
	r, err := newResolver()
	if err != nil {
		return nil, err
	}
	ctx, cancel := context.WithCancel(context.Background())
	b := &Browser{ctx: ctx, cancel: cancel, entries: map[string]*entry{},
		http: &http.Client{Timeout: StatusTimeout, Transport: &http.Transport{Proxy: nil, MaxIdleConnsPerHost: 1,
			IdleConnTimeout: 5 * time.Second, DisableCompression: true}}}
	b.wg.Add(1)
	go b.run(r)
	return b, nil
}

// Servers returns the current list, sorted by name then address. It is
// cheap (a copy of a prepared slice) and safe to call every frame.
func (b *Browser) Servers() []Server {
	b.mu.Lock()
	defer b.mu.Unlock()
	return append([]Server(nil), b.list...)
}

// Close stops browsing and waits for the browser's goroutines.
func (b *Browser) Close() {
	b.cancel()
	b.wg.Wait()
	b.http.CloseIdleConnections()
}

// Browse collects servers for timeout and returns them (for `tickshot servers`).
func Browse(ctx context.Context, timeout time.Duration) ([]Server, error) {
	b, err := NewBrowser()
	if err != nil {
		return nil, err
	}
	defer b.Close()
	t := time.NewTimer(timeout)
	defer t.Stop()
	select {
	case <-t.C:
	case <-ctx.Done():
	}
	return b.Servers(), nil
}

// run browses in rounds until Close (r is the first round's resolver):
// a round sends one query and listens to the answers and to servers that
// announce themselves. The first FastRounds rounds last QueryInterval, the
// later ones RoundInterval (RFC 6762 §5.2: the interval between
// continuous queries should grow). Every QueryInterval, whatever the
// round, each known server's /status is polled and silent ones expire.
func (b *Browser) run(r *zeroconf.Resolver) {
	defer b.wg.Done()
	poll := time.NewTicker(QueryInterval)
	defer poll.Stop()
	for n := 0; ; n++ {
		// zeroconf's Browse reports each instance once per resolver and
		// stops querying after the first answer, so each round uses a
		// fresh resolver: every live server answers every round.
		length := RoundInterval
		if n < FastRounds {
			length = QueryInterval
		}
		round, cancel := context.WithTimeout(b.ctx, length)
		var ch chan *zeroconf.ServiceEntry // nil: no resolver this round
		if r != nil {
			ch = make(chan *zeroconf.ServiceEntry, 16)
			if r.Browse(round, ServiceType, Domain, ch) != nil {
				ch = nil // Browse closes it; nothing will come
			}
		}
	listen:
		for {
			select {
			case e, ok := <-ch: // closed when the round ends
				if !ok {
					break listen
				}
				b.saw(e)
			case <-poll.C:
				b.expire()
				b.pollDue()
			case <-round.Done():
				if ch == nil {
					break listen
				}
			}
		}
		cancel()
		if b.ctx.Err() != nil {
			return
		}
		r, _ = newResolver()
	}
}

// saw records an mDNS answer and polls the server's /status when due.
func (b *Browser) saw(e *zeroconf.ServiceEntry) {
	if e.Port <= 0 || e.Port > 65535 || e.Instance == "" {
		return
	}
	addrs := candidates(e)
	if len(addrs) == 0 {
		return
	}
	now := time.Now()
	b.mu.Lock()
	defer b.mu.Unlock()
	en := b.entries[e.Instance]
	if en == nil {
		if len(b.entries) >= MaxServers {
			b.ignored++
			return
		}
		en = &entry{instance: e.Instance}
		b.entries[e.Instance] = en
	}
	en.txt = parseTXT(e.Text)
	en.seen = now
	// Keep the address that answered first, if it is still announced.
	if en.ok && len(en.addrs) > 0 {
		for i, a := range addrs {
			if a == en.addrs[0] {
				addrs[0], addrs[i] = addrs[i], addrs[0]
			}
		}
	}
	en.addrs = addrs
	b.pollIfDue(en, now)
}

// pollDue polls the /status of every known server not polled within
// QueryInterval, whether or not it answered mDNS this round: a server that
// stopped leaves the list as soon as its /status fails.
func (b *Browser) pollDue() {
	now := time.Now()
	b.mu.Lock()
	defer b.mu.Unlock()
	for _, en := range b.entries {
		b.pollIfDue(en, now)
	}
}

// pollIfDue starts a poll of en's /status unless one runs or ran within
// QueryInterval (b.mu held).
func (b *Browser) pollIfDue(en *entry, now time.Time) {
	if en.polling || now.Sub(en.polled) < QueryInterval-200*time.Millisecond {
		return
	}
	en.polling = true
	en.polled = now
	b.wg.Add(1)
	go b.poll(en.instance, en.txt.Name, en.addrs)
}

// poll GETs /status from each candidate address until one answers with
// the announced name.
func (b *Browser) poll(instance, name string, addrs []string) {
	defer b.wg.Done()
	var got Server
	ok := false
	for _, a := range addrs {
		s, err := b.status(a)
		if err == nil && (name == "" || s.Name == name) {
			got, ok = s, true
			break
		}
		if b.ctx.Err() != nil {
			break
		}
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	en := b.entries[instance]
	if en == nil {
		return
	}
	en.polling = false
	en.ok = ok
	if ok {
		got.Instance = instance
		got.LastSeen = time.Now()
		en.srv = got
	}
	b.rebuild()
}

// status GETs http://addr/status and measures its round trip (GetStatus).
func (b *Browser) status(addr string) (Server, error) { return GetStatus(b.ctx, b.http, addr) }

// expire forgets instances not heard from within Expiry.
func (b *Browser) expire() {
	now := time.Now()
	b.mu.Lock()
	defer b.mu.Unlock()
	for k, en := range b.entries {
		if now.Sub(en.seen) > Expiry {
			delete(b.entries, k)
		}
	}
	b.rebuild()
}

// rebuild makes the sorted list of entries whose /status answered (b.mu held).
func (b *Browser) rebuild() {
	l := make([]Server, 0, len(b.entries))
	for _, en := range b.entries {
		if en.ok {
			s := en.srv
			if en.seen.After(s.LastSeen) {
				s.LastSeen = en.seen
			}
			l = append(l, s)
		}
	}
	sortServers(l)
	b.list = l
}

// candidates returns the addresses to try for an answer, best first:
// LAN addresses, then loopback ones, at most MaxCandidates. Link-local
// IPv6 addresses are left out (they need a zone the answer does not carry).
func candidates(e *zeroconf.ServiceEntry) []string {
	var lan, loop []string
	port := strconv.Itoa(e.Port)
	add := func(ip net.IP) {
		if ip == nil || ip.IsUnspecified() || ip.IsMulticast() || (ip.To4() == nil && ip.IsLinkLocalUnicast()) {
			return
		}
		l := &lan
		if ip.IsLoopback() {
			l = &loop
		}
		if len(*l) >= MaxCandidates {
			return
		}
		a := net.JoinHostPort(ip.String(), port)
		if slices.Contains(*l, a) {
			return
		}
		*l = append(*l, a)
	}
	for _, ip := range e.AddrIPv4 {
		add(ip)
	}
	for _, ip := range e.AddrIPv6 {
		add(ip)
	}
	all := append(lan, loop...)
	return all[:min(len(all), MaxCandidates)]
}

// interfaces returns the interfaces mDNS uses: every interface that is up
// and multicast-capable, and the loopback interface (Linux does not mark
// lo MULTICAST, yet the group can be joined on it, which is what lets two
// programs on a computer without a network find each other).
func interfaces() []net.Interface {
	all, err := net.Interfaces()
	if err != nil {
		return nil
	}
	var l []net.Interface
	for _, ifi := range all {
		if ifi.Flags&net.FlagUp != 0 && ifi.Flags&(net.FlagMulticast|net.FlagLoopback) != 0 {
			l = append(l, ifi)
		}
	}
	return l
}

func loopbackInterfaces() []net.Interface {
	var l []net.Interface
	for _, ifi := range interfaces() {
		if ifi.Flags&net.FlagLoopback != 0 {
			l = append(l, ifi)
		}
	}
	return l
}

func newResolver() (*zeroconf.Resolver, error) {
	ifs := interfaces()
	if len(ifs) == 0 {
		return nil, fmt.Errorf("LAN discovery: no network interface is up")
	}
	r, err := zeroconf.NewResolver(zeroconf.SelectIfaces(ifs))
	if err != nil {
		return nil, fmt.Errorf("LAN discovery: cannot join the mDNS group: %w", err)
	}
	return r, nil
}

// Announce advertises a server until stop is called. stop withdraws the
// announcement (an mDNS goodbye: the records again with TTL 0) and is safe
// to call more than once.
func Announce(cfg AnnounceConfig) (stop func(), err error) {
	host, portStr, err := net.SplitHostPort(cfg.Addr)
	if err != nil {
		return nil, fmt.Errorf("LAN announce: address %q: %w", cfg.Addr, err)
	}
	port, err := strconv.Atoi(portStr)
	if err != nil || port <= 0 || port > 65535 {
		return nil, fmt.Errorf("LAN announce: address %q has no port", cfg.Addr)
	}
	ifs, ips, err := scope(host)
	if err != nil {
		return nil, err
	}
	machine, _ := os.Hostname()
	machine = label(machine, 24)
	if machine == "" {
		machine = "host"
	}
	instance := label(cfg.Name, 40) + " " + machine + "-" + portStr
	// The SRV target is a name of its own, so several servers on one
	// computer (and the computer's own mDNS name, which Avahi defends)
	// never share address records.
	target := "tickshot-" + portStr + "-" + strings.ReplaceAll(machine, " ", "-")
	register := func(txt []string) (*zeroconf.Server, error) {
		return zeroconf.RegisterProxy(instance, ServiceType, Domain, port, target, ips, txt, ifs)
	}
	zs, err := register(cfg.TXT())
	if err != nil {
		return nil, fmt.Errorf("LAN announce: %w", err)
	}
	done := make(chan struct{})
	var wg sync.WaitGroup
	if cfg.Refresh != nil {
		wg.Add(1)
		go func() {
			defer wg.Done()
			t := time.NewTicker(QueryInterval)
			defer t.Stop()
			last, lastAt := strings.Join(cfg.TXT(), "\x00"), time.Now()
			for {
				select {
				case <-done:
					return
				case <-t.C:
				}
				cfg.Refresh(&cfg)
				txt := cfg.TXT()
				if strings.Join(txt, "\x00") == last || time.Since(lastAt) < TXTInterval {
					continue
				}
				// zeroconf v1.0.0's SetText writes the record while its
				// receivers read it (a data race), so the announcement is
				// made again instead: goodbye, then the new records.
				if zs != nil {
					zs.Shutdown()
				}
				zs, _ = register(txt) // nil on failure: tried again at the next change
				last, lastAt = strings.Join(txt, "\x00"), time.Now()
			}
		}()
	}
	var once sync.Once
	return func() {
		once.Do(func() {
			close(done)
			wg.Wait()
			if zs != nil {
				zs.Shutdown()
			}
		})
	}, nil
}

// scope returns where to announce a server listening on host, and the
// addresses to announce: a loopback host on the loopback interface only,
// with that address; any other host on every interface, with the host's
// address, or, for an unspecified host (every interface), with every
// address of every interface (loopback last).
func scope(host string) ([]net.Interface, []string, error) {
	if host != "" {
		ip := net.ParseIP(host)
		if ip == nil {
			addrs, err := net.LookupIP(host)
			if err != nil || len(addrs) == 0 {
				return nil, nil, fmt.Errorf("LAN announce: cannot resolve %q: %v", host, err)
			}
			ip = addrs[0]
		}
		if ip.IsLoopback() {
			ifs := loopbackInterfaces()
			if len(ifs) == 0 {
				return nil, nil, fmt.Errorf("LAN announce: no loopback interface is up")
			}
			return ifs, []string{ip.String()}, nil
		}
		if !ip.IsUnspecified() {
			ifs := interfaces()
			if len(ifs) == 0 {
				return nil, nil, fmt.Errorf("LAN announce: no network interface is up")
			}
			return ifs, []string{ip.String()}, nil
		}
	}
	ifs := interfaces()
	if len(ifs) == 0 {
		return nil, nil, fmt.Errorf("LAN announce: no network interface is up")
	}
	var ips, loop []string
	for _, ifi := range ifs {
		addrs, _ := ifi.Addrs()
		for _, a := range addrs {
			n, ok := a.(*net.IPNet)
			if !ok || (n.IP.To4() == nil && n.IP.IsLinkLocalUnicast()) {
				continue
			}
			if n.IP.IsLoopback() {
				if n.IP.To4() != nil {
					loop = append(loop, n.IP.String())
				}
				continue
			}
			ips = append(ips, n.IP.String())
		}
	}
	return ifs, append(ips, loop...), nil
}

// label makes s usable inside a DNS label: cleaned as names shown to
// people are (proto.CleanName: no controls, no bidi overrides), without
// dots, backslashes or quotes, at most n bytes.
func label(s string, n int) string {
	s = strings.Map(func(r rune) rune {
		if r == '.' || r == '\\' || r == '"' {
			return '-'
		}
		return r
	}, s)
	return proto.CleanName(s, n)
}
