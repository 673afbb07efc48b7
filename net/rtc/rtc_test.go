//go:build !js

package rtc

import (
	"bytes"
	"context"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"tickshot/net/proto"
	"tickshot/net/transport"
	"tickshot/net/transport/transporttest"
	"tickshot/net/ws"
)

// logBuf collects a client's console lines.
type logBuf struct {
	mu    sync.Mutex
	lines []string
}

func (l *logBuf) logf(s string) {
	l.mu.Lock()
	l.lines = append(l.lines, s)
	l.mu.Unlock()
}

func (l *logBuf) all() []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return append([]string(nil), l.lines...)
}

// pair dials a real WebSocket on loopback and wraps both ends: the
// server's with h (nil: WebRTC refused), the client's with mode. The
// server then sends an Accept, which lets the client offer; the client's
// copy of it is read here.
func pair(t *testing.T, h *Host, mode Mode, copt, sopt transport.Options) (*Conn, *Conn, *logBuf) {
	t.Helper()
	accepted := make(chan transport.Transport, 1)
	hs := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		tr, err := ws.Upgrade(w, r, sopt)
		if err != nil {
			t.Errorf("upgrade: %v", err)
			return
		}
		accepted <- tr
	}))
	t.Cleanup(hs.Close)
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	base, err := ws.Dial(ctx, "ws://"+strings.TrimPrefix(hs.URL, "http://")+"/ws", copt)
	if err != nil {
		t.Fatal(err)
	}
	log := &logBuf{}
	c := NewClient(base, copt, mode, log.logf)
	var s *Conn
	select {
	case sb := <-accepted:
		s = h.Wrap(sb, sopt)
	case <-time.After(5 * time.Second):
		t.Fatal("no server side connection")
	}
	t.Cleanup(func() { c.Close("test over"); s.Close("test over") })
	if !s.Send(proto.MustEncode(&proto.Accept{Map: "test"})) {
		t.Fatal("sending the accept")
	}
	select {
	case f := <-c.Recv():
		if proto.MsgType(f.Data[0]) != proto.MsgAccept {
			t.Fatalf("the client got %d before the accept", f.Data[0])
		}
	case <-time.After(5 * time.Second):
		t.Fatal("no accept")
	}
	return c, s, log
}

// host listens on a free loopback UDP port.
func host(t *testing.T) *Host { return hostOn(t, nil) }

// hostOn is a host on conn (nil: a free loopback UDP port).
func hostOn(t *testing.T, conn net.PacketConn) *Host {
	t.Helper()
	h, err := NewHost(HostConfig{Addr: "127.0.0.1:0", Conn: conn})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = h.Close() })
	return h
}

// up waits until both ends have the data channel open and the client has
// heard a datagram (so it keeps the channel), which it reads.
func up(t *testing.T, c, s *Conn) {
	t.Helper()
	wait := maxWaits * FallbackAfter // a busy machine (-race, CI's busy loops) may be slow to shake hands
	deadline := time.Now().Add(wait)
	for c.Kind() != transport.KindWebRTC || s.Kind() != transport.KindWebRTC {
		if time.Now().After(deadline) {
			t.Fatalf("data channel not open after %v: client %s, server %s", wait, c.Kind(), s.Kind())
		}
		time.Sleep(5 * time.Millisecond)
	}
	first := []byte{byte(proto.MsgSnapshot), 0x90}
	s.SendDatagram(first)
	if f := recv(t, c); !f.Datagram || !bytes.Equal(f.Data, first) {
		t.Fatalf("the first datagram arrived as %v (datagram %v)", f.Data, f.Datagram)
	}
}

// The WebRTC transport, up on loopback (a real UDP socket, ICE, DTLS,
// SCTP), keeps the transport contract: order, close reasons with the
// farewell, size limits.
func TestConformance(t *testing.T) {
	h := host(t)
	transporttest.Run(t, func(t *testing.T, a, b transport.Options) (transport.Transport, transport.Transport) {
		c, s, _ := pair(t, h, ModeAuto, a, b)
		up(t, c, s)
		return c, s
	})
}

// recv reads the next frame or fails.
func recv(t *testing.T, tr transport.Transport) transport.Frame {
	t.Helper()
	select {
	case f, ok := <-tr.Recv():
		if !ok {
			r, _ := tr.Reason()
			t.Fatalf("ended: %s", r)
		}
		return f
	case <-time.After(5 * time.Second):
		t.Fatal("no frame")
	}
	return transport.Frame{}
}

