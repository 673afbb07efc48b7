//go:build !js

package ws

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"sync"
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
	return newConn(c, opt), nil
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
	c, err := upgrader.Upgrade(w, r, nil)
	if err != nil {
		return nil, err
	}
	return newConn(c, opt), nil
}

// conn is a gorilla websocket as a transport: a reader goroutine with a
// size limit and a deadline per frame, a writer goroutine for queued
// frames and keepalive pings.
type conn struct {
	*transport.Endpoint
	ws  *websocket.Conn
	opt transport.Options
	wmu sync.Mutex // serializes writes to the socket
}

func newConn(c *websocket.Conn, opt transport.Options) *conn {
	t := &conn{Endpoint: transport.NewEndpoint(), ws: c, opt: opt}
	// Frames up to four times the limit are read and refused by us, so the
	// peer gets the farewell with the reason; larger ones hit gorilla's hard
	// read limit, which closes with code 1009 (message too big).
	c.SetReadLimit(4 * int64(opt.Limit()))
	c.SetPongHandler(func(string) error {
		return c.SetReadDeadline(time.Now().Add(ReadTimeout))
	})
	go t.readLoop()
	go t.writeLoop()
	return t
}

func (t *conn) Send(b []byte) bool { return t.Queue(b) }

func (t *conn) RemoteAddr() string { return t.ws.RemoteAddr().String() }

// Close implements transport.Transport. It never blocks: the farewell and
// the close frame are written by a goroutine, after any frame being
// written, bounded by FarewellTimeout; so a kick can never stall the caller
// (the server's tick goroutine) behind a peer that stopped reading.
func (t *conn) Close(reason string) { t.finish(reason, false, true) }

// Abort implements transport.Transport.
func (t *conn) Abort(reason string, remote bool) { t.finish(reason, remote, false) }

func (t *conn) finish(reason string, remote, tell bool) {
	if !t.End(reason, remote) {
		return
	}
	go func() {
		defer t.Release()
		if tell {
			t.wmu.Lock() // after the writer's frame in flight, if any
			deadline := time.Now().Add(transport.FarewellTimeout)
			_ = t.ws.SetWriteDeadline(deadline)
			if t.opt.Farewell != nil {
				if b := t.opt.Farewell(reason); b != nil && t.ws.WriteMessage(websocket.BinaryMessage, b) == nil {
					t.Sent(len(b))
				}
			}
			_ = t.ws.WriteControl(websocket.CloseMessage,
				websocket.FormatCloseMessage(websocket.CloseNormalClosure, closeReason(reason)), deadline)
			t.wmu.Unlock()
		}
		_ = t.ws.Close()
	}()
}

var errTooBig = errors.New("frame too big")

func (t *conn) readLoop() {
	defer t.CloseRecv()
	limit := t.opt.Limit()
	for {
		_ = t.ws.SetReadDeadline(time.Now().Add(ReadTimeout))
		kind, data, err := t.readFrame(limit)
		if errors.Is(err, errTooBig) || errors.Is(err, websocket.ErrReadLimit) {
			t.finish(fmt.Sprintf("frame larger than %d bytes", limit), false, true)
			return
		}
		if err != nil {
			var ce *websocket.CloseError
			if errors.As(err, &ce) {
				t.finish(closeText(ce.Code, ce.Text), true, false)
			} else {
				t.finish("connection lost: "+err.Error(), false, false)
			}
			return
		}
		t.Read(len(data))
		if kind != websocket.BinaryMessage {
			t.finish("protocol error: text frame", false, true)
			return
		}
		t.Deliver(transport.Frame{Data: data, At: time.Now()})
	}
}

// readFrame reads one frame of at most limit bytes.
func (t *conn) readFrame(limit int) (int, []byte, error) {
	kind, r, err := t.ws.NextReader()
	if err != nil {
		return 0, nil, err
	}
	data, err := io.ReadAll(io.LimitReader(r, int64(limit)+1))
	if err != nil {
		return 0, nil, err
	}
	if len(data) > limit {
		return 0, nil, errTooBig
	}
	return kind, data, nil
}

func (t *conn) writeLoop() {
	ping := time.NewTicker(PingInterval)
	defer ping.Stop()
	for {
		select {
		case <-t.Done():
			return
		case b := <-t.Outgoing():
			t.wmu.Lock()
			_ = t.ws.SetWriteDeadline(time.Now().Add(WriteTimeout))
			err := t.ws.WriteMessage(websocket.BinaryMessage, b)
			t.wmu.Unlock()
			if err != nil {
				t.finish("connection lost: "+err.Error(), false, false)
				return
			}
			t.Sent(len(b))
		case <-ping.C:
			t.wmu.Lock()
			err := t.ws.WriteControl(websocket.PingMessage, nil, time.Now().Add(WriteTimeout))
			t.wmu.Unlock()
			if err != nil {
				t.finish("connection lost: "+err.Error(), false, false)
				return
			}
		}
	}
}
