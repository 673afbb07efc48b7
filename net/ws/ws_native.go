//go:build !js

package ws

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"
	"net"
	"net/http"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/gorilla/websocket"

	"tickshot/net/transport"
)

// Dial connects to a websocket server at addr (see URL) with gorilla/websocket.
func Dial(ctx context.Context, addr string, opt transport.Options) (transport.Transport, error) {
	url, err := URL(addr)
	if err != nil {
		return nil, err
	}
	d := websocket.Dialer{HandshakeTimeout: HandshakeTimeout, EnableCompression: false}
	c, resp, err := d.DialContext(ctx, url, nil)
	if err != nil {
		if resp != nil {
			return nil, fmt.Errorf("connect %s: %w (HTTP %s)", addr, err, resp.Status)
		}
		return nil, fmt.Errorf("connect %s: %w", addr, err)
	}
	return newConn(c, opt, false, ""), nil
}

var upgrader = websocket.Upgrader{
	HandshakeTimeout: HandshakeTimeout,
	ReadBufferSize:   4096,
	WriteBufferSize:  8192,
	// Any origin may connect: the browser client may be served from elsewhere.
	CheckOrigin: func(*http.Request) bool { return true },
}

// Upgrade turns an HTTP request into a server-side transport.
func Upgrade(w http.ResponseWriter, r *http.Request, opt transport.Options) (transport.Transport, error) {
	return UpgradeFrom(w, r, opt, "")
}

// UpgradeFrom is Upgrade for a client whose address is not the socket's
// peer: behind a trusted reverse proxy the server names the client by the
// address the proxy forwarded (server/clientaddr_native.go), and the
// transport's RemoteAddr reports remote ("" reports the peer). LinkRTT's
// Loopback stays the socket's: its TCP round trip is the hop to the proxy.
func UpgradeFrom(w http.ResponseWriter, r *http.Request, opt transport.Options, remote string) (transport.Transport, error) {
	c, err := upgrader.Upgrade(w, r, nil)
	if err != nil {
		return nil, err
	}
	return newConn(c, opt, true, remote), nil
}

// conn is a gorilla websocket as a transport: a reader goroutine with a
// size limit and a read deadline (extendRead), a writer goroutine for queued
// frames and keepalive pings, and a closing sequence that makes sure the
// peer can read the last words (finish).
type conn struct {
	*transport.Endpoint
	ws  *websocket.Conn
	opt transport.Options
	// The writer goroutine (writeLoop) does every write until it
	// returns; finish writes the farewell only after that (writeDone).
	writeDone chan struct{}
	endMu     sync.Mutex // guards how, set once by the finish that ended the transport
	how       endHow

	readDone chan struct{} // closed when readLoop returns
	rmu      sync.Mutex    // guards draining and readBy with the read deadline
	draining bool          // finish set the final read deadline
	readBy   time.Time     // the read deadline extendRead set last
	// rbuf is the reader goroutine's scratch for a message as it arrives
	// (readFrame), kept between messages up to rbufKeep bytes.
	rbuf []byte

	// tmu guards the tap (Tap) and readEnded: the reader hands a frame
	// on (deliver) and ends (endRead) under it.
	tmu       sync.Mutex
	tap       func(transport.Frame) // the wrapper's deliver; nil: through Recv
	tapEnded  func()
	readEnded bool // the reader stopped
	// peerClosed: the reader got the peer's close frame.
	peerClosed atomic.Bool

	// server: this end was upgraded by the server, which drops a peer that
	// leaves a ping unanswered for StallTimeout. A client does not: its
	// game shows the silence ("Connection problem") and decides itself
	// when to give up, as Source's cl_timeout does.
	server bool

	tcp      tcpRTTFunc // the kernel's TCP round trip of the socket, or nil
	loopback bool       // the peer is on this host
	remote   string     // RemoteAddr: the peer's "host:port", or UpgradeFrom's
	// tcpRTT is the newest read of tcp (math.Float64bits of ms; negative:
	// none yet), which the connection's own goroutines keep fresh
	// (readTCPRTT), so that LinkRTT, asked at each shot on the server's
	// tick goroutine, makes no system call there: a syscall on the tick
	// goroutine can lose it the one P to the connections' goroutines
	// until they have all run. tcpWant is set by LinkRTT and cleared by
	// the reader's refresh (refreshTCPRTT); tcpAt is when it was read
	// last (monoNanos).
	tcpRTT  atomic.Uint64
	tcpWant atomic.Bool
	tcpAt   atomic.Int64

	pmu      sync.Mutex // guards the ping fields
	pingSent time.Time  // when the unanswered ping went out; zero once answered
	pingSeq  uint64     // payload of the newest ping (pingPayload)
	pingRTT  float64    // smoothed ping round trip, ms; <0 until the first pong
}

