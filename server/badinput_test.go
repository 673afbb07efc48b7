package server_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"math"
	"net/http"
	"os"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"tickshot/internal/tool/testserver"
	"time"

	"github.com/gorilla/websocket"

	"tickshot/client/netclient"
	"tickshot/net/proto"
	"tickshot/server"
	"tickshot/shared"
)

// startServer runs a real server on a loopback port until the test ends.
// Its log is discarded unless TICKSHOT_TEST_LOG is set.
func startServer(t *testing.T, cfg server.Config) (*server.Server, string) {
	t.Helper()
	cfg.Addr = "127.0.0.1:0"
	if cfg.Seed == 0 {
		cfg.Seed = 42
	}
	if os.Getenv("TICKSHOT_TEST_LOG") != "" {
		cfg.Logger = slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelDebug}))
	} else {
		cfg.Logger = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	srv := testserver.Start(t, cfg)
	addr := srv.Addr()
	waitFor(t, 3*time.Second, "first status", func() bool {
		st, err := getStatus(addr)
		return err == nil && st.Tick > 0
	})
	return srv, addr
}

// getStatus fetches /status over HTTP.
func getStatus(addr string) (server.Status, error) {
	var st server.Status
	cl := http.Client{Timeout: 2 * time.Second}
	resp, err := cl.Get("http://" + addr + "/status")
	if err != nil {
		return st, err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return st, fmt.Errorf("/status: %s", resp.Status)
	}
	err = json.NewDecoder(resp.Body).Decode(&st)
	return st, err
}

