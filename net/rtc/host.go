//go:build !js

package rtc

import (
	"errors"
	"fmt"
	"net"
	"sync/atomic"
	"time"

	"github.com/pion/ice/v4"
	"github.com/pion/webrtc/v4"

	"tickshot/net/proto"
)

// Host is a server's WebRTC side: an ICE-lite peer (RFC 8445 §2.5: it
// answers connectivity checks and sends none, as a server with a public
// address may) that takes every player's data channel on one UDP socket
// (pion's ICE UDP mux: the ice-single-port example). Make one with
// NewHost; a nil *Host refuses every offer.
type Host struct {
	api      atomic.Pointer[webrtc.API] // replaced by AddPublic
	added    atomic.Pointer[[]string]   // AddPublic's addresses
	mux      ice.UDPMux
	conn     net.PacketConn
	oversize atomic.Uint64 // every connection's Conn.Oversize
}

// NewHost listens on cfg.Addr (UDP) and prepares the peer connections'
// settings. It returns an error when the port cannot be bound or an
// address in Public is not an IP.
func NewHost(cfg HostConfig) (*Host, error) {
	for _, ip := range cfg.Public {
		if net.ParseIP(ip) == nil {
			return nil, fmt.Errorf("public address %q is not an IP address", ip)
		}
	}
	conn := cfg.Conn
	if conn == nil {
		var err error
		if conn, err = net.ListenPacket("udp", cfg.Addr); err != nil {
			return nil, fmt.Errorf("webrtc: listen on %s/udp: %w", cfg.Addr, err)
		}
	}
	h := &Host{mux: webrtc.NewICEUDPMux(nil, conn), conn: conn}
	api, err := h.newAPI(cfg.Public, webrtc.ICEAddressRewriteReplace)
	if err != nil {
		_ = h.mux.Close()
		return nil, err
	}
	h.api.Store(api)
	return h, nil
}

// newAPI makes the peer connections' settings on the host's port; public
// addresses (when any) rewrite the host candidates by mode: Replace for
// HostConfig.Public, Append for AddPublic.
func (h *Host) newAPI(public []string, mode webrtc.ICEAddressRewriteMode) (*webrtc.API, error) {
	var se webrtc.SettingEngine
	se.SetLite(true)
	se.SetICEUDPMux(h.mux)
	se.SetNetworkTypes([]webrtc.NetworkType{webrtc.NetworkTypeUDP4, webrtc.NetworkTypeUDP6})
	se.SetIncludeLoopbackCandidate(true) // a client on this host, and tests
	se.SetICEMulticastDNSMode(ice.MulticastDNSModeDisabled)
	if len(public) > 0 {
		if err := se.SetICEAddressRewriteRules(webrtc.ICEAddressRewriteRule{External: public,
			AsCandidateType: webrtc.ICECandidateTypeHost, Mode: mode}); err != nil {
			return nil, err
		}
	}
	return webrtc.NewAPI(webrtc.WithSettingEngine(se)), nil
}

// AddPublic advertises ips beside the interfaces' own addresses in the
// answers made from now on: a router's external address once it forwards
// the UDP port (server.Config.UPnP, package net/portmap). A player on
// the LAN still has the LAN candidates; one on the internet gets the
// router's. It replaces HostConfig.Public: call it only without one.
func (h *Host) AddPublic(ips []string) error {
	for _, ip := range ips {
		if net.ParseIP(ip) == nil {
			return fmt.Errorf("public address %q is not an IP address", ip)
		}
	}
	api, err := h.newAPI(ips, webrtc.ICEAddressRewriteAppend)
	if err != nil {
		return err
	}
	h.api.Store(api)
	ips = append([]string(nil), ips...)
	h.added.Store(&ips)
	return nil
}

// Added returns the addresses AddPublic advertises (nil: none).
func (h *Host) Added() []string {
	if p := h.added.Load(); p != nil {
		return append([]string(nil), (*p)...)
	}
	return nil
}

// Addr is the bound UDP address.
func (h *Host) Addr() string { return h.conn.LocalAddr().String() }

// Close stops taking datagrams (the server's shutdown).
func (h *Host) Close() error { return h.mux.Close() }

// answer takes a client's offer: a peer connection whose data channel,
// if the client opens the one expected, carries the datagrams; the
// answer carries every server candidate (no trickle: with one port they
// are known at once). An offer pion cannot take is refused with the
// reason; a second offer is a protocol error.
func (h *Host) answer(c *Conn, sdp string) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.ended {
		return nil
	}
	if c.pc != nil {
		return errors.New("a second offer")
	}
	if h == nil {
		c.signal(proto.SignalRefuse, refusal)
		c.ended = true
		return nil
	}
	pc, err := h.api.Load().NewPeerConnection(webrtc.Configuration{})
	if err == nil {
		err = h.negotiate(c, pc, sdp)
	}
	if err != nil {
		c.signal(proto.SignalRefuse, proto.CleanText("webrtc: "+err.Error(), proto.MaxSignalLen))
		c.ended = true
		if pc != nil {
			go pc.Close()
		}
		return nil
	}
	c.pc = pionPeer{pc}
	return nil
}

// negotiate answers sdp on pc and sends the answer.
func (h *Host) negotiate(c *Conn, pc *webrtc.PeerConnection, sdp string) error {
	pc.OnDataChannel(func(dc *webrtc.DataChannel) {
		mr := dc.MaxRetransmits()
		if dc.Label() != label || dc.Ordered() || mr == nil || *mr != 0 {
			_ = dc.Close() // only the unordered, unretransmitted channel is ours
			return
		}
		watchChannel(c, dc)
	})
	watchPeer(c, pc)
	if err := pc.SetRemoteDescription(webrtc.SessionDescription{Type: webrtc.SDPTypeOffer, SDP: sdp}); err != nil {
		return err
	}
	answer, err := pc.CreateAnswer(nil)
	if err != nil {
		return err
	}
	gathered := webrtc.GatheringCompletePromise(pc)
	if err := pc.SetLocalDescription(answer); err != nil {
		return err
	}
	select {
	case <-gathered:
	case <-time.After(gatherTimeout):
		return errors.New("no candidates gathered")
	}
	local := pc.LocalDescription().SDP
	if len(local) > proto.MaxSignalLen {
		return fmt.Errorf("answer of %d bytes (too many addresses; set the public address)", len(local))
	}
	c.signal(proto.SignalAnswer, local)
	return nil
}
