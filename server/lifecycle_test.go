package server_test

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"net"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/gorilla/websocket"

	"tickshot/internal/tool/testserver"
	"tickshot/net/proto"
	"tickshot/net/ws"
	"tickshot/server"
)

// Connection lifecycle (issue 12): how a connection ends, seen from a raw
// websocket client over loopback. Each test reproduces a fault the server
// had: a non-reader kept for about 70 s, pre-Hello connections cut without
// a word at shutdown, a kick reason lost to a TCP reset, a close frame
// answered by a TCP drop, a bad Hello without a Reject, and an oversized
// fragmented message treated unlike an oversized frame.

// dialSmallRecvBuf opens a websocket whose socket receive buffer is only
// a few kilobytes (SO_RCVBUF set before connecting, so the advertised
// window is small too): a peer that stops reading stalls the server's
// writes after a few kilobytes instead of megabytes.
func dialSmallRecvBuf(t *testing.T, addr string) *raw {
	t.Helper()
	nd := &net.Dialer{Timeout: 3 * time.Second, Control: func(_, _ string, c syscall.RawConn) error {
		var serr error
		err := c.Control(func(fd uintptr) {
			serr = syscall.SetsockoptInt(int(fd), syscall.SOL_SOCKET, syscall.SO_RCVBUF, 2048)
		})
		if err != nil {
			return err
		}
		return serr
	}}
	d := websocket.Dialer{HandshakeTimeout: 3 * time.Second, NetDial: nd.Dial, ReadBufferSize: 1024}
	c, _, err := d.Dial("ws://"+addr+"/ws", nil)
	if err != nil {
		t.Fatalf("dial: %v", err)
	}
	t.Cleanup(func() { c.Close() })
	return &raw{t: t, ws: c}
}

// runServer starts a server on loopback with a cancel of its own, so a
// test can shut it down and time the shutdown; stop cancels it and returns
// how long Run took to return.
func runServer(t *testing.T, cfg server.Config, log io.Writer) (addr string, stop func() time.Duration) {
	t.Helper()
	cfg.Addr = "127.0.0.1:0"
	if cfg.Seed == 0 {
		cfg.Seed = 42
	}
	if log == nil {
		log = io.Discard
	}
	cfg.Logger = slog.New(slog.NewTextHandler(log, nil))
	srv, err := server.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	if err := srv.Listen(); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- srv.Run(ctx) }()
	var once sync.Once
	var took time.Duration
	stop = func() time.Duration {
		once.Do(func() {
			start := time.Now()
			cancel()
			select {
			case err := <-done:
				if err != nil {
					t.Errorf("server Run: %v", err)
				}
			case <-time.After(10 * time.Second):
				t.Errorf("server did not stop within 10 s")
			}
			took = time.Since(start)
		})
		return took
	}
	t.Cleanup(func() { stop() })
	addr = srv.Addr()
	waitFor(t, 3*time.Second, "first status", func() bool {
		st, err := getStatus(addr)
		return err == nil && st.Tick > 0
	})
	return addr, stop
}

func hasPlayer(addr, name string) bool {
	st, err := getStatus(addr)
	if err != nil {
		return true // cannot tell: assume still there
	}
	for _, p := range st.Players {
		if p.Name == name {
			return true
		}
	}
	return false
}

// TestStalledReaderDropped: a client that joins, keeps sending usercmd
// packets (so neither the read deadline nor sv_timeout touches it) but
// never reads is dropped within the write deadline plus one ping interval
// (ws.WriteTimeout + ws.PingInterval), with the reason in the log; it used
// to linger about 70 s, until the socket buffers filled. A well-behaved
// client keeps its snapshot rate meanwhile: the stall never touches the
// tick.
func TestStalledReaderDropped(t *testing.T) {
	var log testserver.LogBuf
	addr, _ := runServer(t, server.Config{Bots: 4}, &log)
	good := startGoodClient(t, addr, "reader")
	r := dialSmallRecvBuf(t, addr)
	r.join("stalled")
	start := time.Now()
	waitFor(t, 3*time.Second, "the non-reader in /status", func() bool { return hasPlayer(addr, "stalled") })
	stopSend := make(chan struct{})
	sendDone := make(chan struct{})
	go func() { // usercmd packets, never a read
		defer close(sendDone)
		tk := time.NewTicker(100 * time.Millisecond)
		defer tk.Stop()
		for {
			select {
			case <-stopSend:
				return
			case <-tk.C:
				if r.send(cmdsFrame(0)) != nil {
					return
				}
			}
		}
	}()
	defer func() { close(stopSend); <-sendDone }()
	limit := ws.StallTimeout + 2*ws.PingInterval + 3*time.Second
	for hasPlayer(addr, "stalled") {
		if time.Since(start) > limit {
			t.Fatalf("a client that never reads was still on the server after %v (limit %v)", time.Since(start).Round(time.Second), limit)
		}
		time.Sleep(100 * time.Millisecond)
	}
	took := time.Since(start)
	t.Logf("non-reader dropped after %.1f s (write deadline %v, ping interval %v)", took.Seconds(), ws.WriteTimeout, ws.PingInterval)
	if !strings.Contains(log.String(), "not reading") {
		t.Errorf("no log line gives the reason (\"not reading\"):\n%s", log.String())
	}
	good.healthy(t, time.Second)
}