func waitFor(t *testing.T, timeout time.Duration, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(timeout)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out after %v waiting for %s", timeout, what)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

func playerNames(st server.Status) []string {
	var names []string
	for _, p := range st.Players {
		names = append(names, p.Name)
	}
	return names
}

// goodClient is a well-behaved netclient that ticks at the server's rate in
// its own goroutine, moving about, until stopped.
type goodClient struct {
	name     string
	tickRate int
	snaps    atomic.Int64 // Stats.SnapshotsReceived
	mu       sync.Mutex
	err      error     // why it stopped early
	seen     snapCount // what it counted at its last Poll
	stop     chan struct{}
	done     chan struct{}
}

// snapCount is what a client counted at one moment: snapshots received
// and lost, and the newest snapshot's server tick.
type snapCount struct {
	snaps, lost int
	tick        uint32
}

func startGoodClient(t *testing.T, addr, name string) *goodClient {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	c, err := netclient.Connect(ctx, netclient.Websocket, addr, netclient.DefaultConfig(name))
	if err != nil {
		t.Fatalf("good client: %v", err)
	}
	g := &goodClient{name: name, tickRate: c.View().TickRate, stop: make(chan struct{}), done: make(chan struct{})}
	go func() {
		defer close(g.done)
		interval := time.Second / time.Duration(c.View().TickRate)
		tk := time.NewTicker(interval)
		defer tk.Stop()
		last := time.Now()
		for i := 0; ; i++ {
			select {
			case <-g.stop:
				c.Close("test over")
				return
			case now := <-tk.C:
				if err := c.Poll(); err != nil {
					g.mu.Lock()
					g.err = err
					g.mu.Unlock()
					return
				}
				a := float64(i) / float64(c.View().TickRate)
				c.Tick(now.Sub(last), netclient.Input{MoveX: float32(math.Cos(a)), MoveY: float32(math.Sin(a)),
					Angle: float32(math.Remainder(a, 2*math.Pi))})
				last = now
				g.snaps.Store(int64(c.View().Stats.SnapshotsReceived))
				g.mu.Lock()
				g.seen = snapCount{c.View().Stats.SnapshotsReceived, c.View().Stats.SnapshotsLost, c.View().SnapshotTick}
				g.mu.Unlock()
			}
		}
	}()
	t.Cleanup(g.close)
	return g
}

func (g *goodClient) close() {
	select {
	case <-g.stop:
	default:
		close(g.stop)
	}
	<-g.done
}

func (g *goodClient) count() snapCount {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.seen
}

// healthy checks the client is still connected and has received snapshots
// at its cl_updaterate (20/s) over the next window.
func (g *goodClient) healthy(t *testing.T, window time.Duration) {
	t.Helper()
	c0, start := g.count(), time.Now()
	time.Sleep(window)
	g.mu.Lock()
	err := g.err
	g.mu.Unlock()
	if err != nil {
		t.Fatalf("well-behaved client was disconnected: %v", err)
	}
	g.check(t, "", c0, g.count(), time.Since(start))
}

// check judges what g received between c0 and c1, wall apart, by the
// server's clock (the snapshots' ticks): a snapshot every tickrate/20
// ticks at cl_updaterate 20, none lost, within one for the phase. A busy
// machine may run fewer ticks in a second, but the server must not stall:
// over wall it ran at least half its ticks (a tick loop blocked by an
// offender for a second fails this).
func (g *goodClient) check(t *testing.T, during string, c0, c1 snapCount, wall time.Duration) {
	t.Helper()
	ticks, snaps, lost := int(c1.tick-c0.tick), c1.snaps-c0.snaps, c1.lost-c0.lost
	want := float64(ticks) * 20 / float64(g.tickRate)
	t.Logf("good client%s: %d snapshots (+%d lost) over %d server ticks in %v", during, snaps, lost, ticks, wall.Round(time.Millisecond))
	if lost != 0 || float64(snaps) < want-1 || float64(snaps) > want+1 {
		t.Errorf("well-behaved client%s received %d snapshots (+%d lost) over %d server ticks, want %.0f (cl_updaterate 20)",
			during, snaps, lost, ticks, want)
	}
	if most := wall.Seconds() * float64(g.tickRate); float64(ticks) < most/2 {
		t.Errorf("the server ran %d ticks in %v%s, under half of %.0f: it stalled", ticks, wall.Round(time.Millisecond), during, most)
	}
}

// raw is a hand-driven websocket to the server's /ws, for sending what no
// real client would.
type raw struct {
	t  *testing.T
	ws *websocket.Conn
}

func dialRaw(t *testing.T, addr string) *raw {
	t.Helper()
	d := websocket.Dialer{HandshakeTimeout: 3 * time.Second}
	ws, _, err := d.Dial("ws://"+addr+"/ws", nil)
	if err != nil {
		t.Fatalf("dial: %v", err)
	}
	t.Cleanup(func() { ws.Close() })
	return &raw{t: t, ws: ws}
}

func (r *raw) send(b []byte) error {
	_ = r.ws.SetWriteDeadline(time.Now().Add(3 * time.Second))
	return r.ws.WriteMessage(websocket.BinaryMessage, b)
}

func (r *raw) mustSend(b []byte) {
	r.t.Helper()
	if err := r.send(b); err != nil {
		r.t.Fatalf("send: %v", err)
	}
}

func helloFrame(name string, protocol uint16) []byte {
	return proto.MustEncode(&proto.Hello{Protocol: protocol, Name: name, Rate: 100000, UpdateRate: 20,
		CmdRate: 64, InterpMs: 100, InterpRatio: 2})
}

// join sends a valid Hello and waits for the Accept.
func (r *raw) join(name string) *proto.Accept {
	r.t.Helper()
	r.mustSend(helloFrame(name, proto.ProtocolVersion))
	_ = r.ws.SetReadDeadline(time.Now().Add(3 * time.Second))
	for {
		kind, data, err := r.ws.ReadMessage()
		if err != nil {
			r.t.Fatalf("waiting for accept: %v", err)
		}
		if kind != websocket.BinaryMessage {
			continue
		}
		m, err := proto.Decode(data)
		if err != nil {
			r.t.Fatalf("server sent an undecodable frame: %v", err)
		}
		switch m := m.(type) {
		case *proto.Accept:
			return m
		case *proto.Reject:
			r.t.Fatalf("rejected: %s", m.Reason)
		default:
			r.t.Fatalf("expected accept, got %s", m.Type())
		}
	}
}

// ending is how the server ended a raw connection.
type ending struct {
	reasons   []string // of Disconnect and Reject messages
	rejected  bool     // a Reject arrived
	closeCode int      // websocket close code, 0 if none
	closeText string
	closed    bool // the connection ended (not a read timeout)
	err       error
}

func (e ending) String() string {
	return fmt.Sprintf("reasons %q, close %d %q, closed %v, err %v", e.reasons, e.closeCode, e.closeText, e.closed, e.err)
}

func (e ending) mentions(s string) bool {
	for _, r := range e.reasons {
		if strings.Contains(strings.ToLower(r), strings.ToLower(s)) {
			return true
		}
	}
	return false
}

// readEnd reads everything the server sends until it closes the connection
// or timeout passes; every frame must decode.
func (r *raw) readEnd(timeout time.Duration) ending {
	r.t.Helper()
	var e ending
	_ = r.ws.SetReadDeadline(time.Now().Add(timeout))
	for {
		kind, data, err := r.ws.ReadMessage()
		if err != nil {
			e.err = err
			var ce *websocket.CloseError
			var ne interface{ Timeout() bool }
			switch {
			case errors.As(err, &ce):
				e.closed, e.closeCode, e.closeText = true, ce.Code, ce.Text
			case errors.As(err, &ne) && ne.Timeout():
			default:
				e.closed = true // connection reset / EOF
			}
			return e
		}
		if kind != websocket.BinaryMessage {
			r.t.Errorf("server sent a non-binary frame (%d)", kind)
			continue
		}
		m, err := proto.Decode(data)
		if err != nil {
			r.t.Errorf("server sent an undecodable frame: %v", err)
			continue
		}
		switch m := m.(type) {
		case *proto.Disconnect:
			e.reasons = append(e.reasons, m.Reason)
		case *proto.Reject:
			e.rejected = true
			e.reasons = append(e.reasons, m.Reason)
		}
	}
}

func cmdsFrame(ack uint32, cmds ...shared.UserCmd) []byte {
	return proto.MustEncode(&proto.Cmds{Ack: ack, Cmds: cmds})
}

func goodCmd(n uint32, tickRate int) shared.UserCmd {
	return shared.UserCmd{CommandNumber: n, TickCount: n, Msec: shared.MsecFor(tickRate), LerpMsec: 100, MoveX: 1}
}

func TestBadInput(t *testing.T) {
	const bots = 2
	_, addr := startServer(t, server.Config{Bots: bots})
	good := startGoodClient(t, addr, "goodguy")
	waitFor(t, 3*time.Second, "good client's first snapshots", func() bool { return good.snaps.Load() > 3 })
	badStart := time.Now()
	atStart := good.count()

	type badCase struct {
		name   string
		join   bool              // send a valid Hello first and wait for the Accept
		act    func(r *raw)      // what the offender does
		want   string            // the reason must mention this
		reject bool              // the reason comes in a Reject
		alsoOK func(ending) bool // another acceptable ending (e.g. a close code)
	}
	nan := float32(math.NaN())
	cases := []badCase{
		{name: "malformed msgpack", join: true, want: "malformed cmds",
			act: func(r *raw) { r.mustSend([]byte{byte(proto.MsgCmds), 0x92, 0xc1, 0x90}) }},
		{name: "truncated msgpack", join: true, want: "malformed cmds",
			act: func(r *raw) { b := cmdsFrame(1, goodCmd(1, 64)); r.mustSend(b[:len(b)-3]) }},
		{name: "unknown message type", join: true, want: "unknown message type 99",
			act: func(r *raw) { r.mustSend([]byte{99, 0x90}) }},
		{name: "huge array length", join: true, want: "declared length",
			act: func(r *raw) { r.mustSend([]byte{byte(proto.MsgCmds), 0xdd, 0xff, 0xff, 0xff, 0xff}) }},
		{name: "huge nested array length", join: true, want: "declared length",
			act: func(r *raw) { r.mustSend([]byte{byte(proto.MsgCmds), 0x92, 0x00, 0xdd, 0xff, 0xff, 0xff, 0xff}) }},
		{name: "oversized frame", join: true, want: "larger than 4096",
			act: func(r *raw) {
				b := make([]byte, proto.MaxClientFrame+1000)
				b[0] = byte(proto.MsgCmds)
				_ = r.send(b)
			},
			alsoOK: func(e ending) bool { return e.closeCode == websocket.CloseMessageTooBig }},
		{name: "text frame", join: true, want: "text frame",
			act: func(r *raw) { _ = r.ws.WriteMessage(websocket.TextMessage, []byte("hello")) }},
		{name: "move_x NaN", join: true, want: "move_x",
			act: func(r *raw) { c := goodCmd(1, 64); c.MoveX = nan; r.mustSend(cmdsFrame(0, c)) }},
		{name: "move_x 5", join: true, want: "move_x",
			act: func(r *raw) {
				// A few good commands first, then the bad one.
				r.mustSend(cmdsFrame(0, goodCmd(1, 64), goodCmd(2, 64)))
				c := goodCmd(3, 64)
				c.MoveX = 5
				r.mustSend(cmdsFrame(0, goodCmd(2, 64), c))
			}},
		{name: "msec 200", join: true, want: "msec 200",
			act: func(r *raw) { c := goodCmd(1, 64); c.Msec = 200; r.mustSend(cmdsFrame(0, c)) }},
		{name: "too many usercmds", join: true, want: "usercmds in one message",
			act: func(r *raw) {
				var cs []shared.UserCmd
				for i := 1; i <= proto.MaxCmdsPerMsg+1; i++ {
					cs = append(cs, goodCmd(uint32(i), 64))
				}
				r.mustSend(cmdsFrame(0, cs...))
			}},
		{name: "message flood", join: true, want: "flood",
			act: func(r *raw) {
				b := cmdsFrame(0)
				for i := 0; i < 1500; i++ {
					if r.send(b) != nil {
						return // the server already hung up
					}
				}
			}},
		{name: "second hello", join: true, want: "unexpected hello",
			act: func(r *raw) { r.mustSend(helloFrame("again", proto.ProtocolVersion)) }},
		{name: "non-hello first", want: "expected hello", reject: true,
			act: func(r *raw) { r.mustSend(cmdsFrame(0, goodCmd(1, 64))) }},
		{name: "wrong protocol version", want: "version", reject: true,
			act: func(r *raw) { r.mustSend(helloFrame("oldclient", proto.ProtocolVersion+7)) }},
		{name: "malformed hello", want: "malformed hello",
			act: func(r *raw) { r.mustSend([]byte{byte(proto.MsgHello), 0x93, 0x01}) }},
		{name: "name with control characters", want: "name",
			act: func(r *raw) { r.mustSend(helloFrame("evil\x1b[2J", proto.ProtocolVersion)) }},
	}
	for i, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := dialRaw(t, addr)
			if c.join {
				r.join(fmt.Sprintf("bad%d", i))
			}
			c.act(r)
			e := r.readEnd(3 * time.Second)
			t.Logf("ending: %s", e)
			if !e.closed {
				t.Errorf("the server did not close the connection: %s", e)
			}
			ok := e.mentions(c.want) || (c.alsoOK != nil && c.alsoOK(e))
			if !ok {
				t.Errorf("no Disconnect/Reject reason mentions %q: %s", c.want, e)
			}
			if c.reject && !e.rejected {
				t.Errorf("no Reject message: %s", e)
			}
		})
	}

	// The offenders are gone; the server and the good client carry on.
	want := bots + 1
	waitFor(t, 3*time.Second, "the offenders to leave /status", func() bool {
		st, err := getStatus(addr)
		return err == nil && len(st.Players) == want
	})
	st, err := getStatus(addr)
	if err != nil {
		t.Fatal(err)
	}
	if names := playerNames(st); !strings.Contains(strings.Join(names, ","), "goodguy") {
		t.Errorf("/status players %q lack the good client", names)
	}
	good.healthy(t, time.Second)
	good.check(t, " during the abuse", atStart, good.count(), time.Since(badStart))
}

