//go:build linux

// Package netmeasure is `make measure-network` (scripts/netmeasure): the
// game over real lossy links. For each cell of a matrix of round trips,
// jitters and loss rates it joins two network namespaces with
// internal/netem, runs in side A the dedicated server with bots and the
// hit-registration benchmark's server (`hitreg --serve`), and in side B
// two headless network clients (`tickshot bot --json`) and the benchmark's
// clients (`hitreg --server`); then it reads what the clients saw, what the
// servers' /status said and what the link did, and prints one row.
package netmeasure

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"net"
	"net/http"
	"os/exec"
	"strings"
	"syscall"
	"time"

	"tickshot/client/botclient"
	"tickshot/internal/netem"
	"tickshot/internal/tool/hitreg"
	"tickshot/server"
)

// Cell is one link of the matrix: the same each way.
type Cell struct {
	RTTMs     float64 // round trip, split evenly between the directions
	JitterMs  float64 // each direction: delay ± this, uniform (netem.Dir.JitterMs)
	LossPct   float64 // each direction, random
	Transport string  // "websocket", or another the bot and hitreg commands take with --transport
}

func (c Cell) String() string {
	return fmt.Sprintf("%g ms / %g ms / %g %%", c.RTTMs, c.JitterMs, c.LossPct)
}

// Matrix is issue 19's: RTT 60 and 150 ms × jitter 0 and 10 ms × loss 0,
// 1, 2 and 5 % each way, for each transport.
func Matrix(transports []string) []Cell {
	var cells []Cell
	for _, rtt := range []float64{60, 150} {
		for _, j := range []float64{0, 10} {
			for _, loss := range []float64{0, 1, 2, 5} {
				for _, tr := range transports {
					cells = append(cells, Cell{rtt, j, loss, tr})
				}
			}
		}
	}
	return cells
}

// Quick is three cells of the matrix: clean, the test link (150
// ms, 2 %), and the worst.
func Quick(transports []string) []Cell {
	var cells []Cell
	for _, c := range []Cell{{60, 0, 0, ""}, {150, 0, 2, ""}, {150, 10, 5, ""}} {
		for _, tr := range transports {
			c.Transport = tr
			cells = append(cells, c)
		}
	}
	return cells
}

// Options of a run.
type Options struct {
	ServerBin string        // the tickshot binary (the headless build) run on both sides
	Seconds   int           // how long the bots play in each cell
	Shots     int           // shots hitreg fires in each cell (0: 4 a second of Seconds)
	Bots      int           // server bots beside the two network clients (3)
	Log       io.Writer     // progress, or nil
	Seed      uint64        // the links' loss and jitter draws
	Timeout   time.Duration // the most one cell may take (0: Seconds + 3 minutes)
	// TransportFlag says that ServerBin's bot and hitreg take --transport:
	// then every cell passes its transport explicitly (bot's own default
	// may differ); without it only websocket cells can run.
	TransportFlag bool
}

// Row is what one cell measured. Gaps are the worse of the two network
// bots', freezes their sum, extrapolation their mean.
type Row struct {
	Cell             Cell
	GapP50Ms         float64
	GapP99Ms         float64
	GapMaxMs         float64
	Freezes          int     // snapshot gaps over botclient.FreezeMs
	DatagramFreezes  int     // of them, those that began once the bot was on WebRTC datagrams
	ExtrapolatingPct float64 // frames drawn past the newest snapshot
	CmdsDropped      int     // /status cmds_dropped of the network players, both servers
	CmdQueueMax      int     // the deepest /status cmd_queue seen (sampled once a second)
	Hitreg           hitreg.Result
	LostAtoBPct      float64 // what the link really lost, each way
	LostBtoAPct      float64
	// EndedOn lists the transports bots ended on other than the cell's
	// (a fallback), or is empty.
	EndedOn []string
	Err     string // why the cell failed, if it did
}

// Ports in side A.
const (
	gamePort   = 27015
	hitregPort = 27016
)

// Run measures each cell in turn and returns its rows; a cell that fails
// gives a row with Err and the run goes on.
func Run(ctx context.Context, opt Options, cells []Cell) []Row {
	if opt.Bots == 0 {
		opt.Bots = 3
	}
	if opt.Shots == 0 {
		opt.Shots = 4 * opt.Seconds
	}
	if opt.Timeout == 0 {
		opt.Timeout = time.Duration(opt.Seconds)*time.Second + 3*time.Minute
	}
	rows := make([]Row, 0, len(cells))
	for i, c := range cells {
		if ctx.Err() != nil {
			break
		}
		logf(opt.Log, "cell %d/%d: %s over %s ...", i+1, len(cells), c, c.Transport)
		r := measure(ctx, opt, c, opt.Seed+uint64(i))
		if r.Err != "" {
			logf(opt.Log, " failed: %s\n", r.Err)
		} else {
			logf(opt.Log, " gap p99 %.0f ms, hitreg %.1f %%\n", r.GapP99Ms, r.Hitreg.ConfirmedPct)
		}
		rows = append(rows, r)
	}
	return rows
}

