//go:build !js

// Command tickshot is a 2D top-down multiplayer shooter with Half-Life/Source
// style netcode. Its subcommands are the rows of internal/cli.Commands
// (menu by default, play, server, connect, playdemo, bot, servers, hitreg,
// loadtest, healthcheck, master, help), each run by its function in runners. Run
// `tickshot help` for usage. Built with -tags headless it is
// tickshot-server, without the game window and the subcommands that need it
// (main_window.go); a value out of range or a stray argument exits with
// status 2 and a message naming the flag.
package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"maps"
	"math"
	"net"
	"os"
	"os/signal"
	"strconv"
	"strings"
	"sync/atomic"
	"syscall"
	"text/tabwriter"
	"time"

	"tickshot/client/botclient"
	"tickshot/client/netclient"
	"tickshot/game"
	"tickshot/internal/cli"
	"tickshot/internal/cvar"
	"tickshot/internal/tool/hitreg"
	"tickshot/internal/tool/loadtest"
	"tickshot/net/lan"
	"tickshot/net/proto"
	"tickshot/net/realip"
	"tickshot/net/rtc"
	"tickshot/net/ws"
	"tickshot/server"
	"tickshot/shared"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

// prog is the program's name in the help (tickshot, tickshot-server).
var prog = cli.Prog(os.Args[0])

// usage is the top-level help: every subcommand this build runs, with one line.
func usage() string { return cli.Usage(prog, hasWindow()) }

// runFunc runs one subcommand: args are those after its name; it returns
// the exit status: 0 done, 1 failed, 2 a mistake on the command line.
type runFunc func(args []string, stdout, stderr io.Writer) int

// runners gives the function of every row of the command table
// (cli.Commands) that this build runs: those without a window here, the
// Window rows in main_window.go, which only the build with the window
// compiles. TestRunnersMatchCommandTable holds the two tables together.
var runners = map[string]runFunc{}

func init() {
	maps.Copy(runners, map[string]runFunc{
		"server":      cmdServer,
		"bot":         cmdBot,
		"servers":     cmdServers,
		"hitreg":      cmdHitreg,
		"loadtest":    cmdLoadtest,
		"healthcheck": cmdHealthcheck, // main_healthcheck.go
		"master":      cmdMaster,      // main_master.go
		"help":        cmdHelp,
	})
}

// hasWindow reports whether this build runs the subcommands that need the
// game window (main_window.go; not tickshot-server, -tags headless).
func hasWindow() bool {
	for _, c := range cli.Commands {
		if _, ok := runners[c.Name]; c.Window && !ok {
			return false
		}
	}
	return true
}

// run runs the command line args (without the program name) and returns
// the exit status: 0 done, 1 failed, 2 a mistake on the command line.
func run(args []string, stdout, stderr io.Writer) int {
	name, rest := cli.Split(args)
	if r, ok := runners[name]; ok {
		return r(rest, stdout, stderr)
	}
	if c, ok := cli.Lookup(name); ok && c.Window {
		fmt.Fprintf(stderr, "%s %s: needs the game window, which this dedicated-server build (-tags headless) does not have: "+
			"run it with tickshot, the build with the window (make build); %s --help lists what this build runs\n", prog, name, prog)
		return 2
	}
	fmt.Fprintf(stderr, "%s: unknown command %q\n\n%s", prog, name, usage())
	return 2
}

// cmdHelp prints the top-level help, or with one argument that command's
// flags (as COMMAND --help).
func cmdHelp(args []string, stdout, stderr io.Writer) int {
	if len(args) > 1 {
		fmt.Fprintf(stderr, "%s help: one command at a time, got %q\n", prog, strings.Join(args, " "))
		return 2
	}
	if len(args) == 1 {
		if _, ok := cli.Lookup(args[0]); !ok {
			fmt.Fprintf(stderr, "%s help: unknown command %q\n\n%s", prog, args[0], usage())
			return 2
		}
		return run([]string{args[0], "--help"}, stdout, stderr)
	}
	fmt.Fprint(stdout, usage())
	return 0
}

// newFlags makes a FlagSet whose --help prints a synopsis and the flags.
func newFlags(name, synopsis string, stderr io.Writer) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprintf(stderr, "%s\n\nFlags:\n", synopsis)
		fs.PrintDefaults()
	}
	return fs
}

// parse parses flags; it returns (exit code, done) when parsing ended the command.
func parse(fs *flag.FlagSet, args []string) (int, bool) {
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0, true
		}
		return 2, true
	}
	return 0, false
}

// outOfRange returns nil when ok, else an error naming the flag, the value
// given and the values wanted.
func outOfRange(ok bool, name string, v any, want string) error {
	if ok {
		return nil
	}
	return fmt.Errorf("--%s %v is out of range: want %s", name, v, want)
}

// finite reports whether v is a number (not NaN or ±Inf): flag parses "NaN".
func finite(v float64) bool { return !math.IsNaN(v) && !math.IsInf(v, 0) }

// refused prints the first error of errs as a command-line mistake of cmd
// and reports whether there was one (the command then exits with status 2).
func refused(stderr io.Writer, cmd string, errs ...error) bool {
	for _, err := range errs {
		if err != nil {
			fmt.Fprintf(stderr, "%s %s: %v\n", prog, cmd, err)
			return true
		}
	}
	return false
}

// failed prints err, when there is one, as cmd's failure and reports
// whether there was one (the command then exits with status 1).
func failed(stderr io.Writer, cmd string, err error) bool {
	if err != nil {
		fmt.Fprintf(stderr, "%s %s: %v\n", prog, cmd, err)
	}
	return err != nil
}

// finish ends a command that ran and returns its exit status: err as its
// failure (1), else v as one line of JSON when asJSON, else text's report
// (0).
func finish(stdout, stderr io.Writer, cmd string, err error, asJSON bool, v any, text func()) int {
	switch {
	case failed(stderr, cmd, err):
		return 1
	case asJSON:
		printJSON(stdout, v)
	default:
		text()
	}
	return 0
}

