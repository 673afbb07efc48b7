package rtc

import (
	"fmt"
	"time"

	"tickshot/net/proto"
	"tickshot/net/transport"
)

// NewClient wraps a client's WebSocket (base, dialed with opt): once the
// server's Accept has arrived, and unless mode is ModeWebSocket, it offers
// the server a data channel. logf gets the lines for the console: the
// transport in use, or why the client stays on the WebSocket (said once).
// With ModeWebRTC a datagram path that does not come up ends the
// connection.
func NewClient(base transport.Transport, opt transport.Options, mode Mode, logf func(string)) *Conn {
	c := newConn(base, opt, false, logf)
	if logf == nil {
		c.logf = func(s string) { localPrint(c, s) }
	}
	o := &offerer{c: c, mode: mode}
	c.onSignal, c.onAccepted = o.clientSignal, o.offer
	c.start()
	return c
}

// offerer is the client's side of the signalling: it offers the data
// channel once accepted, takes the server's answer, and gives the path up
// when no datagram comes (watchdog).
type offerer struct {
	c    *Conn
	mode Mode
	// localSet is closed once the offer is the peer's local description
	// (begin): the server's answer waits for it, as on a busy machine it
	// can come back before (pion then refuses it: stable->SetRemote(answer)).
	localSet chan struct{}
}

// offer creates the peer connection and its data channel and sends the
// offer, then the client's candidates as they are gathered. Without a
// datagram within FallbackAfter it gives up (fallback).
func (o *offerer) offer() {
	c := o.c
	if o.mode == ModeWebSocket {
		return
	}
	o.watchdog(1)
	pc, sdp, begin, err := newClientPeer(c, o.candidate)
	if err != nil {
		o.fallback("webrtc: " + err.Error())
		return
	}
	c.mu.Lock()
	if c.ended {
		c.mu.Unlock()
		pc.Close()
		return
	}
	c.pc = pc
	local := make(chan struct{})
	o.localSet = local
	c.mu.Unlock()
	// The offer leaves before gathering starts (begin), so that no
	// candidate can overtake it.
	c.signal(proto.SignalOffer, sdp)
	err = begin()
	close(local)
	if err != nil {
		o.fallback("webrtc: " + err.Error())
	}
}

// watchdog gives up the datagram path when no datagram has come
// FallbackAfter after the offer: UDP is blocked. When by then ICE has
// connected (the server answered the client's checks: UDP passes) and only
// the DTLS and SCTP handshakes are late, as on a busy machine, it waits
// another FallbackAfter, up to maxWaits in all, before giving up.
func (o *offerer) watchdog(n int) {
	c := o.c
	time.AfterFunc(FallbackAfter, func() {
		if c.heard.Load() {
			return
		}
		c.mu.Lock()
		pc := c.pc
		c.mu.Unlock()
		if n < maxWaits && pc != nil && pc.Connected() {
			o.watchdog(n + 1)
			return
		}
		o.fallback(fmt.Sprintf("no datagram from the server within %v (UDP blocked?)", time.Duration(n)*FallbackAfter))
	})
}

// candidate sends one of the client's candidates (RTCIceCandidateInit as JSON).
func (o *offerer) candidate(init string) {
	if len(init) <= proto.MaxSignalLen {
		o.c.signal(proto.SignalCandidate, init)
	}
}

// clientSignal takes the server's answer or refusal.
func (o *offerer) clientSignal(s *proto.Signal) error {
	c := o.c
	switch s.Kind {
	case proto.SignalAnswer:
		c.mu.Lock()
		pc, local := c.pc, o.localSet
		c.mu.Unlock()
		if pc == nil {
			return nil // given up already
		}
		<-local // the offer is the local description
		if err := pc.SetAnswer(s.Data); err != nil {
			o.fallback("webrtc: the server's answer: " + err.Error())
		}
	case proto.SignalCandidate:
		return c.addCandidate(s.Data)
	case proto.SignalRefuse:
		o.fallback("the server refused WebRTC: " + s.Data)
	default:
		return fmt.Errorf("signal kind %d from the server", s.Kind)
	}
	return nil
}

// fallback gives the datagram path up and says why, once: the game goes on
// over the WebSocket, or ends under ModeWebRTC.
func (o *offerer) fallback(why string) {
	c := o.c
	c.mu.Lock()
	ended := c.ended
	c.mu.Unlock()
	if ended {
		return
	}
	c.giveUp()
	if o.mode == ModeWebRTC {
		c.Transport.Close(proto.CleanText("cl_transport webrtc: "+why, proto.MaxReasonLen))
		return
	}
	c.logf("transport: websocket: " + why + "; staying on the WebSocket")
}

// localPrint delivers a console line as a Print among c's received messages.
func localPrint(c *Conn, s string) {
	c.in.Deliver(transport.Frame{Data: proto.MustEncode(&proto.Print{Text: proto.CleanText(s, proto.MaxPrintLen)}), At: time.Now()})
}
