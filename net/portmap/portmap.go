//go:build !js

// Package portmap asks a home router to forward the game's ports to this
// computer, so that friends on the internet can join a game hosted behind
// NAT: UPnP IGD (github.com/huin/goupnp: internetgateway2's
// WANIPConnection:1, WANIPConnection:2 and WANPPPConnection:1, found by an
// SSDP M-SEARCH) and NAT-PMP (RFC 6886, github.com/jackpal/go-nat-pmp).
// PCP (RFC 6887) is left out: the NAT-PMP library speaks version 0 only,
// and a PCP-only router's answer (version 2) is reported as a refusal.
//
// A Mapper runs in the background (Start never blocks): within
// Config.Timeout it finds a gateway, learns its external address, maps
// the TCP port (the page and the WebSocket) and the UDP port (the WebRTC
// data channels) for Config.Lease, renews the mappings at half the lease
// while it runs, and deletes them on Close. Its Outcome says in one
// sentence what friends can do: join at a link, forward the ports by hand,
// or use a server with a public address (the router's own external
// address is private or shared: double NAT or carrier-grade NAT, RFC 6598).
//
// The order (UPnP, then NAT-PMP, the router's external address checked
// before mapping) follows libp2p's go-nat and Syncthing's lib/nat.
package portmap

import (
	"context"
	"errors"
	"fmt"
	"net/netip"
	"net/url"
	"strconv"
	"sync"
	"time"
)

// Defaults of Config.
const (
	// DefaultLease is the mapping lifetime asked for: one hour, RFC 6886
	// §3.3's recommendation; the Mapper renews at half of it.
	DefaultLease = time.Hour
	// DefaultTimeout bounds discovery and the first mappings together.
	DefaultTimeout = 3 * time.Second
	// DefaultDescription names the mappings in the router's table.
	DefaultDescription = "Tickshot"
	// SSDPAddr is where an M-SEARCH goes (UPnP Device Architecture 1.1
	// §1.3.2: the SSDP multicast group and port).
	SSDPAddr = "239.255.255.250:1900"
)

// Config says what to map and where to ask.
type Config struct {
	// Port is the TCP port (the page and the WebSocket), 1..65535; the
	// external port asked for is the same number.
	Port int
	// UDPPort is the UDP port of the WebRTC data channels (0: none).
	UDPPort int
	// Lease is the mapping lifetime asked for (0: DefaultLease); the
	// mappings are renewed at half the lease the router granted.
	Lease time.Duration
	// Timeout bounds discovery and the first mappings (0: DefaultTimeout).
	Timeout time.Duration
	// Description names the mappings in the router ("": DefaultDescription).
	Description string

	// Where to ask (tests point these at fakes on loopback):
	// SSDPAddr is where the UPnP M-SEARCH is sent ("": the SSDP group,
	// package constant SSDPAddr); UPnPRoot, when set, is an IGD's root
	// device description URL, asked directly without SSDP.
	SSDPAddr string
	UPnPRoot *url.URL
	// NATPMPGateway is the router asked by NAT-PMP, on UDP port 5351
	// (invalid: the default route's gateway).
	NATPMPGateway netip.Addr
	// NoUPnP and NoNATPMP leave a protocol out.
	NoUPnP, NoNATPMP bool
}

func (c Config) withDefaults() Config {
	if c.Lease <= 0 {
		c.Lease = DefaultLease
	}
	if c.Timeout <= 0 {
		c.Timeout = DefaultTimeout
	}
	if c.Description == "" {
		c.Description = DefaultDescription
	}
	if c.SSDPAddr == "" {
		c.SSDPAddr = SSDPAddr
	}
	return c
}

// Result is what port mapping came to.
type Result int

// The results.
const (
	// Pending: discovery is still running.
	Pending Result = iota
	// Mapped: the router forwards the ports; friends join at Outcome.Link.
	Mapped
	// Refused: no gateway answered, or the one that did refused the
	// mappings; the ports must be forwarded by hand.
	Refused
	// NoPublicAddress: the router's external address is private or in the
	// shared 100.64.0.0/10 (double NAT, carrier-grade NAT): a mapping on it
	// would not reach the internet.
	NoPublicAddress
)