// printJSON prints v as one line of JSON.
func printJSON(w io.Writer, v any) {
	b, _ := json.Marshal(v)
	fmt.Fprintln(w, string(b))
}

// firstErr returns the first non-nil error of errs.
func firstErr(errs ...error) error {
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}

// noArgs refuses positional arguments after a command that takes flags only.
func noArgs(fs *flag.FlagSet) error {
	if fs.NArg() == 0 {
		return nil
	}
	return fmt.Errorf("unexpected argument %q: this command takes flags only (see --help)", fs.Arg(0))
}

// withDefaultPort returns a server address with port 27015 added when it
// has none, as connect does: "localhost" becomes "localhost:27015",
// "[::1]" "[::1]:27015"; ws:// and wss:// URLs are kept as they are.
func withDefaultPort(addr string) string {
	if strings.HasPrefix(addr, "ws://") || strings.HasPrefix(addr, "wss://") || addr == "" || hasPort(addr) {
		return addr
	}
	return addr + ":" + ws.DefaultPort
}

// hasPort reports whether addr ends in :port (IPv6 literals in brackets).
func hasPort(addr string) bool {
	for i := len(addr) - 1; i >= 0; i-- {
		switch addr[i] {
		case ':':
			return i < len(addr)-1
		case ']':
			return false
		}
	}
	return false
}

// checkListenAddr checks a --addr HOST:PORT to listen on (HOST may be empty).
func checkListenAddr(name, addr string) error {
	_, port, err := net.SplitHostPort(addr)
	if err == nil {
		if n, e := strconv.Atoi(port); e != nil || n < 0 || n > 65535 {
			err = fmt.Errorf("port %q is not a number 0..65535", port)
		}
	}
	if err != nil {
		return fmt.Errorf("--%s %q: want HOST:PORT to listen on, such as :27015 or 127.0.0.1:0 (%v)", name, addr, err)
	}
	return nil
}

// checkMap checks a --map name (empty is the default map when allowEmpty).
func checkMap(name string, allowEmpty bool) error {
	if name == "" && allowEmpty {
		return nil
	}
	for _, m := range game.MapNames() {
		if m == name {
			return nil
		}
	}
	return fmt.Errorf("--map %q is not a map of this version: want one of %s", name, strings.Join(game.MapNames(), ", "))
}

// checkCvars checks --cvar (or --sv) name=value pairs against the server's
// cvars: a known name and a number in its range.
func checkCvars(flagName string, cvars cvarFlags) error {
	for _, kv := range cvars {
		var info *cvar.Var
		for _, c := range server.ServerCvars {
			if c.Name == kv[0] {
				info = c
			}
		}
		if info == nil {
			names := make([]string, 0, len(server.ServerCvars))
			for _, c := range server.ServerCvars {
				names = append(names, c.Name)
			}
			return fmt.Errorf("--%s %s=%s: no server cvar is called %q (known: %s)", flagName, kv[0], kv[1], kv[0], strings.Join(names, ", "))
		}
		if _, _, err := info.Parse(kv[1]); err != nil {
			want := info.RangeText()
			if len(info.Values) == 0 {
				want = "a number " + want
			}
			return fmt.Errorf("--%s %s=%s is out of range: want %s", flagName, kv[0], kv[1], want)
		}
	}
	return nil
}

type serverFlags struct {
	addr       *string
	tickrate   *int
	maxplayers *int
	bots       *int
	mapName    *string
	logLevel   *string
	cvars      *cvarFlags
	rcon       *string
	hostname   *string
	lan        *bool
	password   *string
	maxconns   *int
	downloads  *int
	httpIdle   *time.Duration
	cfgFile    *string
	mapcycle   *string
	transports *string
	udp        *string
	publicIP   *string
	master     masterFlags // main_master.go
	proxies    *proxyFlags // main_trustedproxy.go
	upnp       *bool
}

// cvarFlags collects repeated --cvar name=value flags.
type cvarFlags [][2]string

func (c *cvarFlags) String() string { return fmt.Sprint(*c) }

func (c *cvarFlags) Set(v string) error {
	name, value, ok := strings.Cut(v, "=")
	if !ok || name == "" {
		return fmt.Errorf("want name=value, got %q", v)
	}
	*c = append(*c, [2]string{strings.TrimSpace(name), strings.TrimSpace(value)})
	return nil
}

