//go:build !js

package rtc

import (
	"encoding/json"
	"time"

	"github.com/pion/ice/v4"
	"github.com/pion/webrtc/v4"
)

// pionPeer is a pion peer connection as the signalling needs it.
type pionPeer struct{ pc *webrtc.PeerConnection }

func (p pionPeer) AddCandidate(init string) error {
	var ci webrtc.ICECandidateInit
	if err := json.Unmarshal([]byte(init), &ci); err != nil {
		return err
	}
	return p.pc.AddICECandidate(ci)
}

func (p pionPeer) SetAnswer(sdp string) error {
	return p.pc.SetRemoteDescription(webrtc.SessionDescription{Type: webrtc.SDPTypeAnswer, SDP: sdp})
}

func (p pionPeer) Close() { _ = p.pc.Close() }

func (p pionPeer) Connected() bool {
	s := p.pc.ICEConnectionState()
	return s == webrtc.ICEConnectionStateConnected || s == webrtc.ICEConnectionStateCompleted
}

// watchChannel wires a pion data channel's events into c.
func watchChannel(c *Conn, dc *webrtc.DataChannel) {
	dc.OnOpen(func() { c.opened(dc) })
	dc.OnClose(func() { c.closedChannel(dc) })
	dc.OnMessage(func(m webrtc.DataChannelMessage) { c.message(m.Data, m.IsString, time.Now()) })
}

// watchPeer tells c when the peer connection fails, closes
// or is disconnected (the datagrams go on the WebSocket meanwhile), and when
// it has connected again.
func watchPeer(c *Conn, pc *webrtc.PeerConnection) {
	pc.OnConnectionStateChange(func(s webrtc.PeerConnectionState) {
		switch s {
		case webrtc.PeerConnectionStateFailed, webrtc.PeerConnectionStateClosed, webrtc.PeerConnectionStateDisconnected:
			c.peerDown(s.String())
		case webrtc.PeerConnectionStateConnected:
			c.peerUp()
		}
	})
}

// newClientPeer makes a native client's peer connection and its data
// channel (ordered false, maxRetransmits 0) wired into c, and its offer;
// begin sets the offer as the local description, which starts gathering
// (the candidates go to candidate). UDP host candidates only (no STUN: the
// ICE-lite server learns the client's address from its checks, as a
// peer-reflexive candidate), loopback included so a server on this host
// is reached, and no mDNS socket.
func newClientPeer(c *Conn, candidate func(init string)) (p peer, offer string, begin func() error, err error) {
	var se webrtc.SettingEngine
	se.SetNetworkTypes([]webrtc.NetworkType{webrtc.NetworkTypeUDP4, webrtc.NetworkTypeUDP6})
	se.SetIncludeLoopbackCandidate(true)
	se.SetICEMulticastDNSMode(ice.MulticastDNSModeDisabled)
	pc, err := webrtc.NewAPI(webrtc.WithSettingEngine(se)).NewPeerConnection(webrtc.Configuration{})
	if err != nil {
		return nil, "", nil, err
	}
	ordered, retransmits := false, uint16(0)
	dc, err := pc.CreateDataChannel(label, &webrtc.DataChannelInit{Ordered: &ordered, MaxRetransmits: &retransmits})
	if err != nil {
		_ = pc.Close()
		return nil, "", nil, err
	}
	watchChannel(c, dc)
	watchPeer(c, pc)
	pc.OnICECandidate(func(ic *webrtc.ICECandidate) {
		if ic == nil {
			return
		}
		if b, err := json.Marshal(ic.ToJSON()); err == nil {
			candidate(string(b))
		}
	})
	o, err := pc.CreateOffer(nil)
	if err != nil {
		_ = pc.Close()
		return nil, "", nil, err
	}
	return pionPeer{pc}, o.SDP, func() error { return pc.SetLocalDescription(o) }, nil
}
