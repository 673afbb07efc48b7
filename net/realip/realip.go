// Package realip finds the client's address of a request that came
// through trusted reverse proxies (nginx, Caddy, a load balancer), as
// nginx's ngx_http_realip_module does with real_ip_recursive on: only a
// peer in the trusted set is believed, and the client is the right-most
// address of its X-Forwarded-For that is not itself a trusted proxy.
//
// Why right-most: a proxy appends the address of the peer it saw to the
// X-Forwarded-For the request brought (nginx's $proxy_add_x_forwarded_for)
// or replaces it (Caddy), so every entry left of the last proxy's own
// entry came from the client and may be anything. Walking from the right
// and skipping trusted proxies stops at the first address that a trusted
// proxy saw itself.
//
// The header read is X-Forwarded-For, which nginx, Caddy, HAProxy
// ("option forwardfor"), Traefik and Apache set; the standard Forwarded
// header (RFC 7239, its for= parameters) only when the request carries no
// X-Forwarded-For. A proxy that sets only Forwarded must therefore drop a
// client's X-Forwarded-For, or the client could choose its own address.
// The PROXY protocol is not read.
//
// The package does not import net/http (the browser build links the
// server's packages): callers pass the header's values.
package realip

import (
	"errors"
	"fmt"
	"net/netip"
	"strconv"
	"strings"
)

// MaxHops is the most entries of a forwarding header examined, from the
// right: a longer chain of trusted proxies ends the walk at the
// MaxHops-th entry, which then is the client.
const MaxHops = 32

// Header names read.
const (
	HeaderXFF       = "X-Forwarded-For"
	HeaderForwarded = "Forwarded"
)

// Proxies is the set of trusted proxies, as networks (a single address is
// a /32 or /128). The zero value trusts none: every request is from its
// TCP peer.
type Proxies []netip.Prefix

// ParsePrefix parses a trusted proxy: a CIDR prefix ("10.0.0.0/8",
// "2001:db8::/32") or a single address ("127.0.0.1" as /32, "::1" as
// /128). The prefix is masked ("10.1.2.3/8" is 10.0.0.0/8); an IPv4-mapped
// IPv6 address counts as IPv4. Zones are refused.
func ParsePrefix(s string) (netip.Prefix, error) {
	s = strings.TrimSpace(s)
	if strings.Contains(s, "/") {
		p, err := netip.ParsePrefix(s)
		if err != nil {
			return netip.Prefix{}, fmt.Errorf("trusted proxy %q: want an IP address or CIDR prefix (e.g. 127.0.0.1, 10.0.0.0/8, ::1)", s)
		}
		if a := p.Addr(); a.Is4In6() && p.Bits() >= 96 {
			p = netip.PrefixFrom(a.Unmap(), p.Bits()-96)
		}
		return p.Masked(), nil
	}
	a, err := netip.ParseAddr(s)
	if err != nil || a.Zone() != "" {
		return netip.Prefix{}, fmt.Errorf("trusted proxy %q: want an IP address or CIDR prefix (e.g. 127.0.0.1, 10.0.0.0/8, ::1)", s)
	}
	a = a.Unmap()
	return netip.PrefixFrom(a, a.BitLen()), nil
}

// ParseList parses several trusted proxies (ParsePrefix), the first error
// stopping it.
func ParseList(list []string) (Proxies, error) {
	var p Proxies
	for _, s := range list {
		pre, err := ParsePrefix(s)
		if err != nil {
			return nil, err
		}
		p = append(p, pre)
	}
	return p, nil
}

// Trusts reports whether a is a trusted proxy's address.
func (p Proxies) Trusts(a netip.Addr) bool {
	a = a.Unmap().WithZone("")
	for _, pre := range p {
		if pre.Contains(a) {
			return true
		}
	}
	return false
}

// ErrNoHeader is Client's error for a request from a trusted proxy that
// carries neither header: the proxy is not configured to forward the
// client's address.
var ErrNoHeader = errors.New("a trusted proxy forwarded no X-Forwarded-For or Forwarded header")

// Client returns the address of the client of a request whose TCP peer
// is peer and whose X-Forwarded-For and Forwarded header lines are xff and
// fwd (http.Header.Values), and whether it was taken from a header. From a
// peer that is not trusted the headers are ignored and the client is the
// peer. From a trusted peer the client is the right-most address of the
// chain (X-Forwarded-For, else Forwarded's for=, then the peer) that is not
// a trusted proxy, or the left-most examined when all are. The port is the
// header's when it gave one, else 0. A malformed entry reached in the walk,
// an obfuscated or "unknown" for=, or no header at all is an error: the
// client is then unknown, and the caller counts the request as the peer's.
func (p Proxies) Client(peer netip.AddrPort, xff, fwd []string) (netip.AddrPort, bool, error) {
	peer = netip.AddrPortFrom(peer.Addr().Unmap().WithZone(""), peer.Port())
	if !p.Trusts(peer.Addr()) {
		return peer, false, nil
	}
	var hops []string
	var parse func(string) (netip.AddrPort, error)
	switch {
	case len(xff) > 0:
		hops, parse = splitList(xff), parseXFF
	case len(fwd) > 0:
		var err error
		if hops, err = forwardedFor(fwd); err != nil {
			return peer, false, err
		}
		parse = parseNode
	default:
		return peer, false, ErrNoHeader
	}
	if len(hops) == 0 {
		return peer, false, ErrNoHeader
	}
	for i, n := len(hops)-1, 0; i >= 0 && n < MaxHops; i, n = i-1, n+1 {
		a, err := parse(hops[i])
		if err != nil {
			return peer, false, err
		}
		if !p.Trusts(a.Addr()) || i == 0 || n == MaxHops-1 {
			return a, true, nil
		}
	}
	return peer, false, ErrNoHeader // not reached: the loop returns
}