func addServerFlags(fs *flag.FlagSet, addr string, bots int) serverFlags {
	return serverFlags{
		addr:       fs.String("addr", addr, "listen address HOST:PORT (websocket at /ws, JSON at /status)"),
		tickrate:   fs.Int("tickrate", server.DefaultTickRate, fmt.Sprintf("sv_tickrate: simulation ticks per second (%d..%d)", server.MinTickRate, server.MaxTickRate)),
		maxplayers: fs.Int("maxplayers", server.DefaultMaxPlayers, fmt.Sprintf("player slots, humans and bots together (1..%d); a human joining a full server replaces a bot", server.MaxPlayersLimit)),
		bots:       fs.Int("bots", bots, "server-side bots (0..--maxplayers)"),
		mapName:    fs.String("map", game.DefaultMap, "map name (available: "+strings.Join(game.MapNames(), ", ")+")"),
		logLevel:   fs.String("log", "info", "log level: debug, info, warn or error (debug logs every lag-compensated shot)"),
		cvars:      cvarVar(fs),
		rcon:       fs.String("rcon-password", "", "password that lets players run server commands from their console (rcon); empty disables rcon"),
		hostname:   fs.String("name", server.DefaultHostname, "server name shown on the browser page, in the LAN server list and in /status (Source's hostname), at most 64 bytes"),
		password:   fs.String("password", "", fmt.Sprintf("join password (Source's sv_password): players must give it to join (connect --password, or the console's password cvar); it is never announced. At most %d bytes; empty: anyone may join", proto.MaxPasswordLen)),
		maxconns:   fs.Int("maxconns", server.DefaultMaxConns, fmt.Sprintf("most TCP connections held at once, HTTP and players together; %d more are kept for /status and /metrics alone (health checks), and one beyond those is closed on accept", server.HealthReserveConns)),
		downloads:  fs.Int("max-downloads", server.DefaultMaxDownloads, fmt.Sprintf("most downloads of the browser game (the wasm, a few MB) sent at once; more wait their turn (at most %v, then 503 with Retry-After), so /status and /metrics stay quick under a rush of players", server.DefaultDownloadWait)),
		httpIdle:   fs.Duration("http-idle-timeout", server.DefaultHTTPIdleTimeout, "close an HTTP keep-alive connection idle this long (e.g. 30s)"),
		lan:        fs.Bool("lan", true, "announce the server on the local network (mDNS/DNS-SD) so that 'tickshot servers' and the game's server list find it"),
		cfgFile: fs.String("config", "", "server config file run at start, as Source's server.cfg: one console line each, e.g.\n"+
			"  hostname \"Friday frag\", sv_password, rcon_password, maxplayers 12, sv_tickrate 64, bot_quota 4,\n"+
			"  map arena, mapcycle arena bunker plaza, or any server cvar (mp_fraglimit 30; see --cvar);\n"+
			"  // and # start comments. An unknown name or a value out of range stops the server with\n"+
			"  FILE:LINE: what is wrong. Flags given on the command line override the file (example: docs/server.cfg.example)"),
		transports: fs.String("transports", server.TransportsBoth, "sv_transports: both (the WebSocket, and a WebRTC data channel on UDP for snapshots and usercmds where the client offers one) or websocket (no UDP port; every offer refused)"),
		udp:        fs.String("udp", "", "UDP listen address HOST:PORT of the WebRTC data channels, one port for every player (default: --addr's, so 27015/udp beside 27015/tcp)"),
		publicIP:   fs.String("public-ip", "", "IP addresses (comma-separated) to advertise for the UDP port instead of the interfaces' own: behind a 1:1 NAT, or in a container whose port is published"),
		master:     addMasterFlags(fs),
		proxies:    trustedProxyVar(fs),
		upnp:       upnpFlag(fs, false, "(sv_upnp in --config; for a server at home behind a router)"), // main_portmap.go
		mapcycle:   fs.String("mapcycle", "", "maps played in turn, one per match, separated by commas or spaces (e.g. arena,bunker); at the end of each match's intermission the next is loaded (Source's mapcycle; the file's mapcycle line); one map keeps it. Empty: the playable maps in turn, "+strings.Join(game.DefaultMapCycle(), ",")+", when --map is empty or one of them; on another map (range, lab, expanse) the map stays"),
	}
}

// check refuses values outside their ranges and stray arguments, naming
// the flag (the server would take 0 for "the default" silently).
func (f serverFlags) check(fs *flag.FlagSet) error {
	return firstErr(noArgs(fs),
		checkListenAddr("addr", *f.addr),
		outOfRange(*f.tickrate >= server.MinTickRate && *f.tickrate <= server.MaxTickRate, "tickrate", *f.tickrate,
			fmt.Sprintf("%d..%d ticks/s", server.MinTickRate, server.MaxTickRate)),
		outOfRange(*f.maxplayers >= 1 && *f.maxplayers <= server.MaxPlayersLimit, "maxplayers", *f.maxplayers,
			fmt.Sprintf("1..%d player slots", server.MaxPlayersLimit)),
		outOfRange(*f.bots >= 0 && *f.bots <= *f.maxplayers, "bots", *f.bots,
			fmt.Sprintf("0..%d bots (at most --maxplayers)", *f.maxplayers)),
		outOfRange(*f.maxconns >= 1, "maxconns", *f.maxconns, "at least 1 connection"),
		outOfRange(*f.downloads >= 1, "max-downloads", *f.downloads, "at least 1 download"),
		outOfRange(*f.httpIdle > 0, "http-idle-timeout", *f.httpIdle, "more than 0"),
		outOfRange(*f.transports == server.TransportsBoth || *f.transports == server.TransportsWebSocket, "transports", *f.transports,
			server.TransportsBoth+" or "+server.TransportsWebSocket),
		checkPublicIPs(*f.publicIP), checkUDPAddr(*f.udp), f.master.check(),
		checkMap(*f.mapName, false),
		checkMapCycle(mapList(*f.mapcycle)),
		checkCvars("cvar", *f.cvars),
		outOfRange(len(*f.hostname) <= 64, "name", fmt.Sprintf("%q", *f.hostname), "at most 64 bytes"),
		outOfRange(proto.CleanText(*f.password, proto.MaxPasswordLen) == *f.password, "password", "(hidden)",
			fmt.Sprintf("at most %d bytes of printable text", proto.MaxPasswordLen)))
}

func cvarVar(fs *flag.FlagSet) *cvarFlags {
	c := &cvarFlags{}
	help := "set a server console variable, repeatable:"
	for _, v := range server.ServerCvars {
		help += fmt.Sprintf("\n  %s (%s, default %s): %s", v.Name, v.RangeText(), v.Default, v.Help)
	}
	fs.Var(c, "cvar", help)
	return c
}

func (f serverFlags) config(stderr io.Writer) (server.Config, error) {
	var lvl slog.Level
	if err := lvl.UnmarshalText([]byte(*f.logLevel)); err != nil {
		return server.Config{}, fmt.Errorf("--log %q: want debug, info, warn or error", *f.logLevel)
	}
	cfg := server.Config{Logger: slog.New(slog.NewTextHandler(stderr, &slog.HandlerOptions{Level: lvl})), Cvars: *f.cvars}
	for _, field := range f.fields(&cfg) {
		field.set()
	}
	return cfg, nil
}

