//go:build js

package ws

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"syscall/js"
	"time"

	"tickshot/net/transport"
)

// MaxBuffered is how many bytes the browser may hold unsent
// (WebSocket.bufferedAmount) before further frames are dropped and counted
// (Stats.DroppedOut), as the native send queue drops when full.
const MaxBuffered = 256 << 10

// Dial connects to a websocket server at addr (see URL) through the
// browser's WebSocket API, with syscall/js. (github.com/coder/websocket,
// tried first, hides the close event's code and reason from its js build,
// cannot report the browser's send backlog, blocks in Close until the
// browser's close event, and pulls net/http into the wasm: 0.5 MB more to
// download. The browser API is small enough to use directly.)
//
// Browsers cannot send websocket pings; they answer the server's. The
// client gives up when nothing arrives for ReadTimeout, like the native one.
func Dial(ctx context.Context, addr string, opt transport.Options) (transport.Transport, error) {
	url, err := URL(addr)
	if err != nil {
		return nil, err
	}
	ctor := js.Global().Get("WebSocket")
	if !ctor.Truthy() {
		return nil, errors.New("this browser has no WebSocket")
	}
	sock, err := newSocket(ctor, url)
	if err != nil {
		return nil, fmt.Errorf("connect %s: %w", addr, err)
	}
	sock.Set("binaryType", "arraybuffer")
	t := &conn{Endpoint: transport.NewEndpoint(), sock: sock, opt: opt, addr: addr,
		opened: make(chan struct{}), closed: make(chan closeInfo, 1)}
	t.lastRecv.Store(time.Now().UnixNano())
	t.handlers()

	timer := time.NewTimer(HandshakeTimeout)
	defer timer.Stop()
	select {
	case <-t.opened:
	case ci := <-t.closed:
		t.release()
		return nil, fmt.Errorf("connect %s: the server did not accept a websocket (%s)", addr, closeText(ci.code, ci.reason))
	case <-timer.C:
		t.abandon()
		return nil, fmt.Errorf("connect %s: no answer within %v", addr, HandshakeTimeout)
	case <-ctx.Done():
		t.abandon()
		return nil, ctx.Err()
	}
	go t.writeLoop()
	go t.watchdog()
	return t, nil
}

// newSocket calls new WebSocket(url), which throws on a malformed URL.
func newSocket(ctor js.Value, url string) (sock js.Value, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("bad websocket URL %q: %v", url, r)
		}
	}()
	return ctor.New(url), nil
}

type closeInfo struct {
	code   int
	reason string
}

type conn struct {
	*transport.Endpoint
	sock     js.Value
	opt      transport.Options
	addr     string
	opened   chan struct{}
	closed   chan closeInfo // the close event, before the link was up
	up       atomic.Bool
	lastRecv atomic.Int64 // unix ns of the last frame
	funcs    []js.Func
	relOnce  sync.Once
}

// handlers installs the socket's event handlers. They run on the browser's
// event loop and never block.
func (t *conn) handlers() {
	on := func(event string, f func(e js.Value)) {
		fn := js.FuncOf(func(_ js.Value, args []js.Value) any {
			f(args[0])
			return nil
		})
		t.funcs = append(t.funcs, fn)
		t.sock.Set(event, fn)
	}
	on("onopen", func(js.Value) {
		t.up.Store(true)
		close(t.opened)
	})
	on("onmessage", func(e js.Value) { t.onFrame(e.Get("data")) })
	on("onclose", func(e js.Value) {
		ci := closeInfo{code: e.Get("code").Int(), reason: e.Get("reason").String()}
		if !t.up.Load() {
			t.closed <- ci
			return
		}
		if ci.code == 1009 {
			t.finish(fmt.Sprintf("frame larger than %d bytes", t.opt.Limit()), false, false)
		} else if ci.code == 1000 || ci.code >= 3000 || ci.reason != "" {
			t.finish(closeText(ci.code, ci.reason), true, false)
		} else {
			t.finish(fmt.Sprintf("connection lost (websocket closed with code %d)", ci.code), false, false)
		}
		t.release()
	})
	// An error is always followed by a close event, which says the rest.
	on("onerror", func(js.Value) {})
}

