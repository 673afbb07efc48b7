// Command soak is `make soak`: a long run of a real dedicated server with
// bots and headless network clients over websockets on loopback, sampling
// the server's RSS, goroutines and tick-time p99 at a fixed interval and
// failing when any of them grows (package tickshot/internal/tool/soak). Not part
// of `make test`: the default run takes 10 minutes.
//
// Usage:
//
//	CGO_ENABLED=0 go build -tags headless -o /tmp/tickshot-soak .
//	go run ./scripts/soak --server-bin /tmp/tickshot-soak [--duration 10m] [--interval 30s]
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"syscall"

	"tickshot/internal/tool/soak"
)

func main() {
	fs := flag.NewFlagSet("soak", flag.ContinueOnError)
	fs.Usage = func() {
		fmt.Fprintf(fs.Output(), `Usage: go run ./scripts/soak --server-bin PATH [flags]

Starts PATH server (a headless tickshot build) on a free loopback port with
--bots server bots, joins --clients headless network clients from this
process, waits --warmup, then samples the server every --interval for
--duration: resident memory (/proc/PID/status VmRSS), goroutines and tick
time p99 (its /status). Prints a Markdown table and exits 1 when the RSS
median of the last third of the samples exceeds the first third's by more
than the larger of %.0f %% and %d MiB, the goroutine median by more than %d,
when any tick p99 exceeds the tick interval, or when a player is dropped.

`, 100*soak.DefaultTolerance.RSSFrac, soak.DefaultTolerance.RSSBytes>>20, soak.DefaultTolerance.Goroutines)
		fs.PrintDefaults()
	}
	var opt soak.Options
	fs.StringVar(&opt.ServerBin, "server-bin", "", "tickshot binary to run as the server (CGO_ENABLED=0 go build -tags headless)")
	fs.IntVar(&opt.Bots, "bots", soak.DefaultBots, "server bots")
	fs.IntVar(&opt.Clients, "clients", soak.DefaultClients, "headless network clients")
	fs.IntVar(&opt.TickRate, "tickrate", soak.DefaultTickRate, "sv_tickrate, ticks/s")
	fs.DurationVar(&opt.Duration, "duration", soak.DefaultDuration, "from the first sample to the last, e.g. 10m or 1m")
	fs.DurationVar(&opt.Interval, "interval", soak.DefaultInterval, "time between samples")
	fs.DurationVar(&opt.Warmup, "warmup", soak.DefaultWarmup, "time between the last join and the first sample")
	verbose := fs.Bool("server-log", false, "show the server's log (warnings and errors)")
	if err := fs.Parse(os.Args[1:]); err != nil {
		os.Exit(2)
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(os.Stderr, "soak: unexpected argument %q\n", fs.Arg(0))
		os.Exit(2)
	}
	if err := opt.Validate(); err != nil {
		fmt.Fprintln(os.Stderr, "soak:", err)
		os.Exit(2)
	}
	opt.Progress = os.Stderr
	if *verbose {
		opt.ServerLog = os.Stderr
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	fmt.Printf("soak: %d bots + %d network clients, %d ticks/s, sampled every %v for %v after a %v warm-up\n\n",
		opt.Bots, opt.Clients, opt.TickRate, opt.Interval, opt.Duration, opt.Warmup)
	samples, err := soak.Run(ctx, opt)
	v := soak.Judge(samples, opt.TickInterval(), opt.Bots+opt.Clients, soak.DefaultTolerance)
	soak.WriteTable(os.Stdout, samples, v)
	if err != nil {
		fmt.Println("soak: FAIL:", err)
		os.Exit(1)
	}
	if !v.OK() {
		os.Exit(1)
	}
}