// Outcome is the state of the mappings, with a sentence for people.
type Outcome struct {
	Result Result
	// Method is the protocol that answered ("UPnP IGD WANIPConnection:2",
	// "NAT-PMP"); "" when none did.
	Method string
	// External is the router's external address (invalid when unknown).
	External netip.Addr
	// Port and UDPPort are the ports asked for (the TCP and the UDP one);
	// ExternalPort and ExternalUDPPort those the router granted (NAT-PMP
	// may grant another number).
	Port, UDPPort, ExternalPort, ExternalUDPPort int
	// LAN is this computer's address on the router's network (invalid
	// when unknown).
	LAN netip.Addr
	// Lease is the lifetime granted (0: permanent, as some UPnP routers
	// allow only).
	Lease time.Duration
	// Err says why it was refused (nil otherwise).
	Err error
}

// Link is the invite link for friends on the internet,
// http://EXTERNAL:PORT/ ("" unless Mapped). The page asks each friend's
// name; an invite may append ?name=NAME (README's invite links).
func (o Outcome) Link() string {
	if o.Result != Mapped || !o.External.IsValid() {
		return ""
	}
	return "http://" + netip.AddrPortFrom(o.External, uint16(o.ExternalPort)).String() + "/"
}

// Sentence tells people what the outcome means and what to do: one of
//
//	Friends can join at http://203.0.113.7:27015/
//	Your router did not accept a port mapping: forward TCP and UDP 27015 to 192.168.1.20 (how: docs/HOSTING.md)
//	Your router has no public address (carrier-grade NAT): use a server with a public address or a VPN such as Tailscale
//
// and "Asking your router to forward port 27015..." while Pending.
func (o Outcome) Sentence() string {
	switch o.Result {
	case Mapped:
		return "Friends can join at " + o.Link()
	case NoPublicAddress:
		return "Your router has no public address (carrier-grade NAT): use a server with a public address or a VPN such as Tailscale"
	case Refused:
		lan := "this computer"
		if o.LAN.IsValid() {
			lan = o.LAN.String()
		}
		return "Your router did not accept a port mapping: forward " + o.portsText() + " to " + lan + " (how: docs/HOSTING.md)"
	}
	return "Asking your router to forward port " + strconv.Itoa(o.Port) + "..."
}

// portsText is "TCP and UDP 27015", or "TCP 27015 and UDP 27016", or
// "TCP 27015" without a UDP port.
func (o Outcome) portsText() string {
	switch o.UDPPort {
	case 0:
		return "TCP " + strconv.Itoa(o.Port)
	case o.Port:
		return "TCP and UDP " + strconv.Itoa(o.Port)
	}
	return fmt.Sprintf("TCP %d and UDP %d", o.Port, o.UDPPort)
}

// Public reports whether addr can be reached from the internet as a
// router's external address: not private (RFC 1918, RFC 4193), not in the
// shared address space of carrier-grade NAT (100.64.0.0/10, RFC 6598), not
// loopback, link-local or unspecified.
func Public(addr netip.Addr) bool {
	addr = addr.Unmap()
	return addr.IsValid() && addr.IsGlobalUnicast() && !addr.IsPrivate() && !sharedCGN.Contains(addr)
}

// sharedCGN is RFC 6598's shared address space of carrier-grade NAT.
var sharedCGN = netip.MustParsePrefix("100.64.0.0/10")

// gateway is a router that maps ports: a UPnP IGD connection service or
// a NAT-PMP router.
type gateway interface {
	// method names the protocol (Outcome.Method).
	method() string
	// lan is this computer's address towards the gateway.
	lan() netip.Addr
	// externalIP asks the router's external address.
	externalIP(ctx context.Context) (netip.Addr, error)
	// add maps the external port to port on lan for lease (protocol "TCP"
	// or "UDP") and returns the external port and lease granted.
	add(ctx context.Context, protocol string, port int, lan netip.Addr, lease time.Duration, desc string) (int, time.Duration, error)
	// remove deletes the mapping of the internal port to the external
	// port extPort (UPnP names a mapping by its external port, NAT-PMP
	// by its internal one).
	remove(ctx context.Context, protocol string, port, extPort int) error
}