// newConn starts the transport over c; remote names the peer ("": c's).
func newConn(c *websocket.Conn, opt transport.Options, server bool, remote string) *conn {
	t := &conn{Endpoint: transport.NewEndpoint(), ws: c, opt: opt, server: server, readDone: make(chan struct{}),
		writeDone: make(chan struct{}), pingRTT: -1}
	nc := c.UnderlyingConn()
	t.tcp = newTCPRTT(nc)
	t.tcpRTT.Store(math.Float64bits(-1))
	if t.tcp != nil {
		t.readTCPRTT(time.Now()) // the handshake's sample
	}
	if t.remote = remote; remote == "" {
		t.remote = nc.RemoteAddr().String()
	}
	if a, ok := nc.RemoteAddr().(*net.TCPAddr); ok {
		t.loopback = a.IP.IsLoopback()
	}
	// No read limit in gorilla: its own would answer an oversized message
	// with a bare close 1009 before we could say why. readFrame reads at
	// most the limit plus one byte of any message, one frame or many, and
	// refuses it with the reason and close 1009 (message too big).
	c.SetReadLimit(0)
	c.SetPongHandler(func(data string) error {
		now := time.Now()
		t.pong(data, now)
		t.extendRead(now)
		return nil
	})
	go t.readLoop()
	go t.writeLoop()
	return t
}

func (t *conn) Send(b []byte) bool { return t.Queue(b) }

// newTCPRTT is tcpRTTOf, a variable so that a test can count the reads.
var newTCPRTT = tcpRTTOf

// LinkRTT implements transport.RTTMeasurer: the smoothed round trip of
// this end's pings and, on Linux, the kernel's TCP round trip as last
// read. It makes no system call: a server end's writer goroutine reads the
// kernel's value at every ping tick (PingInterval, 1 s), and the reader goroutine
// at a frame that arrives tcpRTTEvery or more after the last read when a
// LinkRTT asked since. So TCPMs is about PingInterval old at most (longer
// only while a write blocks the writer, up to WriteTimeout), and about
// tcpRTTEvery while shots keep asking and frames arrive on the WebSocket
// (a client on WebRTC sends its usercmds on the data channel: its
// WebSocket carries few frames).
func (t *conn) LinkRTT() transport.LinkRTT {
	t.pmu.Lock()
	r := transport.LinkRTT{PingMs: t.pingRTT, TCPMs: -1, Loopback: t.loopback}
	t.pmu.Unlock()
	if t.tcp != nil {
		t.tcpWant.Store(true)
		if ms := math.Float64frombits(t.tcpRTT.Load()); ms >= 0 {
			r.TCPMs = ms
		}
	}
	return r
}

// tcpRTTEvery is the least time between two reads of the kernel's TCP
// round trip (one getsockopt each) that the reader goroutine makes for
// LinkRTT: a connection whose round trip nobody asks (no shots) costs the
// writer's read a second, and one that shoots at most ten more. The
// kernel's SRTT moves by an eighth of a sample per ACK, so 100 ms adds
// little to its own lag.
const tcpRTTEvery = 100 * time.Millisecond

// monoBase is the origin of monoNanos.
var monoBase = time.Now()

// monoNanos is t on the monotonic clock, ns since monoBase: a step of the
// wall clock does not move it.
func monoNanos(t time.Time) int64 { return int64(t.Sub(monoBase)) }

// readTCPRTT reads the kernel's TCP round trip into tcpRTT at now (t.tcp
// not nil). The reader and the writer goroutine may both call it.
func (t *conn) readTCPRTT(now time.Time) {
	t.tcpAt.Store(monoNanos(now))
	if ms, ok := t.tcp(); ok {
		t.tcpRTT.Store(math.Float64bits(ms))
	}
}

// refreshTCPRTT is the reader goroutine's read at a frame that arrived at
// now: when LinkRTT asked since the last refresh and tcpRTTEvery has passed
// since the last read.
func (t *conn) refreshTCPRTT(now time.Time) {
	if t.tcp == nil || !t.tcpWant.Load() || monoNanos(now)-t.tcpAt.Load() < int64(tcpRTTEvery) {
		return
	}
	t.tcpWant.Store(false)
	t.readTCPRTT(now)
}

// pingPayload numbers a ping: 8 bytes, big endian. The pong must echo it
// (RFC 6455 5.5.3).
func pingPayload(seq uint64) []byte { return binary.BigEndian.AppendUint64(nil, seq) }

