package netclient

import (
	"context"
	"errors"
	"fmt"
	"math"
	"net"
	"os"
	"strings"
	"syscall"
	"time"

	"tickshot/net/proto"
	"tickshot/net/ws"
)

// ConnectError is why Connect failed: the dial, the handshake or the
// server's answer (Err). Its text is Err's, as before; Describe words it.
type ConnectError struct {
	Addr string // the address Connect was given
	Err  error
}

func (e *ConnectError) Error() string {
	var ce *ClosedError
	if errors.As(e.Err, &ce) {
		return fmt.Sprintf("connect %s: %s", e.Addr, ce.Reason)
	}
	return e.Err.Error()
}

func (e *ConnectError) Unwrap() error { return e.Err }

// RejectError is the server's refusal of the Hello (server full, wrong
// protocol version, bad name): Reason is the server's own text.
type RejectError struct{ Reason string }

func (e *RejectError) Error() string { return "server refused: " + e.Reason }

// HandshakeTimeoutError: the server took the connection but sent neither
// Accept nor Reject within After.
type HandshakeTimeoutError struct {
	Addr  string
	After time.Duration
}

func (e *HandshakeTimeoutError) Error() string {
	return fmt.Sprintf("connect %s: no answer to hello within %v", e.Addr, e.After)
}

// ClosedError: the connection ended. Reason is the server's own words when
// Remote (a kick, a shutdown, or a close frame's text), else the local
// transport's account (a read error, a protocol error). TimedOut marks
// the client's own cl_timeout (no snapshot for Config.Timeout).
type ClosedError struct {
	Reason   string
	Remote   bool
	TimedOut bool
}

func (e *ClosedError) Error() string {
	if e.Remote {
		return "disconnected by server: " + e.Reason
	}
	return e.Reason
}

// Describe turns why a connection failed or ended into a sentence for the
// player, not a Go error: "The connection to HOST:PORT was refused: nobody
// is accepting connections there. Is the server running?" rather than
// "dial tcp ...: connect: connection refused". addr is the server as the
// player named it (Connect's address when empty). The server's own reason
// for a refusal, kick or shutdown is kept word for word. An error it does
// not know keeps its text, after a sentence that says what failed.
func Describe(err error, addr string) string {
	if err == nil {
		return ""
	}
	var conn *ConnectError
	connecting := errors.As(err, &conn)
	if addr == "" && connecting {
		addr = conn.Addr
	}
	if addr == "" {
		addr = "its address"
	}
	var rej *RejectError
	if errors.As(err, &rej) {
		switch rej.Reason {
		case proto.RejectNeedPassword:
			return fmt.Sprintf("The server at %s needs a password. Type password followed by it in the console (or connect with --password) and connect again.", addr)
		case proto.RejectWrongPassword:
			return fmt.Sprintf("Wrong password for the server at %s. Check it with the host, set it with password in the console (or --password) and connect again.", addr)
		}
		return sentence("The server did not let you in: " + rej.Reason)
	}
	var hs *HandshakeTimeoutError
	if errors.As(err, &hs) {
		return fmt.Sprintf("The server at %s took the connection but did not answer the game's greeting within %s. Is it a Tickshot server, and is it overloaded?",
			addr, seconds(hs.After))
	}
	var closed *ClosedError
	if errors.As(err, &closed) {
		switch {
		case closed.TimedOut:
			return fmt.Sprintf("The server did not answer in time: nothing arrived from it for %s.", seconds(timeoutOf(closed.Reason)))
		case closed.Remote && !transportReason(closed.Reason):
			if connecting {
				return sentence("The server closed the connection while you were joining: " + closed.Reason)
			}
			return sentence("The server disconnected you: " + closed.Reason)
		}
	}
	msg := strings.ToLower(err.Error())
	has := func(subs ...string) bool {
		for _, s := range subs {
			if strings.Contains(msg, s) {
				return true
			}
		}
		return false
	}
	var dns *net.DNSError
	switch {
	case errors.Is(err, syscall.ECONNREFUSED) || has("connection refused"):
		return fmt.Sprintf("The connection to %s was refused: nobody is accepting connections there. Is the server running?", addr)
	case errors.As(err, &dns) && dns.IsNotFound || has("no such host"):
		name := hostOf(addr)
		if dns != nil && dns.Name != "" {
			name = dns.Name
		}
		return fmt.Sprintf("There is no computer called %s: the name could not be looked up. Check the address.", name)
	case errors.Is(err, syscall.ENETUNREACH) || errors.Is(err, syscall.EHOSTUNREACH) ||
		has("network is unreachable", "no route to host", "host is down"):
		return fmt.Sprintf("No route leads to %s from this computer. Check the address and your network connection.", addr)
	case errors.Is(err, context.Canceled):
		return "Connecting was cancelled."
	case errors.Is(err, os.ErrDeadlineExceeded) || errors.Is(err, context.DeadlineExceeded) ||
		has("i/o timeout", "deadline exceeded", "nothing from the server", "no answer within"):
		if connecting {
			return fmt.Sprintf("The server at %s did not answer in time. Check the address, and that the server is running and its port is open.", addr)
		}
		return fmt.Sprintf("The server did not answer in time: nothing arrived from it for %s.", seconds(ws.ReadTimeout))
	case has("bad handshake", "malformed http", "http/", "(http "):
		return fmt.Sprintf("Something answered at %s, but not a Tickshot server%s. Check the address and the port.", addr, httpStatus(err.Error()))
	case has("did not accept a websocket"):
		// The browser tells a page nothing about why a websocket failed.
		return fmt.Sprintf("Could not open a connection to %s. Is the server running, and is the address right?", addr)
	case has("connection closed (1000)", "connection closed (1001)"):
		return "The server closed the connection without giving a reason."
	case has("protocol error", "frame larger than", "protocol version"):
		return "The server sent something this game does not understand. Are you both running the same version of Tickshot?"
	case errors.Is(err, syscall.ECONNRESET) || errors.Is(err, syscall.EPIPE) ||
		has("reset by peer", "broken pipe", "eof", "connection closed (", "connection lost", "closed network connection"):
		if connecting {
			return fmt.Sprintf("The server at %s closed the connection at once. Is it a Tickshot server?", addr)
		}
		return "The connection to the server was cut without a goodbye: the server stopped, or the network failed."
	}
	// Our own messages (a malformed address, an unknown map) are written
	// for people: keep them, without the "connect ADDR:" prefix.
	text := err.Error()
	if conn != nil {
		text = strings.TrimPrefix(text, "connect "+conn.Addr+": ")
	}
	if connecting {
		if strings.Contains(text, addr) {
			return sentence("Could not connect: " + text)
		}
		return sentence("Could not connect to " + addr + ": " + text)
	}
	return sentence("The connection ended: " + text)
}

