// Package transport is how Tickshot's frames travel, apart from what they
// say (package proto): one small interface, Transport, for a reliable,
// ordered, message-oriented link, with implementations for gorilla
// websockets (package ws, native builds), the browser's WebSocket (package
// ws under GOOS=js), an in-memory pipe (Pipe, for fast deterministic tests)
// and a fake-lag decorator over any of them (FakeLag: Source's
// net_fakelag, net_fakejitter and net_fakeloss).
//
// The layering follows ioquake3, whose netchan (how packets travel) is
// apart from msg.c (what they carry). Nothing here knows the message
// format: a transport moves opaque binary frames and, when it closes with
// a reason, writes the farewell frame its Options give it (Tickshot's
// Disconnect message) ahead of the close.
package transport

import (
	"time"
)

// Queue sizes shared by the implementations.
const (
	// SendQueue is how many outgoing frames may wait; beyond that Send
	// drops the frame and returns false.
	SendQueue = 64
	// RecvQueue is how many incoming frames may wait for the owner; beyond
	// that arriving frames are dropped and counted (Stats.DroppedIn).
	RecvQueue = 256
	// FarewellTimeout bounds the time a closing transport spends writing
	// its farewell frame and close handshake.
	FarewellTimeout = time.Second
)

// Frame is one received binary frame with its arrival time.
type Frame struct {
	Data []byte
	At   time.Time // when it arrived (FakeLag: when it is delivered)
	// Datagram: it came on the datagram path (Datagrammer), which keeps
	// neither order nor every frame.
	Datagram bool
}

// Stats are a transport's traffic counters: frames and their payload bytes.
type Stats struct {
	PacketsIn, PacketsOut uint64 // frames read / written
	BytesIn, BytesOut     uint64 // payload bytes read / written
	DroppedIn, DroppedOut uint64 // frames dropped by a full queue
}

// Options configure one end of a transport.
type Options struct {
	// ReadLimit is the largest frame accepted, in bytes. A larger frame
	// closes the transport with the reason "frame larger than N bytes",
	// which the peer is told. 0 means 1 MiB.
	ReadLimit int
	// Farewell, when set, makes the last frame written when this end
	// closes with a reason (Close, an oversized or text frame): Tickshot's
	// Disconnect message, so the peer learns why before the close.
	Farewell func(reason string) []byte
}

// Limit returns ReadLimit or its default.
func (o Options) Limit() int {
	if o.ReadLimit <= 0 {
		return 1 << 20
	}
	return o.ReadLimit
}

// Transport is one end of a reliable, ordered link that carries binary
// frames. Implementations are safe for concurrent use; Send and Close never
// block the caller (a server's tick goroutine calls them).
type Transport interface {
	// Send queues one frame for writing. It returns false, without
	// blocking, when the transport has ended or its queue is full (the
	// frame is then dropped and counted in Stats.DroppedOut). The transport
	// owns b afterwards.
	Send(b []byte) bool
	// Recv returns the channel of received frames, in the order sent. It
	// is closed when the transport has ended.
	Recv() <-chan Frame
	// Close ends the transport with a reason for a person to read: the
	// Options' farewell frame and a close carrying the reason are written
	// in the background, after any frame in flight and bounded by
	// FarewellTimeout. Later calls do nothing.
	Close(reason string)
	// Abort ends the transport without a farewell: for a peer that has
	// already said goodbye (remote true: the reason is the peer's) or a
	// link that is already dead. It never blocks.
	Abort(reason string, remote bool)
	// Done is closed as soon as the transport has ended (Close, the peer
	// closed, an error).
	Done() <-chan struct{}
	// Closed is closed once the underlying link is released (after Done,
	// when the farewell was written or failed).
	Closed() <-chan struct{}
	// Reason tells why the transport ended ("" while it is up) and whether
	// the peer gave that reason.
	Reason() (reason string, remote bool)
	// Stats returns the traffic counters.
	Stats() Stats
	// RemoteAddr names the peer (host:port for sockets).
	RemoteAddr() string
}

// PacketCounter is a Transport that reads its count of frames received
// (Stats.PacketsIn) without gathering the other counters: the server's
// flood meter reads it for every session every tick, where Stats took a
// dozen atomic loads and a lock a session (issue 23).
type PacketCounter interface {
	PacketsIn() uint64
}

