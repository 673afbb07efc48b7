//go:build !js

package portmap

import (
	"bufio"
	"context"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"net"
	"net/netip"
	"os"
	"strings"
	"time"

	natpmp "github.com/jackpal/go-nat-pmp"
)

// natpmpPort is the router's NAT-PMP port (RFC 6886 §3.1).
const natpmpPort = 5351

// natpmpGateway is a NAT-PMP router. The library's calls block up to the
// client's timeout; each is given what is left of ctx.
type natpmpGateway struct {
	gw    netip.Addr
	local netip.Addr
}

func (g *natpmpGateway) method() string  { return "NAT-PMP" }
func (g *natpmpGateway) lan() netip.Addr { return g.local }

// client is a NAT-PMP client whose retries end with ctx's deadline.
func (g *natpmpGateway) client(ctx context.Context) (*natpmp.Client, error) {
	d := 2 * time.Second
	if dl, ok := ctx.Deadline(); ok {
		d = time.Until(dl)
	}
	if d <= 0 || ctx.Err() != nil {
		return nil, context.DeadlineExceeded
	}
	return natpmp.NewClientWithTimeout(g.gw.AsSlice(), d), nil
}

func (g *natpmpGateway) externalIP(ctx context.Context) (netip.Addr, error) {
	c, err := g.client(ctx)
	if err != nil {
		return netip.Addr{}, err
	}
	r, err := c.GetExternalAddress()
	if err != nil {
		return netip.Addr{}, err
	}
	return netip.AddrFrom4(r.ExternalIPAddress), nil
}

func (g *natpmpGateway) add(ctx context.Context, protocol string, port int, _ netip.Addr, lease time.Duration, _ string) (int, time.Duration, error) {
	c, err := g.client(ctx)
	if err != nil {
		return 0, 0, err
	}
	r, err := c.AddPortMappingWithDuration(strings.ToLower(protocol), port, port, lease)
	if err != nil {
		return 0, 0, err
	}
	if r.MappedExternalPort == 0 {
		return 0, 0, errors.New("the router granted no external port")
	}
	return int(r.MappedExternalPort), time.Duration(r.PortMappingLifetimeInSeconds) * time.Second, nil
}

// remove deletes a mapping: lifetime 0 and external port 0 (RFC 6886
// §3.4). NAT-PMP names the mapping by its internal port: the router may
// have granted another external port than the one asked.
func (g *natpmpGateway) remove(ctx context.Context, protocol string, port, _ int) error {
	c, err := g.client(ctx)
	if err != nil {
		return err
	}
	_, err = c.AddPortMapping(strings.ToLower(protocol), port, 0, 0)
	return err
}

// findNATPMP asks the NAT-PMP router (Config.NATPMPGateway, else the
// default route's gateway) for its external address; it is a gateway
// when it answers.
func findNATPMP(ctx context.Context, cfg Config) []gateway {
	gw := cfg.NATPMPGateway
	if !gw.IsValid() {
		gw = defaultGateway()
	}
	if !gw.Is4() {
		return nil
	}
	g := &natpmpGateway{gw: gw, local: localAddrTowards(netip.AddrPortFrom(gw, natpmpPort).String())}
	if _, err := g.externalIP(ctx); err != nil {
		var ne net.Error
		if !errors.As(err, &ne) && !strings.Contains(err.Error(), "Timed out") {
			return []gateway{g} // it answered, with an error: let mapOn report it
		}
		return nil
	}
	return []gateway{g}
}

// defaultGateway is the IPv4 default route's gateway, read from Linux's
// /proc/net/route; elsewhere (or without one) the .1 of this computer's
// /24, the usual home router's address.
func defaultGateway() netip.Addr {
	if gw := procRouteGateway("/proc/net/route"); gw.IsValid() {
		return gw
	}
	lan := defaultLAN()
	if !lan.Is4() {
		return netip.Addr{}
	}
	b := lan.As4()
	b[3] = 1
	return netip.AddrFrom4(b)
}

// procRouteGateway reads the default route (destination 00000000) of a
// /proc/net/route file: hexadecimal fields in host (little-endian) order.
func procRouteGateway(path string) netip.Addr {
	f, err := os.Open(path)
	if err != nil {
		return netip.Addr{}
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		fs := strings.Fields(sc.Text())
		if len(fs) < 3 || fs[1] != "00000000" {
			continue
		}
		b, err := hex.DecodeString(fs[2])
		if err != nil || len(b) != 4 {
			continue
		}
		var a [4]byte
		binary.BigEndian.PutUint32(a[:], binary.LittleEndian.Uint32(b))
		if gw := netip.AddrFrom4(a); !gw.IsUnspecified() {
			return gw
		}
	}
	return netip.Addr{}
}

// defaultLAN is the local address of the default route (no packet is
// sent); invalid without one.
func defaultLAN() netip.Addr {
	return localAddrTowards("192.0.2.1:9") // TEST-NET-1 (RFC 5737): any outside address
}
