// Package loadtest is the load test (`tickshot loadtest`): a server (run in
// this process, or one already running) with server bots, and headless
// clients that use the real client netcode (package netclient: prediction,
// reconciliation, interpolation) driven by the bot brain, as `tickshot bot`
// does. After every client has joined and a warm-up has passed, it measures
// over a window: the server's tick time (its /status), CPU, each client's
// traffic and snapshot sizes, memory per client and prediction corrections.
package loadtest

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"math"
	"net/http"
	"runtime"
	"sync"
	"time"

	"tickshot/client/netclient"
	"tickshot/game"
	"tickshot/net/rtc"
	"tickshot/net/transport"
	"tickshot/server"
)

// Limits of the options.
const (
	MaxClients = 512
	MaxBots    = 256
	// MaxServerPlayers is what server.Config accepts as MaxPlayers today
	// (1..64), so an in-process run holds at most this many players, clients
	// and bots together. The server's own check decides; this is for help
	// texts (TestMaxServerPlayersMatchesServer keeps it honest).
	MaxServerPlayers = server.MaxPlayersLimit

	DefaultDuration   = 20 * time.Second
	DefaultWarmup     = 3 * time.Second
	DefaultUpdateRate = 20
	// JoinStagger is the pause between two clients' connection attempts, so
	// that they do not all join in one tick.
	JoinStagger = 25 * time.Millisecond

	// tickStatsWindow is how many ticks the server's status summarises.
	tickStatsWindow = 512
)

// Options of one load test.
type Options struct {
	// Server is HOST:PORT of a running server; empty runs one in-process
	// on 127.0.0.1 with Bots bots, TickRate and Map.
	Server     string
	Clients    int    // headless network clients, 0..MaxClients
	Bots       int    // server bots (in-process only), 0..MaxBots
	TickRate   int    // sv_tickrate (in-process only), 0 = 64
	Map        string // map (in-process only), "" = the default
	UpdateRate int    // the clients' cl_updaterate, 0 = 20
	NoDelta    bool   // the clients ask for full snapshots only (cl_nodelta)
	// Transport is the clients' cl_transport; "" is rtc.ModeWebSocket,
	// so that figures stay comparable with those measured before WebRTC.
	Transport rtc.Mode
	Duration  time.Duration // measuring window, 0 = DefaultDuration
	Warmup    time.Duration // after all joined, before measuring; < 0 = none, 0 = DefaultWarmup
	// ServerPID, with Server, is the server's process id: its CPU is then
	// read from /proc (Linux). 0 leaves the server's CPU unmeasured.
	ServerPID int
	Seed      uint64
	// Progress, if not nil, gets a line at each phase.
	Progress io.Writer
}

