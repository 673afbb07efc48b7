// Package rtc gives a Tickshot connection a datagram path: a WebRTC data
// channel with ordered false and maxRetransmits 0 (SCTP partial
// reliability, RFC 8831: a lost message stays lost and a late one is not
// held back), the UDP-class delivery Source, Quake and DDNet get from raw
// UDP and browser games (geckos.io) from WebRTC. The connection's
// WebSocket stays: it carries the signalling (proto.Signal) and every
// message that must arrive in order (handshake, Print, Command, Settings,
// Disconnect), and it is the fallback when UDP is blocked.
//
// Conn wraps the WebSocket transport into one transport.Transport that
// also implements transport.Datagrammer: proto.Conn sends Snapshot and
// Cmds with SendDatagram (the message table's datagram column) and
// everything else with Send, and receives from both paths on one channel.
// The server's side is an ICE-lite peer on one UDP port for every player
// (Host, pion's ice-single-port example); the client's side offers the
// channel once it has been accepted (Dial). Both use
// github.com/pion/webrtc/v4: in Go natively, and under GOOS=js its wrapper
// of the browser's RTCPeerConnection.
package rtc

import (
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	"tickshot/net/proto"
	"tickshot/net/transport"
)

// Limits and timings of the datagram path.
const (
	// MaxDatagram is the largest message sent as a datagram, in bytes:
	// with the SCTP (16), DTLS (about 37), UDP (8) and IPv6 (40) headers
	// it stays under the 1280-byte IPv6 minimum MTU, so no datagram is
	// fragmented (a fragment lost loses the message). A larger one takes
	// the reliable path and is counted (Conn.Oversize).
	MaxDatagram = 1200
	// FallbackAfter is how long a client waits, from its offer, for the
	// first datagram; without one it closes the data channel and stays on
	// the WebSocket (UDP blocked by a firewall).
	FallbackAfter = 3 * time.Second
	// MaxBuffered is the most bytes a data channel may hold unsent; a
	// datagram beyond it is dropped, as a full socket buffer drops UDP,
	// rather than queued behind the congestion window.
	MaxBuffered = 64 << 10
	// maxWaits bounds the client's wait for its first datagram when ICE
	// has connected but DTLS and SCTP are slow: maxWaits × FallbackAfter.
	maxWaits = 4
	// maxSignals is the most signalling messages one connection may send
	// (an offer and its candidates); more is a protocol error.
	maxSignals = 40
	// gatherTimeout bounds the server's wait for its candidates (with one
	// UDP port they are known at once).
	gatherTimeout = 2 * time.Second
	// label is the data channel's label.
	label = "tickshot-datagram"
)

// Mode is a client's choice of transport (cl_transport).
type Mode string

// Modes.
const (
	ModeAuto      Mode = "auto"      // WebRTC when the server offers it and a datagram arrives within FallbackAfter, else the WebSocket
	ModeWebRTC    Mode = "webrtc"    // WebRTC or nothing: the connection ends when no datagram arrives
	ModeWebSocket Mode = "websocket" // the WebSocket only
)

// ParseMode reads a cl_transport or --transport value.
func ParseMode(s string) (Mode, error) {
	switch m := Mode(s); m {
	case ModeAuto, ModeWebRTC, ModeWebSocket:
		return m, nil
	case "":
		return ModeAuto, nil
	}
	return "", fmt.Errorf("transport %q: want auto, webrtc or websocket", s)
}

// channel is an open data channel: pion's natively, the browser's
// RTCDataChannel under js.
type channel interface {
	Send(b []byte) error
	BufferedAmount() uint64
}

// chanBox holds a channel for an atomic pointer.
type chanBox struct{ ch channel }

// peer is a peer connection, as the signalling needs it.
type peer interface {
	// AddCandidate adds a remote candidate given as the JSON of an
	// RTCIceCandidateInit.
	AddCandidate(init string) error
	// SetAnswer takes the server's SDP answer (the client's side).
	SetAnswer(sdp string) error
	// Connected reports whether ICE has connected: a check was answered,
	// so UDP passes both ways.
	Connected() bool
	// Close ends it; it may take a while (DTLS close), so callers run it
	// on a goroutine of their own.
	Close()
}

