//go:build !js

package main

import (
	"flag"
	"strings"

	"tickshot/net/realip"
)

// proxyFlags collects repeated --trusted-proxy CIDR flags (Config.TrustedProxies),
// each checked as it is given.
type proxyFlags realip.Proxies

func (p *proxyFlags) String() string {
	if p == nil {
		return ""
	}
	var s []string
	for _, pre := range *p {
		s = append(s, pre.String())
	}
	return strings.Join(s, ",")
}

func (p *proxyFlags) Set(v string) error {
	pre, err := realip.ParsePrefix(v)
	if err != nil {
		return err
	}
	*p = append(*p, pre)
	return nil
}

// trustedProxyVar adds --trusted-proxy to fs.
func trustedProxyVar(fs *flag.FlagSet) *proxyFlags {
	p := &proxyFlags{}
	fs.Var(p, "trusted-proxy", "a reverse proxy (nginx, Caddy) in front of this server, as an IP address or CIDR prefix, repeatable\n"+
		"  (e.g. 127.0.0.1, 10.0.0.0/8; the file's sv_trusted_proxy): from these peers only, the client's address is\n"+
		"  taken from X-Forwarded-For (the right-most address that is not a trusted proxy) or Forwarded, and every\n"+
		"  per-address limit counts it (players per address, join rate, password and rcon guessing). Their\n"+
		"  connections are never exempt as loopback is. Without it the headers are ignored (docs/HOSTING.md)")
	return p
}