// IsConnectionError reports whether err says why a connection failed or
// ended (what Describe words), rather than some other failure.
func IsConnectionError(err error) bool {
	var conn *ConnectError
	var rej *RejectError
	var hs *HandshakeTimeoutError
	var closed *ClosedError
	return errors.As(err, &conn) || errors.As(err, &rej) || errors.As(err, &hs) || errors.As(err, &closed)
}

// transportReason reports whether a remote reason was made up by the
// transport (a dead link) rather than said by the server.
func transportReason(r string) bool {
	r = strings.ToLower(r)
	for _, s := range []string{"eof", "connection closed (", "connection lost", "reset by peer", "broken pipe", "i/o timeout"} {
		if strings.Contains(r, s) {
			return true
		}
	}
	return r == ""
}

// timeoutOf reads the duration back from a cl_timeout reason, or DefaultTimeout.
func timeoutOf(reason string) time.Duration {
	if i := strings.LastIndex(reason, " for "); i >= 0 {
		if d, err := time.ParseDuration(reason[i+5:]); err == nil {
			return d
		}
	}
	return DefaultTimeout
}

// seconds writes d for people: "15 s", "2.5 s".
func seconds(d time.Duration) string {
	s := d.Seconds()
	if s == math.Trunc(s) {
		return fmt.Sprintf("%d s", int(s))
	}
	return fmt.Sprintf("%.1f s", s)
}

// httpStatus returns " (HTTP 404 Not Found)" when text carries an HTTP status.
func httpStatus(text string) string {
	if i := strings.Index(text, "(HTTP "); i >= 0 {
		if j := strings.Index(text[i:], ")"); j > 0 {
			return " " + text[i:i+j+1]
		}
	}
	return ""
}

// hostOf returns the host of "host:port" (or addr itself).
func hostOf(addr string) string {
	if h, _, err := net.SplitHostPort(addr); err == nil {
		return h
	}
	return addr
}

func capital(s string) string {
	if s == "" || s[0] < 'a' || s[0] > 'z' {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

// sentence capitalises s and ends it with a full stop.
func sentence(s string) string {
	s = capital(strings.TrimSpace(s))
	if s != "" && !strings.ContainsAny(s[len(s)-1:], ".!?") {
		s += "."
	}
	return s
}