// Conn is one end of a connection: the WebSocket (base) for what must
// arrive in order, and a data channel, once up, for datagrams. Make the
// client's with Dial's wrap (NewClient), the server's with Host.Wrap.
type Conn struct {
	// Transport is the WebSocket: the reliable path, and the connection's
	// life (Close, Abort, Done, Closed, Reason, RemoteAddr are its own,
	// promoted); Send, Recv and Stats below are both paths'.
	transport.Transport
	// in merges both paths for Recv; its counters count the datagram
	// path's traffic (the base counts its own).
	in     *transport.Endpoint
	limit  int
	sigs   chan *proto.Signal // from the WebSocket, for signalLoop
	dgrams chan []byte        // datagrams for writeDatagrams
	nsig   int                // signals read (the goroutine forwarding the WebSocket's frames)
	// stopped: a frame ended the connection; the forwarding goroutine
	// reads no more (take).
	stopped bool
	endOnce sync.Once // baseEnded's
	logf    func(string)
	server  bool
	// onSignal handles a signalling message (the client's or the server's
	// side); an error is a protocol error that ends the connection.
	onSignal func(*proto.Signal) error
	// onAccepted runs, on a goroutine of its own, once the client has
	// received the server's Accept (the client's offer); nil on the server.
	onAccepted func()

	accepted atomic.Bool             // server: Accept sent; client: Accept received
	dc       atomic.Pointer[chanBox] // the data channel datagrams go on; nil: on the base
	open     atomic.Pointer[chanBox] // the open data channel, also while its link is down
	heard    atomic.Bool             // a datagram arrived
	oversize atomic.Uint64
	total    *atomic.Uint64 // the server's count of all connections' oversize, or nil

	mu sync.Mutex // guards pc and ended
	pc peer
	// ended: the connection is over or the datagram path given up; no
	// new peer connection.
	ended bool
}

func newConn(base transport.Transport, opt transport.Options, server bool, logf func(string)) *Conn {
	if logf == nil {
		logf = func(string) {}
	}
	c := &Conn{Transport: base, in: transport.NewEndpoint(), limit: opt.Limit(), sigs: make(chan *proto.Signal, maxSignals),
		dgrams: make(chan []byte, transport.SendQueue), logf: logf, server: server}
	return c
}

func (c *Conn) start() {
	if tp, ok := c.Transport.(transport.Tapper); ok {
		tp.Tap(c.take, c.baseEnded) // the WebSocket's reader forwards: no goroutine here
	} else {
		go c.forward()
	}
	go c.signalLoop()
	go c.writeDatagrams()
}

// forward reads the WebSocket's Recv (a base that is not a
// transport.Tapper) and forwards each frame (forwardOne).
func (c *Conn) forward() {
	defer c.baseEnded()
	for f := range c.Transport.Recv() {
		if !c.forwardOne(f) {
			return
		}
	}
}

// take is the deliver of a base that is a transport.Tapper: forwardOne on
// the base's reader goroutine, until a frame ends the connection.
func (c *Conn) take(f transport.Frame) {
	if c.stopped {
		return // a protocol error ended it: the rest is not read
	}
	if !c.forwardOne(f) {
		c.stopped = true
		c.baseEnded()
	}
}

// forwardOne forwards frame f of the WebSocket: signalling to signalLoop,
// the rest to Recv. It returns false when f ended the connection.
func (c *Conn) forwardOne(f transport.Frame) bool {
	if len(f.Data) > 0 && proto.MsgType(f.Data[0]) == proto.MsgSignal {
		return c.takeSignal(f.Data)
	}
	c.in.Deliver(f)
	if c.onAccepted != nil && len(f.Data) > 0 && proto.MsgType(f.Data[0]) == proto.MsgAccept && c.accepted.CompareAndSwap(false, true) {
		go c.onAccepted() // the handshake goes on meanwhile
	}
	return true
}

// baseEnded ends what the WebSocket feeds, once: Recv closes, signalling
// stops, and the datagram path goes with the connection.
func (c *Conn) baseEnded() {
	c.endOnce.Do(func() {
		c.in.CloseRecv()
		close(c.sigs)
		c.shut()
	})
}

