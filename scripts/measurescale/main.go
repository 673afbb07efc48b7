// Command measurescale is `make measure-scale` (issue 23): the server's
// cost against players and tick rate, with `tickshot loadtest --lite`
// clients. For each cell of players 64 / 256 / 1 024 (on arena, sprawl and
// expanse: the same player density) x tick rate 64 / 128 it starts the
// headless server binary on a free loopback port (pinned to the first
// --server-cpus CPUs, 1 by default, with taskset when there are more CPUs
// than that; this process keeps to the others when there are at least
// two more), joins the --lite clients from this process, measures over
// --seconds after --warmup, and stops the server. The server's CPU comes
// from /proc (loadtest's --server-pid). It prints the Markdown table of
// issue 23's "Done when": tick p50 / p99, server CPU, bytes per client per
// second; a cell the server cannot hold (a player cap, a missing map) is a
// row saying why.
//
// Usage:
//
//	CGO_ENABLED=0 go build -tags headless -o /tmp/tickshot-scale .
//	go run ./scripts/measurescale --server-bin /tmp/tickshot-scale [--seconds 5] [--warmup 2s] [--server-cpus 1]
//		[--players 64,256,1024] [--tickrates 64,128]
package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"os/signal"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"time"

	"golang.org/x/sys/unix"

	"tickshot/internal/tool/loadtest"
	"tickshot/internal/tool/serverproc"
	"tickshot/server"
)

func main() {
	fs := flag.NewFlagSet("measurescale", flag.ContinueOnError)
	bin := fs.String("server-bin", "", "tickshot binary to run as the server (CGO_ENABLED=0 go build -tags headless)")
	seconds := fs.Int("seconds", 5, "measuring window of each cell, s (1..600)")
	warmup := fs.Duration("warmup", 2*time.Second, "time between the last join and the window")
	only := fs.String("players", "64,256,1024", "player counts to run, comma-separated (of 64, 256, 1024)")
	rates := fs.String("tickrates", "64,128", "tick rates to run, comma-separated (of 64, 128)")
	serverLog := fs.Bool("server-log", false, "show the server's log (warnings and errors)")
	serverCPUs := fs.Int("server-cpus", 1, "CPUs the server is pinned to (the first N; the clients keep to the others when at least two are left)")
	if err := fs.Parse(os.Args[1:]); err != nil {
		os.Exit(2)
	}
	if *bin == "" || fs.NArg() > 0 || *seconds < 1 || *seconds > 600 || *warmup < 0 || *serverCPUs < 1 {
		fmt.Fprintln(os.Stderr, "measurescale: give --server-bin PATH, --seconds 1..600, --warmup 0 or more, --server-cpus 1 or more, and no arguments")
		os.Exit(2)
	}
	players, err := cellValues("players", *only, func(c loadtest.ScaleCell) int { return c.Players })
	var tickRates []int
	if err == nil {
		tickRates, err = cellValues("tickrates", *rates, func(c loadtest.ScaleCell) int { return c.TickRate })
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "measurescale:", err)
		os.Exit(2)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	pin := pinClients(*serverCPUs)
	var log io.Writer = io.Discard
	if *serverLog {
		log = os.Stderr
	}
	var rows []loadtest.ScaleRow
	for _, cell := range loadtest.ScaleCells() {
		if !slices.Contains(players, cell.Players) || !slices.Contains(tickRates, cell.TickRate) {
			continue
		}
		fmt.Fprintf(os.Stderr, "measurescale: %d players on %s at %d ticks/s\n", cell.Players, cell.Map, cell.TickRate)
		rep, err := runCell(ctx, *bin, cell, pin, time.Duration(*seconds)*time.Second, *warmup, log)
		if ctx.Err() != nil {
			os.Exit(1)
		}
		rows = append(rows, loadtest.ScaleRow{Cell: cell, Report: rep, Err: err})
	}
	loadtest.WriteScaleTable(os.Stdout, rows)
}

// cellValues parses a comma-separated list of the --name flag, each value
// one that of gives for some cell (loadtest.ScaleCells); an error names
// the first that none has.
func cellValues(name, list string, of func(loadtest.ScaleCell) int) ([]int, error) {
	var vs []int
	for _, v := range strings.Split(list, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(v))
		if err != nil || !slices.ContainsFunc(loadtest.ScaleCells(), func(c loadtest.ScaleCell) bool { return of(c) == n }) {
			return nil, fmt.Errorf("--%s %q: %q is none of the cells' (players 64, 256, 1024; tick rates 64, 128)", name, list, v)
		}
		vs = append(vs, n)
	}
	return vs, nil
}

// pinClients returns the taskset prefix that pins the server to the first
// n CPUs when there are more than n and taskset is installed (otherwise
// nothing is pinned). With at least two CPUs beyond those it also keeps
// this process's threads (the clients) off them; with fewer the clients
// may run on every CPU: kept to one core, 1 024 of them beside other work
// fell seconds behind and the server dropped them (websocket pings
// unanswered).
func pinClients(n int) []string {
	if runtime.NumCPU() <= n {
		return nil
	}
	taskset, err := exec.LookPath("taskset")
	if err != nil {
		return nil
	}
	if runtime.NumCPU() >= n+2 {
		var set unix.CPUSet
		for c := n; c < runtime.NumCPU(); c++ {
			set.Set(c)
		}
		if tids, err := os.ReadDir("/proc/self/task"); err == nil {
			for _, t := range tids {
				if tid, err := strconv.Atoi(t.Name()); err == nil {
					_ = unix.SchedSetaffinity(tid, &set) // threads made later inherit it
				}
			}
		}
	}
	return []string{taskset, "-c", fmt.Sprintf("0-%d", n-1)}
}

// runCell runs the server of one cell and its --lite clients.
func runCell(ctx context.Context, bin string, cell loadtest.ScaleCell, pin []string, window, warmup time.Duration, log io.Writer) (loadtest.Report, error) {
	srv, err := serverproc.Start(ctx, serverproc.Options{Bin: bin, Prefix: pin, Log: log,
		Args: []string{"--bots", "0", "--maxplayers", strconv.Itoa(cell.Players),
			"--tickrate", strconv.Itoa(cell.TickRate), "--map", cell.Map, "--mapcycle", cell.Map,
			"--maxconns", strconv.Itoa(max(server.DefaultMaxConns, cell.Players+64)),
			"--transports", server.TransportsWebSocket, "--lan=false", "--log", "warn"}})
	if err != nil {
		return loadtest.Report{}, err
	}
	defer srv.Stop()
	if warmup == 0 {
		warmup = -1 // none
	}
	return loadtest.Run(ctx, loadtest.Options{Server: srv.Addr, ServerPID: srv.Pid(), Lite: true, Clients: cell.Players,
		Duration: window, Warmup: warmup})
}
