package rtc

import (
	"fmt"
	"net"

	"tickshot/net/proto"
	"tickshot/net/transport"
)

// The parts of Host that both builds share: pion's natively (host.go), the
// browser's stand-in (host_js.go), which refuses every offer.

// HostConfig configures a server's WebRTC side.
type HostConfig struct {
	// Addr is the UDP listen address, host:port; every player's data
	// channel uses this one port (the server's HTTP port by default:
	// 27015/udp beside 27015/tcp).
	Addr string
	// Public, when set, are the IP addresses the server advertises in its
	// candidates instead of its interfaces' (behind a 1:1 NAT, in a
	// container with a published port): pion's ICE address rewrite,
	// replacing the host candidates.
	Public []string
	// Conn, when set, is the UDP socket to use instead of listening on
	// Addr (tests: a socket that drops everything, as a firewall would).
	Conn net.PacketConn
}

// Oversize is how many datagrams all connections sent on the WebSocket
// because they were larger than MaxDatagram; 0 for a nil Host.
func (h *Host) Oversize() uint64 {
	if h == nil {
		return 0
	}
	return h.oversize.Load()
}

// refusal is what a client that offers is told by a server without WebRTC.
const refusal = "this server takes the WebSocket only (sv_transports websocket)"

// Wrap makes the server's end of a connection from its WebSocket (base,
// made with opt): a client's offer, allowed once the server has sent its
// Accept, is answered from h (a nil h answers with a refusal).
func (h *Host) Wrap(base transport.Transport, opt transport.Options) *Conn {
	c := newConn(base, opt, true, nil)
	if h != nil {
		c.total = &h.oversize
	}
	c.onSignal = func(s *proto.Signal) error {
		switch s.Kind {
		case proto.SignalOffer:
			return h.answer(c, s.Data)
		case proto.SignalCandidate:
			return c.addCandidate(s.Data)
		}
		return fmt.Errorf("signal kind %d from a client", s.Kind)
	}
	c.start()
	return c
}
