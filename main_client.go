//go:build !headless && !js

package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"tickshot/client"
	"tickshot/client/config"
	"tickshot/client/demo"
	"tickshot/client/netclient"
	"tickshot/game"
	"tickshot/net/proto"
	"tickshot/server"
)

type clientFlags struct {
	name       *string
	updaterate *int
	interp     *int
	noSound    *bool
	report     *string
	shot       *string
	shotAfter  *time.Duration
	shotOn     *string
	shotWait   *time.Duration
	width      *int
	height     *int
	cvars      *cvarFlags
	config     *string
	autoplay   *bool
	spectate   *bool
	password   *string
	// settings is config.cfg (the menu's name, settings and key
	// bindings), run before --config's autoexec.cfg.
	settings *config.Config
}

func addClientFlags(fs interface {
	String(string, string, string) *string
	Int(string, int, string) *int
	Bool(string, bool, string) *bool
	Duration(string, time.Duration, string) *time.Duration
	Var(flag.Value, string, string)
}) clientFlags {
	cv := &cvarFlags{}
	fs.Var(cv, "cvar", "set a console variable at start, repeatable (e.g. --cvar net_graph=2 --cvar net_fakelag=100); see 'cvarlist' in the console")
	cfgPath := ""
	if dir, err := os.UserConfigDir(); err == nil {
		p := filepath.Join(dir, "tickshot", "autoexec.cfg")
		if _, err := os.Stat(p); err == nil {
			cfgPath = p
		}
	}
	settings := loadSettings()
	host, _ := os.Hostname()
	name := settings.Name // the name typed in the menu
	if name == "" {
		name = os.Getenv("USER")
	}
	if name == "" {
		name = host
	}
	if name == "" {
		name = "player"
	}
	return clientFlags{
		settings:   settings,
		name:       fs.String("name", name, fmt.Sprintf("player name (1..%d bytes)", proto.MaxNameLen)),
		updaterate: fs.Int("updaterate", 20, fmt.Sprintf("cl_updaterate: snapshots per second wanted (%d..%d, at most the server's tick rate)", proto.MinUpdateRate, server.MaxTickRate)),
		interp:     fs.Int("interp", 100, fmt.Sprintf("cl_interp: interpolation period in ms (0..%d; the one used is at least cl_interp_ratio/cl_updaterate)", proto.MaxInterpMs)),
		noSound:    fs.Bool("nosound", false, "disable sound"),
		report:     fs.String("exit-report", "", "write a JSON report (position, commands, snapshots, corrections) to this file on exit (testing)"),
		shot:       fs.String("screenshot", "", "save a PNG of the window to this file after --screenshot-after, then quit (testing)"),
		shotAfter:  fs.Duration("screenshot-after", 3*time.Second, "when to take --screenshot"),
		shotOn:     fs.String("screenshot-on", "", "with --screenshot: \"explosion\" waits, after --screenshot-after, for an explosion on screen, \"deathcard\" for the death card, \"endscreen\" for the end of a match with its map vote (testing, README pictures)"),
		shotWait:   fs.Duration("screenshot-wait", client.DefaultScreenshotWait, "with --screenshot-on: the longest wait for its event after --screenshot-after; the screenshot is taken then without it"),
		width:      fs.Int("width", 1280, "window width in pixels (320..16384)"),
		height:     fs.Int("height", 720, "window height in pixels (200..16384)"),
		cvars:      cv,
		autoplay:   fs.Bool("autoplay", false, "let the bot brain play for you (demo mode)"),
		spectate:   fs.Bool("spectate", false, "join as a spectator: no body; follow players (left/right click) or fly freely (Space); 'join' on the console to play"),
		password:   fs.String("password", "", fmt.Sprintf("join password, for a server started with --password (the console's password cvar; at most %d bytes); with play, the local server's", proto.MaxPasswordLen)),
		config:     fs.String("config", cfgPath, "file of console lines run at start (default: autoexec.cfg in the user config dir, tickshot/, if present)"),
	}
}