// TestSpeedHack sends ten times more usercmds than real time allows; the
// server (sv_maxusrcmdprocessticks) must not move the player faster than
// MaxSpeed allows in real time.
func TestSpeedHack(t *testing.T) {
	_, addr := startServer(t, server.Config{Bots: 2})
	good := startGoodClient(t, addr, "goodguy")

	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	tr, err := netclient.Websocket(ctx, addr)
	if err != nil {
		t.Fatal(err)
	}
	conn := proto.NewConn(tr)
	defer conn.Close("test over")
	conn.Send(&proto.Hello{Protocol: proto.ProtocolVersion, Name: "speedy", Rate: 1 << 20, UpdateRate: 64,
		CmdRate: 64, InterpMs: 100, InterpRatio: 2})

	type sample struct {
		x, y     float64
		tick     uint32
		teleport uint8
		dead     bool
		at       time.Time
	}
	var (
		mu      sync.Mutex
		samples []sample
		accept  *proto.Accept
		ended   = make(chan string, 1)
		gotAcc  = make(chan struct{})
	)
	go func() {
		for p := range conn.Recv() {
			switch m := p.Msg.(type) {
			case *proto.Accept:
				mu.Lock()
				accept = m
				mu.Unlock()
				close(gotAcc)
			case *proto.Snapshot:
				mu.Lock()
				samples = append(samples, sample{proto.FromFixed(m.Self.X), proto.FromFixed(m.Self.Y), m.Tick,
					m.Self.Teleport, m.Self.Dead, time.Now()})
				mu.Unlock()
			}
		}
		r, _ := conn.Reason()
		ended <- r
	}()
	select {
	case <-gotAcc:
	case <-time.After(3 * time.Second):
		t.Fatal("no accept")
	}
	mu.Lock()
	tickRate := int(accept.TickRate)
	mu.Unlock()
	waitFor(t, 2*time.Second, "a first snapshot", func() bool { mu.Lock(); defer mu.Unlock(); return len(samples) > 0 })

	// 64 new usercmds (one second of game time) every 100 ms, for 2 s,
	// running back and forth so walls do not stop the player for long.
	start := time.Now()
	mu.Lock()
	first := len(samples) - 1
	mu.Unlock()
	num := uint32(0)
	for burst := 0; burst < 20; burst++ {
		dir := float32(1)
		if burst%10 >= 5 {
			dir = -1
		}
		for half := 0; half < 2; half++ {
			var cs []shared.UserCmd
			for i := 0; i < 32; i++ {
				num++
				c := goodCmd(num, tickRate)
				c.MoveX, c.MoveY = dir, dir*0.5
				cs = append(cs, c)
			}
			if !conn.Send(&proto.Cmds{Cmds: cs}) {
				t.Fatalf("send failed: %v", reasonOf(conn))
			}
		}
		time.Sleep(100 * time.Millisecond)
	}
	time.Sleep(100 * time.Millisecond)
	elapsed := time.Since(start)

	select {
	case r := <-ended:
		t.Fatalf("speed-hack client was disconnected (%s); it should only be slowed down", r)
	default:
	}
	mu.Lock()
	hist := append([]sample(nil), samples[first:]...)
	mu.Unlock()
	path := 0.0
	for i := 1; i < len(hist); i++ {
		a, b := hist[i-1], hist[i]
		if a.teleport != b.teleport || a.dead || b.dead {
			continue // killed by a bot and respawned: not movement
		}
		path += math.Hypot(b.x-a.x, b.y-a.y)
	}
	limit := shared.MaxSpeed * elapsed.Seconds() * 1.3
	t.Logf("speed hack: %d cmds sent in %v, path %.0f units over %d snapshots, limit %.0f (unlimited would be ~%.0f)",
		num, elapsed.Round(time.Millisecond), path, len(hist), limit, shared.MaxSpeed*float64(num)/float64(tickRate))
	if path > limit {
		t.Errorf("speed hack moved the player %.0f units in %v: more than MaxSpeed allows (%.0f)", path, elapsed, limit)
	}
	if path < 50 {
		t.Errorf("the player hardly moved (%.0f units): the test proves nothing", path)
	}

	st, err := getStatus(addr)
	if err != nil {
		t.Fatalf("/status: %v", err)
	}
	if len(st.Players) != 4 {
		t.Errorf("/status players %q, want 2 bots, goodguy and speedy", playerNames(st))
	}
	good.healthy(t, time.Second)
}