// pong takes a pong's payload received at now. Only the pong of the
// unanswered ping counts: it answers the ping (stall detection) and is a
// round-trip sample (RFC 6298's smoothing, gain 1/4; the first as is). A
// pong carrying anything else answers nothing: an unsolicited pong must
// neither hide a stalled reader nor lower the measure.
func (t *conn) pong(data string, now time.Time) {
	t.pmu.Lock()
	defer t.pmu.Unlock()
	if t.pingSent.IsZero() || data != string(pingPayload(t.pingSeq)) {
		return
	}
	sample := float64(now.Sub(t.pingSent)) / float64(time.Millisecond)
	t.pingSent = time.Time{}
	if t.pingRTT < 0 {
		t.pingRTT = sample
	} else {
		t.pingRTT += (sample - t.pingRTT) * 0.25
	}
}

// ping writes one numbered ping (writer goroutine only).
func (t *conn) ping(now time.Time) error {
	t.pmu.Lock()
	t.pingSent = now
	t.pingSeq++
	payload := pingPayload(t.pingSeq)
	t.pmu.Unlock()
	return t.ws.WriteControl(websocket.PingMessage, payload, now.Add(WriteTimeout))
}

func (t *conn) RemoteAddr() string { return t.remote }

// Close implements transport.Transport. It never blocks: the frames
// already queued (for at most half of FarewellTimeout), the farewell and
// the close frame are written by a goroutine, after any frame being
// written, bounded by FarewellTimeout; so a kick can never stall the caller
// (the server's tick goroutine) behind a peer that stopped reading. Then
// the socket is half-closed and drained (finish).
func (t *conn) Close(reason string) { t.finish(reason, false, endTell, websocket.CloseNormalClosure) }

// Abort implements transport.Transport. A peer that said goodbye (remote)
// still gets the closing handshake: a close frame back, so that its
// websocket library reports a normal closure (1000), not a dropped
// connection (1006).
func (t *conn) Abort(reason string, remote bool) {
	if remote {
		t.finish(reason, true, endAnswer, websocket.CloseNormalClosure)
	} else {
		t.finish(reason, false, endDrop, 0)
	}
}

// How a connection ends (finish).
type endHow int

const (
	// endDrop: the link is dead, or the peer's close frame has been
	// answered already (gorilla's close handler does): close the socket.
	endDrop endHow = iota
	// endAnswer: the peer said goodbye with a Disconnect: answer with a
	// close frame, drain, close.
	endAnswer
	// endTell: we end it: frames already queued, the farewell (a
	// Disconnect), a close frame with the reason, drain, close.
	endTell
)

// DrainTimeout bounds how long a closing connection keeps reading (and
// discarding) what the peer still sends after our close frame, waiting for
// its close frame or end of stream.
const DrainTimeout = time.Second

// finish ends the transport. The socket is closed by a goroutine, never
// the caller. When we have something to say (endTell, endAnswer), the
// close frame is followed by a TCP half-close (FIN) and a drain: we read
// and discard until the peer closes too or DrainTimeout passes, and only
// then close the socket. Closing a socket with unread bytes, or receiving
// bytes after closing it, makes the kernel send a reset (RFC 1122
// §4.2.2.13; the "lingering close" of Apache httpd), which discards what
// we wrote and is still unsent and makes the peer's next send fail: a
// kicked client that was still sending lost its Disconnect that way. The
// half-close lets the peer read to the end; RFC 6455 §7.1.1 has the server
// close the TCP connection first, after the closing handshake.
func (t *conn) finish(reason string, remote bool, how endHow, code int) {
	t.endMu.Lock()
	first := t.End(reason, remote)
	if first {
		t.how = how
	}
	t.endMu.Unlock()
	if !first {
		return
	}
	go func() {
		defer t.Release()
		if how != endDrop {
			<-t.writeDone // the writer wrote its frame in flight (and, for endTell, what was queued)
			deadline := time.Now().Add(transport.FarewellTimeout)
			_ = t.ws.SetWriteDeadline(deadline)
			if how == endTell && t.opt.Farewell != nil {
				if b := t.opt.Farewell(reason); b != nil && t.ws.WriteMessage(websocket.BinaryMessage, b) == nil {
					t.Sent(len(b))
				}
			}
			if how == endAnswer {
				reason = "" // the peer knows why
			}
			_ = t.ws.WriteControl(websocket.CloseMessage, websocket.FormatCloseMessage(code, closeReason(reason)), deadline)
			t.drain()
		}
		_ = t.ws.Close()
	}()
}