// check refuses client flag values outside their ranges, naming the flag.
func (f clientFlags) check() error {
	return firstErr(
		outOfRange(len(*f.name) >= 1 && len(*f.name) <= proto.MaxNameLen, "name", fmt.Sprintf("%q", *f.name), fmt.Sprintf("1..%d bytes", proto.MaxNameLen)),
		outOfRange(*f.updaterate >= proto.MinUpdateRate && *f.updaterate <= server.MaxTickRate, "updaterate", *f.updaterate,
			fmt.Sprintf("%d..%d snapshots/s", proto.MinUpdateRate, server.MaxTickRate)),
		outOfRange(*f.interp >= 0 && *f.interp <= proto.MaxInterpMs, "interp", *f.interp, fmt.Sprintf("0..%d ms", proto.MaxInterpMs)),
		outOfRange(*f.width >= 320 && *f.width <= 16384, "width", *f.width, "320..16384 pixels"),
		outOfRange(*f.height >= 200 && *f.height <= 16384, "height", *f.height, "200..16384 pixels"),
		outOfRange(*f.shotAfter >= 0, "screenshot-after", *f.shotAfter, "0 or more"),
		outOfRange(*f.shotWait >= 0, "screenshot-wait", *f.shotWait, "0 or more"),
		outOfRange(*f.shotOn == "" || *f.shotOn == client.ScreenshotOnExplosion || *f.shotOn == client.ScreenshotOnDeathCard ||
			*f.shotOn == client.ScreenshotOnEndScreen, "screenshot-on", *f.shotOn, `"", "explosion", "deathcard" or "endscreen"`),
		outOfRange(proto.CleanText(*f.password, proto.MaxPasswordLen) == *f.password, "password", "(hidden)",
			fmt.Sprintf("at most %d bytes of printable text", proto.MaxPasswordLen)))
}

func (f clientFlags) options(addr, title string) client.Options {
	cfg := netclient.DefaultConfig(*f.name)
	cfg.UpdateRate = *f.updaterate
	cfg.InterpMs = *f.interp
	cfg.Spectate = *f.spectate
	cfg.Password = *f.password
	return client.Options{Addr: addr, Config: cfg, Title: title, NoSound: *f.noSound,
		ScreenshotPath: *f.shot, ScreenshotAfter: *f.shotAfter, ScreenshotOn: *f.shotOn, ScreenshotWait: *f.shotWait, ReportPath: *f.report,
		AutoPlay: *f.autoplay, Cvars: *f.cvars, ConfigFile: *f.config, ServerCvars: serverCvarNames(), Width: *f.width, Height: *f.height,
		Settings: f.settings}
}

// loadSettings reads config.cfg from the user config dir (a new config
// when there is none; lines it cannot read are skipped).
func loadSettings() *config.Config {
	dir, err := config.Dir()
	if err != nil {
		return config.New()
	}
	c, _ := config.Load(dir)
	return c
}

func cmdPlay(args []string, _, stderr io.Writer) int {
	fs := newFlags("play", "Usage: tickshot [play] [flags]\n\nStarts a server on 127.0.0.1 with bots and opens the game window joined to it.\nControls: WASD move, mouse aim, left click fire, R reload, Tab scores, Esc menu.", stderr)
	bots := fs.Int("bots", 3, fmt.Sprintf("server-side bots to play against (0..%d)", server.DefaultMaxPlayers))
	tickrate := fs.Int("tickrate", server.DefaultTickRate, fmt.Sprintf("sv_tickrate of the local server, ticks/s (%d..%d)", server.MinTickRate, server.MaxTickRate))
	mapName := fs.String("map", "", "map name (default "+game.DefaultMap+"; available: "+strings.Join(game.MapNames(), ", ")+")")
	svCvars := &cvarFlags{}
	fs.Var(svCvars, "sv", "set a server cvar of the local server at start, repeatable (e.g. --sv sv_showimpacts=1)")
	addr := fs.String("addr", "127.0.0.1:0", "listen address of the local server (port 0 picks a free one; use :27015 to let friends join)")
	svConfig := fs.String("server-config", "", "a server config file for the local server, as 'server --config' takes (hostname, sv_password, maxplayers, bot_quota, map, mapcycle, server cvars); flags given here override it")
	announce := fs.Bool("lan", true, "announce the local server on the network (only to this computer while --addr is a loopback address), so 'tickshot servers' and server lists find it")
	mf := addMasterFlags(fs) // main_master.go
	upnp := upnpFlag(fs, true, "when --addr listens beyond loopback (e.g. :27015); --upnp=false leaves the router alone")
	cf := addClientFlags(fs)
	if code, done := parse(fs, args); done {
		return code
	}
	if refused(stderr, "play", noArgs(fs), mf.check(),
		outOfRange(*bots >= 0 && *bots <= server.DefaultMaxPlayers, "bots", *bots, fmt.Sprintf("0..%d bots", server.DefaultMaxPlayers)),
		outOfRange(*tickrate >= server.MinTickRate && *tickrate <= server.MaxTickRate, "tickrate", *tickrate,
			fmt.Sprintf("%d..%d ticks/s", server.MinTickRate, server.MaxTickRate)),
		checkMap(*mapName, true), checkCvars("sv", *svCvars), checkListenAddr("addr", *addr), cf.check()) {
		return 2
	}
	logger := slog.New(slog.NewTextHandler(stderr, &slog.HandlerOptions{Level: slog.LevelWarn}))
	marker := firstGameMarker()
	scfg := server.Config{Addr: *addr, TickRate: *tickrate, Bots: *bots, Map: *mapName, Logger: logger,
		LAN: *announce, Hostname: *cf.name + "'s game", Password: *cf.password, Masters: *mf.masters, Region: *mf.region,
		UPnP: *upnp && beyondLoopback(*addr), PortMapped: printInviteLink(stderr)}
	if err := playServerConfig(fs, *svConfig, &scfg); err != nil {
		fmt.Fprintf(stderr, "%s play: %v\n", prog, err)
		return 2
	}
	// sv_cheats 1 first: server.cfg and --sv may set it back to 0.
	scfg.Cvars = append(localGameCvars(), firstGameCvars(append(scfg.Cvars, *svCvars...), marker)...)
	srv, err := server.New(scfg)
	if err != nil {
		fmt.Fprintln(stderr, "tickshot play:", err)
		return 1
	}
	if err := srv.Listen(); err != nil {
		fmt.Fprintln(stderr, "tickshot play:", err)
		return 1
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- srv.Run(ctx) }()
	opts := cf.options(srv.Addr(), "Tickshot - local game")
	opts.Host = srv
	opts.Quit = interrupted()
	err = client.Run(opts)
	markPlayed(marker)
	cancel()
	<-done
	if err != nil {
		fmt.Fprintf(stderr, "%s play: %s\n", prog, explain(err, opts.Addr))
		return 1
	}
	return 0
}