// takeSignal checks a signalling frame and queues it; false when it ended
// the connection.
func (c *Conn) takeSignal(b []byte) bool {
	m, err := proto.Decode(b)
	if err == nil && !c.accepted.Load() {
		err = fmt.Errorf("signal before the handshake ended")
	}
	if c.nsig++; err == nil && c.nsig > maxSignals {
		err = fmt.Errorf("more than %d signals", maxSignals)
	}
	if err != nil {
		c.Transport.Close(proto.CleanText("protocol error: "+err.Error(), proto.MaxReasonLen))
		return false
	}
	c.sigs <- m.(*proto.Signal) // room for maxSignals
	return true
}

// signalLoop handles signalling in arrival order (an offer before its candidates).
func (c *Conn) signalLoop() {
	for s := range c.sigs {
		if err := c.onSignal(s); err != nil {
			c.Transport.Close(proto.CleanText("protocol error: "+err.Error(), proto.MaxReasonLen))
		}
	}
}

// signal sends one signalling message on the WebSocket.
func (c *Conn) signal(kind uint8, data string) {
	c.Transport.Send(proto.MustEncode(&proto.Signal{Kind: kind, Data: data}))
}

// addCandidate adds a trickled candidate (RTCIceCandidateInit as JSON).
func (c *Conn) addCandidate(data string) error {
	c.mu.Lock()
	pc := c.pc
	c.mu.Unlock()
	if pc == nil {
		return nil // given up, or refused: nothing to add to
	}
	_ = pc.AddCandidate(data) // one the agent cannot use is no reason to end the game
	return nil
}

// opened takes a data channel that opened: it carries the datagrams from now on.
func (c *Conn) opened(ch channel) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if !c.ended {
		b := &chanBox{ch}
		c.open.Store(b)
		c.dc.Store(b)
	}
}

// closedChannel drops ch when it closes: the datagrams go back to the WebSocket.
func (c *Conn) closedChannel(ch channel) {
	for _, p := range []*atomic.Pointer[chanBox]{&c.dc, &c.open} {
		if b := p.Load(); b != nil && b.ch == ch {
			p.CompareAndSwap(b, nil)
		}
	}
}

// message takes a message of the data channel, received at now: a Frame
// with Datagram set. A text message or one over the read limit is treated
// as on the WebSocket: the peer is told why and dropped.
func (c *Conn) message(data []byte, text bool, now time.Time) {
	if text {
		c.Transport.Close("protocol error: text message on the datagram channel")
		return
	}
	if len(data) > c.limit {
		c.Transport.Close(fmt.Sprintf("frame larger than %d bytes", c.limit))
		return
	}
	c.in.Read(len(data))
	if t, ok := c.Transport.(transport.Toucher); ok {
		t.Touch(now) // the browser's WebSocket, silent while the datagrams flow, is not dead
	}
	if !c.heard.Swap(true) && !c.server {
		c.logf("transport: webrtc (snapshots arrive as datagrams on UDP)")
	}
	c.in.Deliver(transport.Frame{Data: data, At: now, Datagram: true})
}

// peerDown drops the datagram path when the peer connection fails, closes
// or is disconnected (state says which): the datagrams go back to the
// WebSocket.
func (c *Conn) peerDown(state string) {
	if c.dc.Swap(nil) != nil {
		c.logf("transport: webrtc link " + state + "; back on the WebSocket")
	}
}

// peerUp takes the data channel back when the peer connection has
// connected again after a disconnection (ICE consent came back).
func (c *Conn) peerUp() {
	c.mu.Lock()
	defer c.mu.Unlock()
	if b := c.open.Load(); b != nil && !c.ended && c.dc.CompareAndSwap(nil, b) {
		c.logf("transport: webrtc link back")
	}
}

// giveUp closes the datagram path for good; the connection goes on over
// the WebSocket. Safe to call more than once.
func (c *Conn) giveUp() {
	c.mu.Lock()
	pc := c.pc
	c.pc, c.ended = nil, true
	c.dc.Store(nil)
	c.open.Store(nil)
	c.mu.Unlock()
	if pc != nil {
		go pc.Close() // it may wait for the DTLS close; never on the caller
	}
}

