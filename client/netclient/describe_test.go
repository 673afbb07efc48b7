package netclient_test

import (
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"strings"
	"syscall"
	"testing"
	"time"

	"tickshot/client/netclient"
	"tickshot/net/proto"
)

// dialErr is a dial failure as ws.Dial returns it.
func dialErr(addr string, err error) error {
	return &netclient.ConnectError{Addr: addr, Err: fmt.Errorf("connect %s: %w", addr,
		&net.OpError{Op: "dial", Net: "tcp", Err: err})}
}

// rawMarkers are pieces of Go error text that must never reach the screen.
var rawMarkers = []string{"dial tcp", "read tcp", "i/o timeout", "unexpected EOF", "websocket: close",
	"connect: ", "context deadline", "disconnected by server:", "connection closed ("}

// TestDescribe: every way a connection fails or ends is said as a sentence
// for the player; the server's own reason is kept word for word; no raw Go
// error text is left.
func TestDescribe(t *testing.T) {
	const addr = "192.0.2.10:27015"
	tests := []struct {
		name string
		err  error
		want string // the whole sentence
	}{
		{"refused", dialErr(addr, os.NewSyscallError("connect", syscall.ECONNREFUSED)),
			"The connection to 192.0.2.10:27015 was refused: nobody is accepting connections there. Is the server running?"},
		{"dial timeout", dialErr(addr, &timeoutErr{}),
			"The server at 192.0.2.10:27015 did not answer in time. Check the address, and that the server is running and its port is open."},
		{"connect deadline", &netclient.ConnectError{Addr: addr, Err: context.DeadlineExceeded},
			"The server at 192.0.2.10:27015 did not answer in time. Check the address, and that the server is running and its port is open."},
		{"unknown host", dialErr("nosuch.invalid:27015", &net.DNSError{Err: "no such host", Name: "nosuch.invalid", IsNotFound: true}),
			"There is no computer called nosuch.invalid: the name could not be looked up. Check the address."},
		{"unreachable", dialErr(addr, os.NewSyscallError("connect", syscall.ENETUNREACH)),
			"No route leads to 192.0.2.10:27015 from this computer. Check the address and your network connection."},
		{"not a tickshot server", &netclient.ConnectError{Addr: addr, Err: errors.New("connect 192.0.2.10:27015: websocket: bad handshake (HTTP 404 Not Found)")},
			"Something answered at 192.0.2.10:27015, but not a Tickshot server (HTTP 404 Not Found). Check the address and the port."},
		{"reset while joining", dialErr(addr, os.NewSyscallError("read", syscall.ECONNRESET)),
			"The server at 192.0.2.10:27015 closed the connection at once. Is it a Tickshot server?"},
		{"server full", &netclient.ConnectError{Addr: addr, Err: &netclient.RejectError{Reason: "server is full"}},
			"The server did not let you in: server is full."},
		{"old version", &netclient.ConnectError{Addr: addr, Err: &netclient.RejectError{Reason: "protocol version 6, server speaks 7: update your game"}},
			"The server did not let you in: protocol version 6, server speaks 7: update your game."},
		{"password needed", &netclient.ConnectError{Addr: addr, Err: &netclient.RejectError{Reason: proto.RejectNeedPassword}},
			"The server at 192.0.2.10:27015 needs a password. Type password followed by it in the console (or connect with --password) and connect again."},
		{"wrong password", &netclient.ConnectError{Addr: addr, Err: &netclient.RejectError{Reason: proto.RejectWrongPassword}},
			"Wrong password for the server at 192.0.2.10:27015. Check it with the host, set it with password in the console (or --password) and connect again."},
		{"no answer to hello", &netclient.ConnectError{Addr: addr, Err: &netclient.HandshakeTimeoutError{Addr: addr, After: 5 * time.Second}},
			"The server at 192.0.2.10:27015 took the connection but did not answer the game's greeting within 5 s. Is it a Tickshot server, and is it overloaded?"},
		{"closed while joining", &netclient.ConnectError{Addr: addr, Err: &netclient.ClosedError{Reason: "server shutting down", Remote: true}},
			"The server closed the connection while you were joining: server shutting down."},
		{"kicked", &netclient.ClosedError{Reason: "kicked: message flood (more than 200 messages/s)", Remote: true},
			"The server disconnected you: kicked: message flood (more than 200 messages/s)."},
		{"shutdown", &netclient.ClosedError{Reason: "server shutting down", Remote: true},
			"The server disconnected you: server shutting down."},
		{"read timeout", &netclient.ClosedError{Reason: "connection lost: read tcp 127.0.0.1:40000->127.0.0.1:27015: i/o timeout"},
			"The server did not answer in time: nothing arrived from it for 15 s."},
		{"cl_timeout", &netclient.ClosedError{Reason: "timed out: no snapshot from the server for 15s", TimedOut: true},
			"The server did not answer in time: nothing arrived from it for 15 s."},
		{"cl_timeout 2.5 s", &netclient.ClosedError{Reason: "timed out: no snapshot from the server for 2.5s", TimedOut: true},
			"The server did not answer in time: nothing arrived from it for 2.5 s."},
		{"server died (EOF)", &netclient.ClosedError{Reason: "unexpected EOF", Remote: true},
			"The connection to the server was cut without a goodbye: the server stopped, or the network failed."},
		{"abnormal closure", &netclient.ClosedError{Reason: "connection lost: websocket: close 1006 (abnormal closure): unexpected EOF"},
			"The connection to the server was cut without a goodbye: the server stopped, or the network failed."},
		{"close code without text", &netclient.ClosedError{Reason: "connection closed (1006)", Remote: true},
			"The connection to the server was cut without a goodbye: the server stopped, or the network failed."},
		{"normal close without text", &netclient.ClosedError{Reason: "connection closed (1000)", Remote: true},
			"The server closed the connection without giving a reason."},
		{"reset while playing", &netclient.ClosedError{Reason: "connection lost: read tcp 127.0.0.1:1->127.0.0.1:2: read: connection reset by peer"},
			"The connection to the server was cut without a goodbye: the server stopped, or the network failed."},
		{"browser watchdog", &netclient.ClosedError{Reason: "connection lost: nothing from the server for 15s"},
			"The server did not answer in time: nothing arrived from it for 15 s."},
		{"browser dial", &netclient.ConnectError{Addr: addr, Err: errors.New("connect 192.0.2.10:27015: the server did not accept a websocket (connection closed (1006))")},
			"Could not open a connection to 192.0.2.10:27015. Is the server running, and is the address right?"},
		{"protocol error", &netclient.ClosedError{Reason: "protocol error: unknown message type 99"},
			"The server sent something this game does not understand. Are you both running the same version of Tickshot?"},
		{"bad address", &netclient.ConnectError{Addr: "http://x", Err: errors.New(`address "http://x": give host:port, or a ws:// or wss:// URL`)},
			`Could not connect: address "http://x": give host:port, or a ws:// or wss:// URL.`},
		{"unknown map", &netclient.ConnectError{Addr: addr, Err: errors.New(`server runs unknown map "dust"`)},
			`Could not connect to 192.0.2.10:27015: server runs unknown map "dust".`},
		{"cancelled", &netclient.ConnectError{Addr: addr, Err: context.Canceled}, "Connecting was cancelled."},
	}
	// The address the player gave, where it is not addr.
	addrOf := map[string]string{"unknown host": "nosuch.invalid:27015", "bad address": "http://x"}
	for _, tc := range tests {
		a := addr
		if v, ok := addrOf[tc.name]; ok {
			a = v
		}
		got := netclient.Describe(tc.err, a)
		if got != tc.want {
			t.Errorf("%s: Describe(%q)\n got %q\nwant %q", tc.name, tc.err, got, tc.want)
		}
		for _, m := range rawMarkers {
			if strings.Contains(got, m) && !strings.Contains(tc.want, m) {
				t.Errorf("%s: %q still carries Go error text %q", tc.name, got, m)
			}
		}
	}
	for _, tc := range tests {
		if !netclient.IsConnectionError(tc.err) {
			t.Errorf("%s: IsConnectionError(%q) = false", tc.name, tc.err)
		}
	}
	if netclient.IsConnectionError(errors.New("--cvar x=1: unknown command")) || netclient.IsConnectionError(nil) {
		t.Error("IsConnectionError is true for an error that is not about a connection")
	}
	if got := netclient.Describe(nil, addr); got != "" {
		t.Errorf("Describe(nil) = %q, want empty", got)
	}
}

type timeoutErr struct{}

func (*timeoutErr) Error() string   { return "i/o timeout" }
func (*timeoutErr) Timeout() bool   { return true }
func (*timeoutErr) Temporary() bool { return true }

// TestDescribeRealRefusal dials a loopback port where nothing listens with
// the real websocket dialer: the sentence names the address and says
// "refused"; the error itself keeps the Go detail.
func TestDescribeRealRefusal(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	_, err = netclient.Connect(ctx, netclient.Websocket, addr, netclient.DefaultConfig("t"))
	if err == nil {
		t.Fatal("connected to a closed port")
	}
	got := netclient.Describe(err, addr)
	want := "The connection to " + addr + " was refused: nobody is accepting connections there. Is the server running?"
	if got != want {
		t.Errorf("Describe(%q) = %q, want %q", err, got, want)
	}
	if !strings.Contains(err.Error(), "connection refused") {
		t.Errorf("the error lost its detail: %q", err)
	}
}