// flagField is a server flag and how it sets its field of a server.Config.
type flagField struct {
	flag string
	set  func()
}

// fields pairs each server flag with its field of cfg (--cvar and --log
// apart: config's; --config is the file itself): config sets them all,
// withConfigFile again those given on the command line, over the file.
func (f serverFlags) fields(cfg *server.Config) []flagField {
	return []flagField{
		{"addr", func() { cfg.Addr = *f.addr }},
		{"tickrate", func() { cfg.TickRate = *f.tickrate }},
		{"maxplayers", func() { cfg.MaxPlayers = *f.maxplayers }},
		{"bots", func() { cfg.Bots = *f.bots }},
		{"map", func() { cfg.Map = *f.mapName }},
		{"rcon-password", func() { cfg.RconPassword = *f.rcon }},
		{"name", func() { cfg.Hostname = *f.hostname }},
		{"lan", func() { cfg.LAN = *f.lan }},
		{"password", func() { cfg.Password = *f.password }},
		{"maxconns", func() { cfg.MaxConns = *f.maxconns }},
		{"max-downloads", func() { cfg.MaxDownloads = *f.downloads }},
		{"http-idle-timeout", func() { cfg.HTTPIdleTimeout = *f.httpIdle }},
		{"mapcycle", func() { cfg.MapCycle = mapList(*f.mapcycle) }},
		{"transports", func() { cfg.Transports = *f.transports }},
		{"udp", func() { cfg.UDPAddr = *f.udp }},
		{"public-ip", func() { cfg.PublicIPs = mapList(*f.publicIP) }},
		{"master", func() { cfg.Masters = *f.master.masters }},
		{"region", func() { cfg.Region = *f.master.region }},
		{"trusted-proxy", func() { cfg.TrustedProxies = realip.Proxies(*f.proxies) }},
		{"upnp", func() { cfg.UPnP = *f.upnp }},
	}
}

// transportValue is a --transport flag's value (a cl_transport mode).
type transportValue struct{ s *string }

// transportFlag adds --transport with default def; why says why that default.
func transportFlag(fs *flag.FlagSet, def rtc.Mode, why string) transportValue {
	return transportValue{fs.String("transport", string(def), "cl_transport of the clients: auto (a WebRTC data channel for snapshots and usercmds, falling back to the WebSocket within 3 s), webrtc (no fallback) or websocket; default "+string(def)+": "+why)}
}

// check refuses a value that is no mode.
func (t transportValue) check() error {
	if _, err := rtc.ParseMode(*t.s); err != nil {
		return fmt.Errorf("--transport %q: want auto, webrtc or websocket", *t.s)
	}
	return nil
}

// mode is the parsed value (after check).
func (t transportValue) mode() rtc.Mode {
	m, _ := rtc.ParseMode(*t.s)
	return m
}

// checkUDPAddr checks --udp, when given.
func checkUDPAddr(addr string) error {
	if addr == "" {
		return nil
	}
	return checkListenAddr("udp", addr)
}

// checkPublicIPs checks --public-ip's addresses.
func checkPublicIPs(list string) error {
	for _, ip := range mapList(list) {
		if net.ParseIP(ip) == nil {
			return fmt.Errorf("--public-ip: %q is not an IP address", ip)
		}
	}
	return nil
}

// resolve checks the parsed flags and returns the server's config: the
// flags, over them the --config file, over that the flags given on the
// command line.
func (f serverFlags) resolve(fs *flag.FlagSet, stderr io.Writer) (server.Config, error) {
	cfg, err := f.config(stderr)
	if err = firstErr(f.check(fs), err); err != nil {
		return cfg, err
	}
	if !flagGiven(fs, "map") {
		cfg.Map = "" // the file's map, else the first of the map cycle, else the default
	}
	return f.withConfigFile(fs, cfg)
}

// flagGiven tells whether the flag called name was on the command line.
func flagGiven(fs *flag.FlagSet, name string) bool {
	given := false
	fs.Visit(func(f *flag.Flag) { given = given || f.Name == name })
	return given
}

// checkMapCycle checks --mapcycle's maps.
func checkMapCycle(list []string) error {
	if len(list) > server.MaxMapCycle {
		return fmt.Errorf("--mapcycle: more than %d maps", server.MaxMapCycle)
	}
	for _, m := range list {
		if checkMap(m, false) != nil {
			return fmt.Errorf("--mapcycle: %q is not a map of this version: want some of %s", m, strings.Join(game.MapNames(), ", "))
		}
	}
	return nil
}

// mapList splits a --mapcycle value at commas and spaces.
func mapList(s string) []string {
	return strings.FieldsFunc(s, func(r rune) bool { return r == ',' || r == ' ' || r == '\t' })
}

// withConfigFile applies the --config file to cfg, then the flags given on
// the command line again over it (flags override the file; --cvar values
// come after the file's cvars, so they win). Without --config it returns
// cfg as it is.
func (f serverFlags) withConfigFile(fs *flag.FlagSet, cfg server.Config) (server.Config, error) {
	if *f.cfgFile == "" {
		return cfg, nil
	}
	flagCvars := cfg.Cvars
	cfg.Cvars = nil
	if err := server.LoadConfigFile(*f.cfgFile, &cfg); err != nil {
		return cfg, err
	}
	for _, field := range f.fields(&cfg) {
		if flagGiven(fs, field.flag) {
			field.set()
		}
	}
	cfg.Cvars = append(cfg.Cvars, flagCvars...)
	if cfg.Bots > cfg.MaxPlayers {
		return cfg, fmt.Errorf("%d bots (bot_quota or --bots) is more than maxplayers (%d)", cfg.Bots, cfg.MaxPlayers)
	}
	return cfg, nil
}

