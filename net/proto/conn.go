package proto

import (
	"fmt"
	"sync"
	"time"

	"tickshot/net/transport"
)

// HandshakeTimeout bounds the Hello exchange (and the websocket upgrade).
const HandshakeTimeout = 5 * time.Second

// Packet is one received message with its arrival time and size.
type Packet struct {
	Msg  Message
	Size int       // bytes on the wire (frame payload)
	At   time.Time // arrival (with fake lag: the simulated arrival)
	Raw  []byte    // the frame as received (a demo records it as is)
	// Datagram: it came on the transport's datagram path (lossy, unordered).
	Datagram bool
}

// Stats are a connection's traffic counters (frame payload bytes).
type Stats = transport.Stats

// FakeConditions are simulated network conditions (net_fakelag,
// net_fakejitter, net_fakeloss); see transport.FakeConditions.
type FakeConditions = transport.FakeConditions

// Options returns the transport options of one side of Tickshot's link:
// the read limit (MaxClientFrame on the server, MaxServerFrame on the
// client) and a Disconnect message as the farewell frame.
func Options(readLimit int) transport.Options {
	return transport.Options{ReadLimit: readLimit, Farewell: farewell}
}

// ServerOptions are the server side's transport options.
func ServerOptions() transport.Options { return Options(MaxClientFrame) }

// ClientOptions are the client side's transport options.
func ClientOptions() transport.Options { return Options(MaxServerFrame) }

func farewell(reason string) []byte {
	b, err := Encode(&Disconnect{Reason: CleanText(reason, MaxReasonLen)})
	if err != nil {
		return nil
	}
	return b
}

// Conn carries Tickshot messages over any transport (ioquake3's netchan
// over its sockets): a goroutine decodes and checks every frame (Decode),
// the first malformed one closes the connection with the decode error as
// the reason, and a Disconnect from the peer ends it with the peer's
// reason. Fake network conditions (SetFakeConditions) apply to what it
// receives, through a transport.FakeLag decorator. Over a
// transport.Tapper (the native WebSocket, net/rtc) the transport's own
// reader goroutine decodes each frame as it arrives
// (FakeLag.StartTapped), and the Conn's goroutine only waits for the end.
// Over a transport.Pusher (the lag lab's links) there is no goroutine:
// frames are decoded as the transport pushes them, on its owner's
// goroutine, and net_fake* does nothing (the link simulates the network
// itself).
type Conn struct {
	t       transport.Transport
	fake    fakeNet // net_fake* on what arrives (transport.FakeLag), or none over a Pusher
	in      chan Packet
	done    chan struct{}
	once    sync.Once
	mu      sync.Mutex
	reason  string
	remote  bool
	dropped uint64 // decoded messages the owner did not take in time
	// rejectFirst: a first frame that fails Decode is answered by a
	// Reject before the Disconnect (NewServerConn); cleared after it.
	rejectFirst bool
}

// NewConn starts carrying messages over t. Give t the Options of its side
// (ServerOptions, ClientOptions), so the peer is told why it closes.
func NewConn(t transport.Transport) *Conn { return newConn(t, false) }

// NewServerConn is NewConn for the server's end of a connection whose
// first frame must be a Hello: a first frame that cannot be decoded or
// fails Check (a Hello with a bad name, cl_interp_ratio out of range) is
// answered by a Reject with the reason, then the Disconnect, as every
// refused first frame is (docs/PROTOCOL.md §4.1); a client waiting for
// Accept or Reject learns why.
func NewServerConn(t transport.Transport) *Conn { return newConn(t, true) }

