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
		c.logf = c.localPrint
	}
	c.mode, c.onSignal = mode, c.clientSignal
	c.start()
	return c
}

// offer creates the peer connection and its data channel and sends the
// offer, then the client's candidates as they are gathered. Without a
// datagram within FallbackAfter it gives up (fallback).
func (c *Conn) offer() {
	if c.mode == ModeWebSocket {
		return
	}
	c.watchdog(1)
	pc, sdp, begin, err := newClientPeer(c)
	if err != nil {
		c.fallback("webrtc: " + err.Error())
		return
	}
	c.mu.Lock()
	if c.ended {
		c.mu.Unlock()
		pc.Close()
		return
	}
	c.pc = pc
	c.mu.Unlock()
	// The offer leaves before gathering starts (begin), so that no
	// candidate can overtake it.
	c.signal(proto.SignalOffer, sdp)
	if err := begin(); err != nil {
		c.fallback("webrtc: " + err.Error())
	}
}

// watchdog gives up the datagram path when no datagram has come
// FallbackAfter after the offer: UDP is blocked. When by then ICE has
// connected (the server answered the client's checks: UDP passes) and only
// the DTLS and SCTP handshakes are late, as on a busy machine, it waits
// another FallbackAfter, up to maxWaits in all, before giving up.
func (c *Conn) watchdog(n int) {
	time.AfterFunc(FallbackAfter, func() {
		if c.heard.Load() {
			return
		}
		c.mu.Lock()
		pc := c.pc
		c.mu.Unlock()
		if n < maxWaits && pc != nil && pc.Connected() {
			c.watchdog(n + 1)
			return
		}
		c.fallback(fmt.Sprintf("no datagram from the server within %v (UDP blocked?)", time.Duration(n)*FallbackAfter))
	})
}

// candidate sends one of the client's candidates (RTCIceCandidateInit as JSON).
func (c *Conn) candidate(init string) {
	if len(init) <= proto.MaxSignalLen {
		c.signal(proto.SignalCandidate, init)
	}
}

// clientSignal takes the server's answer or refusal.
func (c *Conn) clientSignal(s *proto.Signal) error {
	switch s.Kind {
	case proto.SignalAnswer:
		c.mu.Lock()
		pc := c.pc
		c.mu.Unlock()
		if pc == nil {
			return nil // given up already
		}
		if err := pc.SetAnswer(s.Data); err != nil {
			c.fallback("webrtc: the server's answer: " + err.Error())
		}
	case proto.SignalCandidate:
		return c.addCandidate(s.Data)
	case proto.SignalRefuse:
		c.fallback("the server refused WebRTC: " + s.Data)
	default:
		return fmt.Errorf("signal kind %d from the server", s.Kind)
	}
	return nil
}

// fallback gives the datagram path up and says why, once: the game goes on
// over the WebSocket, or ends under ModeWebRTC.
func (c *Conn) fallback(why string) {
	c.mu.Lock()
	ended := c.ended
	c.mu.Unlock()
	if ended {
		return
	}
	c.giveUp()
	if c.mode == ModeWebRTC {
		c.base.Close(proto.CleanText("cl_transport webrtc: "+why, proto.MaxReasonLen))
		return
	}
	c.logf("transport: websocket: " + why + "; staying on the WebSocket")
}

// localPrint delivers a console line as a Print among the received messages.
func (c *Conn) localPrint(s string) {
	c.in.Deliver(transport.Frame{Data: proto.MustEncode(&proto.Print{Text: proto.CleanText(s, proto.MaxPrintLen)}), At: time.Now()})
}
