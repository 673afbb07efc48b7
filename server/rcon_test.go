package server_test

import (
	"net"
	"strings"
	"testing"
	"time"

	"github.com/gorilla/websocket"

	"tickshot/net/proto"
	"tickshot/server"
)

// dialRawFrom is dialRaw from another loopback address (Linux routes all of
// 127.0.0.0/8 to lo), so the server sees a second remote address.
func dialRawFrom(t *testing.T, addr, localIP string) *raw {
	t.Helper()
	nd := &net.Dialer{LocalAddr: &net.TCPAddr{IP: net.ParseIP(localIP)}, Timeout: 3 * time.Second}
	d := websocket.Dialer{HandshakeTimeout: 3 * time.Second, NetDial: nd.Dial}
	ws, _, err := d.Dial("ws://"+addr+"/ws", nil)
	if err != nil {
		t.Fatalf("dial from %s: %v", localIP, err)
	}
	t.Cleanup(func() { ws.Close() })
	return &raw{t: t, ws: ws}
}

// readPrint waits for a Print message and returns its text.
func (r *raw) readPrint(timeout time.Duration) (string, bool) {
	_ = r.ws.SetReadDeadline(time.Now().Add(timeout))
	for {
		kind, data, err := r.ws.ReadMessage()
		if err != nil {
			return "", false
		}
		if kind != websocket.BinaryMessage {
			continue
		}
		m, err := proto.Decode(data)
		if err != nil {
			r.t.Fatalf("undecodable frame: %v", err)
		}
		if p, ok := m.(*proto.Print); ok {
			return p.Text, true
		}
	}
}

// TestRconGuessing: a burst of wrong rcon passwords on one connection gets
// it kicked with "too many wrong rcon passwords" (RconMaxFailures in
// RconFailureWindow); the same address is then refused rcon even with the
// right password, while another address with the right password runs
// commands.
func TestRconGuessing(t *testing.T) {
	const pw = "hunter2-correct"
	_, addr := startServer(t, server.Config{RconPassword: pw})

	guesser := dialRaw(t, addr)
	guesser.join("guesser")
	for i := 0; i < 50; i++ {
		if err := guesser.send(proto.MustEncode(&proto.Command{Text: "rcon status", Password: "guess" + string(rune('a'+i%26))})); err != nil {
			break // already kicked
		}
	}
	end := guesser.readEnd(5 * time.Second)
	if !end.closed || !end.mentions(server.RconKickReason) {
		t.Fatalf("guesser not kicked for guessing: %v", end)
	}

	// Same address, right password, new connection: still refused.
	again := dialRaw(t, addr)
	again.join("again")
	again.mustSend(proto.MustEncode(&proto.Command{Text: "rcon status", Password: pw}))
	if end := again.readEnd(5 * time.Second); !end.closed || !end.mentions(server.RconKickReason) {
		t.Fatalf("banned address ran rcon with the right password: %v", end)
	}

	// Another address: one wrong guess is told so, the right password works.
	admin := dialRawFrom(t, addr, "127.0.0.2")
	admin.join("admin")
	admin.mustSend(proto.MustEncode(&proto.Command{Text: "rcon status", Password: "typo"}))
	if text, ok := admin.readPrint(3 * time.Second); !ok || !strings.Contains(text, "bad password") {
		t.Fatalf("wrong password answered %q, %v", text, ok)
	}
	admin.mustSend(proto.MustEncode(&proto.Command{Text: "rcon status", Password: pw}))
	text, ok := admin.readPrint(3 * time.Second)
	if !ok || !strings.HasPrefix(text, "map ") {
		t.Fatalf("rcon status from another address answered %q, %v", text, ok)
	}
}