// PacketsIn returns t's Stats().PacketsIn, through PacketCounter when t
// has it.
func PacketsIn(t Transport) uint64 {
	if p, ok := t.(PacketCounter); ok {
		return p.PacketsIn()
	}
	return t.Stats().PacketsIn
}

// LinkRTT is a link's round trip measured below the messages, where a
// client cannot stretch it by holding its acknowledgements back. Lag
// compensation bounds how far a shot may rewind by it (server/lagcomp.go).
type LinkRTT struct {
	// PingMs is the smoothed round trip of the websocket's own pings (the
	// time from a ping to its pong, EWMA 0.25), ms; negative until the
	// first pong.
	PingMs float64
	// TCPMs is the kernel's smoothed TCP round trip of the socket (Linux:
	// TCP_INFO's tcpi_rtt), ms, as the connection last read it (the
	// native websocket: about a second old at most, net/ws's LinkRTT); negative
	// where not available (other systems, the browser, a link that is not
	// a TCP socket).
	TCPMs float64
	// Loopback is true when the peer's address is a loopback address: the
	// TCP round trip then measures only the hop to a proxy on the same
	// host (or a local client), not the player's path.
	Loopback bool
}

// RTTMeasurer is implemented by transports that measure LinkRTT (the
// native websocket). Others (Pipe, the browser's side) have no such
// measure; their users fall back to what the messages show.
type RTTMeasurer interface {
	LinkRTT() LinkRTT
}

// Datagrammer is implemented by transports with a datagram path beside
// the reliable one (net/rtc: a WebRTC data channel with ordered false and
// maxRetransmits 0, the UDP way): SendDatagram sends b on it when it is up
// and small enough not to fragment, else on the reliable path (Send). It
// never blocks; a datagram may be lost or arrive out of order, and arrives
// with Frame.Datagram set.
type Datagrammer interface {
	SendDatagram(b []byte) bool
}

// Pusher is implemented by transports that deliver on their owner's
// goroutine instead of through Recv: the lag lab's virtual links
// (client/lab), which deliver when the lab's virtual clock says so. A
// reader (proto.Conn) calls Push once, before anything can arrive, and
// then starts no goroutine: deliver is called with each frame as it
// arrives, ended once after the transport has ended (at once, in Push,
// when it already has). Both run on the goroutine that drives the
// transport; nothing arrives through Recv.
type Pusher interface {
	Push(deliver func(Frame), ended func())
}

// Tapper is implemented by transports whose own reader goroutine can
// hand each frame to the wrapper above it instead of queueing it on Recv
// (net/ws): a wrapper that only forwards frames (net/rtc) then needs no
// goroutine of its own reading Recv, and a received frame one goroutine
// hand-off fewer (at 1 024 clients sending 64 messages a second, each
// hand-off is 65 000 wake-ups a second on the server's core). Tap is
// called once: the frames that arrived before it, still queued, go to
// deliver first, in order, before Tap returns; every later one on the
// reader's goroutine, never two at once. ended is called once, after the
// last deliver, when the reader stops (in Tap, when it already has).
// Nothing arrives through Recv after Tap; Recv is still closed at the
// end.
type Tapper interface {
	Tap(deliver func(Frame), ended func())
}

// Toucher is implemented by transports that give up on a silent peer by
// themselves without pings to go by (the browser's WebSocket, whose
// watchdog ends it after ReadTimeout without a frame): Touch tells one that
// the peer was heard at at on another path of the same connection (a
// datagram), so a game whose snapshots all come as datagrams is not taken
// for a vanished server.
type Toucher interface {
	Touch(at time.Time)
}

// Kinds of transport, as /status, /metrics and net_graph name them.
const (
	KindWebSocket = "websocket"
	KindWebRTC    = "webrtc" // a WebSocket with a WebRTC data channel for datagrams (net/rtc)
	KindPipe      = "pipe"   // in-memory (tests)
	KindLab       = "lab"    // the lag lab's virtual link (client/lab): datagrams lost and reordered on a virtual clock
)

// Kinder is implemented by transports that name their kind (KindWebSocket,
// ...); it may change while the transport is up (a WebRTC transport is a
// WebSocket until its data channel opens).
type Kinder interface {
	Kind() string
}

// KindOf names t's kind: its own Kind, or KindWebSocket.
func KindOf(t Transport) string {
	if k, ok := t.(Kinder); ok {
		return k.Kind()
	}
	return KindWebSocket
}