func logf(w io.Writer, format string, args ...any) {
	if w != nil {
		fmt.Fprintf(w, format, args...)
	}
}

// measure runs one cell.
func measure(ctx context.Context, opt Options, c Cell, seed uint64) Row {
	row := Row{Cell: c}
	ctx, cancel := context.WithTimeout(ctx, opt.Timeout)
	defer cancel()
	half := netem.Dir{DelayMs: c.RTTMs / 2, JitterMs: c.JitterMs, LossPct: c.LossPct}
	link, err := netem.Start(ctx, netem.Config{AtoB: half, BtoA: half, Seed: seed, Lifetime: opt.Timeout + time.Minute})
	if err != nil {
		row.Err = err.Error()
		return row
	}
	defer link.Close()
	a := netem.AddrA.String()
	game := net.JoinHostPort(a, fmt.Sprint(gamePort))
	hr := net.JoinHostPort(a, fmt.Sprint(hitregPort))

	var servers []*proc
	defer func() {
		for _, p := range servers {
			p.stop()
		}
	}()
	for _, args := range [][]string{
		{"server", "--addr", game, "--bots", fmt.Sprint(opt.Bots), "--lan=false", "--log", "warn"},
		{"hitreg", "--serve", hr},
	} {
		p, err := startProc(ctx, link, netem.A, opt.ServerBin, args...)
		if err != nil {
			row.Err = err.Error()
			return row
		}
		servers = append(servers, p)
	}
	for _, addr := range []string{game, hr} {
		if err := waitUp(ctx, link, addr); err != nil {
			row.Err = fmt.Sprintf("%v; %s", err, servers[0].tail())
			return row
		}
	}

	var transport []string
	switch {
	case opt.TransportFlag:
		transport = []string{"--transport", c.Transport}
	case c.Transport != "websocket":
		row.Err = fmt.Sprintf("%s's bot and hitreg take no --transport: websocket only", opt.ServerBin)
		return row
	}
	bots, err := startProc(ctx, link, netem.B, opt.ServerBin, append([]string{"bot", "--server", game, "--count", "2",
		"--duration", fmt.Sprintf("%ds", opt.Seconds), "--json"}, transport...)...)
	if err != nil {
		row.Err = err.Error()
		return row
	}
	hits, err := startProc(ctx, link, netem.B, opt.ServerBin, append([]string{"hitreg", "--server", hr,
		"--shots", fmt.Sprint(opt.Shots), "--json"}, transport...)...)
	if err != nil {
		bots.stop()
		row.Err = err.Error()
		return row
	}
	dropped := map[string]int{} // per server and player: the latest cmds_dropped
	sample := func() {
		for _, addr := range []string{game, hr} {
			st, err := status(ctx, link, addr)
			if err != nil {
				continue
			}
			for _, p := range st.Players {
				if !p.Bot {
					dropped[addr+"/"+p.Name] = max(dropped[addr+"/"+p.Name], p.CmdsDropped)
					row.CmdQueueMax = max(row.CmdQueueMax, p.CmdQueue)
				}
			}
		}
	}
	tick := time.NewTicker(time.Second)
	defer tick.Stop()
	botsDone := make(chan error, 1)
	go func() { botsDone <- bots.wait() }()
	hitsDone := make(chan error, 1)
	go func() { hitsDone <- hits.wait() }()
	var botsErr, hitsErr error
	for n := 0; n < 2; {
		select {
		case <-tick.C:
			sample()
		case botsErr = <-botsDone:
			n++
		case hitsErr = <-hitsDone:
			n++
		case <-ctx.Done():
			bots.stop()
			hits.stop()
			row.Err = "the cell ran out of time"
			return row
		}
	}
	for _, d := range dropped {
		row.CmdsDropped += d
	}
	errs := []string{}
	if err := row.readBots(bots.out.Bytes()); err != nil || botsErr != nil {
		errs = append(errs, fmt.Sprintf("bot: %v %v; %s", botsErr, err, bots.tail()))
	}
	if err := json.Unmarshal(lastLine(hits.out.Bytes()), &row.Hitreg); err != nil || hitsErr != nil {
		errs = append(errs, fmt.Sprintf("hitreg: %v %v; %s", hitsErr, err, hits.tail()))
	}
	row.Err = strings.Join(errs, "; ")
	row.linkLoss(link)
	return row
}

func pct(n, of uint64) float64 {
	if of == 0 {
		return 0
	}
	return math.Round(float64(n)/float64(of)*1000) / 10
}