func reasonOf(c *proto.Conn) string { r, _ := c.Reason(); return r }

func TestFullServer(t *testing.T) {
	// No spectator slots: a full server then refuses (with slots, the next
	// client is admitted as a spectator: TestFullServerAdmitsSpectators).
	_, addr := startServer(t, server.Config{MaxPlayers: 1, Bots: 0, Cvars: [][2]string{{"sv_maxspectators", "0"}}})
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	first, err := netclient.Connect(ctx, netclient.Websocket, addr, netclient.DefaultConfig("first"))
	if err != nil {
		t.Fatalf("first client: %v", err)
	}
	defer first.Close("test over")
	second, err := netclient.Connect(ctx, netclient.Websocket, addr, netclient.DefaultConfig("second"))
	if err == nil {
		second.Close("test over")
		t.Fatal("second client joined a full server")
	}
	if !strings.Contains(err.Error(), "full") {
		t.Errorf("second client's error %q does not say the server is full", err)
	}
	// The raw view: a Reject message whose reason says so.
	r := dialRaw(t, addr)
	r.mustSend(helloFrame("third", proto.ProtocolVersion))
	e := r.readEnd(3 * time.Second)
	if !e.rejected || !e.mentions("full") {
		t.Errorf("third client: want a Reject mentioning full, got %s", e)
	}
	if err := first.Poll(); err != nil {
		t.Errorf("first client lost its connection: %v", err)
	}
	var names []string
	waitFor(t, 2*time.Second, "/status to list the first client", func() bool {
		st, err := getStatus(addr)
		names = playerNames(st)
		return err == nil && len(names) == 1 && names[0] == "first"
	})
}
