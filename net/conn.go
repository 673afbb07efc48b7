package net

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"sync"
	"sync/atomic"
	"time"

	"github.com/gorilla/websocket"
)

// Transport timings.
const (
	// ReadTimeout is how long a connection may stay silent (no message, no
	// pong) before it is closed.
	ReadTimeout = 15 * time.Second
	// WriteTimeout bounds the time to write one frame.
	WriteTimeout = 5 * time.Second
	// PingInterval is the websocket keepalive ping period.
	PingInterval = 5 * time.Second
	// HandshakeTimeout bounds the websocket upgrade and the Hello exchange.
	HandshakeTimeout = 5 * time.Second
	// SendQueue is how many outgoing frames may wait; beyond that Send drops.
	SendQueue = 64
	// RecvQueue is how many incoming messages may wait for the owner.
	RecvQueue = 256
)

// Packet is one received message with its arrival time and size.
type Packet struct {
	Msg  Message
	Size int // bytes on the wire (frame payload)
	At   time.Time
}

// Stats are a connection's traffic counters (frame payload bytes).
type Stats struct {
	PacketsIn, PacketsOut uint64
	BytesIn, BytesOut     uint64
	DroppedIn, DroppedOut uint64 // queue overflows
}

// Conn is one websocket connection carrying Tickshot messages. A reader
// goroutine decodes and checks every frame (size limit, deadline, Decode);
// a writer goroutine writes queued frames and keepalive pings. The first
// malformed frame closes the connection with the decode error as the reason.
type Conn struct {
	ws        *websocket.Conn
	in        chan Packet
	out       chan []byte
	done      chan struct{} // closed when the connection is finished
	closeOnce sync.Once
	mu        sync.Mutex // guards reason and remote
	reason    string     // why it closed, for a person to read
	remote    bool       // the reason came from the peer
	limit     int64      // largest frame accepted, bytes
	fake      *fakeNet
	wmu       sync.Mutex    // serializes writes to the socket
	closed    chan struct{} // closed when the socket is closed
	inMu      sync.Mutex
	inClosed  bool

	packetsIn, packetsOut, bytesIn, bytesOut, droppedIn, droppedOut atomic.Uint64
}

// NewConn wraps an established websocket and starts its reader and writer.
// readLimit is the largest frame accepted, in bytes.
func NewConn(ws *websocket.Conn, readLimit int64) *Conn {
	c := &Conn{
		ws:     ws,
		in:     make(chan Packet, RecvQueue),
		out:    make(chan []byte, SendQueue),
		done:   make(chan struct{}),
		closed: make(chan struct{}),
		limit:  readLimit,
	}
	c.fake = newFakeNet(c.deliver)
	ws.SetReadLimit(4 * readLimit)
	ws.SetPongHandler(func(string) error {
		return ws.SetReadDeadline(time.Now().Add(ReadTimeout))
	})
	go c.readLoop()
	go c.writeLoop()
	return c
}

// Dial connects to a Tickshot server at addr ("host:port" or a ws:// URL).
func Dial(ctx context.Context, addr string) (*Conn, error) {
	url := addr
	if len(url) < 5 || (url[:5] != "ws://" && url[:6] != "wss://") {
		url = "ws://" + addr + "/ws"
	}
	d := websocket.Dialer{HandshakeTimeout: HandshakeTimeout, EnableCompression: false}
	ws, resp, err := d.DialContext(ctx, url, nil)
	if err != nil {
		if resp != nil {
			return nil, fmt.Errorf("connect %s: %w (HTTP %s)", addr, err, resp.Status)
		}
		return nil, fmt.Errorf("connect %s: %w", addr, err)
	}
	return NewConn(ws, MaxServerFrame), nil
}

var upgrader = websocket.Upgrader{
	HandshakeTimeout: HandshakeTimeout,
	ReadBufferSize:   MaxClientFrame,
	WriteBufferSize:  8192,
	// Any origin may connect: the browser client may be served from elsewhere.
	CheckOrigin: func(*http.Request) bool { return true },
}

// Upgrade turns an HTTP request into a Conn with the client frame limit.
func Upgrade(w http.ResponseWriter, r *http.Request) (*Conn, error) {
	ws, err := upgrader.Upgrade(w, r, nil)
	if err != nil {
		return nil, err
	}
	return NewConn(ws, MaxClientFrame), nil
}

// Recv returns the channel of received messages; it is closed when the
// connection ends.
func (c *Conn) Recv() <-chan Packet { return c.in }

// Done is closed when the connection has ended.
func (c *Conn) Done() <-chan struct{} { return c.done }

// Reason returns why the connection ended, and whether the peer said it.
func (c *Conn) Reason() (string, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.reason, c.remote
}

// RemoteAddr is the peer's address.
func (c *Conn) RemoteAddr() string { return c.ws.RemoteAddr().String() }

// Stats returns the traffic counters.
func (c *Conn) Stats() Stats {
	return Stats{
		PacketsIn: c.packetsIn.Load(), PacketsOut: c.packetsOut.Load(),
		BytesIn: c.bytesIn.Load(), BytesOut: c.bytesOut.Load(),
		DroppedIn: c.droppedIn.Load(), DroppedOut: c.droppedOut.Load(),
	}
}

// Send queues a message. It returns false, without blocking, when the
// connection is closed or its queue is full (the message is dropped).
func (c *Conn) Send(m Message) bool {
	return c.SendRaw(MustEncode(m))
}

