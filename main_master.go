//go:build !js

package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"time"

	"tickshot/client/config"
	"tickshot/net/master"
	"tickshot/net/realip"
	"tickshot/server"
)

// The internet server list from the command line: `tickshot-server master`
// runs a master server (package net/master), --master on server and play
// registers with one, and `tickshot servers --internet` lists one's servers.

func cmdMaster(args []string, _, stderr io.Writer) int {
	fs := newFlags("master", "Usage: tickshot master [flags]\n\nRuns a master server: the internet server list. Game servers started with\n--master http://THIS-HOST"+master.DefaultAddr+" (or sv_master in server.cfg) register every "+
		master.RegisterEvery.String()+";\nthe master fetches each one's /status itself, from outside, and lists only those that answer,\nwith what their /status says. It serves the list at "+master.ListPath+" (JSON, gzip, ETag) and\nas a page of links at /. Players list it with: tickshot servers --internet --master URL.\nSIGINT/SIGTERM stops it. docs/HOSTING.md explains running one.", stderr)
	addr := fs.String("addr", master.DefaultAddr, "listen address HOST:PORT")
	maxServers := fs.Int("max-servers", master.DefaultMaxServers, "the most servers listed (1..1000000)")
	maxPerAddr := fs.Int("max-per-addr", master.DefaultMaxPerAddr, "the most servers listed from one IPv4 address or IPv6 /64 (1..10000)")
	expiry := fs.Duration("expiry", master.DefaultExpiry, "drop a server not registered again within this (3 missed registers; 1s..1h)")
	checkTimeout := fs.Duration("check-timeout", master.DefaultCheckTimeout, "how long the master waits for a registering server's /status, and for the DNS lookup of the name it registers with (100ms.."+
		master.MaxCheckTimeout.String()+": the server waits "+master.RegisterTimeout.String()+" for the answer to a register)")
	logLevel := fs.String("log", "info", "log level: debug (every refused register), info, warn or error")
	proxies := &proxyFlags{} // main_trustedproxy.go
	fs.Var(proxies, "trusted-proxy", "a reverse proxy in front of the master (an ingress terminating TLS), as an IP address or CIDR prefix, repeatable:\n"+
		"  from these peers only, a register's address (the one listed and checked) is taken from X-Forwarded-For or\n"+
		"  Forwarded; a register through one that forwards none is refused. Without it the headers are ignored")
	if code, done := parse(fs, args); done {
		return code
	}
	var lvl slog.Level
	lvlErr := lvl.UnmarshalText([]byte(*logLevel))
	if lvlErr != nil {
		lvlErr = fmt.Errorf("--log %q: want debug, info, warn or error", *logLevel)
	}
	if refused(stderr, "master", noArgs(fs), lvlErr, checkListenAddr("addr", *addr),
		outOfRange(*maxServers >= 1 && *maxServers <= 1_000_000, "max-servers", *maxServers, "1..1000000"),
		outOfRange(*maxPerAddr >= 1 && *maxPerAddr <= 10_000, "max-per-addr", *maxPerAddr, "1..10000"),
		outOfRange(*expiry >= time.Second && *expiry <= time.Hour, "expiry", *expiry, "1s..1h"),
		outOfRange(*checkTimeout >= 100*time.Millisecond && *checkTimeout <= master.MaxCheckTimeout, "check-timeout", *checkTimeout, "100ms.."+master.MaxCheckTimeout.String())) {
		return 2
	}
	m := master.New(master.Config{Addr: *addr, MaxServers: *maxServers, MaxPerAddr: *maxPerAddr, Expiry: *expiry,
		CheckTimeout: *checkTimeout, TrustedProxies: realip.Proxies(*proxies), Logger: slog.New(slog.NewTextHandler(stderr, &slog.HandlerOptions{Level: lvl}))})
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if failed(stderr, "master", m.Run(ctx)) {
		return 1
	}
	return 0
}

// masterList collects repeated --master URL flags.
type masterList []string

func (m *masterList) String() string { return strings.Join(*m, ",") }

func (m *masterList) Set(v string) error {
	if err := server.CheckMasterURL(v); err != nil {
		return err
	}
	*m = append(*m, v)
	return nil
}

// masterFlags are the flags of a server that registers with masters
// (server, play): --master, repeatable, and --region.
type masterFlags struct {
	masters *masterList
	region  *string
}

func addMasterFlags(fs *flag.FlagSet) masterFlags {
	m := masterFlags{masters: &masterList{}}
	fs.Var(m.masters, "master", "register with the master server at this URL (e.g. http://master.example:8300; repeatable; sv_master in server.cfg)\n"+
		"every "+master.RegisterEvery.String()+", so that players find the server in the internet server list; the master must reach\n"+
		"this server's port from the internet (docs/HOSTING.md)")
	m.region = fs.String("region", "", fmt.Sprintf("the country or region the masters list for this server, e.g. eu-west (sv_region; at most %d bytes)", server.MaxRegionLen))
	return m
}

