package soak

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"strconv"
	"strings"
	"time"

	"tickshot/internal/tool/loadtest"
	"tickshot/internal/tool/serverproc"
	"tickshot/server"
)

// Defaults of `make soak`.
const (
	DefaultBots     = 16
	DefaultClients  = 16
	DefaultTickRate = 64
	DefaultDuration = 10 * time.Minute
	DefaultInterval = 30 * time.Second
	// DefaultWarmup is the time between the last client's join and the
	// first sample: the Go heap grows to its working size over the first
	// garbage-collection cycles, and that growth is not a leak.
	DefaultWarmup = 30 * time.Second
)

// Options of one soak run.
type Options struct {
	// ServerBin is a tickshot binary (the headless build) that `ServerBin
	// server` runs as the dedicated server process.
	ServerBin string
	// ServerFlags are more flags for `tickshot server`.
	ServerFlags []string
	// ServerLog receives the server's log (its standard error); nil drops it.
	ServerLog io.Writer
	Bots      int // server bots
	Clients   int // headless network clients (package loadtest), from this process
	TickRate  int // sv_tickrate
	// Duration is the span from the first sample to the last; samples are
	// Interval apart, the first Warmup after every client joined.
	Duration, Interval, Warmup time.Duration
	// Progress, if not nil, gets a line per phase and per sample.
	Progress io.Writer
}

func (o *Options) defaults() {
	if o.TickRate == 0 {
		o.TickRate = DefaultTickRate
	}
	if o.Duration == 0 {
		o.Duration = DefaultDuration
	}
	if o.Interval == 0 {
		o.Interval = DefaultInterval
	}
}

// Validate checks the options.
func (o Options) Validate() error {
	switch {
	case o.ServerBin == "":
		return errors.New("--server-bin is required: a tickshot binary (CGO_ENABLED=0 go build -tags headless)")
	case o.Bots < 0 || o.Clients < 0 || o.Bots+o.Clients < 1 || o.Bots+o.Clients > server.MaxPlayersLimit:
		return fmt.Errorf("--bots %d and --clients %d: each 0 or more, together 1..%d", o.Bots, o.Clients, server.MaxPlayersLimit)
	case o.TickRate < server.MinTickRate || o.TickRate > server.MaxTickRate:
		return fmt.Errorf("--tickrate must be %d..%d, got %d", server.MinTickRate, server.MaxTickRate, o.TickRate)
	case o.Interval <= 0 || o.Duration < 0 || o.Warmup < 0:
		return fmt.Errorf("--interval must be more than 0 and --duration, --warmup not negative (got %v, %v, %v)", o.Interval, o.Duration, o.Warmup)
	case int(o.Duration/o.Interval)+1 < MinSamples:
		return fmt.Errorf("--duration %v at --interval %v gives %d samples; at least %d are needed", o.Duration, o.Interval, int(o.Duration/o.Interval)+1, MinSamples)
	}
	return nil
}

// TickInterval is the tick interval at the run's tick rate.
func (o Options) TickInterval() time.Duration {
	if o.TickRate <= 0 {
		return time.Second / DefaultTickRate
	}
	return time.Second / time.Duration(o.TickRate)
}

