//go:build !js

package server

import (
	"log/slog"
	"net"
	"net/netip"
	"strconv"
	"sync/atomic"

	"tickshot/net/portmap"
	"tickshot/net/rtc"
)

// portMapConfig is the port mapping's config for the server's ports; tests
// point it at a fake gateway.
var portMapConfig = func(c portmap.Config) portmap.Config { return c }

// startPortMap is MapPorts for the ports a server bound, when cfg.UPnP
// is set; the outcome goes to cfg.PortMapped. Once the router forwards
// the UDP port under its own number, its external address is advertised
// to WebRTC clients beside the local ones (rtc.Host.AddPublic), unless
// cfg.PublicIPs (--public-ip) set them by hand.
func startPortMap(cfg *Config, tcpAddr, udpAddr string, host *rtc.Host, log *slog.Logger) (stop func()) {
	if !cfg.UPnP {
		return func() {}
	}
	return mapPorts(tcpAddr, udpAddr, log, func(o portmap.Outcome) {
		if o.Result == portmap.Mapped && host != nil && len(cfg.PublicIPs) == 0 && o.UDPPort > 0 && o.ExternalUDPPort == o.UDPPort {
			if err := host.AddPublic([]string{o.External.String()}); err != nil {
				log.Warn("webrtc: the router's address not advertised", "err", err)
			}
		}
		if cfg.PortMapped != nil {
			cfg.PortMapped(o.Sentence(), o.Link())
		}
	})
}

// MapPorts asks the router to forward the port of tcpAddr (TCP) and of
// udpAddr (UDP; "" none) to this computer (package net/portmap), in the
// background, and returns the function that stops renewing and deletes
// the mappings (it waits for the router, at most portmap.DefaultTimeout).
// The outcome is logged in one line (INFO when friends can join, WARN
// otherwise) and given to heard (nil: none) once, from another goroutine.
// A loopback tcpAddr is not mapped (nobody else could join): a WARN says so.
func MapPorts(tcpAddr, udpAddr string, log *slog.Logger, heard func(sentence, link string)) (stop func()) {
	return mapPorts(tcpAddr, udpAddr, log, func(o portmap.Outcome) {
		if heard != nil {
			heard(o.Sentence(), o.Link())
		}
	})
}

// mapPorts is MapPorts with the whole outcome for heard (never nil).
func mapPorts(tcpAddr, udpAddr string, log *slog.Logger, heard func(portmap.Outcome)) (stop func()) {
	host, port := splitPort(tcpAddr)
	if ip, err := netip.ParseAddr(host); err == nil && ip.IsLoopback() {
		log.Warn("port mapping skipped: the server listens on loopback only, where nobody else can join; listen on :PORT (--addr)", "addr", tcpAddr)
		return func() {}
	}
	_, udpPort := splitPort(udpAddr)
	m := portmap.Start(portMapConfig(portmap.Config{Port: port, UDPPort: udpPort}))
	var stopping atomic.Bool
	reported := make(chan struct{})
	go func() {
		defer close(reported)
		<-m.Done()
		if stopping.Load() {
			return // stopped before the router answered
		}
		o := m.Outcome()
		if o.Result == portmap.Mapped {
			log.Info("port mapping: "+o.Sentence(), "method", o.Method, "external", o.External, "tcp", o.ExternalPort,
				"udp", o.ExternalUDPPort, "lease", o.Lease)
		} else {
			log.Warn("port mapping: "+o.Sentence(), "method", o.Method, "lan", o.LAN, "external", o.External, "err", o.Err)
		}
		heard(o)
	}()
	return func() {
		stopping.Store(true)
		m.Close()
		<-reported
	}
}

// splitPort splits HOST:PORT; the port is 0 when there is none.
func splitPort(addr string) (string, int) {
	host, p, err := net.SplitHostPort(addr)
	if err != nil {
		return "", 0
	}
	n, _ := strconv.Atoi(p)
	return host, n
}
