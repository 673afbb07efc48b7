// Package loadtest is the load test (`tickshot loadtest`): a server (run in
// this process, or one already running) with server bots, and headless
// clients that use the real client netcode (package netclient: prediction,
// reconciliation, interpolation) driven by the bot brain, as `tickshot bot`
// does. After every client has joined and a warm-up has passed, it measures
// over a window: the server's tick time (its /status), CPU, each client's
// traffic and snapshot sizes, memory per client and prediction corrections.
// With Options.Lite the clients speak only the wire protocol (lite.go), so
// that 1 024 of them fit beside the server on a 2-core machine.
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
	MaxBots    = MaxServerPlayers
	// MaxServerPlayers is what server.Config accepts as MaxPlayers today
	// (1..1024), so an in-process run holds at most this many players,
	// clients and bots together. The server's own check decides; this is for help
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
	Clients    int    // headless network clients, 0..MaxClients (0..MaxLiteClients with Lite)
	Bots       int    // server bots (in-process only), 0..MaxBots
	TickRate   int    // sv_tickrate (in-process only), 0 = 64
	Map        string // map (in-process only), "" = DefaultMap
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
	// Lite runs wire-only clients (lite.go): no prediction, interpolation
	// or bot brain; scripted usercmds; the websocket only.
	Lite bool
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
	// Lite is true for wire-only clients (--lite); DecodeErrors counts
	// the frames from the server they could not decode (all clients, in
	// the window; always 0 for full clients, whose connection ends on one).
	Lite         bool `json:"lite"`
	DecodeErrors int  `json:"decode_errors"`
	// ClientsDropped counts the --lite clients that failed to join or
	// were disconnected before the window's end (the per-client figures
	// leave them out), DropReason the first one's reason.
	ClientsDropped int    `json:"clients_dropped"`
	DropReason     string `json:"drop_reason,omitempty"`

	// HeapPerClientBytes is (Go heap in use with the clients - before
	// them) / clients, each after a GC; HeapScope says what it covers.
	HeapPerClientBytes float64 `json:"heap_per_client_bytes"`
	HeapScope          string  `json:"heap_scope"`
}