// Run starts the server process, joins the clients, waits Warmup, and
// samples the server every Interval for Duration (Duration/Interval + 1
// samples). It returns the samples taken so far with any error: the server
// exiting, a client being disconnected, a status that cannot be read.
func Run(ctx context.Context, opt Options) ([]Sample, error) {
	opt.defaults()
	if err := opt.Validate(); err != nil {
		return nil, err
	}
	progress := func(format string, a ...any) {
		if opt.Progress != nil {
			fmt.Fprintf(opt.Progress, "soak: "+format+"\n", a...)
		}
	}
	want := opt.Bots + opt.Clients
	srvOpt := serverproc.Options{Bin: opt.ServerBin, Log: opt.ServerLog,
		Args: append([]string{"--bots", strconv.Itoa(opt.Bots), "--maxplayers", strconv.Itoa(want),
			"--tickrate", strconv.Itoa(opt.TickRate), "--lan=false", "--log", "warn"}, opt.ServerFlags...)}
	progress("starting %s server %s", opt.ServerBin, strings.Join(srvOpt.Args, " "))
	srv, err := serverproc.Start(ctx, srvOpt)
	if err != nil {
		return nil, err
	}
	defer srv.Stop()
	addr := srv.Addr
	hc := &http.Client{Timeout: 5 * time.Second}
	status := func() (server.Status, error) { return fetchStatus(ctx, hc, addr) }

	// The clients play until the sampling ends (loadtest with no warm-up
	// and a window far longer than the soak; cancelled at the end).
	lctx, stopClients := context.WithCancel(ctx)
	loadDone := make(chan error, 1)
	go func() {
		_, err := loadtest.Run(lctx, loadtest.Options{Server: addr, Clients: opt.Clients, Warmup: -1,
			Duration: 100 * (opt.Warmup + opt.Duration + time.Minute)})
		loadDone <- err
	}()
	defer func() {
		stopClients()
		<-loadDone
	}()
	// failed reports a client or server failure without blocking.
	failed := func() error {
		select {
		case err := <-loadDone:
			loadDone <- err // for the deferred wait
			if err == nil {
				err = errors.New("the load test ended early")
			}
			return fmt.Errorf("clients: %w", err)
		case <-srv.Exited():
			return fmt.Errorf("the server exited: %v", srv.Err())
		default:
			return nil
		}
	}
	wait := func(d time.Duration) error {
		if err := loadtest.Sleep(ctx, d); err != nil {
			return err
		}
		return failed()
	}

	progress("%d clients joining %s (%d bots)", opt.Clients, addr, opt.Bots)
	deadline := time.Now().Add(30*time.Second + time.Duration(opt.Clients)*loadtest.JoinStagger)
	for {
		st, err := status()
		if err == nil && len(st.Players) >= want {
			break
		}
		if time.Now().After(deadline) {
			return nil, fmt.Errorf("not all %d players joined within the deadline (status: %d players, %v)", want, len(st.Players), err)
		}
		if err := wait(250 * time.Millisecond); err != nil {
			return nil, err
		}
	}
	progress("all %d players in; warming up for %v", want, opt.Warmup)
	if err := wait(opt.Warmup); err != nil {
		return nil, err
	}

	n := int(opt.Duration/opt.Interval) + 1
	progress("sampling every %v for %v (%d samples)", opt.Interval, opt.Duration, n)
	// The server's p99 covers its last 512 ticks (8 s at 64/s), less than an
	// interval: between samples /status is read once per window as well,
	// and a sample carries the worst p99 since the previous one, so the
	// judge sees the whole run's ticks, not a 8 s slice of every 30 s.
	window := time.Duration(tickStatsWindow) * opt.TickInterval()
	var samples []Sample
	start := time.Now()
	for i := 0; i < n; i++ {
		worst := 0.0
		if i > 0 {
			// Sample i falls at start + i×Interval, whatever the reads cost.
			due := start.Add(time.Duration(i) * opt.Interval)
			for time.Until(due) > window {
				if err := wait(window); err != nil {
					return samples, err
				}
				st, err := status()
				if err != nil {
					return samples, err
				}
				worst = max(worst, st.TickTimeUs.P99)
			}
			if err := wait(time.Until(due)); err != nil {
				return samples, err
			}
		}
		st, err := status()
		if err != nil {
			return samples, err
		}
		rss, err := ReadRSS(srv.Pid())
		if err != nil {
			return samples, err
		}
		s := Sample{Elapsed: time.Since(start), RSSBytes: rss, Goroutines: st.Goroutines,
			TickP99Us: max(worst, st.TickTimeUs.P99), Players: len(st.Players)}
		samples = append(samples, s)
		progress("t=%v RSS %.1f MiB, %d goroutines, tick p99 %.0f µs (worst since the last sample), %d players",
			s.Elapsed.Round(time.Second), mib(s.RSSBytes), s.Goroutines, s.TickP99Us, s.Players)
	}
	return samples, failed()
}

// tickStatsWindow is how many ticks the server's /status tick time covers
// (server.tickStatsWindow).
const tickStatsWindow = 512

func fetchStatus(ctx context.Context, hc *http.Client, addr string) (server.Status, error) {
	var st server.Status
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, "http://"+addr+"/status", nil)
	if err != nil {
		return st, err
	}
	resp, err := hc.Do(req)
	if err != nil {
		return st, err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return st, fmt.Errorf("GET /status: %s", resp.Status)
	}
	if err := json.NewDecoder(resp.Body).Decode(&st); err != nil {
		return st, fmt.Errorf("GET /status: %w", err)
	}
	return st, nil
}

// ReadRSS returns the resident set size of process pid in bytes, from the
// VmRSS line of /proc/PID/status (Linux, proc(5)).
func ReadRSS(pid int) (uint64, error) {
	f, err := os.Open(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return 0, fmt.Errorf("cannot read the server's memory (needs Linux's /proc): %w", err)
	}
	defer f.Close()
	return parseVmRSS(f)
}

// parseVmRSS finds "VmRSS:   12345 kB" in a /proc/PID/status text.
func parseVmRSS(r io.Reader) (uint64, error) {
	sc := bufio.NewScanner(r)
	for sc.Scan() {
		rest, ok := strings.CutPrefix(sc.Text(), "VmRSS:")
		if !ok {
			continue
		}
		f := strings.Fields(rest)
		if len(f) != 2 || f[1] != "kB" {
			return 0, fmt.Errorf("unexpected VmRSS line %q", sc.Text())
		}
		kb, err := strconv.ParseUint(f[0], 10, 64)
		if err != nil {
			return 0, fmt.Errorf("unexpected VmRSS line %q", sc.Text())
		}
		return kb << 10, nil
	}
	if err := sc.Err(); err != nil {
		return 0, err
	}
	return 0, errors.New("no VmRSS line in /proc/PID/status")
}
