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
	"syscall"
	"time"

	"tickshot/client"
	"tickshot/client/netclient"
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
	width      *int
	height     *int
	cvars      *cvarFlags
	config     *string
	autoplay   *bool
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
	host, _ := os.Hostname()
	name := os.Getenv("USER")
	if name == "" {
		name = host
	}
	if name == "" {
		name = "player"
	}
	return clientFlags{
		name:       fs.String("name", name, "player name (1..24 bytes)"),
		updaterate: fs.Int("updaterate", 20, "cl_updaterate: snapshots per second wanted (10..tick rate)"),
		interp:     fs.Int("interp", 100, "cl_interp: interpolation period in ms (at least cl_interp_ratio/cl_updaterate)"),
		noSound:    fs.Bool("nosound", false, "disable sound"),
		report:     fs.String("exit-report", "", "write a JSON report (position, commands, snapshots, corrections) to this file on exit (testing)"),
		shot:       fs.String("screenshot", "", "save a PNG of the window to this file after --screenshot-after, then quit (testing)"),
		shotAfter:  fs.Duration("screenshot-after", 3*time.Second, "when to take --screenshot"),
		width:      fs.Int("width", 1280, "window width in pixels"),
		height:     fs.Int("height", 720, "window height in pixels"),
		cvars:      cv,
		autoplay:   fs.Bool("autoplay", false, "let the bot brain play for you (demo mode)"),
		config:     fs.String("config", cfgPath, "file of console lines run at start (default: autoexec.cfg in the user config dir, tickshot/, if present)"),
	}
}

func (f clientFlags) options(addr, title string) client.Options {
	cfg := netclient.DefaultConfig(*f.name)
	cfg.UpdateRate = *f.updaterate
	cfg.InterpMs = *f.interp
	return client.Options{Addr: addr, Config: cfg, Title: title, NoSound: *f.noSound,
		ScreenshotPath: *f.shot, ScreenshotAfter: *f.shotAfter, ReportPath: *f.report,
		AutoPlay: *f.autoplay, Cvars: *f.cvars, ConfigFile: *f.config, ServerCvars: serverCvarNames(), Width: *f.width, Height: *f.height}
}

func cmdPlay(args []string, stderr io.Writer) int {
	fs := newFlags("play", "Usage: tickshot [play] [flags]\n\nStarts a server on 127.0.0.1 with bots and opens the game window joined to it.\nControls: WASD move, mouse aim, left click fire, R reload, Tab scores, Esc menu.", stderr)
	bots := fs.Int("bots", 3, "server-side bots to play against")
	tickrate := fs.Int("tickrate", server.DefaultTickRate, "sv_tickrate of the local server (20..128)")
	mapName := fs.String("map", "", "map name (default arena)")
	svCvars := &cvarFlags{}
	fs.Var(svCvars, "sv", "set a server cvar of the local server at start, repeatable (e.g. --sv sv_showimpacts=1)")
	addr := fs.String("addr", "127.0.0.1:0", "listen address of the local server (port 0 picks a free one; use :27015 to let friends join)")
	cf := addClientFlags(fs)
	if code, done := parse(fs, args); done {
		return code
	}
	logger := slog.New(slog.NewTextHandler(stderr, &slog.HandlerOptions{Level: slog.LevelWarn}))
	srv, err := server.New(server.Config{Addr: *addr, TickRate: *tickrate, Bots: *bots, Map: *mapName, Logger: logger, Cvars: *svCvars})
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
	cancel()
	<-done
	if err != nil {
		fmt.Fprintln(stderr, "tickshot play:", err)
		return 1
	}
	return 0
}

func cmdConnect(args []string, stderr io.Writer) int {
	fs := newFlags("connect", "Usage: tickshot connect HOST:PORT [flags]\n\nOpens the game window joined to a server (default port 27015).", stderr)
	cf := addClientFlags(fs)
	// Accept the address before or after the flags.
	var addr string
	if len(args) > 0 && args[0] != "" && args[0][0] != '-' {
		addr, args = args[0], args[1:]
	}
	if code, done := parse(fs, args); done {
		return code
	}
	if addr == "" && fs.NArg() > 0 {
		addr = fs.Arg(0)
	}
	if addr == "" {
		fmt.Fprintln(stderr, "tickshot connect: missing HOST:PORT (for example: tickshot connect 192.0.2.10:27015)")
		return 2
	}
	if !hasPort(addr) {
		addr += ":27015"
	}
	opts := cf.options(addr, "Tickshot - "+addr)
	opts.Quit = interrupted()
	if err := client.Run(opts); err != nil {
		fmt.Fprintln(stderr, "tickshot connect:", err)
		return 1
	}
	return 0
}

func hasPort(addr string) bool {
	for i := len(addr) - 1; i >= 0; i-- {
		switch addr[i] {
		case ':':
			return addr[len(addr)-1] != ']'
		case ']':
			return false
		}
	}
	return false
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