func (t *conn) onFrame(data js.Value) {
	t.lastRecv.Store(time.Now().UnixNano())
	if data.Type() == js.TypeString {
		t.Read(data.Length())
		t.finish("protocol error: text frame", false, true)
		return
	}
	n := data.Get("byteLength").Int()
	t.Read(n)
	if limit := t.opt.Limit(); n > limit {
		t.finish(fmt.Sprintf("frame larger than %d bytes", limit), false, true)
		return
	}
	b := make([]byte, n)
	js.CopyBytesToGo(b, js.Global().Get("Uint8Array").New(data))
	t.Deliver(transport.Frame{Data: b, At: time.Now()})
}

func (t *conn) Send(b []byte) bool { return t.Queue(b) }

func (t *conn) RemoteAddr() string { return t.addr }

// Close implements transport.Transport: the farewell, then a close with
// code 1000 and the reason; it never blocks.
func (t *conn) Close(reason string) { t.finish(reason, false, true) }

// Abort implements transport.Transport.
func (t *conn) Abort(reason string, remote bool) { t.finish(reason, remote, false) }

func (t *conn) finish(reason string, remote, tell bool) {
	if !t.End(reason, remote) {
		return
	}
	t.CloseRecv()
	if tell && t.opt.Farewell != nil {
		if b := t.opt.Farewell(reason); b != nil && t.write(b) {
			t.Sent(len(b))
		}
	}
	t.closeSocket(1000, closeReason(reason))
	// The close event releases the handlers; a peer that never answers
	// the close handshake is given up on after FarewellTimeout.
	time.AfterFunc(transport.FarewellTimeout, t.release)
}

// abandon closes a socket that never opened.
func (t *conn) abandon() {
	t.closeSocket(1000, "")
	t.release()
}

// closeSocket calls WebSocket.close, which throws on a bad code or a
// reason over 123 bytes.
func (t *conn) closeSocket(code int, reason string) {
	defer func() { _ = recover() }()
	t.sock.Call("close", code, reason)
}

// release drops the event handlers and marks the link released (Closed).
func (t *conn) release() {
	t.relOnce.Do(func() {
		for _, ev := range []string{"onopen", "onmessage", "onclose", "onerror"} {
			t.sock.Set(ev, js.Null())
		}
		for _, f := range t.funcs {
			f.Release()
		}
		t.CloseRecv()
		t.Release()
	})
}

// write hands one frame to the browser, unless its backlog is over
// MaxBuffered; it reports whether the frame was taken.
func (t *conn) write(b []byte) (ok bool) {
	defer func() {
		if recover() != nil {
			ok = false // send on a closing socket throws in some browsers
		}
	}()
	if t.sock.Get("readyState").Int() != 1 || t.sock.Get("bufferedAmount").Int() > MaxBuffered {
		return false
	}
	arr := js.Global().Get("Uint8Array").New(len(b))
	js.CopyBytesToJS(arr, b)
	t.sock.Call("send", arr)
	return true
}

func (t *conn) writeLoop() {
	for {
		select {
		case <-t.Done():
			return
		case b := <-t.Outgoing():
			if t.write(b) {
				t.Sent(len(b))
			} else {
				t.CountDroppedOut()
			}
		}
	}
}

// Touch implements transport.Toucher: the server was heard on the datagram
// path, which the watchdog counts as a frame.
func (t *conn) Touch(at time.Time) { t.lastRecv.Store(at.UnixNano()) }

// watchdog ends a connection that has been silent for ReadTimeout: a
// server that vanished without closing (browsers send no pings).
func (t *conn) watchdog() {
	tick := time.NewTicker(time.Second)
	defer tick.Stop()
	for {
		select {
		case <-t.Done():
			return
		case <-tick.C:
			if time.Since(time.Unix(0, t.lastRecv.Load())) > ReadTimeout {
				t.finish(fmt.Sprintf("connection lost: nothing from the server for %v", ReadTimeout), false, false)
				return
			}
		}
	}
}
