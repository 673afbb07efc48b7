//go:build js

package client

import (
	"encoding/json"
	"sync/atomic"
	"syscall/js"
	"time"
)

// bridge connects the game to its web page (assets/web/index.html):
// window.tickshot.state is the Report as JSON, refreshed 5 times a second
// (the page shows connection errors from it, and tests read the client's
// counters there); window.tickshot.reconnect() retries after an error;
// window.tickshot.firstFrameMs is performance.now() at the first frame.
type bridge struct {
	obj       js.Value
	reconnect atomic.Bool
	last      time.Time
	drawn     bool
}

// init publishes window.tickshot and its reconnect function.
func (b *bridge) init() {
	b.obj = js.Global().Get("tickshot")
	if !b.obj.Truthy() {
		b.obj = js.Global().Get("Object").New()
		js.Global().Set("tickshot", b.obj)
	}
	b.obj.Set("reconnect", js.FuncOf(func(js.Value, []js.Value) any {
		b.reconnect.Store(true)
		return nil
	}))
}

// update runs once per Update of g: a reconnect asked by the page, and
// the published state.
func (b *bridge) update(g *Game) {
	if b.reconnect.Swap(false) {
		if s, ok := g.scenes.Current().(*connectScene); ok {
			s.retry(g.ctx)
		}
	}
	if time.Since(b.last) < 200*time.Millisecond {
		return
	}
	b.last = time.Now()
	s, _ := json.Marshal(g.report())
	b.obj.Set("state", string(s))
}

// frameDrawn runs after each frame is drawn.
func (b *bridge) frameDrawn() {
	if !b.drawn {
		b.drawn = true
		b.obj.Set("firstFrameMs", js.Global().Get("performance").Call("now"))
	}
}