// Snapshots and usercmds travel as datagrams once the channel is up, both
// ways, and are counted; a datagram over MaxDatagram takes the WebSocket
// and is counted as oversize; everything else stays on the WebSocket.
func TestDatagramPath(t *testing.T) {
	opt := proto.ClientOptions()
	c, s, log := pair(t, host(t), ModeAuto, opt, proto.ServerOptions())
	up(t, c, s)
	snap := append([]byte{byte(proto.MsgSnapshot)}, bytes.Repeat([]byte{7}, 600)...)
	before := c.Stats()
	if !s.SendDatagram(snap) {
		t.Fatal("SendDatagram refused")
	}
	if f := recv(t, c); !f.Datagram || !bytes.Equal(f.Data, snap) {
		t.Fatalf("snapshot arrived with Datagram %v, %d bytes", f.Datagram, len(f.Data))
	}
	if st := c.Stats(); st.PacketsIn != before.PacketsIn+1 || st.BytesIn != before.BytesIn+uint64(len(snap)) {
		t.Errorf("client stats %+v after one datagram, before %+v", st, before)
	} else if got := c.PacketsIn(); got != st.PacketsIn {
		t.Errorf("PacketsIn %d after one datagram, Stats().PacketsIn %d: the datagrams not counted", got, st.PacketsIn)
	}
	cmds := []byte{byte(proto.MsgCmds), 1, 2, 3}
	c.SendDatagram(cmds)
	if f := recv(t, s); !f.Datagram || !bytes.Equal(f.Data, cmds) {
		t.Fatalf("cmds arrived with Datagram %v: %v", f.Datagram, f.Data)
	}
	big := append([]byte{byte(proto.MsgSnapshot)}, bytes.Repeat([]byte{9}, MaxDatagram)...)
	s.SendDatagram(big)
	if f := recv(t, c); f.Datagram || !bytes.Equal(f.Data, big) {
		t.Fatalf("a %d-byte snapshot arrived with Datagram %v", len(big), f.Datagram)
	}
	if s.Oversize() != 1 {
		t.Errorf("oversize %d after one snapshot over %d bytes", s.Oversize(), MaxDatagram)
	}
	s.Send([]byte{byte(proto.MsgPrint), 0x91, 0xa0})
	if f := recv(t, c); f.Datagram {
		t.Error("a print came as a datagram")
	}
	if got := strings.Join(log.all(), "\n"); !strings.Contains(got, "transport: webrtc") {
		t.Errorf("the console did not say the transport: %q", got)
	}
}

// A server without WebRTC refuses the offer; the client stays on the
// WebSocket at once, says why once, and the datagrams travel there.
func TestRefusedStaysOnWebSocket(t *testing.T) {
	c, s, log := pair(t, nil, ModeAuto, proto.ClientOptions(), proto.ServerOptions())
	deadline := time.Now().Add(FallbackAfter)
	for len(log.all()) == 0 && time.Now().Before(deadline) {
		time.Sleep(5 * time.Millisecond)
	}
	lines := log.all()
	if len(lines) != 1 || !strings.Contains(lines[0], "refused WebRTC") || !strings.Contains(lines[0], "sv_transports websocket") {
		t.Fatalf("console lines %q, want one saying the server refused", lines)
	}
	snap := []byte{byte(proto.MsgSnapshot), 0x90}
	s.SendDatagram(snap)
	if f := recv(t, c); f.Datagram || !bytes.Equal(f.Data, snap) {
		t.Fatal("the snapshot did not come over the WebSocket")
	}
	if c.Kind() != transport.KindWebSocket || s.Kind() != transport.KindWebSocket {
		t.Errorf("kinds %s, %s", c.Kind(), s.Kind())
	}
	time.Sleep(100 * time.Millisecond)
	if n := len(log.all()); n != 1 {
		t.Errorf("%d console lines, want the one", n)
	}
}

// blackhole is a UDP socket that never hears anything: UDP blocked.
type blackhole struct{ net.PacketConn }

func (b blackhole) ReadFrom(p []byte) (int, net.Addr, error) {
	for {
		if _, _, err := b.PacketConn.ReadFrom(p); err != nil {
			return 0, nil, err
		}
	}
}