func cmdServer(args []string, _, stderr io.Writer) int {
	fs := newFlags("server", "Usage: tickshot server [flags]\n\nRuns a dedicated, headless server. Players open http://HOST:PORT/ in a browser,\nor join with the native game: tickshot connect HOST:PORT.\nSIGINT/SIGTERM tells every player the server is shutting down, then exits.\n\n--config server.cfg runs a file of console lines at start (hostname, sv_password,\nrcon_password, maxplayers, sv_tickrate, bot_quota, map, mapcycle MAP MAP ..., and every\nserver cvar below); flags override it. changelevel MAP (over rcon) switches map at once.", stderr)
	sf := addServerFlags(fs, server.DefaultAddr, 0)
	af := addAgonesFlags(fs) // main_agones.go
	if code, done := parse(fs, args); done {
		return code
	}
	cfg, err := sf.resolve(fs, stderr)
	if refused(stderr, "server", af.check(), err) {
		return 2
	}
	var running atomic.Pointer[server.Server] // Agones' health pings watch its tick
	stopAgones, err := af.start(&cfg, &running)
	if failed(stderr, "server", err) {
		return 1
	}
	defer stopAgones()
	srv, err := server.New(cfg)
	if failed(stderr, "server", err) {
		return 1
	}
	running.Store(srv)
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if failed(stderr, "server", srv.Run(ctx)) {
		return 1
	}
	return 0
}

func cmdBot(args []string, stdout, stderr io.Writer) int {
	fs := newFlags("bot", "Usage: tickshot bot --server HOST:PORT [flags]\n\nRuns headless network players that use the real client netcode (prediction,\nreconciliation, interpolation) and play like bots. On exit each prints a summary: snapshots, bandwidth,\nhow smoothly snapshots came (gaps between arrivals, freezes over 250 ms, share of frames\ndrawn past the newest snapshot), commands, corrections, RTT, kills.", stderr)
	addr := fs.String("server", "", "server address HOST[:PORT] (required; port 27015 when none is given)")
	count := fs.Int("count", 1, "number of bots (1..64)")
	dur := fs.Duration("duration", 0, "how long to play (e.g. 30s); 0 plays until interrupted")
	asJSON := fs.Bool("json", false, "print summaries as JSON, one object per line")
	name := fs.String("name", "netbot", fmt.Sprintf("name prefix (1..%d bytes; bots are named prefix1, prefix2, ...)", proto.MaxNameLen-2))
	updaterate := fs.Int("updaterate", 20, fmt.Sprintf("cl_updaterate: snapshots per second wanted (%d..%d)", proto.MinUpdateRate, server.MaxTickRate))
	lag := fs.Float64("fakelag", 0, "net_fakelag: ms added to every received message (0..1000)")
	loss := fs.Float64("fakeloss", 0, "net_fakeloss: percent of received messages dropped (0..100)")
	jitter := fs.Float64("fakejitter", 0, "net_fakejitter: random extra ms on received messages (0..500)")
	tr := transportFlag(fs, rtc.ModeAuto, "as a player's game does")
	if code, done := parse(fs, args); done {
		return code
	}
	if *addr == "" {
		fmt.Fprintf(stderr, "%s bot: --server HOST[:PORT] is required\n", prog)
		return 2
	}
	if refused(stderr, "bot", noArgs(fs),
		outOfRange(*count >= 1 && *count <= 64, "count", *count, "1..64 bots"),
		outOfRange(*dur >= 0, "duration", *dur, "0 (until interrupted) or more"),
		outOfRange(len(*name) >= 1 && len(*name) <= proto.MaxNameLen-2, "name", fmt.Sprintf("%q", *name), fmt.Sprintf("1..%d bytes", proto.MaxNameLen-2)),
		outOfRange(*updaterate >= proto.MinUpdateRate && *updaterate <= server.MaxTickRate, "updaterate", *updaterate,
			fmt.Sprintf("%d..%d snapshots/s", proto.MinUpdateRate, server.MaxTickRate)),
		outOfRange(finite(*lag) && *lag >= 0 && *lag <= 1000, "fakelag", *lag, "0..1000 ms"),
		outOfRange(finite(*loss) && *loss >= 0 && *loss <= 100, "fakeloss", *loss, "0..100 percent"),
		outOfRange(finite(*jitter) && *jitter >= 0 && *jitter <= 500, "fakejitter", *jitter, "0..500 ms"), tr.check()) {
		return 2
	}
	*addr = withDefaultPort(*addr)
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	cfg := netclient.DefaultConfig("")
	cfg.UpdateRate = *updaterate
	opt := botclient.Options{Server: *addr, Count: *count, Duration: *dur, Name: *name, Config: cfg,
		Seed: uint64(time.Now().UnixNano()), Dial: netclient.Dial(tr.mode())}
	opt.Fake.LagMs, opt.Fake.LossPct, opt.Fake.JitterMs = *lag, *loss, *jitter
	sums := botclient.Run(ctx, opt)
	unjoined := 0 // bots that never received a snapshot
	for _, s := range sums {
		if s.Error != "" && s.SnapshotsReceived == 0 {
			unjoined++
		}
		if *asJSON {
			printJSON(stdout, s)
		} else {
			fmt.Fprintf(stdout, "%s: %.1fs over %s, %d snapshots (%.1f/s, %.0f B/s in, %.0f B/s out; gaps p50 %.0f, p99 %.0f, max %.0f ms; %d freezes over %d ms; %.1f %% of frames extrapolating), %d cmds sent, %d prediction corrections, mean RTT %.1f ms, %d kills, %d deaths, %d hits",
				s.Name, s.Seconds, s.Transport, s.SnapshotsReceived, s.SnapshotRate, s.BytesInPerSec, s.BytesOutPerSec,
				s.SnapshotGapMs.P50, s.SnapshotGapMs.P99, s.SnapshotGapMs.Max, s.FreezesOver250ms, botclient.FreezeMs, s.ExtrapolatingPct,
				s.CmdsSent, s.Corrections, s.MeanRTTMs, s.Kills, s.Deaths, s.HitsDealt)
			if s.Error != "" {
				fmt.Fprintf(stdout, " (ended: %s [%s])", netclient.Describe(errors.New(s.Error), *addr), s.Error)
			}
			fmt.Fprintln(stdout)
		}
	}
	if unjoined > 0 {
		return 1
	}
	return 0
}

