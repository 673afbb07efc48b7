//go:build js

package rtc

import (
	"errors"
	"fmt"
	"sync"
	"syscall/js"
	"time"
)

// jsPeer is the browser's RTCPeerConnection, through syscall/js: the few
// calls the client needs (createDataChannel, createOffer,
// setLocalDescription, setRemoteDescription, addIceCandidate, close and
// four events) are smaller to make directly than pion's js build, which
// links pion's ICE, DTLS and SCTP besides its wrapper.
type jsPeer struct {
	pc    js.Value
	mu    sync.Mutex
	funcs []js.Func // the event handlers, released at Close
	done  bool
}

// jsChannel is an RTCDataChannel.
type jsChannel struct{ dc js.Value }

// Send hands b to the browser; send on a channel that is closing throws.
func (d jsChannel) Send(b []byte) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("send: %v", r)
		}
	}()
	arr := js.Global().Get("Uint8Array").New(len(b))
	js.CopyBytesToJS(arr, b)
	d.dc.Call("send", arr)
	return nil
}

func (d jsChannel) BufferedAmount() uint64 { return uint64(d.dc.Get("bufferedAmount").Float()) }

// on sets obj's event handler prop to f; the peer releases it at Close.
func (p *jsPeer) on(obj js.Value, prop string, f func(e js.Value)) {
	fn := js.FuncOf(func(_ js.Value, args []js.Value) any {
		var e js.Value
		if len(args) > 0 {
			e = args[0]
		}
		f(e)
		return nil
	})
	p.mu.Lock()
	p.funcs = append(p.funcs, fn)
	p.mu.Unlock()
	obj.Set(prop, fn)
}

// await waits for a promise (never call it on the browser's event loop:
// only from a goroutine of our own).
func await(promise js.Value) (js.Value, error) {
	type result struct {
		v   js.Value
		err error
	}
	ch := make(chan result, 1)
	then := js.FuncOf(func(_ js.Value, args []js.Value) any {
		var v js.Value
		if len(args) > 0 {
			v = args[0]
		}
		ch <- result{v: v}
		return nil
	})
	catch := js.FuncOf(func(_ js.Value, args []js.Value) any {
		msg := "rejected"
		if len(args) > 0 && args[0].Truthy() {
			msg = args[0].Call("toString").String()
		}
		ch <- result{err: errors.New(msg)}
		return nil
	})
	defer then.Release()
	defer catch.Release()
	promise.Call("then", then, catch)
	r := <-ch
	return r.v, r.err
}

// call runs a method that returns a promise and waits for it; a method that
// throws is an error too.
func call(obj js.Value, method string, args ...any) (v js.Value, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("%s: %v", method, r)
		}
	}()
	return await(obj.Call(method, args...))
}

func (p *jsPeer) AddCandidate(init string) error {
	ci, err := parseJSON(init)
	if err != nil {
		return err
	}
	_, err = call(p.pc, "addIceCandidate", ci)
	return err
}

func (p *jsPeer) SetAnswer(sdp string) error {
	_, err := call(p.pc, "setRemoteDescription", map[string]any{"type": "answer", "sdp": sdp})
	return err
}

func (p *jsPeer) Connected() bool {
	s := p.pc.Get("iceConnectionState").String()
	return s == "connected" || s == "completed"
}

func (p *jsPeer) Close() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.done {
		return
	}
	p.done = true
	func() {
		defer func() { _ = recover() }()
		p.pc.Call("close")
	}()
	// The handlers go once the close has run its course.
	funcs := p.funcs
	p.funcs = nil
	time.AfterFunc(time.Second, func() {
		for _, f := range funcs {
			f.Release()
		}
	})
}

// parseJSON parses s with the browser's JSON.parse.
func parseJSON(s string) (v js.Value, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("candidate: %v", r)
		}
	}()
	return js.Global().Get("JSON").Call("parse", s), nil
}

// newClientPeer makes the browser's peer connection and its data channel
// (ordered false, maxRetransmits 0) wired into c, and its offer; begin
// sets the offer as the local description, which starts gathering (the
// candidates go to candidate). No ICE servers: the server is reached
// directly, and its ICE-lite side learns the browser's address from its
// checks.
func newClientPeer(c *Conn, candidate func(init string)) (peer, string, func() error, error) {
	ctor := js.Global().Get("RTCPeerConnection")
	if ctor.IsUndefined() {
		return nil, "", nil, errors.New("this browser has no RTCPeerConnection")
	}
	p := &jsPeer{pc: ctor.New(map[string]any{})}
	fail := func(err error) (peer, string, func() error, error) {
		p.Close()
		return nil, "", nil, err
	}
	dc, err := func() (dc js.Value, err error) {
		defer func() {
			if r := recover(); r != nil {
				err = fmt.Errorf("createDataChannel: %v", r)
			}
		}()
		return p.pc.Call("createDataChannel", label, map[string]any{"ordered": false, "maxRetransmits": 0}), nil
	}()
	if err != nil {
		return fail(err)
	}
	dc.Set("binaryType", "arraybuffer")
	ch := jsChannel{dc}
	p.on(dc, "onopen", func(js.Value) { c.opened(ch) })
	p.on(dc, "onclose", func(js.Value) { c.closedChannel(ch) })
	p.on(dc, "onmessage", func(e js.Value) {
		data := e.Get("data")
		if data.Type() == js.TypeString {
			c.message(nil, true, time.Now())
			return
		}
		b := make([]byte, data.Get("byteLength").Int())
		js.CopyBytesToGo(b, js.Global().Get("Uint8Array").New(data))
		c.message(b, false, time.Now())
	})
	p.on(p.pc, "onicecandidate", func(e js.Value) {
		if ic := e.Get("candidate"); ic.Truthy() {
			candidate(js.Global().Get("JSON").Call("stringify", ic).String())
		}
	})
	p.on(p.pc, "onconnectionstatechange", func(js.Value) {
		switch s := p.pc.Get("connectionState").String(); s {
		case "failed", "closed", "disconnected":
			c.peerDown(s)
		case "connected":
			c.peerUp()
		}
	})
	offer, err := call(p.pc, "createOffer")
	if err != nil {
		return fail(err)
	}
	return p, offer.Get("sdp").String(), func() error {
		_, err := call(p.pc, "setLocalDescription", offer)
		return err
	}, nil
}