// flushQueued writes the frames queued before Close (writer goroutine),
// until the queue is empty or half of FarewellTimeout has passed: a
// Reject queued just before Close arrives ahead of the farewell.
func (t *conn) flushQueued() {
	t.endMu.Lock()
	how := t.how
	t.endMu.Unlock()
	if how != endTell {
		return
	}
	deadline := time.Now().Add(transport.FarewellTimeout / 2)
	_ = t.ws.SetWriteDeadline(deadline)
	for time.Now().Before(deadline) {
		select {
		case b := <-t.Outgoing():
			if t.ws.WriteMessage(websocket.BinaryMessage, b) != nil {
				return
			}
			t.Sent(len(b))
		default:
			return
		}
	}
}

// drain half-closes the socket and reads until the peer closes or
// DrainTimeout passes (finish).
func (t *conn) drain() {
	nc := t.ws.UnderlyingConn()
	if cw, ok := nc.(interface{ CloseWrite() error }); ok {
		_ = cw.CloseWrite()
	}
	deadline := time.Now().Add(DrainTimeout)
	t.rmu.Lock()
	t.draining = true
	_ = t.ws.SetReadDeadline(deadline)
	t.rmu.Unlock()
	<-t.readDone // the reader stops at the peer's close frame, an error or the deadline
	if t.peerClosed.Load() {
		return // the handshake is complete; nothing follows a close frame
	}
	// Whatever the reader left unread (it stops at an oversized message).
	_ = nc.SetReadDeadline(deadline)
	_, _ = io.Copy(io.Discard, nc)
}

// readSlack is how stale a server's read deadline may grow before
// extendRead moves it: a client silent for between ReadTimeout-readSlack
// (14.06 s) and ReadTimeout ends. Moving it costs a timer update under
// the socket's lock, and at 1 024 clients sending 64 messages/s that was
// one update a message. A client's deadline moves at every frame, so it
// gives up with cl_timeout (netclient.DefaultTimeout).
const readSlack = ReadTimeout / 16

// extendRead pushes the read deadline ReadTimeout past now, when it is
// stale (a server's: by readSlack or more), unless the connection is
// draining (its deadline is final).
func (t *conn) extendRead(now time.Time) {
	t.rmu.Lock()
	defer t.rmu.Unlock()
	slack := time.Duration(0)
	if t.server {
		slack = readSlack
	}
	if by := now.Add(ReadTimeout); !t.draining && by.Sub(t.readBy) >= slack {
		t.readBy = by
		_ = t.ws.SetReadDeadline(by)
	}
}

var errTooBig = errors.New("frame too big")

func (t *conn) readLoop() {
	defer close(t.readDone)
	defer t.endRead()
	limit := t.opt.Limit()
	now := time.Now()
	for {
		t.extendRead(now)
		kind, data, err := t.readFrame(limit)
		if errors.Is(err, errTooBig) || errors.Is(err, websocket.ErrReadLimit) {
			t.finish(fmt.Sprintf("frame larger than %d bytes", limit), false, endTell, websocket.CloseMessageTooBig)
			return
		}
		if err != nil {
			var ce *websocket.CloseError
			if errors.As(err, &ce) {
				t.peerClosed.Store(true)
				t.finish(closeText(ce.Code, ce.Text), true, endDrop, 0) // gorilla answered it
			} else {
				t.finish("connection lost: "+err.Error(), false, endDrop, 0)
			}
			return
		}
		now = time.Now()
		t.refreshTCPRTT(now)
		t.Read(len(data))
		select {
		case <-t.Done():
			continue // ending: read and discard until the peer's close
		default:
		}
		if kind != websocket.BinaryMessage {
			t.finish("protocol error: text frame", false, endTell, websocket.CloseNormalClosure)
			return
		}
		t.deliver(transport.Frame{Data: data, At: now})
	}
}

// deliver hands f on: to the tap, or through Recv.
func (t *conn) deliver(f transport.Frame) {
	t.tmu.Lock()
	defer t.tmu.Unlock()
	if t.tap != nil {
		t.tap(f)
		return
	}
	t.Deliver(f)
}

// endRead is the reader's end: Recv closes, and the tap's ended runs.
func (t *conn) endRead() {
	t.tmu.Lock()
	t.readEnded = true
	ended := t.tapEnded
	t.tmu.Unlock()
	t.CloseRecv()
	if ended != nil {
		ended()
	}
}