func cmdHitreg(args []string, stdout, stderr io.Writer) int {
	fs := newFlags("hitreg", "Usage: tickshot hitreg [flags]\n\nHit-registration benchmark: a server and two headless clients over websockets on\nloopback with fake network conditions on both sides. A target strafes at full speed;\nthe shooter aims at the target's centre as its own client renders it and fires.\nPrints the share of shots the server confirms and the rewind error (world units)\nbetween where the shooter drew the target and where the server traced it.", stderr)
	rtt := fs.Float64("rtt", 0, "round trip added in ms, split evenly between both directions (0..2000)")
	jitter := fs.Float64("jitter", 0, "random extra delay in ms, each direction (0..500)")
	loss := fs.Float64("loss", 0, "percent of messages lost, each direction (0 up to, not including, 100)")
	wireRTT := fs.Float64("wire-rtt", 0, "round trip added in ms below the socket, by a delaying TCP proxy (0..2000): a real lagged link, which needs no sv_cheats")
	wireJitter := fs.Float64("wire-jitter", 0, "random extra delay in ms per chunk and direction, added by that proxy (0..500)")
	shots := fs.Int("shots", 200, "single shots to fire (1..100000)")
	unlag := fs.Int("unlag", 1, "sv_unlag: 1 lag compensation on, 0 off")
	tickrate := fs.Int("tickrate", server.DefaultTickRate, fmt.Sprintf("sv_tickrate, ticks/s (%d..%d)", server.MinTickRate, server.MaxTickRate))
	weaponName := fs.String("weapon", "rifle", "the hitscan weapon the shooter fires: rifle or shotgun (8 pellets against one rewind: each pellet is checked)")
	asJSON := fs.Bool("json", false, "print the result as JSON")
	serve := fs.String("serve", "", "run only the benchmark's server, listening on HOST:PORT until interrupted, for a hitreg --server on the far side of a real link (make measure-network)")
	remote := fs.String("server", "", "play against a benchmark server started with --serve at HOST[:PORT] instead of one in this process (--unlag and --tickrate are then that server's)")
	tr := transportFlag(fs, rtc.ModeWebSocket, "websocket keeps the figures comparable with those measured before WebRTC; --wire-rtt and --wire-jitter delay the TCP path only")
	if code, done := parse(fs, args); done {
		return code
	}
	var sideErr error // --serve and --server
	if *serve != "" {
		sideErr = checkListenAddr("serve", *serve)
	}
	if *serve != "" && *remote != "" {
		sideErr = errors.New("--serve and --server: one side at a time")
	}
	weapon, weaponErr := hitscanWeapon(*weaponName)
	if refused(stderr, "hitreg", noArgs(fs), sideErr, tr.check(), weaponErr,
		outOfRange(finite(*rtt) && *rtt >= 0 && *rtt <= 2000, "rtt", *rtt, "0..2000 ms"),
		outOfRange(finite(*jitter) && *jitter >= 0 && *jitter <= 500, "jitter", *jitter, "0..500 ms"),
		outOfRange(finite(*loss) && *loss >= 0 && *loss < 100, "loss", *loss, "a percentage from 0 up to, not including, 100"),
		outOfRange(finite(*wireRTT) && *wireRTT >= 0 && *wireRTT <= 2000, "wire-rtt", *wireRTT, "0..2000 ms"),
		outOfRange(finite(*wireJitter) && *wireJitter >= 0 && *wireJitter <= 500, "wire-jitter", *wireJitter, "0..500 ms"),
		outOfRange(*shots >= 1 && *shots <= 100000, "shots", *shots, "1..100000"),
		outOfRange(*unlag == 0 || *unlag == 1, "unlag", *unlag, "0 (off) or 1 (on)"),
		outOfRange(*tickrate >= server.MinTickRate && *tickrate <= server.MaxTickRate, "tickrate", *tickrate,
			fmt.Sprintf("%d..%d ticks/s", server.MinTickRate, server.MaxTickRate))) {
		return 2
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	opt := hitreg.Options{RTTMs: *rtt, JitterMs: *jitter, LossPct: *loss, WireRTTMs: *wireRTT, WireJitterMs: *wireJitter,
		Shots: *shots, Unlag: *unlag == 1, Dial: netclient.Dial(tr.mode()), Weapon: weapon,
		TickRate: *tickrate, Seed: uint64(time.Now().UnixNano())}
	if *serve != "" {
		if err := hitreg.Serve(ctx, opt, *serve); ctx.Err() == nil && failed(stderr, "hitreg", err) {
			return 1
		}
		return 0
	}
	if *remote != "" {
		opt.Server = withDefaultPort(*remote)
	}
	if !*asJSON {
		fmt.Fprintf(stderr, "hitreg: rtt %g ms, jitter %g ms, loss %g %%, wire rtt %g ms, wire jitter %g ms, sv_unlag %d, %d shots ",
			*rtt, *jitter, *loss, *wireRTT, *wireJitter, *unlag, *shots)
		opt.Progress = stderr
	}
	res, err := hitreg.Run(ctx, opt)
	if !*asJSON {
		fmt.Fprintln(stderr)
	}
	return finish(stdout, stderr, "hitreg", err, *asJSON, res, func() {
		fmt.Fprintf(stdout, "confirmed %d of %d shots (%.1f%%); rewind error median %.2f, p99 %.2f, max %.2f units (hitbox radius %g); measured RTT %.0f ms; %d snapshots lost\n",
			res.Confirmed, res.Shots, res.ConfirmedPct, res.ErrMedian, res.ErrP99, res.ErrMax, res.HitboxRadius, res.MeasuredRTTMs, res.SnapshotsLost)
		fmt.Fprintf(stdout, "rewinds: %d at the render time the client claimed, %d with the claim refused (the server's estimate used), %d limited by sv_maxunlag or the link's round trip; see --log debug on a server for each shot's reason\n",
			res.RewindClaimed, res.RewindRefused, res.RewindClamped)
		if weapon != shared.WeaponRifle {
			fmt.Fprintf(stdout, "%s pellets of the %d shots taken as claimed: %d hit the target as drawn, the server found %d; %d shots differ\n",
				res.Weapon, res.Taken, res.PelletsDrawn, res.PelletsServer, res.PelletMismatch)
		}
	})
}

// hitscanWeapon is the index of the hitscan weapon called name
// (shared.Weapons' names: rifle, shotgun), or an error naming them.
func hitscanWeapon(name string) (uint8, error) {
	var names []string
	for i, w := range shared.Weapons {
		if w.Kind != shared.Hitscan {
			continue
		}
		if w.Name == name {
			return uint8(i), nil
		}
		names = append(names, w.Name)
	}
	return 0, fmt.Errorf("--weapon %q: not a hitscan weapon (%s)", name, strings.Join(names, ", "))
}

func cmdLoadtest(args []string, stdout, stderr io.Writer) int {
	fs := newFlags("loadtest", fmt.Sprintf(`Usage: tickshot loadtest [--server HOST:PORT] [--lite] --clients N --bots M [--tickrate T] [--duration D] [--json]

Load test. Without --server it runs a server in this process on 127.0.0.1 (a free
port) with M server bots; its player slots are raised to N+M, and the server takes
at most %d players (clients and bots together). With --server it uses that running
server as it is (its bots, tick rate and map). Then N headless clients join, %v
apart, each running the real client netcode (prediction, reconciliation,
interpolation) with the bot brain, as "tickshot bot" does.
With --lite the clients speak only the wire protocol over the websocket (join, ack,
scripted usercmds, decode snapshots), without prediction, interpolation or the bot
brain, so that up to %d fit in one process beside the server on two cores; they join
%v apart, at most %d handshakes at once (the server's cap on connections
waiting for their hello from one address). Without --map, a --lite run of more than
%d clients plays on %s (the big arena), fewer on the server's default map.
Once all have joined and a warm-up has passed, it measures over --duration and prints:
  players (clients + bots) and tick rate;
  server tick time mean / p50 / p99 / max in µs, from the server's status at the
    end (its last 512 ticks), and the worst p99 of the statuses read each second;
  CPU in %% of one core over the window: in-process it is the whole process, the
    clients included; with --server the clients only (see --server-pid);
  per client (mean over clients): bytes/s in and out (frame payload), snapshots/s;
  snapshot size mean and max in bytes (every snapshot the clients received);
  Go heap in use per client: (heap with the clients - before them) / N after a GC,
    counting both ends of each connection in-process, the client end with --server;
  prediction corrections (or with --lite, frames that did not decode), snapshots
    lost and choked (all clients, in the window).`, loadtest.MaxServerPlayers, loadtest.JoinStagger,
		loadtest.MaxLiteClients, loadtest.LiteJoinStagger, loadtest.LiteHandshakes, loadtest.LiteBigMapFrom, loadtest.LiteBigMap), stderr)
	addr := fs.String("server", "", "HOST:PORT of a running server to load; empty runs one in this process")
	clients := fs.Int("clients", 0, fmt.Sprintf("headless network clients to connect (0..%d; 0..%d with --lite)", loadtest.MaxClients, loadtest.MaxLiteClients))
	lite := fs.Bool("lite", false, "wire-only clients: no prediction, interpolation or bot brain, scripted usercmds, the websocket only")
	bots := fs.Int("bots", 0, fmt.Sprintf("server bots of the in-process server (0..%d; clients + bots at most %d); refused with --server", loadtest.MaxBots, loadtest.MaxServerPlayers))
	tickrate := fs.Int("tickrate", server.DefaultTickRate, fmt.Sprintf("sv_tickrate of the in-process server, ticks/s (%d..%d); refused with --server", server.MinTickRate, server.MaxTickRate))
	mapName := fs.String("map", game.DefaultMap, fmt.Sprintf("map of the in-process server (available: %s; with --lite and more than %d clients the default is %s); refused with --server",
		strings.Join(game.MapNames(), ", "), loadtest.LiteBigMapFrom, loadtest.LiteBigMap))
	updaterate := fs.Int("updaterate", loadtest.DefaultUpdateRate, fmt.Sprintf("cl_updaterate of every client: snapshots/s wanted (1..%d)", server.MaxTickRate))
	dur := fs.Duration("duration", loadtest.DefaultDuration, "length of the measuring window, a Go duration such as 20s or 1m (more than 0)")
	warmup := fs.Duration("warmup", loadtest.DefaultWarmup, "time between the last client's join and the start of the window, e.g. 3s (0 for none)")
	pid := fs.Int("server-pid", 0, "with --server: the server's process id, to report its CPU too (Linux /proc)")
	asJSON := fs.Bool("json", false, "print the report as one JSON object instead of a table")
	nodelta := fs.Bool("nodelta", false, "the clients ask for full snapshots only (cl_nodelta), to compare with delta compression")
	tr := transportFlag(fs, rtc.ModeWebSocket, "websocket keeps the figures comparable with those measured before WebRTC")
	if code, done := parse(fs, args); done {
		return code
	}
	if refused(stderr, "loadtest", noArgs(fs), checkMap(*mapName, false), tr.check()) {
		return 2
	}
	set := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { set[f.Name] = true })
	if *addr != "" {
		for _, name := range []string{"bots", "tickrate", "map"} {
			if set[name] {
				fmt.Fprintf(stderr, prog+" loadtest: --%s applies only to the in-process server; with --server, the server's own settings are used (start it with the %s you want)\n", name, name)
				return 2
			}
		}
	}
	if refused(stderr, "loadtest", outOfRange(*tickrate >= server.MinTickRate && *tickrate <= server.MaxTickRate, "tickrate", *tickrate,
		fmt.Sprintf("%d..%d ticks/s", server.MinTickRate, server.MaxTickRate))) {
		return 2
	}
	if *dur <= 0 {
		fmt.Fprintf(stderr, prog+" loadtest: --duration must be more than 0, got %v\n", *dur)
		return 2
	}
	if *warmup < 0 {
		fmt.Fprintf(stderr, prog+" loadtest: --warmup must be 0 or more, got %v\n", *warmup)
		return 2
	}
	if *updaterate < 1 {
		fmt.Fprintf(stderr, prog+" loadtest: --updaterate must be 1..%d snapshots/s, got %d\n", server.MaxTickRate, *updaterate)
		return 2
	}
	opt := loadtest.Options{Server: *addr, Clients: *clients, UpdateRate: *updaterate, Duration: *dur,
		Warmup: *warmup, ServerPID: *pid, NoDelta: *nodelta, Seed: uint64(time.Now().UnixNano()), Transport: tr.mode(), Lite: *lite}
	if opt.Warmup == 0 {
		opt.Warmup = -1 // none
	}
	if *addr == "" {
		opt.Bots, opt.TickRate, opt.Map = *bots, *tickrate, *mapName
		if !set["map"] {
			opt.Map = loadtest.DefaultMap(*lite, *clients) // "": the server's default
		}
	}
	if err := opt.Validate(); err != nil {
		fmt.Fprintln(stderr, prog+" loadtest:", err)
		return 2
	}
	if !*asJSON {
		opt.Progress = stderr
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	rep, err := loadtest.Run(ctx, opt)
	return finish(stdout, stderr, "loadtest", err, *asJSON, rep, func() { rep.WriteTable(stdout) })
}

// DefaultBrowseTimeout is how long `tickshot servers` listens by default.
const DefaultBrowseTimeout = 2 * time.Second

func cmdServers(args []string, stdout, stderr io.Writer) int {
	fs := newFlags("servers", "Usage: tickshot servers [--internet --master URL] [--timeout D] [--json]\n\nLists the Tickshot servers on the local network: they announce themselves with\nmulticast DNS (service "+lan.ServiceType+"), and each one's details come from its\n/status. With --internet, lists those of a master server instead, each pinged\n(its /status fetched from here). Join one with: tickshot connect ADDRESS.", stderr)
	timeout := fs.Duration("timeout", DefaultBrowseTimeout, "how long to listen for servers, e.g. 2s (100ms..1m); with --internet, how long each server's /status may take")
	asJSON := fs.Bool("json", false, "print the list as a JSON array")
	inet := addInternetFlags(fs) // main_master.go
	if code, done := parse(fs, args); done {
		return code
	}
	if refused(stderr, "servers", noArgs(fs),
		outOfRange(*timeout >= 100*time.Millisecond && *timeout <= time.Minute, "timeout", *timeout, "100ms..1m")) {
		return 2
	}
	if *inet.internet {
		return inet.list(*timeout, *asJSON, stdout, stderr)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	list, err := lan.Browse(ctx, *timeout)
	if failed(stderr, "servers", err) {
		return 1
	}
	if *asJSON {
		writeServersJSON(stdout, list)
		return 0
	}
	if len(list) == 0 {
		fmt.Fprintf(stdout, "no servers found (listened %v for %s on the local network)\n", *timeout, lan.ServiceType)
		return 0
	}
	writeServersTable(stdout, list)
	return 0
}

// serverJSON is one server of `tickshot servers --json`.
type serverJSON struct {
	Name       string  `json:"name"`
	Addr       string  `json:"addr"`
	Map        string  `json:"map"`
	Players    int     `json:"players"`
	Bots       int     `json:"bots"`
	Spectators int     `json:"spectators"`
	MaxPlayers int     `json:"maxplayers"`
	PingMs     float64 `json:"ping_ms"`
	Password   bool    `json:"password"`
	Protocol   int     `json:"protocol"`
}

func writeServersJSON(w io.Writer, list []lan.Server) {
	out := make([]serverJSON, 0, len(list))
	for _, s := range list {
		out = append(out, toServerJSON(s))
	}
	b, _ := json.MarshalIndent(out, "", "  ")
	fmt.Fprintln(w, string(b))
}

// toServerJSON is s as `tickshot servers --json` prints it.
func toServerJSON(s lan.Server) serverJSON {
	return serverJSON{Name: s.Name, Addr: s.Addr, Map: s.Map, Players: s.Players, Bots: s.Bots,
		Spectators: s.Spectators, MaxPlayers: s.MaxPlayers, PingMs: math.Round(float64(s.Ping)/float64(time.Millisecond)*10) / 10,
		Password: s.Password, Protocol: s.Version}
}

func writeServersTable(w io.Writer, list []lan.Server) {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "NAME\tADDRESS\tMAP\tPLAYERS\tPING\tPASSWORD\t")
	for _, s := range list {
		players := proto.PlayersText(s.Players, s.Bots, s.MaxPlayers)
		pw := "no"
		if s.Password {
			pw = "yes"
		}
		name := s.Name
		if !s.Compatible() {
			name += fmt.Sprintf(" [protocol %d, this game speaks %d]", s.Version, proto.ProtocolVersion)
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%d ms\t%s\t\n", name, s.Addr, s.Map, players, s.Ping.Milliseconds(), pw)
	}
	tw.Flush()
}
