//go:build js

package ws

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/coder/websocket"

	"tickshot/net/transport"
)

// Dial connects to a websocket server at addr (see URL) through the
// browser's WebSocket API, by way of github.com/coder/websocket: a
// well-kept library whose js/wasm build wraps the browser's WebSocket
// (binary frames as ArrayBuffers, close codes and reasons), which the Go
// standard library cannot reach (GOOS=js has no sockets).
func Dial(ctx context.Context, addr string, opt transport.Options) (transport.Transport, error) {
	url, err := URL(addr)
	if err != nil {
		return nil, err
	}
	ctx, cancel := context.WithTimeout(ctx, HandshakeTimeout)
	defer cancel()
	c, _, err := websocket.Dial(ctx, url, nil)
	if err != nil {
		return nil, fmt.Errorf("connect %s: %w", addr, err)
	}
	// As in the native transport: frames up to four times the limit are
	// refused by us with a reason; larger ones end the socket (1009).
	c.SetReadLimit(4 * int64(opt.Limit()))
	t := &conn{Endpoint: transport.NewEndpoint(), ws: c, opt: opt, addr: addr}
	t.ctx, t.cancel = context.WithCancel(context.Background())
	go t.readLoop()
	go t.writeLoop()
	return t, nil
}

type conn struct {
	*transport.Endpoint
	ws     *websocket.Conn
	opt    transport.Options
	addr   string
	ctx    context.Context
	cancel context.CancelFunc
}

func (t *conn) Send(b []byte) bool { return t.Queue(b) }

func (t *conn) RemoteAddr() string { return t.addr }

// Close implements transport.Transport (see the native implementation).
func (t *conn) Close(reason string) { t.finish(reason, false, true) }

func (t *conn) finish(reason string, remote, tell bool) {
	if !t.End(reason, remote) {
		return
	}
	go func() {
		defer t.Release()
		defer t.cancel()
		if tell && t.opt.Farewell != nil {
			if b := t.opt.Farewell(reason); b != nil {
				ctx, cancel := context.WithTimeout(context.Background(), transport.FarewellTimeout)
				if t.ws.Write(ctx, websocket.MessageBinary, b) == nil {
					t.Sent(len(b))
				}
				cancel()
			}
		}
		_ = t.ws.Close(websocket.StatusNormalClosure, closeReason(reason))
	}()
}

// closeReason cuts a reason to what a close frame holds (123 bytes) at a
// character boundary.
func closeReason(s string) string {
	const max = 120
	if len(s) <= max {
		return s
	}
	i := max
	for i > 0 && s[i]&0xC0 == 0x80 {
		i--
	}
	return s[:i]
}

func (t *conn) readLoop() {
	defer t.CloseRecv()
	limit := t.opt.Limit()
	for {
		kind, data, err := t.ws.Read(t.ctx)
		if err != nil {
			var ce websocket.CloseError
			switch {
			case errors.As(err, &ce) && ce.Code == websocket.StatusMessageTooBig:
				t.finish(fmt.Sprintf("frame larger than %d bytes", limit), false, true)
			case errors.As(err, &ce):
				t.finish(closeText(int(ce.Code), ce.Reason), true, false)
			default:
				t.finish("connection lost: "+err.Error(), false, false)
			}
			return
		}
		t.Read(len(data))
		if len(data) > limit {
			t.finish(fmt.Sprintf("frame larger than %d bytes", limit), false, true)
			return
		}
		if kind != websocket.MessageBinary {
			t.finish("protocol error: text frame", false, true)
			return
		}
		t.Deliver(transport.Frame{Data: data, At: time.Now()})
	}
}

func (t *conn) writeLoop() {
	for {
		select {
		case <-t.Done():
			return
		case b := <-t.Outgoing():
			ctx, cancel := context.WithTimeout(t.ctx, WriteTimeout)
			err := t.ws.Write(ctx, websocket.MessageBinary, b)
			cancel()
			if err != nil {
				t.finish("connection lost: "+err.Error(), false, false)
				return
			}
			t.Sent(len(b))
		}
	}
}
