//go:build !js

package portmap

import (
	"context"
	"errors"
	"fmt"
	"math"
	"net"
	"net/http"
	"net/netip"
	"net/url"
	"sync"
	"time"

	"github.com/huin/goupnp"
	"github.com/huin/goupnp/dcps/internetgateway2"
	"github.com/huin/goupnp/httpu"
	"github.com/huin/goupnp/soap"
	"github.com/huin/goupnp/ssdp"
)

// maxIGDs is the most root devices whose descriptions are fetched from
// one SSDP search. Every UPnP device of a home LAN answers it (TVs,
// speakers, printers, a NAS), often before the router: the descriptions
// are fetched at once, so one that hangs delays none of the others.
const maxIGDs = 16

// upnpOnlyPermanent is the UPnP IGD error 725, OnlyPermanentLeasesSupported
// (WANIPConnection:1 §2.4.16): the router takes lease 0 (no expiry) only.
const upnpOnlyPermanent = 725

// igdConnection is what Tickshot uses of a WAN connection service: the
// same three actions in WANIPConnection:1, WANIPConnection:2 and
// WANPPPConnection:1.
type igdConnection interface {
	AddPortMappingCtx(ctx context.Context, remoteHost string, extPort uint16, protocol string, intPort uint16,
		intClient string, enabled bool, desc string, lease uint32) error
	DeletePortMappingCtx(ctx context.Context, remoteHost string, extPort uint16, protocol string) error
	GetExternalIPAddressCtx(ctx context.Context) (string, error)
}

// upnpGateway is one WAN connection service of a UPnP IGD.
type upnpGateway struct {
	conn    igdConnection
	service string // the service type, e.g. WANIPConnection:2
	local   netip.Addr
}

func (g *upnpGateway) method() string  { return "UPnP IGD " + g.service }
func (g *upnpGateway) lan() netip.Addr { return g.local }

func (g *upnpGateway) externalIP(ctx context.Context) (netip.Addr, error) {
	s, err := g.conn.GetExternalIPAddressCtx(ctx)
	if err != nil {
		return netip.Addr{}, err
	}
	a, err := netip.ParseAddr(s)
	if err != nil {
		return netip.Addr{}, fmt.Errorf("the router gave %q as its address: %w", s, err)
	}
	return a.Unmap(), nil
}

// add maps the same port number outside and in. A router that takes only
// permanent leases (error 725) is asked again with lease 0; the mapping
// is still deleted on Close.
func (g *upnpGateway) add(ctx context.Context, protocol string, port int, lan netip.Addr, lease time.Duration, desc string) (int, time.Duration, error) {
	if !lan.IsValid() {
		return 0, 0, errors.New("this computer's address towards the router is unknown")
	}
	secs := uint32(min(lease/time.Second, math.MaxUint32))
	err := g.conn.AddPortMappingCtx(ctx, "", uint16(port), protocol, uint16(port), lan.String(), true, desc, secs)
	var fault *soap.SOAPFaultError
	if errors.As(err, &fault) && fault.Detail.UPnPError.Errorcode == upnpOnlyPermanent {
		secs, lease = 0, 0
		err = g.conn.AddPortMappingCtx(ctx, "", uint16(port), protocol, uint16(port), lan.String(), true, desc, 0)
	}
	if err != nil {
		return 0, 0, err
	}
	return port, lease, nil
}

func (g *upnpGateway) remove(ctx context.Context, protocol string, _, extPort int) error {
	return g.conn.DeletePortMappingCtx(ctx, "", uint16(extPort), protocol)
}