// readBots folds the bots' JSON summaries, one a line, into the row.
func (r *Row) readBots(out []byte) error {
	var sums []botclient.Summary
	sc := bufio.NewScanner(bytes.NewReader(out))
	for sc.Scan() {
		var s botclient.Summary
		if json.Unmarshal(sc.Bytes(), &s) == nil {
			sums = append(sums, s)
		}
	}
	return r.addBots(sums)
}

// addBots folds the bots' summaries into the row: the worse gaps, the sum
// of freezes, the mean share of frames extrapolating.
func (r *Row) addBots(sums []botclient.Summary) error {
	if len(sums) == 0 {
		return errors.New("no summary")
	}
	var extrap float64
	for _, s := range sums {
		if s.Error != "" && s.SnapshotsReceived == 0 {
			return fmt.Errorf("%s: %s", s.Name, s.Error)
		}
		r.GapP50Ms = math.Max(r.GapP50Ms, s.SnapshotGapMs.P50)
		r.GapP99Ms = math.Max(r.GapP99Ms, s.SnapshotGapMs.P99)
		r.GapMaxMs = math.Max(r.GapMaxMs, s.SnapshotGapMs.Max)
		r.Freezes += s.FreezesOver250ms
		r.DatagramFreezes += s.FreezesOnDatagrams
		if s.Transport != "" && s.Transport != r.Cell.Transport {
			r.EndedOn = append(r.EndedOn, s.Name+" on "+s.Transport)
		}
		extrap += s.ExtrapolatingPct
	}
	r.ExtrapolatingPct = math.Round(extrap/float64(len(sums))*10) / 10
	return nil
}

// linkLoss sets what the link really lost, each way.
func (r *Row) linkLoss(l *netem.Link) {
	ab, ba := l.Counters(netem.A), l.Counters(netem.B)
	r.LostAtoBPct, r.LostBtoAPct = pct(ab.Dropped(), ab.Packets), pct(ba.Dropped(), ba.Packets)
}

func lastLine(b []byte) []byte {
	lines := bytes.Split(bytes.TrimSpace(b), []byte("\n"))
	return lines[len(lines)-1]
}

// proc is a program running inside one side of the link.
type proc struct {
	cmd      *exec.Cmd
	out, err bytes.Buffer
	waited   chan struct{}
	werr     error
}

func startProc(ctx context.Context, l *netem.Link, s netem.Side, bin string, args ...string) (*proc, error) {
	p := &proc{cmd: l.Command(ctx, s, bin, args...), waited: make(chan struct{})}
	p.cmd.Stdout, p.cmd.Stderr = &p.out, &p.err
	if err := p.cmd.Start(); err != nil {
		return nil, fmt.Errorf("%s %s: %w", bin, args[0], err)
	}
	go func() { p.werr = p.cmd.Wait(); close(p.waited) }()
	return p, nil
}

func (p *proc) wait() error {
	<-p.waited
	return p.werr
}

// stop asks the program to end (SIGTERM), then kills it after 5 s.
func (p *proc) stop() {
	_ = p.cmd.Process.Signal(syscall.SIGTERM)
	select {
	case <-p.waited:
	case <-time.After(5 * time.Second):
		_ = p.cmd.Process.Kill()
		<-p.waited
	}
}

// tail is the end of what the program wrote to stderr.
func (p *proc) tail() string {
	s := strings.TrimSpace(p.err.String())
	if len(s) > 400 {
		s = "..." + s[len(s)-400:]
	}
	return s
}

// dialer dials from inside side s of the link.
func dialer(l *netem.Link, s netem.Side) func(ctx context.Context, network, addr string) (net.Conn, error) {
	return func(ctx context.Context, network, addr string) (net.Conn, error) {
		return l.Dial(ctx, s, network, addr)
	}
}

// waitUp waits until addr accepts connections from side A (the servers'
// own side: no link in between).
func waitUp(ctx context.Context, l *netem.Link, addr string) error {
	dial := dialer(l, netem.A)
	deadline := time.Now().Add(20 * time.Second)
	for {
		dctx, cancel := context.WithTimeout(ctx, time.Second)
		c, err := dial(dctx, "tcp", addr)
		cancel()
		if err == nil {
			c.Close()
			return nil
		}
		if time.Now().After(deadline) || ctx.Err() != nil {
			return fmt.Errorf("no server on %s: %v", addr, err)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// status reads a server's /status from side A.
func status(ctx context.Context, l *netem.Link, addr string) (server.Status, error) {
	var st server.Status
	cl := http.Client{Timeout: 2 * time.Second, Transport: &http.Transport{DialContext: dialer(l, netem.A)}}
	defer cl.CloseIdleConnections()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, "http://"+addr+"/status", nil)
	if err != nil {
		return st, err
	}
	resp, err := cl.Do(req)
	if err != nil {
		return st, err
	}
	defer resp.Body.Close()
	return st, json.NewDecoder(io.LimitReader(resp.Body, 1<<20)).Decode(&st)
}