// TestShutdownTellsPreHelloConnections: at shutdown, websockets that never
// sent a Hello receive a Reject and a Disconnect "server shutting down"
// and a close frame, not a bare TCP close (47 of 50 were cut without a
// reason); and a client that sent half an HTTP request does not hold up
// the shutdown (it cost 2 s).
func TestShutdownTellsPreHelloConnections(t *testing.T) {
	addr, stop := runServer(t, server.Config{}, nil)
	const n = 50
	var conns []*raw
	for i := range n { // 8 per address: under MaxPreHelloPerIP
		conns = append(conns, dialRawFrom(t, addr, fmt.Sprintf("127.0.0.%d", 2+i/server.MaxPreHelloPerIP)))
	}
	half, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer half.Close()
	if _, err := half.Write([]byte("GET /status HTTP/1.1\r\nHost: x\r\n")); err != nil { // no blank line
		t.Fatal(err)
	}
	time.Sleep(200 * time.Millisecond) // the server has read the half request
	ends := make([]ending, n)
	endAt := make([]time.Time, n)
	var wg sync.WaitGroup
	for i, r := range conns { // each reads as a client waiting for Accept does
		wg.Add(1)
		go func() { defer wg.Done(); ends[i] = r.readEnd(4 * time.Second); endAt[i] = time.Now() }()
	}
	took := stop()
	returned := time.Now()
	wg.Wait()
	told := 0
	for i, e := range ends {
		// Told before Run returned: after that a process exits, and what
		// is not written is lost.
		if endAt[i].Before(returned) && e.closed && e.rejected && e.mentions(server.ShutdownReason) && e.closeCode == websocket.CloseNormalClosure {
			told++
		} else if i < 3 || told < i-3 {
			t.Logf("connection %d: %s", i, e)
		}
	}
	t.Logf("shutdown took %v; %d of %d connections without a Hello were told %q", took.Round(time.Millisecond), told, n, server.ShutdownReason)
	if told != n {
		t.Errorf("%d of %d connections without a Hello got Reject+Disconnect %q and close 1000", told, n, server.ShutdownReason)
	}
	if took > time.Second {
		t.Errorf("shutdown took %v with a half-sent HTTP request open; want under 1 s", took)
	}
}

// TestKickReasonArrivesAfterBurst: a client that sends 600 frames at once
// is kicked for flooding and must receive the Disconnect with the reason,
// every time. The client is written as simple clients in other languages
// are: one thread that sends its burst at a scripting language's pace
// (10 frames a millisecond: the kick, at the tick after the 401st frame,
// falls inside the burst), stops at the first failed send as their
// libraries do, then reads. The reason arrived in 1 of 12 tries: the
// server closed the socket with the rest of the burst unread or still
// arriving, its kernel answered with a reset, and the client's next send
// failed before it could read the reason.
func TestKickReasonArrivesAfterBurst(t *testing.T) {
	_, addr := startServer(t, server.Config{})
	const tries = 20
	got := 0
	for i := range tries {
		r := dialRaw(t, addr)
		r.join(fmt.Sprintf("burst%d", i))
		b := cmdsFrame(0)
		var sendErr error
		for i := range 600 {
			if sendErr = r.send(b); sendErr != nil {
				break
			}
			if i%10 == 9 {
				time.Sleep(time.Millisecond)
			}
		}
		e := ending{err: sendErr}
		if sendErr == nil {
			e = r.readEnd(3 * time.Second)
		}
		if sendErr == nil && e.mentions("kicked: message flood") && e.closeCode == websocket.CloseNormalClosure {
			got++
		} else {
			t.Logf("try %d: send error %v; %s", i, sendErr, e)
		}
		r.ws.Close()
	}
	t.Logf("kick reason received in %d of %d tries", got, tries)
	if got != tries {
		t.Errorf("the kick reason arrived in %d of %d tries, want all", got, tries)
	}
}