// parseOperand parses flags around the one operand of connect (a server
// address) or playdemo (a demo), which may come before or after them. It
// returns the operand, or done and the exit status when parsing ended the
// command: --help (0), a bad flag (2), or the operand missing or followed
// by another (2, with a line saying so: missing is what is missing, one
// what the command takes one of).
func parseOperand(fs *flag.FlagSet, args []string, stderr io.Writer, missing, one string) (operand string, code int, done bool) {
	if len(args) > 0 && args[0] != "" && args[0][0] != '-' {
		operand, args = args[0], args[1:]
	}
	if code, done := parse(fs, args); done {
		return "", code, true
	}
	rest := fs.Args()
	if operand == "" && len(rest) > 0 {
		operand, rest = rest[0], rest[1:]
	}
	switch {
	case operand == "":
		fmt.Fprintf(stderr, "%s %s: missing %s\n", prog, fs.Name(), missing)
		return "", 2, true
	case len(rest) > 0:
		fmt.Fprintf(stderr, "%s %s: unexpected argument %q: %s takes one %s (see --help)\n", prog, fs.Name(), rest[0], fs.Name(), one)
		return "", 2, true
	}
	return operand, 0, false
}

func cmdConnect(args []string, _, stderr io.Writer) int {
	fs := newFlags("connect", "Usage: tickshot connect HOST:PORT [flags]\n\nOpens the game window joined to a server (default port 27015).", stderr)
	cf := addClientFlags(fs)
	addr, code, done := parseOperand(fs, args, stderr, "HOST[:PORT] (for example: "+prog+" connect 192.0.2.10:27015)", "server address")
	if done {
		return code
	}
	if refused(stderr, "connect", cf.check()) {
		return 2
	}
	addr = withDefaultPort(addr)
	opts := cf.options(addr, "Tickshot - "+addr)
	opts.Quit = interrupted()
	if err := client.Run(opts); err != nil {
		fmt.Fprintf(stderr, "%s connect: %s\n", prog, explain(err, addr))
		return 1
	}
	return 0
}