// Report is the result of a load test. Rates are per second of the
// measuring window; "per client" figures are means over the clients.
type Report struct {
	Server     string  `json:"server"` // "in-process" or HOST:PORT
	Map        string  `json:"map"`
	Players    int     `json:"players"` // players on the server at the end (clients + bots)
	Clients    int     `json:"clients"`
	Bots       int     `json:"bots"`
	TickRate   int     `json:"tickrate"`
	UpdateRate int     `json:"updaterate"` // cl_updaterate asked by the clients
	WarmupS    float64 `json:"warmup_s"`
	DurationS  float64 `json:"duration_s"` // measured window, wall time

	// TickTimeUs is the server's /status at the end of the window: tick
	// processing time over its last 512 ticks, µs.
	TickTimeUs server.TickTimeStatus `json:"tick_time_us"`
	// TickP99WorstUs is the largest p99 of the statuses read once a second
	// whose 512 ticks lie wholly inside the window, and of the final one.
	TickP99WorstUs float64 `json:"tick_time_p99_worst_us"`

	// CPUPct is CPU time over wall time of the window, in percent of one
	// core (200 = two cores busy); CPUScope says whose.
	CPUPct   float64 `json:"cpu_pct"`
	CPUScope string  `json:"cpu_scope"`
	// ServerCPUPct is the --server-pid process's CPU, percent of one core,
	// or -1 when not measured.
	ServerCPUPct float64 `json:"server_cpu_pct"`

	BytesInPerClient   float64 `json:"bytes_in_per_s_per_client"`  // frame payload bytes received
	BytesOutPerClient  float64 `json:"bytes_out_per_s_per_client"` // frame payload bytes sent
	SnapshotsPerClient float64 `json:"snapshots_per_s_per_client"`
	// SnapshotsPerServerSecond is the same per second of the server's
	// clock (64 ticks at 64 ticks/s, by the snapshots' ticks): a busy
	// machine may run fewer ticks than the wall clock, and the server
	// sends per tick; cl_updaterate when it keeps to it.
	SnapshotsPerServerSecond float64 `json:"snapshots_per_server_s_per_client"`
	SnapshotBytesMean        float64 `json:"snapshot_bytes_mean"` // over every snapshot every client received
	SnapshotBytesMax         int     `json:"snapshot_bytes_max"`
	SnapshotsLost            int     `json:"snapshots_lost"` // gaps in sequence numbers, all clients
	// NoDelta is true when the clients asked for full snapshots only.
	NoDelta bool `json:"nodelta"`
	// Transport is the clients' cl_transport (auto, webrtc, websocket);
	// ClientsOnWebRTC how many of them had their data channel up at the
	// end of the window.
	Transport       string `json:"transport"`
	ClientsOnWebRTC int    `json:"clients_on_webrtc"`
	// The server's count of snapshots it sent in the window (all its
	// clients): full ones and deltas, with their mean sizes in bytes, and
	// DeltaShare = mean delta size / mean full size (0 without both).
	SnapshotsFull   uint64  `json:"snapshots_full"`
	SnapshotsDelta  uint64  `json:"snapshots_delta"`
	FullBytesMean   float64 `json:"full_bytes_mean"`
	DeltaBytesMean  float64 `json:"delta_bytes_mean"`
	DeltaShare      float64 `json:"delta_share"`
	SnapshotsChoked int     `json:"snapshots_choked"` // held back by rate, all clients
	Corrections     int     `json:"prediction_corrections"`

	// HeapPerClientBytes is (Go heap in use with the clients - before
	// them) / clients, each after a GC; HeapScope says what it covers.
	HeapPerClientBytes float64 `json:"heap_per_client_bytes"`
	HeapScope          string  `json:"heap_scope"`
}

// Validate checks the options' ranges and combinations.
func (o Options) Validate() error {
	switch {
	case o.Clients < 0 || o.Clients > MaxClients:
		return fmt.Errorf("--clients must be 0..%d, got %d", MaxClients, o.Clients)
	case o.Bots < 0 || o.Bots > MaxBots:
		return fmt.Errorf("--bots must be 0..%d, got %d", MaxBots, o.Bots)
	case o.TickRate != 0 && (o.TickRate < server.MinTickRate || o.TickRate > server.MaxTickRate):
		return fmt.Errorf("--tickrate must be %d..%d ticks/s, got %d", server.MinTickRate, server.MaxTickRate, o.TickRate)
	case o.Duration < 0:
		return fmt.Errorf("--duration must be more than 0, got %v", o.Duration)
	case o.UpdateRate < 0 || o.UpdateRate > server.MaxTickRate:
		return fmt.Errorf("--updaterate must be 1..%d snapshots/s, got %d", server.MaxTickRate, o.UpdateRate)
	case o.Server != "" && o.Bots != 0:
		return errors.New("--bots applies only to the in-process server; with --server, start that server with the bots you want")
	case o.Server != "" && o.TickRate != 0:
		return errors.New("--tickrate applies only to the in-process server; with --server the server's own tick rate is used")
	case o.Server != "" && o.Map != "":
		return errors.New("--map applies only to the in-process server; with --server the server's own map is used")
	case o.Server != "" && o.Clients == 0:
		return errors.New("with --server there is nothing to measure without clients: give --clients 1 or more")
	case o.Server == "" && o.ServerPID != 0:
		return errors.New("--server-pid needs --server (in-process, the server's CPU is this process's)")
	case o.Server == "" && o.Clients+o.Bots == 0:
		return errors.New("nothing to measure: --clients and --bots are both 0")
	}
	return nil
}

// client is one headless player; mu guards everything the coordinator reads.
type client struct {
	name string
	mu   sync.Mutex
	c    *netclient.Client
	err  error // why it stopped early

	graphHead int
	// Window accumulators, reset by mark.
	sizeSum, sizeN, sizeMax int
}

type counters struct {
	snaps, lost, corr, choked int
	bytesIn, bytesOut         uint64
	tick                      uint32 // the newest snapshot's server tick
}

func (cl *client) read() counters {
	cl.mu.Lock()
	defer cl.mu.Unlock()
	st, v := cl.c.ConnStats(), cl.c.View()
	return counters{snaps: v.Stats.SnapshotsReceived, lost: v.Stats.SnapshotsLost, corr: v.Stats.Corrections,
		choked: cl.c.Net().ChokeTotal, bytesIn: st.BytesIn, bytesOut: st.BytesOut, tick: v.SnapshotTick}
}