// blockedHost is a host whose UDP port drops every datagram (the ICE checks
// never answered): as a firewall that blocks UDP.
func blockedHost(t *testing.T) *Host {
	t.Helper()
	conn, err := net.ListenPacket("udp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	return hostOn(t, blackhole{conn})
}

// With UDP blocked the client gives up FallbackAfter after its offer,
// says so once, and plays on over the WebSocket.
func TestFallbackWhenUDPBlocked(t *testing.T) {
	start := time.Now()
	c, s, log := pair(t, blockedHost(t), ModeAuto, proto.ClientOptions(), proto.ServerOptions())
	deadline := start.Add(FallbackAfter + 2*time.Second)
	for len(log.all()) == 0 && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	took := time.Since(start)
	lines := log.all()
	if len(lines) != 1 || !strings.Contains(lines[0], "no datagram") || !strings.Contains(lines[0], "staying on the WebSocket") {
		t.Fatalf("console lines %q after %v, want one saying the client stays on the WebSocket", lines, took)
	}
	if took < FallbackAfter {
		t.Errorf("gave up after %v, before %v", took, FallbackAfter)
	}
	cmds := []byte{byte(proto.MsgCmds), 0x90}
	c.SendDatagram(cmds)
	if f := recv(t, s); f.Datagram || !bytes.Equal(f.Data, cmds) {
		t.Fatal("the cmds did not come over the WebSocket")
	}
	if c.Kind() != transport.KindWebSocket {
		t.Errorf("client kind %s", c.Kind())
	}
}

// cl_transport webrtc: without a datagram path the connection ends, with
// the reason.
func TestModeWebRTCEndsWithoutDatagrams(t *testing.T) {
	c, _, _ := pair(t, nil, ModeWebRTC, proto.ClientOptions(), proto.ServerOptions())
	select {
	case <-c.Done():
	case <-time.After(FallbackAfter + 2*time.Second):
		t.Fatal("the connection stayed up")
	}
	if r, _ := c.Reason(); !strings.HasPrefix(r, "cl_transport webrtc: the server refused WebRTC") {
		t.Errorf("reason %q", r)
	}
}

// A signal before the Accept (an unadmitted connection asking for a peer
// connection) is a protocol error that ends the connection with the reason.
func TestSignalBeforeAccept(t *testing.T) {
	accepted := make(chan transport.Transport, 1)
	hs := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		tr, _ := ws.Upgrade(w, r, proto.ServerOptions())
		accepted <- tr
	}))
	defer hs.Close()
	base, err := ws.Dial(context.Background(), "ws://"+strings.TrimPrefix(hs.URL, "http://")+"/ws", proto.ClientOptions())
	if err != nil {
		t.Fatal(err)
	}
	defer base.Close("test over")
	s := host(t).Wrap(<-accepted, proto.ServerOptions())
	base.Send(proto.MustEncode(&proto.Signal{Kind: proto.SignalOffer, Data: "v=0"}))
	select {
	case <-s.Done():
	case <-time.After(5 * time.Second):
		t.Fatal("the server kept the connection")
	}
	if r, _ := s.Reason(); r != "protocol error: signal before the handshake ended" {
		t.Errorf("reason %q", r)
	}
}

// A peer connection that is disconnected (ICE consent lost) sends the
// datagrams on the WebSocket until it has connected again; then they take
// the data channel, which stayed open, again.
func TestDisconnectedAndBack(t *testing.T) {
	c, s, log := pair(t, host(t), ModeAuto, proto.ClientOptions(), proto.ServerOptions())
	up(t, c, s)
	snap := []byte{byte(proto.MsgSnapshot), 0x90}
	s.peerDown("disconnected")
	if s.Kind() != transport.KindWebSocket {
		t.Fatalf("kind %s while disconnected", s.Kind())
	}
	s.SendDatagram(snap)
	if f := recv(t, c); f.Datagram {
		t.Error("a datagram while disconnected")
	}
	s.peerUp()
	s.SendDatagram(snap)
	if f := recv(t, c); !f.Datagram {
		t.Error("back on the WebSocket after the link came back")
	}
	c.peerDown("disconnected")
	c.peerUp()
	if c.Kind() != transport.KindWebRTC {
		t.Errorf("client kind %s after its link came back", c.Kind())
	}
	if got := strings.Join(log.all(), "\n"); !strings.Contains(got, "webrtc link disconnected; back on the WebSocket") || !strings.Contains(got, "webrtc link back") {
		t.Errorf("the console was not told: %q", got)
	}
}