// check refuses what server.Config would.
func (m masterFlags) check() error { return server.CheckMasters(*m.masters, *m.region) }

// internetFlags are `servers`' flags for the internet list.
type internetFlags struct {
	internet *bool
	master   *string
}

func addInternetFlags(fs *flag.FlagSet) internetFlags {
	return internetFlags{
		internet: fs.Bool("internet", false, "list the servers of a master server (--master) instead of the LAN's, with each one's ping"),
		master:   fs.String("master", "", "with --internet: the master server's URL, e.g. http://master.example:8300; default: the game's cl_master (the menu's Internet tab), whose masters are all listed. No public master is built in"),
	}
}

// internetServerJSON is one server of `tickshot servers --internet --json`:
// the LAN list's fields and the region the master lists.
type internetServerJSON struct {
	serverJSON
	Region string `json:"region,omitempty"`
}

// list prints the internet list: the servers of the master at --master
// (or of those in the game's cl_master) that answer a /status within
// timeout each, nearest first, in the LAN list's formats.
func (f internetFlags) list(timeout time.Duration, asJSON bool, stdout, stderr io.Writer) int {
	masters := []string{*f.master}
	if *f.master == "" {
		masters = savedMasters()
	}
	if len(masters) == 0 {
		fmt.Fprintf(stderr, "%s servers: --internet needs --master URL (or cl_master in the game's settings: the menu's Internet tab): "+
			"no public master server is built in (run one with: tickshot-server master; docs/HOSTING.md)\n", prog)
		return 2
	}
	for _, m := range masters {
		if refused(stderr, "servers", server.CheckMasterURL(m)) {
			return 2
		}
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	fctx, cancel := context.WithTimeout(ctx, max(timeout, 5*time.Second))
	entries, err := fetchAll(fctx, masters, stderr)
	cancel()
	if failed(stderr, "servers", err) {
		return 1
	}
	list, silent := master.Ping(ctx, entries, 0, timeout)
	if asJSON {
		region := map[string]string{}
		for _, e := range entries {
			region[e.Addr] = e.Region
		}
		out := make([]internetServerJSON, 0, len(list))
		for _, s := range list {
			out = append(out, internetServerJSON{toServerJSON(s), region[s.Addr]})
		}
		b, _ := json.MarshalIndent(out, "", "  ")
		fmt.Fprintln(stdout, string(b))
	} else if len(list) == 0 {
		fmt.Fprintf(stdout, "no servers found (the masters at %s list %d; none answered within %v)\n", strings.Join(masters, " "), len(entries), timeout)
	} else {
		writeServersTable(stdout, list)
	}
	if len(silent) > 0 && !asJSON {
		fmt.Fprintf(stderr, "%d servers the master lists did not answer within %v (stopped, or not reachable from here): %s\n",
			len(silent), timeout, silentAddrs(silent))
	}
	return 0
}

// savedMasters returns the masters of the game's cl_master (saved in
// config.cfg by the menu's Internet tab or the console), or none.
func savedMasters() []string {
	dir, err := config.Dir()
	if err != nil {
		return nil
	}
	c, err := config.Load(dir)
	if err != nil {
		return nil
	}
	v, _ := c.Get("cl_master")
	return strings.Fields(v)
}

// fetchAll reads the lists of masters (master.Fetch) and merges them by
// address, the first master's entry kept; a master that fails is said on
// stderr. Error: every master failed (the first's error).
func fetchAll(ctx context.Context, masters []string, stderr io.Writer) ([]master.Entry, error) {
	var all []master.Entry
	seen := map[string]bool{}
	var errs []error
	for _, m := range masters {
		l, err := master.Fetch(ctx, &http.Client{}, m)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		for _, e := range l {
			if !seen[e.Addr] {
				seen[e.Addr] = true
				all = append(all, e)
			}
		}
	}
	if len(errs) == len(masters) {
		return nil, errs[0]
	}
	for _, err := range errs {
		fmt.Fprintf(stderr, "%s servers: %v\n", prog, err)
	}
	return all, nil
}

// silentAddrs names up to 5 entries' addresses.
func silentAddrs(l []master.Entry) string {
	var a []string
	for i, e := range l {
		if i == 5 {
			a = append(a, fmt.Sprintf("and %d more", len(l)-5))
			break
		}
		a = append(a, e.Addr)
	}
	return strings.Join(a, ", ")
}
