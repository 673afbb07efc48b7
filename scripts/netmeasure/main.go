//go:build linux

// Command netmeasure is `make measure-network`: the game over real lossy
// links, a matrix of round trips, jitters and loss rates (package
// tickshot/internal/tool/netmeasure). Needs root, /dev/net/tun and
// iproute2 (internal/netem). Not part of `make test`.
//
// Usage:
//
//	CGO_ENABLED=0 go build -tags headless -o /tmp/tickshot-server .
//	go run ./scripts/netmeasure --server-bin /tmp/tickshot-server [--seconds 20] [--quick] [--write docs/MEASUREMENTS.md]
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"os/signal"
	"strings"
	"syscall"
	"time"

	"tickshot/internal/netem"
	"tickshot/internal/tool/netmeasure"
)

func main() {
	fs := flag.NewFlagSet("netmeasure", flag.ContinueOnError)
	fs.Usage = func() {
		fmt.Fprintf(fs.Output(), `Usage: go run ./scripts/netmeasure --server-bin PATH [flags]

For each cell of the matrix RTT 60/150 ms × jitter 0/10 ms × loss 0/1/2/5 %% (each
way), joins two network namespaces with a userspace lossy link (internal/netem),
runs PATH's server with bots and hitreg's server in one and two network bots and
hitreg's clients in the other, and prints a Markdown table of what they saw.

`)
		fs.PrintDefaults()
	}
	var opt netmeasure.Options
	fs.StringVar(&opt.ServerBin, "server-bin", "", "tickshot binary (the headless build) run on both sides")
	fs.IntVar(&opt.Seconds, "seconds", 20, "how long the bots play in each cell")
	fs.IntVar(&opt.Shots, "shots", 0, "shots hitreg fires in each cell (0: 4 per second of --seconds)")
	fs.IntVar(&opt.Bots, "bots", 3, "server bots")
	quick := fs.Bool("quick", false, "three cells only: 60/0/0, 150/0/2, 150/10/5")
	transports := fs.String("transport", "auto", "transports to measure, comma-separated (each a --transport of tickshot bot and hitreg; websocket needs none); auto: websocket, and webrtc where the binary's bot and hitreg take --transport webrtc")
	write := fs.String("write", "", "also write the table into this file's \""+netmeasure.Section+"\" section (docs/MEASUREMENTS.md)")
	command := fs.String("command", "", "the command line to cite beside the table (default: this one)")
	if err := fs.Parse(os.Args[1:]); err != nil {
		os.Exit(2)
	}
	if opt.ServerBin == "" || opt.Seconds < 1 || fs.NArg() > 0 {
		fs.Usage()
		os.Exit(2)
	}
	if err := netem.Available(); err != nil {
		fmt.Fprintln(os.Stderr, "netmeasure:", err)
		os.Exit(1)
	}
	opt.TransportFlag = takesTransport(opt.ServerBin)
	trs := strings.Split(*transports, ",")
	if *transports == "auto" {
		trs = []string{"websocket"}
		if opt.TransportFlag {
			trs = append(trs, "webrtc")
		}
	}
	cells := netmeasure.Matrix(trs)
	if *quick {
		cells = netmeasure.Quick(trs)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	opt.Log = os.Stderr
	opt.Seed = uint64(time.Now().UnixNano())
	start := time.Now()
	rows := netmeasure.Run(ctx, opt, cells)
	table := netmeasure.Table(rows)
	fmt.Print(table)
	if *write == "" {
		return
	}
	if *command == "" {
		*command = "go run ./scripts/netmeasure " + strings.Join(os.Args[1:], " ")
	}
	host, _ := os.Hostname()
	body := fmt.Sprintf("`%s` (%s, %d s a cell, %d server bots; %d cells in %s on %s):\n\n%s",
		*command, time.Now().UTC().Format("2006-01-02"), opt.Seconds, opt.Bots, len(rows),
		time.Since(start).Round(time.Second), host, table)
	if err := netmeasure.WriteDoc(*write, body); err != nil {
		fmt.Fprintln(os.Stderr, "netmeasure:", err)
		os.Exit(1)
	}
	fmt.Fprintf(os.Stderr, "netmeasure: wrote the table into %s\n", *write)
}

// takesTransport reports whether bin's bot and hitreg commands take
// --transport with webrtc among its values.
func takesTransport(bin string) bool {
	for _, cmd := range []string{"bot", "hitreg"} {
		out, _ := exec.Command(bin, cmd, "--help").CombinedOutput()
		if !strings.Contains(string(out), "-transport") || !strings.Contains(string(out), "webrtc") {
			return false
		}
	}
	return true
}