// mark reads the counters and starts the window's snapshot-size accumulators.
func (cl *client) mark() counters {
	cl.mu.Lock()
	cl.sizeSum, cl.sizeN, cl.sizeMax = 0, 0, 0
	cl.mu.Unlock()
	return cl.read()
}

// Run runs a load test.
func Run(ctx context.Context, opt Options) (Report, error) {
	if err := opt.Validate(); err != nil {
		return Report{}, err
	}
	if opt.Duration == 0 {
		opt.Duration = DefaultDuration
	}
	if opt.Warmup == 0 {
		opt.Warmup = DefaultWarmup
	}
	opt.Warmup = max(opt.Warmup, 0)
	if opt.UpdateRate == 0 {
		opt.UpdateRate = DefaultUpdateRate
	}
	if opt.TickRate == 0 && opt.Server == "" {
		opt.TickRate = server.DefaultTickRate
	}
	if opt.Seed == 0 {
		opt.Seed = uint64(time.Now().UnixNano())
	}
	progress := func(format string, a ...any) {
		if opt.Progress != nil {
			fmt.Fprintf(opt.Progress, "loadtest: "+format+"\n", a...)
		}
	}
	rep := Report{Server: opt.Server, Clients: opt.Clients, Bots: opt.Bots, UpdateRate: opt.UpdateRate,
		ServerCPUPct: -1}

	// The server and how to read its status.
	var status func() (server.Status, error)
	addr := opt.Server
	if opt.Server == "" {
		rep.Server = "in-process"
		srv, err := server.New(server.Config{Addr: "127.0.0.1:0", TickRate: opt.TickRate,
			MaxPlayers: max(opt.Clients+opt.Bots, 1), Bots: opt.Bots, Map: opt.Map, Seed: opt.Seed,
			Hostname: "loadtest", Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
		if err != nil {
			return rep, fmt.Errorf("the in-process server refused %d players (%d clients + %d bots) at %d ticks/s: %w",
				opt.Clients+opt.Bots, opt.Clients, opt.Bots, opt.TickRate, err)
		}
		if err := srv.Listen(); err != nil {
			return rep, err
		}
		sctx, stop := context.WithCancel(context.Background())
		done := make(chan error, 1)
		go func() { done <- srv.Run(sctx) }()
		defer func() { stop(); <-done }()
		addr = srv.Addr()
		status = func() (server.Status, error) { return srv.CurrentStatus(), nil }
		rep.CPUScope = "whole process: the server and the clients"
		rep.HeapScope = "client and server side of each connection (both in this process)"
	} else {
		hc := &http.Client{Timeout: 3 * time.Second}
		status = func() (server.Status, error) { return fetchStatus(ctx, hc, opt.Server) }
		rep.CPUScope = "this process: the clients only (the server runs elsewhere)"
		rep.HeapScope = "client side only"
	}
	st, err := status()
	if err != nil {
		return rep, err
	}
	if st.MaxPlayers > 0 && len(st.Players)+opt.Clients > st.MaxPlayers {
		bots := 0
		for _, p := range st.Players {
			if p.Bot {
				bots++
			}
		}
		if len(st.Players)-bots+opt.Clients > st.MaxPlayers {
			return rep, fmt.Errorf("the server has %d of %d slots taken by people (%d players, %d bots): %d more clients do not fit",
				len(st.Players)-bots, st.MaxPlayers, len(st.Players), bots, opt.Clients)
		}
	}

	if opt.Server == "" {
		// Let the server settle (first ticks, bots spawned, status published)
		// so that the heap baseline holds the server without clients.
		if err := Sleep(ctx, 500*time.Millisecond); err != nil {
			return rep, err
		}
	}
	heapBefore := heapInUse()

	// Clients: staggered joins, each then plays on its own goroutine.
	cctx, cancelClients := context.WithCancel(ctx)
	clients := make([]*client, opt.Clients)
	joined := make(chan error, opt.Clients)
	var wg sync.WaitGroup
	defer func() { cancelClients(); wg.Wait() }()
	cfg := netclient.DefaultConfig("")
	cfg.UpdateRate = opt.UpdateRate
	cfg.NoDelta = opt.NoDelta
	cfg.Transport = opt.Transport
	if cfg.Transport == "" {
		cfg.Transport = rtc.ModeWebSocket
	}
	progress("%d clients joining %s, %v apart", opt.Clients, addr, JoinStagger)
	for i := range clients {
		cl := &client{name: fmt.Sprintf("load%d", i+1)}
		clients[i] = cl
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			cl.play(cctx, addr, cfg, time.Duration(i)*JoinStagger, opt.Seed+uint64(i)*7919+1, joined)
		}(i)
	}
	for range clients {
		select {
		case err := <-joined:
			if err != nil {
				return rep, err
			}
		case <-ctx.Done():
			return rep, ctx.Err()
		}
	}
	// Everyone has a first snapshot before the warm-up starts.
	deadline := time.Now().Add(10 * time.Second)
	for _, cl := range clients {
		for {
			cl.mu.Lock()
			have, err := cl.c.View().HaveSnapshot, cl.err
			cl.mu.Unlock()
			if err != nil {
				return rep, fmt.Errorf("client %s stopped before its first snapshot: %w", cl.name, err)
			}
			if have {
				break
			}
			if time.Now().After(deadline) {
				return rep, fmt.Errorf("client %s had no snapshot 10 s after joining", cl.name)
			}
			if err := Sleep(ctx, 10*time.Millisecond); err != nil {
				return rep, err
			}
		}
	}
	progress("all %d clients joined; warming up for %v", opt.Clients, opt.Warmup)
	if err := Sleep(ctx, opt.Warmup); err != nil {
		return rep, err
	}

	// The window.
	progress("measuring for %v", opt.Duration)
	before := make([]counters, len(clients))
	for i, cl := range clients {
		before[i] = cl.mark()
	}
	cpu0, cpuOK := processCPU()
	scpu0, scpuErr := time.Duration(0), error(nil)
	if opt.ServerPID != 0 {
		scpu0, scpuErr = pidCPU(opt.ServerPID)
		if scpuErr != nil {
			return rep, scpuErr
		}
	}
	snap0, err := status()
	if err != nil {
		return rep, err
	}
	start := time.Now()
	end := start.Add(opt.Duration)
	for now := start; now.Before(end); now = time.Now() {
		if err := Sleep(ctx, min(time.Second, end.Sub(now))); err != nil {
			return rep, err
		}
		s, err := status()
		if err != nil {
			return rep, err
		}
		// A status covers the last 512 ticks: it counts towards the worst
		// p99 once those ticks all lie inside the window.
		if s.TickRate > 0 && time.Since(start) >= time.Duration(tickStatsWindow)*time.Second/time.Duration(s.TickRate) {
			rep.TickP99WorstUs = max(rep.TickP99WorstUs, s.TickTimeUs.P99)
		}
		for _, cl := range clients {
			cl.mu.Lock()
			err := cl.err
			cl.mu.Unlock()
			if err != nil {
				return rep, fmt.Errorf("client %s was disconnected during the measurement: %w", cl.name, err)
			}
		}
	}
	wall := time.Since(start)
	cpu1, _ := processCPU()
	if opt.ServerPID != 0 {
		scpu1, err := pidCPU(opt.ServerPID)
		if err != nil {
			return rep, err
		}
		rep.ServerCPUPct = round1(100 * (scpu1 - scpu0).Seconds() / wall.Seconds())
	}
	after := make([]counters, len(clients))
	sizeSum, sizeN := 0, 0
	for i, cl := range clients {
		after[i] = cl.read()
		cl.mu.Lock()
		sizeSum += cl.sizeSum
		sizeN += cl.sizeN
		rep.SnapshotBytesMax = max(rep.SnapshotBytesMax, cl.sizeMax)
		cl.mu.Unlock()
	}
	st, err = status()
	if err != nil {
		return rep, err
	}
	heapWith := heapInUse()

	rep.Map, rep.TickRate, rep.Players = st.Map, st.TickRate, len(st.Players)
	if opt.Server != "" {
		rep.Bots = 0
		for _, p := range st.Players {
			if p.Bot {
				rep.Bots++
			}
		}
	}
	rep.NoDelta = opt.NoDelta
	rep.Transport = string(cfg.Transport)
	for _, p := range st.Players {
		if p.Transport == transport.KindWebRTC {
			rep.ClientsOnWebRTC++
		}
	}
	a, b := st.Snapshots, snap0.Snapshots
	rep.SnapshotsFull, rep.SnapshotsDelta = a.Full-b.Full, a.Delta-b.Delta
	if rep.SnapshotsFull > 0 {
		rep.FullBytesMean = round1(float64(a.FullBytes-b.FullBytes) / float64(rep.SnapshotsFull))
	}
	if rep.SnapshotsDelta > 0 {
		rep.DeltaBytesMean = round1(float64(a.DeltaBytes-b.DeltaBytes) / float64(rep.SnapshotsDelta))
	}
	if rep.FullBytesMean > 0 && rep.DeltaBytesMean > 0 {
		rep.DeltaShare = math.Round(rep.DeltaBytesMean/rep.FullBytesMean*1000) / 1000
	}
	rep.TickTimeUs = st.TickTimeUs
	rep.TickP99WorstUs = max(rep.TickP99WorstUs, st.TickTimeUs.P99)
	rep.WarmupS = opt.Warmup.Seconds()
	rep.DurationS = round1(wall.Seconds())
	if cpuOK {
		rep.CPUPct = round1(100 * (cpu1 - cpu0).Seconds() / wall.Seconds())
	} else {
		rep.CPUPct, rep.CPUScope = -1, "not measured on this system"
	}
	if n := len(clients); n > 0 {
		var in, out, snaps, ticks float64
		for i := range clients {
			a, b := after[i], before[i]
			ticks += float64(a.tick - b.tick)
			in += float64(a.bytesIn - b.bytesIn)
			out += float64(a.bytesOut - b.bytesOut)
			snaps += float64(a.snaps - b.snaps)
			rep.SnapshotsLost += a.lost - b.lost
			rep.SnapshotsChoked += a.choked - b.choked
			rep.Corrections += a.corr - b.corr
		}
		sec := wall.Seconds() * float64(n)
		rep.BytesInPerClient = math.Round(in / sec)
		rep.BytesOutPerClient = math.Round(out / sec)
		rep.SnapshotsPerClient = round1(snaps / sec)
		if ticks > 0 && rep.TickRate > 0 {
			rep.SnapshotsPerServerSecond = round1(snaps / (ticks / float64(rep.TickRate)))
		}
		if sizeN > 0 {
			rep.SnapshotBytesMean = round1(float64(sizeSum) / float64(sizeN))
		}
		rep.HeapPerClientBytes = math.Round((float64(heapWith) - float64(heapBefore)) / float64(n))
	}
	progress("done")
	return rep, nil
}

var joinMu sync.Mutex

// play joins after delay, reports on joined, and plays like `tickshot bot`
// until ctx ends or the connection does.
func (cl *client) play(ctx context.Context, addr string, cfg netclient.Config, delay time.Duration, seed uint64, joined chan<- error) {
	if err := Sleep(ctx, delay); err != nil {
		joined <- err
		return
	}
	cfg.Name = cl.name
	jctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	// One join at a time: joining loads the map, and the physics library
	// (cp.NewBody's global body counter) is not safe to use concurrently.
	joinMu.Lock()
	c, err := netclient.Connect(jctx, netclient.Dial(cfg.Transport), addr, cfg)
	joinMu.Unlock()
	cancel()
	if err != nil {
		joined <- fmt.Errorf("client %s could not join %s: %w", cl.name, addr, err)
		return
	}
	defer c.Close("load test over")
	cl.mu.Lock()
	cl.c = c
	cl.graphHead = c.Net().GraphHead
	// Under the lock: View caches, and Run reads it from another goroutine.
	dt := time.Second / time.Duration(c.View().TickRate)
	cl.mu.Unlock()
	joined <- nil

	brain := game.NewBot(seed)
	ticker := time.NewTicker(dt)
	defer ticker.Stop()
	var boxes []game.Hitbox
	for {
		select {
		case <-ctx.Done():
			return
		case <-ticker.C:
		}
		cl.mu.Lock()
		if err := c.Poll(); err != nil {
			cl.err = err
			cl.mu.Unlock()
			return
		}
		// Each snapshot that arrived left a net_graph sample with its size on the wire.
		for n := (c.Net().GraphHead - cl.graphHead + netclient.GraphLen) % netclient.GraphLen; n > 0; n-- {
			size := c.Net().GraphAt(n - 1).Size
			cl.sizeSum += size
			cl.sizeN++
			cl.sizeMax = max(cl.sizeMax, size)
		}
		cl.graphHead = c.Net().GraphHead
		c.Match().TakeEvents()
		c.Shots().TakeEffects()
		// One command per tick of real time that passed (a ticker drops
		// ticks when 256 clients share two cores).
		c.FrameFunc(time.Now(), func() netclient.Input {
			boxes = boxes[:0]
			for _, e := range c.View().Rendered {
				boxes = append(boxes, game.NewHitbox(e.ID, e.X, e.Y, e.Alive, game.TeamNone))
			}
			in := brain.Think(c.View().Map, c.View().TickRate, c.View().Predicted, c.View().Health, boxes)
			return netclient.Input{MoveX: in.MoveX, MoveY: in.MoveY, Angle: in.Angle, Buttons: in.Buttons}
		})
		cl.mu.Unlock()
	}
}

func fetchStatus(ctx context.Context, hc *http.Client, addr string) (server.Status, error) {
	var st server.Status
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, "http://"+addr+"/status", nil)
	if err != nil {
		return st, fmt.Errorf("--server %q is not HOST:PORT: %w", addr, err)
	}
	resp, err := hc.Do(req)
	if err != nil {
		return st, fmt.Errorf("could not read the server's status at http://%s/status: %w", addr, err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return st, fmt.Errorf("the server's status at http://%s/status answered %s", addr, resp.Status)
	}
	if err := json.NewDecoder(resp.Body).Decode(&st); err != nil {
		return st, fmt.Errorf("the server's status at http://%s/status is not a Tickshot status: %w", addr, err)
	}
	return st, nil
}

// heapInUse is the Go heap in use after a collection: the bytes of live
// objects (MemStats.HeapAlloc right after runtime.GC), which unlike
// HeapInuse does not move in steps of whole spans.
func heapInUse() uint64 {
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	return ms.HeapAlloc
}

// Sleep waits d, or less when ctx ends first: then it returns ctx.Err().
func Sleep(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}

func round1(v float64) float64 { return math.Round(v*10) / 10 }

// WriteTable prints the report as a two-column table.
func (r Report) WriteTable(w io.Writer) {
	row := func(k, format string, a ...any) { fmt.Fprintf(w, "%-34s "+format+"\n", append([]any{k}, a...)...) }
	row("server", "%s (map %s)", r.Server, r.Map)
	row("players (clients + bots)", "%d (%d + %d)", r.Players, r.Clients, r.Bots)
	row("tick rate", "%d ticks/s", r.TickRate)
	row("measured", "%.1f s after a %.1f s warm-up", r.DurationS, r.WarmupS)
	t := r.TickTimeUs
	row("tick time mean / p50 / p99 / max", "%.0f / %.0f / %.0f / %.0f µs (last 512 ticks)", t.Mean, t.P50, t.P99, t.Max)
	row("tick time p99, worst 1 s sample", "%.0f µs (of statuses whose 512 ticks are all in the window, and the last)", r.TickP99WorstUs)
	if r.CPUPct >= 0 {
		row("CPU", "%.1f %% of one core (%s)", r.CPUPct, r.CPUScope)
	}
	if r.ServerCPUPct >= 0 {
		row("server CPU", "%.1f %% of one core (--server-pid)", r.ServerCPUPct)
	}
	if r.Clients == 0 {
		return
	}
	row("transport", "%s (%d of %d clients on webrtc at the end)", r.Transport, r.ClientsOnWebRTC, r.Clients)
	row("per client: in / out", "%.0f / %.0f B/s", r.BytesInPerClient, r.BytesOutPerClient)
	row("per client: snapshots", "%.1f /s (cl_updaterate %d)", r.SnapshotsPerClient, r.UpdateRate)
	row("snapshot size mean / max", "%.0f / %d B", r.SnapshotBytesMean, r.SnapshotBytesMax)
	mode := "delta against the acked baseline"
	if r.NoDelta {
		mode = "full only (--nodelta)"
	}
	row("snapshots sent: full / delta", "%d / %d (server-wide; %s)", r.SnapshotsFull, r.SnapshotsDelta, mode)
	if r.DeltaShare > 0 {
		row("mean size: full / delta", "%.0f / %.0f B (delta = %.0f %% of full)", r.FullBytesMean, r.DeltaBytesMean, 100*r.DeltaShare)
	} else {
		row("mean size: full / delta", "%.0f / %.0f B", r.FullBytesMean, r.DeltaBytesMean)
	}
	row("snapshots lost / choked", "%d / %d (all clients)", r.SnapshotsLost, r.SnapshotsChoked)
	row("Go heap per client", "%.1f KiB (%s)", r.HeapPerClientBytes/1024, r.HeapScope)
	row("prediction corrections", "%d (all clients, in the window)", r.Corrections)
}
