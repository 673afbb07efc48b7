//go:build !js

package main

import (
	"flag"
	"fmt"
	"io"
	"net"
	"net/netip"
)

// Port mapping on the command line (package net/portmap, through
// server.Config.UPnP and server.MapPorts): --upnp on server (off by
// default: a dedicated server usually has a public address), play and
// menu (on by default: a game hosted from home is behind a router).

// upnpFlag adds --upnp with default def; what says where it applies.
func upnpFlag(fs *flag.FlagSet, def bool, what string) *bool {
	return fs.Bool("upnp", def, "ask the router (UPnP IGD or NAT-PMP) to forward the TCP and UDP port to this computer "+what+
		", renewed while it runs and deleted on exit; the log says whether friends on the internet can join, at which link, or what to forward by hand (docs/HOSTING.md)")
}

// beyondLoopback reports whether a listen address HOST:PORT takes
// connections from other computers (an empty host, 0.0.0.0, a LAN
// address; not 127.0.0.1, ::1 or localhost).
func beyondLoopback(addr string) bool {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return false
	}
	if host == "localhost" {
		return false
	}
	ip, err := netip.ParseAddr(host)
	return err != nil || !ip.IsLoopback()
}

// printInviteLink returns a server.Config.PortMapped that prints the
// invite link when the router forwards the ports (a refusal is the
// server's WARN line already).
func printInviteLink(w io.Writer) func(sentence, link string) {
	return func(sentence, link string) {
		if link != "" {
			fmt.Fprintf(w, "%s: %s\n", prog, sentence)
		}
	}
}