// finder finds the gateways to ask, most preferred first, within ctx.
type finder func(ctx context.Context, cfg Config) []gateway

// Mapper holds the mappings of one game: Start it, read its Outcome, Close
// it on exit.
type Mapper struct {
	cfg    Config
	find   finder
	done   chan struct{} // closed when the first outcome is known
	stop   chan struct{} // closed by Close
	exited chan struct{} // closed when run has deleted the mappings

	mu      sync.Mutex
	out     Outcome
	gw      gateway // the gateway mapped on (nil: none)
	renewed int     // renewals that succeeded
	closing sync.Once
}

// Start begins port mapping in the background and returns at once: the
// game starts while the router is asked. A Port outside 1..65535 (or a
// UDPPort outside 0..65535) is refused at once, without asking.
func Start(cfg Config) *Mapper {
	return start(cfg, findGateways)
}

func start(cfg Config, find finder) *Mapper {
	cfg = cfg.withDefaults()
	m := &Mapper{cfg: cfg, find: find, done: make(chan struct{}), stop: make(chan struct{}), exited: make(chan struct{}),
		out: Outcome{Result: Pending, Port: cfg.Port, UDPPort: cfg.UDPPort}}
	go m.run()
	return m
}

// Outcome is the state now (Result Pending until Done).
func (m *Mapper) Outcome() Outcome {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.out
}

// Done is closed when the first outcome is known: within Config.Timeout
// and a moment, or at Close.
func (m *Mapper) Done() <-chan struct{} { return m.done }

// Renewals is the number of lease renewals that succeeded.
func (m *Mapper) Renewals() int {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.renewed
}

// Close stops renewing and deletes the mappings (within Config.Timeout),
// then returns. It is safe to call more than once.
func (m *Mapper) Close() {
	m.closing.Do(func() { close(m.stop) })
	<-m.exited
}

func (m *Mapper) run() {
	defer close(m.exited)
	ctx, cancel := context.WithTimeout(context.Background(), m.cfg.Timeout)
	go func() { // Close during discovery ends it at once
		select {
		case <-m.stop:
			cancel()
		case <-ctx.Done():
		}
	}()
	out, gw := m.establish(ctx)
	cancel()
	m.mu.Lock()
	m.out, m.gw = out, gw
	m.mu.Unlock()
	close(m.done)
	if gw == nil {
		return
	}
	defer m.release(gw, out)
	if out.Lease <= 0 {
		<-m.stop // permanent: nothing to renew
		return
	}
	t := time.NewTimer(out.Lease / 2)
	defer t.Stop()
	for {
		select {
		case <-m.stop:
			return
		case <-t.C:
		}
		lease := m.renew(gw, out)
		t.Reset(lease / 2)
	}
}

// establish finds a gateway and maps the ports on the first that accepts.
func (m *Mapper) establish(ctx context.Context) (Outcome, gateway) {
	out := Outcome{Result: Refused, Port: m.cfg.Port, UDPPort: m.cfg.UDPPort}
	if m.cfg.Port < 1 || m.cfg.Port > 65535 || m.cfg.UDPPort < 0 || m.cfg.UDPPort > 65535 {
		out.Err = fmt.Errorf("no port to map: TCP %d, UDP %d (want 1..65535)", m.cfg.Port, m.cfg.UDPPort)
		return out, nil
	}
	gws := m.find(ctx, m.cfg)
	if len(gws) == 0 {
		out.Err = fmt.Errorf("no router answered UPnP or NAT-PMP within %v", m.cfg.Timeout)
		out.LAN = defaultLAN()
		return out, nil
	}
	var errs []error
	for _, gw := range gws {
		o, err := m.mapOn(ctx, gw)
		if err == nil {
			return o, gw
		}
		if o.Result == NoPublicAddress {
			return o, nil
		}
		errs = append(errs, fmt.Errorf("%s: %w", gw.method(), err))
		if !out.LAN.IsValid() {
			out.LAN = gw.lan()
		}
	}
	out.Err = errors.Join(errs...)
	return out, nil
}