func newConn(t transport.Transport, rejectFirst bool) *Conn {
	c := &Conn{t: t, in: make(chan Packet, transport.RecvQueue), done: make(chan struct{}), rejectFirst: rejectFirst}
	if p, ok := t.(transport.Pusher); ok {
		// No goroutine: frames are decoded as the transport pushes them,
		// on its owner's goroutine (the lag lab's virtual clock).
		c.fake = noFake{t}
		var ended sync.Once
		end := func() {
			ended.Do(func() {
				c.endWithTransport()
				close(c.in)
			})
		}
		p.Push(func(f transport.Frame) {
			select {
			case <-c.done:
				return
			default:
			}
			if !c.handle(f) {
				end()
			}
		}, end)
		return c
	}
	fl := transport.NewFakeLagInline(t)
	c.fake = fl
	if tp, ok := t.(transport.Tapper); ok {
		// The transport's own reader decodes and hands over each frame
		// (FakeLag.StartTapped); this goroutine only waits for the end.
		over, stop := fl.StartTapped(tp, c.handle)
		go c.tapEnd(over, stop)
		return c
	}
	go c.readLoop(fl)
	return c
}

// tapEnd waits for a tapped connection's end: the reader stopped or a
// frame ended it (over), the transport ended (its Done: the reader may
// read and discard for a while yet, through the farewell and the drain,
// and a departed player leaves at once, as with readLoop), or Close
// (done). Then nothing more is handed over (stop) and Recv closes; what
// arrived before was handed over as it came.
func (c *Conn) tapEnd(over <-chan struct{}, stop func()) {
	defer close(c.in)
	select {
	case <-over:
		c.endWithTransport()
	case <-c.t.Done():
		c.endWithTransport()
	case <-c.done:
	}
	stop()
}

// fakeNet is what Conn asks of its net_fake* decorator.
type fakeNet interface {
	Stats() transport.Stats
	PacketsIn() uint64
	Set(FakeConditions)
	Conditions() FakeConditions
	Dropped() uint64
}

// noFake is the fakeNet of a Pusher's Conn: its link simulates the
// network itself (client/lab), so net_fake* does nothing.
type noFake struct{ t transport.Transport }

func (n noFake) Stats() transport.Stats   { return n.t.Stats() }
func (n noFake) PacketsIn() uint64        { return transport.PacketsIn(n.t) }
func (noFake) Set(FakeConditions)         {}
func (noFake) Conditions() FakeConditions { return FakeConditions{} }
func (noFake) Dropped() uint64            { return 0 }

// Recv returns the channel of received messages; it is closed when the
// connection ends.
func (c *Conn) Recv() <-chan Packet { return c.in }

// Done is closed when the connection has ended.
func (c *Conn) Done() <-chan struct{} { return c.done }

// Closed is closed when the transport has released its link (after Done,
// once the Disconnect was written or failed).
func (c *Conn) Closed() <-chan struct{} { return c.t.Closed() }

// Reason returns why the connection ended, and whether the peer said it.
func (c *Conn) Reason() (string, bool) {
	c.mu.Lock()
	reason, remote := c.reason, c.remote
	c.mu.Unlock()
	if reason == "" {
		reason, remote = c.t.Reason()
	}
	return CleanText(reason, MaxReasonLen), remote
}

// RemoteAddr is the peer's address.
func (c *Conn) RemoteAddr() string { return c.t.RemoteAddr() }

// PacketsIn returns Stats().PacketsIn, the frames the transport received,
// without the other counters or the lock (the flood meter's read, every
// session every tick: transport.PacketCounter).
func (c *Conn) PacketsIn() uint64 { return c.fake.PacketsIn() }

// Stats returns the traffic counters; DroppedIn includes messages the
// owner did not take in time.
func (c *Conn) Stats() Stats {
	s := c.fake.Stats()
	c.mu.Lock()
	s.DroppedIn += c.dropped
	c.mu.Unlock()
	return s
}

// Send queues a message. It returns false, without blocking, when the
// connection is closed or its queue is full (the message is dropped).
// Snapshot and Cmds take the transport's datagram path where it has one
// (transport.Datagrammer; MsgType.Datagram), everything else the reliable
// path.
func (c *Conn) Send(m Message) bool { return c.SendRaw(MustEncode(m)) }

// SendRaw queues an encoded frame (see Send).
func (c *Conn) SendRaw(b []byte) bool {
	if d, ok := c.t.(transport.Datagrammer); ok && len(b) > 0 && MsgType(b[0]).Datagram() {
		return d.SendDatagram(b)
	}
	return c.t.Send(b)
}

