//go:build !js

package server

import (
	"net/http"
	"net/netip"
	"time"

	"tickshot/net/realip"
)

// requestClient is the client address of an HTTP request (clientaddr.go)
// and its name for logs and the transport's RemoteAddr: the peer's
// "host:port", or the address a trusted proxy forwarded ("203.0.113.7",
// "[2001:db8::1]:4711" when the header gave a port). A trusted proxy whose
// header is missing or malformed counts as itself, not exempt, and is
// logged (spaced per proxy by addrLog).
func (s *handshaker) requestClient(r *http.Request) (clientAddr, string) {
	peer, err := netip.ParseAddrPort(r.RemoteAddr)
	if err != nil || !s.proxies.Trusts(peer.Addr()) {
		return directClient(r.RemoteAddr), r.RemoteAddr
	}
	a, _, err := s.proxies.Client(peer, r.Header.Values(realip.HeaderXFF), r.Header.Values(realip.HeaderForwarded))
	if err != nil {
		key := addrKey(peer.Addr().String())
		if n := s.addrLog.note("proxy "+key, time.Now()); n > 0 {
			s.log.Warn("trusted proxy forwarded no usable client address: its connections count as the proxy's own address (configure it to set X-Forwarded-For; docs/HOSTING.md)",
				"proxy", r.RemoteAddr, "err", err, "requests", n, "logged_at_most_every", addrLogEvery)
		}
		return clientAddr{key: key}, r.RemoteAddr
	}
	name := a.String()
	if a.Port() == 0 {
		name = a.Addr().String()
	}
	return clientAddr{key: addrKey(a.Addr().String())}, name
}