// cmdPlaydemo opens the window playing a demo back (Source's playdemo).
func cmdPlaydemo(args []string, _, stderr io.Writer) int {
	fs := newFlags("playdemo", "Usage: tickshot playdemo NAME|PATH [flags]\n\nPlays a demo back in the game window: NAME is a demo recorded with the console's\n'record NAME' (NAME.dem in the demos folder of the config directory), or a .dem file's path.\nKeys: Space or P pause, [ and ] (or - and +) speed x0.25..x4, Left/Right 5 s back/on, F3 net_graph, Esc the main menu.", stderr)
	cf := addClientFlags(fs)
	name, code, done := parseOperand(fs, args, stderr, "the demo's NAME or PATH (see 'listdemos' in the console)", "demo")
	if done {
		return code
	}
	if refused(stderr, "playdemo", cf.check()) {
		return 2
	}
	path, err := demo.Path(name)
	if failed(stderr, "playdemo", err) {
		return 1
	}
	d, err := demo.Load(path)
	if failed(stderr, "playdemo", err) {
		return 1
	}
	opts := cf.options("", "Tickshot - demo "+filepath.Base(path))
	opts.Quit = interrupted()
	defer useMenu(&opts, cf, server.DefaultAddr, true, "playdemo", stderr)() // Esc leaves the demo for the menu
	opts.Start = client.PlayDemo(d, path)
	fmt.Fprintln(stderr, "playing", d.Describe())
	if failed(stderr, "playdemo", client.Run(opts)) {
		return 1
	}
	return 0
}

// explain says why the window ended: a connection's failure as the
// sentence the window showed, followed by the Go error; anything else
// (a bad --cvar, a failed window) as it is.
func explain(err error, addr string) string {
	if netclient.IsConnectionError(err) {
		return fmt.Sprintf("%s (%v)", netclient.Describe(err, addr), err)
	}
	return err.Error()
}

func serverCvarNames() []string {
	names := make([]string, 0, len(server.ServerCvars))
	for _, c := range server.ServerCvars {
		names = append(names, c.Name)
	}
	return names
}

// interrupted returns a channel closed at the first SIGINT or SIGTERM, so
// that the window closes and the server tells its players why.
func interrupted() <-chan struct{} {
	ch := make(chan struct{})
	sig := make(chan os.Signal, 1)
	signal.Notify(sig, os.Interrupt, syscall.SIGTERM)
	go func() {
		<-sig
		close(ch)
		signal.Stop(sig)
	}()
	return ch
}

// firstGameMarker is the file whose absence makes `tickshot play` a first
// game ("" when there is no user config dir).
func firstGameMarker() string {
	dir, err := os.UserConfigDir()
	if err != nil {
		return ""
	}
	return filepath.Join(dir, "tickshot", "played")
}

// firstGameCvars returns the local server's cvars for `play`: in a first
// game (no marker file yet) the bots start one step easier, at
// bot_difficulty 0, unless --sv set it.
// playServerConfig applies play's --server-config file (if any) to the
// local server's cfg, then the flags given on the command line over it
// (--sv cvars are appended after the file's by the caller).
func playServerConfig(fs *flag.FlagSet, path string, cfg *server.Config) error {
	if path == "" {
		return nil
	}
	flags := *cfg
	if err := server.LoadConfigFile(path, cfg); err != nil {
		return err
	}
	fs.Visit(func(f *flag.Flag) {
		switch f.Name {
		case "tickrate":
			cfg.TickRate = flags.TickRate
		case "bots":
			cfg.Bots = flags.Bots
		case "map":
			cfg.Map = flags.Map
		case "password":
			cfg.Password = flags.Password
		case "master":
			cfg.Masters = flags.Masters
		case "region":
			cfg.Region = flags.Region
		}
	})
	return nil
}

// localGameCvars are the server cvars of a local game with bots (`play`,
// the menu's "Play with bots"): sv_cheats 1, as on Source's listen server,
// so the window's net_fakelag is lag compensated (the lag demos of
// README and docs/LAGCOMP.md). server.cfg or --sv sv_cheats=0 overrides it.
func localGameCvars() [][2]string { return [][2]string{{"sv_cheats", "1"}} }

func firstGameCvars(sv [][2]string, marker string) [][2]string {
	if marker == "" {
		return sv
	}
	if _, err := os.Stat(marker); err == nil {
		return sv
	}
	for _, kv := range sv {
		if kv[0] == "bot_difficulty" {
			return sv
		}
	}
	return append([][2]string{{"bot_difficulty", "0"}}, sv...)
}

// markPlayed records that a game was played (best effort: a read-only
// config dir only means the next game starts easy too).
func markPlayed(marker string) {
	if marker == "" {
		return
	}
	if err := os.MkdirAll(filepath.Dir(marker), 0o755); err == nil {
		_ = os.WriteFile(marker, []byte("the first game is over: bots start at bot_difficulty 1\n"), 0o644)
	}
}