// Transport names the kind of transport the messages travel on now
// (transport.KindWebSocket, KindWebRTC once a datagram channel is up,
// KindPipe): /status and net_graph show it.
func (c *Conn) Transport() string { return transport.KindOf(c.t) }

// Close ends the connection, telling the peer why with a Disconnect
// message. It never blocks: the goodbye is written in the background.
func (c *Conn) Close(reason string) {
	reason = CleanText(reason, MaxReasonLen)
	c.end(reason, false)
	c.t.Close(reason)
}

// LinkRTT returns the transport's own round-trip measures (websocket
// ping/pong, the kernel's TCP RTT), which fake lag and held
// acknowledgements do not change; ok is false for a transport without them
// (Pipe, the browser's side).
func (c *Conn) LinkRTT() (r transport.LinkRTT, ok bool) {
	m, ok := c.t.(transport.RTTMeasurer)
	if !ok {
		return transport.LinkRTT{PingMs: -1, TCPMs: -1}, false
	}
	return m.LinkRTT(), true
}

// SetFakeConditions changes the simulated conditions of received messages, live.
func (c *Conn) SetFakeConditions(f FakeConditions) { c.fake.Set(f) }

// FakeConditions returns the current simulated conditions.
func (c *Conn) FakeConditions() FakeConditions { return c.fake.Conditions() }

// FakeDropped returns how many received messages net_fakeloss dropped.
func (c *Conn) FakeDropped() uint64 { return c.fake.Dropped() }

func (c *Conn) end(reason string, remote bool) {
	c.once.Do(func() {
		c.mu.Lock()
		if c.reason == "" {
			c.reason, c.remote = reason, remote
		}
		c.mu.Unlock()
		close(c.done)
	})
}

func (c *Conn) readLoop(fake *transport.FakeLag) {
	defer close(c.in)
	// When the link ends (the peer closed, or it died) what has already
	// arrived is handed over, then the connection ends at once. Frames
	// that fake lag still holds are lost with it, as on a real network,
	// so a departed player leaves at once.
	if fake.Serve(c.handle, c.done, c.t.Done()) {
		c.endWithTransport()
	}
}

// endWithTransport ends the connection with the transport's reason.
func (c *Conn) endWithTransport() {
	reason, remote := c.t.Reason()
	if reason == "" {
		reason = "connection closed"
	}
	c.end(reason, remote)
}

// handle decodes one frame and hands the message over; it returns false
// when the connection ended (a malformed frame, a Disconnect).
func (c *Conn) handle(f transport.Frame) bool {
	m, err := Decode(f.Data)
	first := c.rejectFirst
	c.rejectFirst = false // only the reader (readLoop, the tap's, or the Pusher's goroutine) touches it, one frame at a time
	if err == nil && f.Datagram && !m.Type().Datagram() {
		// Only what may be lost and reordered travels there: a handshake
		// or a command on the datagram path would skip the order the
		// reliable path keeps.
		err = fmt.Errorf("%s on the datagram channel", m.Type())
	}
	if err != nil {
		reason := CleanText("protocol error: "+err.Error(), MaxReasonLen)
		if first {
			// Queued before Close: the transport writes it ahead of the
			// Disconnect (a websocket flushes what is queued first).
			c.t.Send(MustEncode(&Reject{Reason: reason}))
		}
		c.Close(reason)
		return false
	}
	if d, isDisc := m.(*Disconnect); isDisc {
		reason := CleanText(d.Reason, MaxReasonLen)
		c.end(reason, true)
		c.t.Abort(reason, true) // the peer said goodbye: no farewell back
		return false
	}
	select {
	case c.in <- Packet{Msg: m, Size: len(f.Data), At: f.At, Raw: f.Data, Datagram: f.Datagram}:
	default:
		c.mu.Lock()
		c.dropped++ // the owner is not keeping up, or a flood
		c.mu.Unlock()
	}
	return true
}