// TestClientCloseAnswered: a client that ends with a close frame, with or
// without a Disconnect first, gets the server's close frame back (the
// websocket closing handshake, RFC 6455 §5.5.1): its library reports code
// 1000, not 1006 (abnormal closure, a TCP drop). The Disconnect comes 20 ms
// before the close frame, as from a client that says goodbye and then
// closes its library's connection: the server used to drop the socket on
// the Disconnect, so the close frame met a reset.
func TestClientCloseAnswered(t *testing.T) {
	_, addr := startServer(t, server.Config{})
	for _, withDisconnect := range []bool{false, true} {
		t.Run(fmt.Sprintf("disconnect=%v", withDisconnect), func(t *testing.T) {
			const tries = 10
			answered := 0
			for i := range tries {
				r := dialRaw(t, addr)
				r.join(fmt.Sprintf("closer%d", i))
				if withDisconnect {
					r.mustSend(proto.MustEncode(&proto.Disconnect{Reason: "player quit"}))
					time.Sleep(20 * time.Millisecond)
				}
				msg := websocket.FormatCloseMessage(websocket.CloseNormalClosure, "player quit")
				err := r.ws.WriteControl(websocket.CloseMessage, msg, time.Now().Add(time.Second))
				e := r.readEnd(3 * time.Second)
				if err == nil && e.closeCode == websocket.CloseNormalClosure {
					answered++
				} else {
					t.Logf("try %d: close frame sent: %v; answered by %s", i, err, e)
				}
				r.ws.Close()
			}
			t.Logf("close answered by a close frame in %d of %d tries", answered, tries)
			if answered != tries {
				t.Errorf("the client's close was answered by a close frame 1000 in %d of %d tries", answered, tries)
			}
		})
	}
}

// TestInvalidHelloRejected: a first frame that decodes but fails the
// Hello's Check (a name with control characters, cl_interp_ratio out of
// range) gets a Reject with the reason, as every refused first frame does,
// then the Disconnect.
func TestInvalidHelloRejected(t *testing.T) {
	_, addr := startServer(t, server.Config{})
	for _, h := range []proto.Hello{
		{Protocol: proto.ProtocolVersion, Name: "evil\x1b[2J", Rate: 100000, UpdateRate: 20, CmdRate: 64, InterpMs: 100, InterpRatio: 2},
		{Protocol: proto.ProtocolVersion, Name: "ratio", Rate: 100000, UpdateRate: 20, CmdRate: 64, InterpMs: 100, InterpRatio: 1e9},
	} {
		b, err := proto.Encode(&h) // Encode does not Check
		if err != nil {
			t.Fatal(err)
		}
		r := dialRaw(t, addr)
		r.mustSend(b)
		e := r.readEnd(3 * time.Second)
		if !e.rejected || !e.mentions("invalid hello") || !e.closed {
			t.Errorf("Hello %q (ratio %g): want a Reject \"protocol error: invalid hello: …\" and a close, got %s", h.Name, h.InterpRatio, e)
		}
	}
}

// TestOversizedMessage: a message over MaxClientFrame, whether one frame
// or fragmented into many, just over the limit or far over it, gets the
// Disconnect and a close frame with code 1009 (message too big) that
// names the limit.
func TestOversizedMessage(t *testing.T) {
	_, addr := startServer(t, server.Config{})
	want := fmt.Sprintf("larger than %d bytes", proto.MaxClientFrame)
	for _, c := range []struct {
		size      int
		fragments bool
	}{
		{proto.MaxClientFrame + 1, false},
		{5 * proto.MaxClientFrame, false},
		{1 << 20, false},
		{proto.MaxClientFrame + 1, true},
		{5 * proto.MaxClientFrame, true},
		{1 << 20, true},
	} {
		t.Run(fmt.Sprintf("%dB_fragmented_%v", c.size, c.fragments), func(t *testing.T) {
			// gorilla's client writes a frame each time its write buffer
			// fills: a buffer larger than the message gives one frame, a
			// 512-byte one a frame per 512 bytes.
			d := websocket.Dialer{HandshakeTimeout: 3 * time.Second, WriteBufferSize: c.size + 64}
			if c.fragments {
				d.WriteBufferSize = 512
			}
			conn, _, err := d.Dial("ws://"+addr+"/ws", nil)
			if err != nil {
				t.Fatal(err)
			}
			defer conn.Close()
			r := &raw{t: t, ws: conn}
			r.join("big")
			b := make([]byte, c.size)
			b[0] = byte(proto.MsgCmds)
			_ = r.send(b) // the server may hang up before it is all written
			e := r.readEnd(3 * time.Second)
			if e.closeCode != websocket.CloseMessageTooBig || !strings.Contains(e.closeText, want) || !e.mentions(want) {
				t.Errorf("want a Disconnect and close 1009 %q, got %s", want, e)
			}
		})
	}
}
