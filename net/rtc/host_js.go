//go:build js

package rtc

import (
	"errors"
	"sync/atomic"

	"tickshot/net/proto"
)

// Host is the server's WebRTC side as the browser build sees it: package
// server compiles there so that the lag lab can run the real server in the
// page over in-memory links, but a page has no UDP socket to take data
// channels on and links no pion. NewHost always fails, so the only Host is
// a nil one, which refuses every offer as a server with sv_transports
// websocket does.
type Host struct {
	oversize atomic.Uint64
}

// ErrBrowserHost is NewHost's error in the browser build.
var ErrBrowserHost = errors.New("webrtc: the browser cannot take data channels: run tickshot-server")

// NewHost fails with ErrBrowserHost.
func NewHost(HostConfig) (*Host, error) { return nil, ErrBrowserHost }

// Addr is empty: nothing is bound.
func (h *Host) Addr() string { return "" }

// Close does nothing.
func (h *Host) Close() error { return nil }

// answer refuses the offer (the native answer's nil Host case).
func (h *Host) answer(c *Conn, _ string) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if !c.ended {
		c.signal(proto.SignalRefuse, refusal)
		c.ended = true
	}
	return nil
}
