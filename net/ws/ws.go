// Package ws is Tickshot's websocket transport: gorilla/websocket in native
// builds (Dial for clients, Upgrade for the server) and the browser's
// WebSocket API under GOOS=js (Dial only, through syscall/js). Both return a
// transport.Transport carrying binary frames, so everything above them is
// the same code in the server, the native client and the browser.
package ws

import (
	"fmt"
	"strings"
	"time"
)

// Timings of the websocket transport.
const (
	// ReadTimeout is how long a connection may stay silent (no frame, no
	// pong) before it is closed; a server's may close up to readSlack
	// sooner.
	ReadTimeout = 15 * time.Second
	// WriteTimeout bounds the time to write one frame.
	WriteTimeout = 5 * time.Second
	// PingInterval is the websocket keepalive ping period. A ping is sent
	// only when the previous one was answered; one unanswered for
	// StallTimeout closes the connection. Each carries an 8-byte counter
	// (its round trip is timed: LinkRTT) and costs 10 bytes, its pong 14.
	PingInterval = time.Second
	// HandshakeTimeout bounds the websocket upgrade.
	HandshakeTimeout = 5 * time.Second
	// DefaultPort is the port a server address without one gets.
	DefaultPort = "27015"
)

// URL turns a server address into the websocket URL of its game endpoint:
// "host", "host:port" and "[v6]:port" become ws://host:port/ws (port 27015
// when missing); ws:// and wss:// URLs are kept as they are. It returns an
// error for an empty address.
func URL(addr string) (string, error) {
	addr = strings.TrimSpace(addr)
	if strings.HasPrefix(addr, "ws://") || strings.HasPrefix(addr, "wss://") {
		return addr, nil
	}
	for _, p := range []string{"http://", "https://"} {
		if strings.HasPrefix(addr, p) {
			return "", fmt.Errorf("address %q: give host:port, or a ws:// or wss:// URL", addr)
		}
	}
	if addr == "" {
		return "", fmt.Errorf("empty server address")
	}
	if strings.HasSuffix(addr, ":") {
		return "", fmt.Errorf("address %q: the port is missing after the colon", addr)
	}
	if !hasPort(addr) {
		addr += ":" + DefaultPort
	}
	return "ws://" + addr + "/ws", nil
}

// hasPort reports whether addr ends in :port (IPv6 literals in brackets).
func hasPort(addr string) bool {
	for i := len(addr) - 1; i >= 0; i-- {
		switch addr[i] {
		case ':':
			return addr[len(addr)-1] != ']' && i < len(addr)-1
		case ']':
			return false
		}
	}
	return false
}