// Tap implements transport.Tapper.
func (t *conn) Tap(deliver func(transport.Frame), ended func()) {
	t.tmu.Lock()
	for queued := true; queued; { // what came before the tap, in order
		select {
		case f, ok := <-t.Recv():
			if queued = ok; ok {
				deliver(f)
			}
		default:
			queued = false
		}
	}
	t.tap, t.tapEnded = deliver, ended
	done := t.readEnded
	t.tmu.Unlock()
	if done {
		ended()
	}
}

// readFrame reads one message of at most limit bytes, however many frames
// it comes in, into a slice of its own of exactly its length (the frame
// is handed on; the message is read into t.rbuf first, not grown from
// io.ReadAll's 512 bytes: that was over half of what a 1 024-client
// server allocated); of a larger one it reads limit+1 bytes and returns
// errTooBig.
func (t *conn) readFrame(limit int) (int, []byte, error) {
	kind, r, err := t.ws.NextReader()
	if err != nil {
		return 0, nil, err
	}
	buf := t.rbuf[:0]
	for len(buf) <= limit {
		if len(buf) == cap(buf) {
			buf = slices.Grow(buf, min(max(2*cap(buf), 512), limit+1)-len(buf))
		}
		n, err := r.Read(buf[len(buf):min(cap(buf), limit+1)])
		buf = buf[:len(buf)+n]
		if err == io.EOF {
			break
		}
		if err != nil {
			t.keep(buf)
			return 0, nil, err
		}
	}
	t.keep(buf)
	if len(buf) > limit {
		return 0, nil, errTooBig
	}
	return kind, bytes.Clone(buf), nil
}

// rbufKeep is the most scratch a connection keeps between messages, bytes:
// the server's limit (proto.MaxClientFrame, 4 KiB) fits with the room
// slices.Grow rounds up to; a larger message (a client's limit is
// 256 KiB) borrows its scratch only while it is read, so a peer cannot
// make a thousand connections hold that much each.
const rbufKeep = 8 << 10

// keep keeps buf as the reader's scratch, emptied, if it is small enough.
func (t *conn) keep(buf []byte) {
	t.rbuf = nil
	if cap(buf) <= rbufKeep {
		t.rbuf = buf[:0]
	}
}

// StallTimeout is how long a server's websocket ping may go unanswered
// before the peer counts as not reading and the connection is closed ("connection
// stalled: peer not reading"). A pong can only come once the peer has
// read everything sent before the ping, so an unanswered ping means the
// peer is StallTimeout behind, whatever the socket buffers hold: without
// this a client that never read kept its connection until the kernel's
// buffers filled and a write timed out: over 150 s on loopback with 4 bots
// (TestStalledReaderDropped in package server).
const StallTimeout = WriteTimeout

func (t *conn) writeLoop() {
	defer close(t.writeDone)
	tick := time.NewTicker(PingInterval)
	defer tick.Stop()
	// The first ping leaves at once, so the round trip is known within one
	// round trip of the connection, before the first shot.
	if err := t.ping(time.Now()); err != nil {
		t.finish(writeFailure(err), false, endDrop, 0)
		return
	}
	for {
		select {
		case <-t.Done():
			t.flushQueued()
			return
		case b := <-t.Outgoing():
			_ = t.ws.SetWriteDeadline(time.Now().Add(WriteTimeout))
			err := t.ws.WriteMessage(websocket.BinaryMessage, b)
			if err != nil {
				t.finish(writeFailure(err), false, endDrop, 0)
				return
			}
			t.Sent(len(b))
		case now := <-tick.C:
			if t.server && t.tcp != nil {
				t.readTCPRTT(time.Now()) // LinkRTT's (the server's lag compensation), fresh whether or not frames arrive
			}
			t.pmu.Lock()
			sent := t.pingSent
			t.pmu.Unlock()
			if t.server && !sent.IsZero() && now.Sub(sent) >= StallTimeout {
				t.finish(fmt.Sprintf("connection stalled: peer not reading (ping unanswered for %d s)", int(StallTimeout/time.Second)),
					false, endTell, websocket.CloseNormalClosure)
				return
			}
			if !sent.IsZero() {
				continue // one ping at a time: the oldest unanswered one counts
			}
			if err := t.ping(now); err != nil {
				t.finish(writeFailure(err), false, endDrop, 0)
				return
			}
		}
	}
}

// writeFailure is the reason a failed write ends the connection with.
func writeFailure(err error) string {
	var ne net.Error
	if errors.As(err, &ne) && ne.Timeout() {
		return fmt.Sprintf("connection stalled: peer not reading (write timed out after %d s)", int(WriteTimeout/time.Second))
	}
	return "connection lost: " + err.Error()
}