// findUPnP finds the IGD connection services: at Config.UPnPRoot when
// set, else at the root devices that answer an SSDP search sent to
// Config.SSDPAddr.
func findUPnP(ctx context.Context, cfg Config) []gateway {
	locs := []*url.URL{cfg.UPnPRoot}
	if cfg.UPnPRoot == nil {
		locs = ssdpSearch(ctx, cfg.SSDPAddr)
	}
	// A description that has not come in half the time left is given up,
	// leaving the other half for the router's SOAP actions.
	dctx := ctx
	if dl, ok := ctx.Deadline(); ok {
		var cancel context.CancelFunc
		dctx, cancel = context.WithDeadline(ctx, time.Now().Add(time.Until(dl)/2))
		defer cancel()
	}
	found := make([][]gateway, len(locs)) // by answer, the earliest first
	var wg sync.WaitGroup
	for i, loc := range locs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if root, err := goupnp.DeviceByURLCtx(dctx, loc); err == nil {
				found[i] = igdServices(root, loc)
			}
		}()
	}
	wg.Wait()
	var out []gateway
	for _, g := range found {
		out = append(out, g...)
	}
	return out
}

// igdServices are root's WAN connection services, the newest first.
func igdServices(root *goupnp.RootDevice, loc *url.URL) []gateway {
	local := localAddrTowards(loc.Host)
	var out []gateway
	if cs, err := internetgateway2.NewWANIPConnection2ClientsFromRootDevice(root, loc); err == nil {
		for _, c := range cs {
			out = append(out, &upnpGateway{conn: c, service: "WANIPConnection:2", local: local})
		}
	}
	if cs, err := internetgateway2.NewWANIPConnection1ClientsFromRootDevice(root, loc); err == nil {
		for _, c := range cs {
			out = append(out, &upnpGateway{conn: c, service: "WANIPConnection:1", local: local})
		}
	}
	if cs, err := internetgateway2.NewWANPPPConnection1ClientsFromRootDevice(root, loc); err == nil {
		for _, c := range cs {
			out = append(out, &upnpGateway{conn: c, service: "WANPPPConnection:1", local: local})
		}
	}
	return out
}

// ssdpSearch sends an M-SEARCH for root devices to addr and returns the
// description URLs of those that answer (at most maxIGDs), waiting two
// thirds of ctx's time (at least the protocol's minimum of one second).
func ssdpSearch(ctx context.Context, addr string) []*url.URL {
	c, err := httpu.NewHTTPUClient()
	if err != nil {
		return nil
	}
	defer c.Close()
	wait := 2 * time.Second
	if dl, ok := ctx.Deadline(); ok {
		wait = max(time.Until(dl)*2/3, 1100*time.Millisecond)
	}
	sctx, cancel := context.WithTimeout(ctx, wait)
	defer cancel()
	resps, err := ssdp.RawSearch(sctx, unicastHTTPU{c, addr}, ssdp.UPNPRootDevice, 2)
	if err != nil {
		return nil
	}
	var locs []*url.URL
	for _, r := range resps {
		if loc, err := r.Location(); err == nil && (loc.Scheme == "http" || loc.Scheme == "https") && len(locs) < maxIGDs {
			locs = append(locs, loc)
		}
	}
	return locs
}

// unicastHTTPU sends goupnp's M-SEARCH to addr instead of the SSDP group
// (the same when addr is SSDPAddr; a fake gateway on loopback in tests).
type unicastHTTPU struct {
	c    *httpu.HTTPUClient
	addr string
}

func (u unicastHTTPU) DoWithContext(req *http.Request, numSends int) ([]*http.Response, error) {
	req.Host = u.addr
	return u.c.DoWithContext(req, numSends)
}

// localAddrTowards is the local address the system would use to reach
// hostport (a host, or host:port; port 80 when none); no packet is sent.
func localAddrTowards(hostport string) netip.Addr {
	if _, _, err := net.SplitHostPort(hostport); err != nil {
		hostport = net.JoinHostPort(hostport, "80")
	}
	c, err := net.Dial("udp", hostport)
	if err != nil {
		return netip.Addr{}
	}
	defer c.Close()
	if a, ok := c.LocalAddr().(*net.UDPAddr); ok {
		if ip, ok := netip.AddrFromSlice(a.IP); ok {
			return ip.Unmap()
		}
	}
	return netip.Addr{}
}