// mapOn asks gw's external address, then maps the TCP and UDP ports.
func (m *Mapper) mapOn(ctx context.Context, gw gateway) (Outcome, error) {
	out := Outcome{Result: Refused, Method: gw.method(), Port: m.cfg.Port, UDPPort: m.cfg.UDPPort, LAN: gw.lan()}
	ext, err := gw.externalIP(ctx)
	if err != nil {
		return out, fmt.Errorf("external address: %w", err)
	}
	out.External = ext
	if !Public(ext) {
		out.Result = NoPublicAddress
		return out, fmt.Errorf("external address %v is not public", ext)
	}
	extPort, lease, err := gw.add(ctx, "TCP", m.cfg.Port, out.LAN, m.cfg.Lease, m.cfg.Description)
	if err != nil {
		return out, fmt.Errorf("map TCP %d: %w", m.cfg.Port, err)
	}
	out.ExternalPort, out.Lease = extPort, lease
	if m.cfg.UDPPort > 0 {
		extUDP, udpLease, err := gw.add(ctx, "UDP", m.cfg.UDPPort, out.LAN, m.cfg.Lease, m.cfg.Description)
		if err != nil {
			_ = gw.remove(ctx, "TCP", m.cfg.Port, extPort)
			return out, fmt.Errorf("map UDP %d: %w", m.cfg.UDPPort, err)
		}
		out.ExternalUDPPort = extUDP
		if udpLease > 0 && (out.Lease == 0 || udpLease < out.Lease) {
			out.Lease = udpLease
		}
	}
	out.Result = Mapped
	return out, nil
}

// renew asks the mappings again and returns the lease to wait on; a
// failed renewal is retried after a minute (or the lease, if shorter).
func (m *Mapper) renew(gw gateway, out Outcome) time.Duration {
	ctx, cancel := context.WithTimeout(context.Background(), m.cfg.Timeout)
	defer cancel()
	lease := out.Lease
	_, l, err := gw.add(ctx, "TCP", out.Port, out.LAN, m.cfg.Lease, m.cfg.Description)
	if err == nil && out.UDPPort > 0 {
		var lu time.Duration
		_, lu, err = gw.add(ctx, "UDP", out.UDPPort, out.LAN, m.cfg.Lease, m.cfg.Description)
		l = min(l, lu)
	}
	if err != nil {
		return min(time.Minute, lease)
	}
	m.mu.Lock()
	m.renewed++
	m.mu.Unlock()
	if l > 0 {
		lease = l
	}
	return lease
}

// release deletes the mappings (the clean shutdown).
func (m *Mapper) release(gw gateway, out Outcome) {
	ctx, cancel := context.WithTimeout(context.Background(), m.cfg.Timeout)
	defer cancel()
	_ = gw.remove(ctx, "TCP", out.Port, out.ExternalPort)
	if out.UDPPort > 0 {
		_ = gw.remove(ctx, "UDP", out.UDPPort, out.ExternalUDPPort)
	}
}

// findGateways asks UPnP (SSDP, or Config.UPnPRoot) and NAT-PMP at once
// and returns those that answered, UPnP first.
func findGateways(ctx context.Context, cfg Config) []gateway {
	var wg sync.WaitGroup
	var upnp, pmp []gateway
	if !cfg.NoUPnP {
		wg.Add(1)
		go func() { defer wg.Done(); upnp = findUPnP(ctx, cfg) }()
	}
	if !cfg.NoNATPMP {
		wg.Add(1)
		go func() { defer wg.Done(); pmp = findNATPMP(ctx, cfg) }()
	}
	wg.Wait()
	return append(upnp, pmp...)
}