// shut ends the datagram path with the connection.
func (c *Conn) shut() { c.giveUp() }

// Send implements transport.Transport: the reliable path.
func (c *Conn) Send(b []byte) bool {
	if c.server && len(b) > 0 && proto.MsgType(b[0]) == proto.MsgAccept {
		c.accepted.Store(true) // from now on the client may offer
	}
	return c.Transport.Send(b)
}

// SendDatagram implements transport.Datagrammer: b goes on the data
// channel when it is open and b is at most MaxDatagram bytes, else on the
// WebSocket (a larger one counted in Oversize). It never blocks: the
// channel's writes (pion's SCTP takes its association's lock) are the
// writer goroutine's (writeDatagrams); a datagram that finds its queue
// (transport.SendQueue) full, or MaxBuffered bytes still unsent on the
// channel, is dropped and counted (Stats.DroppedOut), as UDP drops.
func (c *Conn) SendDatagram(b []byte) bool {
	if c.dc.Load() == nil {
		return c.Transport.Send(b)
	}
	if len(b) > MaxDatagram {
		c.oversize.Add(1)
		if c.total != nil {
			c.total.Add(1)
		}
		return c.Transport.Send(b)
	}
	select {
	case c.dgrams <- b:
		return true
	default:
		c.in.CountDroppedOut()
		return false
	}
}

// writeDatagrams writes the queued datagrams on the data channel until the
// connection ends; one queued when the channel's link went down takes the
// WebSocket.
func (c *Conn) writeDatagrams() {
	for {
		select {
		case <-c.Transport.Done():
			return
		case b := <-c.dgrams:
			box := c.dc.Load()
			switch {
			case box == nil:
				c.Transport.Send(b)
			case box.ch.BufferedAmount() > MaxBuffered || box.ch.Send(b) != nil:
				c.in.CountDroppedOut()
			default:
				c.in.Sent(len(b))
			}
		}
	}
}

// Oversize is how many datagrams were sent on the WebSocket because they
// were larger than MaxDatagram.
func (c *Conn) Oversize() uint64 { return c.oversize.Load() }

// Kind implements transport.Kinder: KindWebRTC while the data channel is
// open, else the WebSocket's kind.
func (c *Conn) Kind() string {
	if c.dc.Load() != nil {
		return transport.KindWebRTC
	}
	return transport.KindOf(c.Transport)
}

// Recv implements transport.Transport: frames of both paths.
func (c *Conn) Recv() <-chan transport.Frame { return c.in.Recv() }

// Tap implements transport.Tapper: the WebSocket's frames (forwarded on
// its reader goroutine) and the datagrams (on the data channel's) go to
// deliver as they arrive, one at a time (transport.Endpoint.TapRecv).
func (c *Conn) Tap(deliver func(transport.Frame), ended func()) { c.in.TapRecv(deliver, ended) }

// PacketsIn implements transport.PacketCounter: the WebSocket's frames and
// the datagrams together, as Stats counts them.
func (c *Conn) PacketsIn() uint64 { return transport.PacketsIn(c.Transport) + c.in.PacketsIn() }

// Stats implements transport.Transport: both paths together.
func (c *Conn) Stats() transport.Stats {
	s, d := c.Transport.Stats(), c.in.Stats()
	s.PacketsIn += d.PacketsIn
	s.PacketsOut += d.PacketsOut
	s.BytesIn += d.BytesIn
	s.BytesOut += d.BytesOut
	s.DroppedIn += d.DroppedIn
	s.DroppedOut += d.DroppedOut
	return s
}

// LinkRTT implements transport.RTTMeasurer with the WebSocket's measures
// (-1 each where it has none).
func (c *Conn) LinkRTT() transport.LinkRTT {
	if m, ok := c.Transport.(transport.RTTMeasurer); ok {
		return m.LinkRTT()
	}
	return transport.LinkRTT{PingMs: -1, TCPMs: -1}
}