// SendRaw queues an encoded frame (see Send).
func (c *Conn) SendRaw(b []byte) bool {
	select {
	case <-c.done:
		return false
	default:
	}
	select {
	case c.out <- b:
		return true
	default:
		c.droppedOut.Add(1)
		return false
	}
}

// Close ends the connection, telling the peer why with a Disconnect message.
func (c *Conn) Close(reason string) {
	c.finish(reason, false, true)
}

// finish ends the connection once. It never blocks: the reason is recorded
// and Done closed at once, while a goroutine writes the Disconnect and the
// close frame (bounded in time, after any frame being written) and closes
// the socket, then closes Closed. So a kick can never stall the caller
// (the server's tick goroutine) behind a peer that stopped reading.
func (c *Conn) finish(reason string, remote, tell bool) {
	c.closeOnce.Do(func() {
		reason = CleanText(reason, MaxReasonLen)
		c.mu.Lock()
		c.reason, c.remote = reason, remote
		c.mu.Unlock()
		close(c.done)
		go func() {
			defer close(c.closed)
			if tell {
				if b, err := Encode(&Disconnect{Reason: reason}); err == nil {
					c.wmu.Lock() // after the writer's frame in flight, if any
					_ = c.ws.SetWriteDeadline(time.Now().Add(time.Second))
					_ = c.ws.WriteMessage(websocket.BinaryMessage, b)
					_ = c.ws.WriteControl(websocket.CloseMessage,
						websocket.FormatCloseMessage(websocket.CloseNormalClosure, TruncateUTF8(reason, 120)),
						time.Now().Add(time.Second))
					c.wmu.Unlock()
				}
			}
			_ = c.ws.Close()
		}()
	})
}

// Closed is closed when the socket is closed (after Done, once the
// Disconnect was written or failed).
func (c *Conn) Closed() <-chan struct{} { return c.closed }

func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n]
}

func (c *Conn) readLoop() {
	defer func() {
		c.fake.stop()
		c.inMu.Lock()
		c.inClosed = true
		close(c.in)
		c.inMu.Unlock()
	}()
	for {
		_ = c.ws.SetReadDeadline(time.Now().Add(ReadTimeout))
		kind, data, err := c.readFrame()
		if errors.Is(err, errTooBig) {
			c.finish(fmt.Sprintf("frame larger than %d bytes", c.limit), false, true)
			return
		}
		if err != nil {
			var ce *websocket.CloseError
			switch {
			case errors.As(err, &ce):
				c.finish(closeText(ce), true, false)
			case errors.Is(err, websocket.ErrReadLimit):
				c.finish(fmt.Sprintf("frame larger than %d bytes", c.limit), false, true)
			default:
				c.finish("connection lost: "+err.Error(), false, false)
			}
			return
		}
		if kind != websocket.BinaryMessage {
			c.finish("protocol error: text frame", false, true)
			return
		}
		c.packetsIn.Add(1)
		c.bytesIn.Add(uint64(len(data)))
		m, err := Decode(data)
		if err != nil {
			c.finish("protocol error: "+err.Error(), false, true)
			return
		}
		if d, ok := m.(*Disconnect); ok {
			c.finish(d.Reason, true, false)
			return
		}
		p := Packet{Msg: m, Size: len(data), At: time.Now()}
		if c.fake.active() {
			c.fake.push(p)
			continue
		}
		c.deliver(p)
	}
}

func (c *Conn) deliver(p Packet) {
	c.inMu.Lock()
	defer c.inMu.Unlock()
	if c.inClosed {
		return
	}
	select {
	case c.in <- p:
	default:
		c.droppedIn.Add(1) // the owner is not keeping up, or a flood
	}
}

var errTooBig = errors.New("frame too big")

// readFrame reads one frame of at most c.limit bytes. Frames up to four
// times the limit are read and refused by us, so the peer gets a
// Disconnect with the reason; larger ones hit gorilla's hard read limit,
// which closes with code 1009 (message too big).
func (c *Conn) readFrame() (int, []byte, error) {
	kind, r, err := c.ws.NextReader()
	if err != nil {
		return 0, nil, err
	}
	data, err := io.ReadAll(io.LimitReader(r, c.limit+1))
	if err != nil {
		return 0, nil, err
	}
	if int64(len(data)) > c.limit {
		return 0, nil, errTooBig
	}
	return kind, data, nil
}

func closeText(ce *websocket.CloseError) string {
	if ce.Text != "" {
		return ce.Text
	}
	return fmt.Sprintf("connection closed (%d)", ce.Code)
}

func (c *Conn) writeLoop() {
	ping := time.NewTicker(PingInterval)
	defer ping.Stop()
	for {
		select {
		case <-c.done:
			return
		case b := <-c.out:
			c.wmu.Lock()
			_ = c.ws.SetWriteDeadline(time.Now().Add(WriteTimeout))
			err := c.ws.WriteMessage(websocket.BinaryMessage, b)
			c.wmu.Unlock()
			if err != nil {
				c.finish("connection lost: "+err.Error(), false, false)
				return
			}
			c.packetsOut.Add(1)
			c.bytesOut.Add(uint64(len(b)))
		case <-ping.C:
			c.wmu.Lock()
			err := c.ws.WriteControl(websocket.PingMessage, nil, time.Now().Add(WriteTimeout))
			c.wmu.Unlock()
			if err != nil {
				c.finish("connection lost: "+err.Error(), false, false)
				return
			}
		}
	}
}