// splitList joins the lines of a comma-separated header and splits them
// into trimmed entries (RFC 9110 5.3: several lines are one list).
func splitList(lines []string) []string {
	var out []string
	for _, l := range lines {
		for _, e := range strings.Split(l, ",") {
			out = append(out, strings.TrimSpace(e))
		}
	}
	return out
}

// parseXFF parses one X-Forwarded-For entry: an address, or an address
// with a port as some load balancers write it ("192.0.2.1:4711",
// "[2001:db8::1]:4711").
func parseXFF(s string) (netip.AddrPort, error) {
	if a, err := netip.ParseAddr(s); err == nil && a.Zone() == "" {
		return netip.AddrPortFrom(a.Unmap(), 0), nil
	}
	if ap, err := netip.ParseAddrPort(s); err == nil && ap.Addr().Zone() == "" {
		return netip.AddrPortFrom(ap.Addr().Unmap(), ap.Port()), nil
	}
	return netip.AddrPort{}, fmt.Errorf("X-Forwarded-For entry %q is not an IP address", clip(s))
}

// forwardedFor returns the for= values of a Forwarded header's elements,
// in order, unquoted (RFC 7239 section 4: elements separated by commas,
// pairs by semicolons, a value a token or a quoted-string). An element
// without for= is an error: the chain would have a hole.
func forwardedFor(lines []string) ([]string, error) {
	var out []string
	for _, l := range lines {
		elems, err := splitQuoted(l, ',')
		if err != nil {
			return nil, err
		}
		for _, e := range elems {
			pairs, err := splitQuoted(e, ';')
			if err != nil {
				return nil, err
			}
			v, found := "", false
			for _, pair := range pairs {
				name, val, ok := strings.Cut(strings.TrimSpace(pair), "=")
				if !ok || !strings.EqualFold(strings.TrimSpace(name), "for") {
					continue
				}
				if v, err = unquote(strings.TrimSpace(val)); err != nil {
					return nil, err
				}
				found = true
			}
			if !found {
				return nil, fmt.Errorf("forwarded element %q has no for=", clip(e))
			}
			out = append(out, v)
		}
	}
	return out, nil
}

// splitQuoted splits s at sep outside double quotes (a backslash escapes
// the next character inside them).
func splitQuoted(s string, sep byte) ([]string, error) {
	var out []string
	start, quoted := 0, false
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case quoted && c == '\\':
			i++
		case c == '"':
			quoted = !quoted
		case !quoted && c == sep:
			out = append(out, s[start:i])
			start = i + 1
		}
	}
	if quoted {
		return nil, fmt.Errorf("forwarded header %q: unterminated quote", clip(s))
	}
	return append(out, s[start:]), nil
}

// unquote returns a Forwarded value: a token as it is, a quoted-string
// without its quotes and escapes.
func unquote(v string) (string, error) {
	if !strings.HasPrefix(v, `"`) {
		return v, nil
	}
	if len(v) < 2 || !strings.HasSuffix(v, `"`) {
		return "", fmt.Errorf("forwarded value %s: bad quoting", clip(v))
	}
	var b strings.Builder
	for i := 1; i < len(v)-1; i++ {
		if v[i] == '\\' && i+1 < len(v)-1 {
			i++
		}
		b.WriteByte(v[i])
	}
	return b.String(), nil
}

// parseNode parses a Forwarded node (RFC 7239 section 6): an IPv4
// address, a bracketed IPv6 address, either with an optional ":port".
// "unknown" and obfuscated identifiers ("_hidden") name no address and
// are errors, as is an unbracketed IPv6 address or an obfuscated port.
func parseNode(s string) (netip.AddrPort, error) {
	host, port := s, ""
	if strings.HasPrefix(s, "[") {
		end := strings.IndexByte(s, ']')
		if end < 0 {
			return netip.AddrPort{}, fmt.Errorf("forwarded for=%q: unclosed bracket", clip(s))
		}
		host, port = s[1:end], s[end+1:]
		if port != "" && !strings.HasPrefix(port, ":") {
			return netip.AddrPort{}, fmt.Errorf("forwarded for=%q: junk after the address", clip(s))
		}
		port = strings.TrimPrefix(port, ":")
	} else if h, p, ok := strings.Cut(s, ":"); ok {
		host, port = h, p
	}
	a, err := netip.ParseAddr(host)
	if err != nil || a.Zone() != "" || (a.Is4() == strings.HasPrefix(s, "[")) {
		return netip.AddrPort{}, fmt.Errorf("forwarded for=%q: not an IPv4 or bracketed IPv6 address", clip(s))
	}
	var n uint64
	if port != "" {
		if n, err = strconv.ParseUint(port, 10, 16); err != nil {
			return netip.AddrPort{}, fmt.Errorf("forwarded for=%q: bad port", clip(s))
		}
	}
	return netip.AddrPortFrom(a.Unmap(), uint16(n)), nil
}

// clip shortens hostile text quoted in an error.
func clip(s string) string {
	if len(s) > 64 {
		return s[:64] + "..."
	}
	return s
}