// Validate checks the options' ranges and combinations.
func (o Options) Validate() error {
	most, which := MaxClients, fmt.Sprintf(" (0..%d with --lite)", MaxLiteClients)
	if o.Lite {
		most, which = MaxLiteClients, " with --lite"
	}
	switch {
	case o.Clients < 0 || o.Clients > most:
		return fmt.Errorf("--clients must be 0..%d%s, got %d", most, which, o.Clients)
	case o.Lite && o.Transport != "" && o.Transport != rtc.ModeWebSocket:
		return fmt.Errorf("--lite clients speak the websocket only, not --transport %s", o.Transport)
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

// member is one load-test client as the coordinator sees it: a full
// client (client) or a --lite one (liteClient).
type member interface {
	name() string
	// state reports whether it has a first snapshot, and why it stopped
	// early (nil while it plays).
	state() (bool, error)
	stopped() error
	// mark reads the counters and starts the window's largest snapshot.
	mark() counters
	read() counters
}

// memberBase is what every member keeps alike: its name, the mutex that
// guards it and everything of the member the coordinator reads, and why
// it stopped early.
type memberBase struct {
	label string
	mu    sync.Mutex
	err   error // why it stopped early
}

func (m *memberBase) name() string { return m.label }

func (m *memberBase) stopped() error {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.err
}

// client is one headless player.
type client struct {
	memberBase
	c *netclient.Client

	graphHead int
	sizeSum   uint64 // snapshot bytes on the wire, since the join
	sizeN     int    // snapshots measured, since the join
	sizeMax   int    // largest snapshot since mark
}

// counters are a client's totals since its join (sizeMax: since mark).
type counters struct {
	snaps, lost, corr, choked int
	bytesIn, bytesOut         uint64
	tick                      uint32 // the newest snapshot's server tick
	sizeSum                   uint64 // snapshot bytes on the wire
	sizeN, sizeMax            int
	decodeErrs                int // frames that did not decode (--lite)
}

func (cl *client) state() (bool, error) {
	cl.mu.Lock()
	defer cl.mu.Unlock()
	return cl.c.View().HaveSnapshot, cl.err
}

func (cl *client) read() counters {
	cl.mu.Lock()
	defer cl.mu.Unlock()
	st, v := cl.c.ConnStats(), cl.c.View()
	return counters{snaps: v.Stats.SnapshotsReceived, lost: v.Stats.SnapshotsLost, corr: v.Stats.Corrections,
		choked: cl.c.Net().ChokeTotal, bytesIn: st.BytesIn, bytesOut: st.BytesOut, tick: v.SnapshotTick,
		sizeSum: cl.sizeSum, sizeN: cl.sizeN, sizeMax: cl.sizeMax}
}

func (cl *client) mark() counters {
	cl.mu.Lock()
	cl.sizeMax = 0
	cl.mu.Unlock()
	return cl.read()
}

// startFull starts opt.Clients full clients joining addr JoinStagger
// apart: joined gets one error (nil: joined) per client; each then plays
// on its own goroutine until ctx ends (wg counts them).
func startFull(ctx context.Context, opt Options, addr string, joined chan<- error, wg *sync.WaitGroup) []member {
	members := make([]member, opt.Clients)
	cfg := netclient.DefaultConfig("")
	cfg.UpdateRate = opt.UpdateRate
	cfg.NoDelta = opt.NoDelta
	cfg.Transport = opt.Transport
	for i := range members {
		cl := &client{memberBase: memberBase{label: fmt.Sprintf("load%d", i+1)}}
		members[i] = cl
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			cl.play(ctx, addr, cfg, time.Duration(i)*JoinStagger, opt.Seed+uint64(i)*7919+1, joined)
		}(i)
	}
	return members
}

// Run runs a load test.
func Run(ctx context.Context, opt Options) (Report, error) {
	if err := opt.Validate(); err != nil {
		return Report{}, err
	}
	opt = opt.withDefaults()
	progress := func(format string, a ...any) {
		if opt.Progress != nil {
			fmt.Fprintf(opt.Progress, "loadtest: "+format+"\n", a...)
		}
	}
	rep := Report{Server: opt.Server, Clients: opt.Clients, Bots: opt.Bots, UpdateRate: opt.UpdateRate,
		ServerCPUPct: -1, Lite: opt.Lite}
	if err := ensureFiles(opt.files()); err != nil {
		return rep, err
	}

	// The server and how to read its status.
	var status func() (server.Status, error)
	addr := opt.Server
	if opt.Server == "" {
		rep.Server = "in-process"
		srv, err := server.New(opt.serverConfig())
		if err != nil {
			return rep, fmt.Errorf("the in-process server refused %d players (%d clients + %d bots) at %d ticks/s on map %q: %w",
				opt.Clients+opt.Bots, opt.Clients, opt.Bots, opt.TickRate, opt.Map, err)
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
	if err := roomFor(st, opt.Clients); err != nil {
		return rep, err
	}

	if opt.Server == "" {
		// Let the server settle (first ticks, bots spawned, status published)
		// so that the heap baseline holds the server without clients.
		if err := Sleep(ctx, 500*time.Millisecond); err != nil {
			return rep, err
		}
	}
	heapBefore := heapInUse()

	// Clients: staggered joins, then they play until cancelClients.
	cctx, cancelClients := context.WithCancel(ctx)
	joined := make(chan error, opt.Clients)
	var wg sync.WaitGroup
	defer func() { cancelClients(); wg.Wait() }()
	var clients []member
	if opt.Lite {
		progress("%d --lite clients joining %s, %v apart", opt.Clients, addr, LiteJoinStagger)
		clients = startLite(cctx, opt, addr, max(st.TickRate, server.MinTickRate), joined, &wg)
	} else {
		progress("%d clients joining %s, %v apart", opt.Clients, addr, JoinStagger)
		clients = startFull(cctx, opt, addr, joined, &wg)
	}
	// A full client that fails ends the run; --lite ones are counted as
	// dropped (a server far over its budget drops some of 1 024), and the
	// figures are those of the others.
	drops := &dropped{tolerate: opt.Lite}
	clients, err = awaitJoins(ctx, clients, joined, drops)
	if err != nil {
		return rep, err
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
			if err := cl.stopped(); err != nil && !drops.tolerate {
				return rep, fmt.Errorf("client %s was disconnected during the measurement: %w", cl.name(), err)
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
	for i, cl := range clients {
		after[i] = cl.read()
	}
	before, after = drops.leaveOut(clients, before, after)
	rep.ClientsDropped, rep.DropReason = drops.n, drops.first
	st, err = status()
	if err != nil {
		return rep, err
	}
	heapWith := heapInUse()

	rep.serverFigures(st, snap0, opt)
	rep.TickP99WorstUs = max(rep.TickP99WorstUs, st.TickTimeUs.P99)
	rep.WarmupS = opt.Warmup.Seconds()
	rep.DurationS = round1(wall.Seconds())
	if cpuOK {
		rep.CPUPct = round1(100 * (cpu1 - cpu0).Seconds() / wall.Seconds())
	} else {
		rep.CPUPct, rep.CPUScope = -1, "not measured on this system"
	}
	rep.clientFigures(before, after, wall)
	if n := len(clients); n > 0 {
		rep.HeapPerClientBytes = math.Round((float64(heapWith) - float64(heapBefore)) / float64(n))
	}
	progress("done")
	return rep, nil
}

// withDefaults fills the options left zero.
func (o Options) withDefaults() Options {
	if o.Duration == 0 {
		o.Duration = DefaultDuration
	}
	if o.Warmup == 0 {
		o.Warmup = DefaultWarmup
	}
	o.Warmup = max(o.Warmup, 0)
	if o.UpdateRate == 0 {
		o.UpdateRate = DefaultUpdateRate
	}
	if o.TickRate == 0 && o.Server == "" {
		o.TickRate = server.DefaultTickRate
	}
	if o.Map == "" && o.Server == "" {
		o.Map = DefaultMap(o.Lite, o.Clients)
	}
	if o.Transport == "" {
		o.Transport = rtc.ModeWebSocket
	}
	if o.Seed == 0 {
		o.Seed = uint64(time.Now().UnixNano())
	}
	return o
}

// serverConfig is the in-process server's configuration: its player
// slots raised to the clients and bots, its connection cap to the clients
// and a margin. The per-address limits (the join rate,
// sv_maxplayers_per_ip) keep their defaults: the clients come from
// loopback, which they exempt.
func (o Options) serverConfig() server.Config {
	return server.Config{Addr: "127.0.0.1:0", TickRate: o.TickRate,
		MaxPlayers: max(o.Clients+o.Bots, 1), Bots: o.Bots, Map: o.Map, Seed: o.Seed,
		MaxConns: max(server.DefaultMaxConns, o.Clients+spareConns),
		Hostname: "loadtest", Logger: slog.New(slog.NewTextHandler(io.Discard, nil))}
}

// spareConns are the connections and files a run needs beyond one per
// client (and one more per client for the in-process server's end).
const spareConns = 64

// files is how many file descriptors the run needs: one per client's
// socket, another for the in-process server's end, and some to spare.
func (o Options) files() int {
	if o.Server == "" {
		return 2*o.Clients + 2*spareConns
	}
	return o.Clients + 2*spareConns
}

// roomFor checks that clients more players fit the server of status st
// (its bots give way to people).
func roomFor(st server.Status, clients int) error {
	if st.MaxPlayers <= 0 || len(st.Players)+clients <= st.MaxPlayers {
		return nil
	}
	bots := 0
	for _, p := range st.Players {
		if p.Bot {
			bots++
		}
	}
	if len(st.Players)-bots+clients > st.MaxPlayers {
		return fmt.Errorf("the server has %d of %d slots taken by people (%d players, %d bots): %d more clients do not fit",
			len(st.Players)-bots, st.MaxPlayers, len(st.Players), bots, clients)
	}
	return nil
}

// dropped counts the clients that failed to join or stopped early, when
// the run tolerates it (--lite); otherwise the first failure ends the run.
type dropped struct {
	tolerate bool
	n        int
	first    string // the first one's reason
}

// drop counts err, or returns it when failures are not tolerated.
func (d *dropped) drop(err error) error {
	if !d.tolerate {
		return err
	}
	if d.n++; d.first == "" {
		d.first = err.Error()
	}
	return nil
}

// leaveOut drops from the window's counters the clients that stopped
// during it (counting them), so that the per-client figures are those of
// the clients that played the whole window.
func (d *dropped) leaveOut(clients []member, before, after []counters) ([]counters, []counters) {
	b, a := before[:0], after[:0]
	for i, cl := range clients {
		if err := cl.stopped(); err != nil {
			_ = d.drop(fmt.Errorf("client %s was disconnected during the measurement: %w", cl.name(), err))
			continue
		}
		b, a = append(b, before[i]), append(a, after[i])
	}
	return b, a
}

// awaitJoins waits for every client's join and then its first snapshot
// (10 s after the last join at most); it returns the clients that have
// one, the others counted in d.
func awaitJoins(ctx context.Context, clients []member, joined <-chan error, d *dropped) ([]member, error) {
	for range clients {
		select {
		case err := <-joined:
			// A --lite client keeps its join's error: counted below.
			if err != nil && !d.tolerate {
				return nil, err
			}
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
	deadline := time.Now().Add(10 * time.Second)
	playing := make([]member, 0, len(clients))
	for _, cl := range clients {
		for {
			have, err := cl.state()
			if err == nil && have {
				playing = append(playing, cl)
				break
			}
			if err == nil && time.Now().After(deadline) {
				err = fmt.Errorf("client %s had no snapshot 10 s after joining", cl.name())
			} else if err != nil {
				err = fmt.Errorf("client %s stopped before its first snapshot: %w", cl.name(), err)
			}
			if err != nil {
				if d.drop(err) != nil {
					return nil, err
				}
				break
			}
			if err := Sleep(ctx, 10*time.Millisecond); err != nil {
				return nil, err
			}
		}
	}
	if len(playing) == 0 && len(clients) > 0 {
		return nil, fmt.Errorf("every client failed; the first: %s", d.first)
	}
	return playing, nil
}

// serverFigures fills what the server's status st says at the end of the
// window, snap0 at its start.
func (rep *Report) serverFigures(st, snap0 server.Status, opt Options) {
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
	rep.Transport = string(opt.Transport)
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
}

// clientFigures fills the per-client means from each client's counters
// at the window's start (before) and end (after), wall apart.
func (rep *Report) clientFigures(before, after []counters, wall time.Duration) {
	n := len(after)
	if n == 0 {
		return
	}
	var in, out, snaps, ticks, sizeSum, sizeN float64
	for i := range after {
		a, b := after[i], before[i]
		ticks += float64(a.tick - b.tick)
		in += float64(a.bytesIn - b.bytesIn)
		out += float64(a.bytesOut - b.bytesOut)
		snaps += float64(a.snaps - b.snaps)
		sizeSum += float64(a.sizeSum - b.sizeSum)
		sizeN += float64(a.sizeN - b.sizeN)
		rep.SnapshotBytesMax = max(rep.SnapshotBytesMax, a.sizeMax)
		rep.SnapshotsLost += a.lost - b.lost
		rep.SnapshotsChoked += a.choked - b.choked
		rep.Corrections += a.corr - b.corr
		rep.DecodeErrors += a.decodeErrs - b.decodeErrs
	}
	sec := wall.Seconds() * float64(n)
	rep.BytesInPerClient = math.Round(in / sec)
	rep.BytesOutPerClient = math.Round(out / sec)
	rep.SnapshotsPerClient = round1(snaps / sec)
	if ticks > 0 && rep.TickRate > 0 {
		rep.SnapshotsPerServerSecond = round1(snaps / (ticks / float64(rep.TickRate)))
	}
	if sizeN > 0 {
		rep.SnapshotBytesMean = round1(sizeSum / sizeN)
	}
}

var joinMu sync.Mutex

// play joins after delay, reports on joined, and plays like `tickshot bot`
// until ctx ends or the connection does.
func (cl *client) play(ctx context.Context, addr string, cfg netclient.Config, delay time.Duration, seed uint64, joined chan<- error) {
	if err := Sleep(ctx, delay); err != nil {
		joined <- err
		return
	}
	cfg.Name = cl.label
	jctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	// One join at a time: joining loads the map, and the physics library
	// (cp.NewBody's global body counter) is not safe to use concurrently.
	joinMu.Lock()
	c, err := netclient.Connect(jctx, netclient.Dial(cfg.Transport), addr, cfg)
	joinMu.Unlock()
	cancel()
	if err != nil {
		joined <- fmt.Errorf("client %s could not join %s: %w", cl.label, addr, err)
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
			cl.sizeSum += uint64(size)
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
	if r.Lite {
		row("clients", "--lite: wire protocol only, scripted usercmds")
	}
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
	if r.Lite {
		row("decode errors", "%d (all clients, in the window)", r.DecodeErrors)
		if r.ClientsDropped > 0 {
			row("clients dropped", "%d (left out of the figures; the first: %s)", r.ClientsDropped, r.DropReason)
		} else {
			row("clients dropped", "0")
		}
		return
	}
	row("prediction corrections", "%d (all clients, in the window)", r.Corrections)
}
