//go:build !headless && !js

package main

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"os"
	"slices"

	"tickshot/client"
	"tickshot/client/config"
	"tickshot/client/menu"
	"tickshot/game"
	"tickshot/net/lan"
	"tickshot/net/master"
	"tickshot/net/proto"
	"tickshot/server"
)

// cmdMenu opens the window on the main menu (client/menu): `tickshot`
// without arguments. Games started from it run their local server in this
// process and stop it when the player goes back to the menu.
func cmdMenu(args []string, _, stderr io.Writer) int {
	fs := newFlags("menu", "Usage: tickshot menu [flags]\n\nOpens the main menu (what `tickshot` without arguments does): type a name, then\nplay against bots, host a game others on your network can join, join one from\nthe list of servers on your network, the internet list of a master server\n(cl_master), or by address, or change the settings.\nThe name, settings and key bindings are kept in config.cfg in the user config\ndirectory (tickshot/), the servers joined in recent.txt beside it.", stderr)
	hostAddr := fs.String("addr", server.DefaultAddr, "listen address of a game hosted from the menu (Host a game), HOST:PORT")
	upnp := upnpFlag(fs, true, "for a game hosted from the menu, asked when the Host a game page opens (the page shows the invite link, with a Copy button); --upnp=false leaves the router alone") // main_portmap.go
	cf := addClientFlags(fs)
	if code, done := parse(fs, args); done {
		return code
	}
	if refused(stderr, "menu", noArgs(fs), checkListenAddr("addr", *hostAddr), cf.check()) {
		return 2
	}
	opts := cf.options("", "Tickshot")
	opts.Quit = interrupted()
	defer useMenu(&opts, cf, *hostAddr, *upnp, "menu", stderr)()
	if err := client.Run(opts); err != nil {
		fmt.Fprintf(stderr, "%s: %s\n", prog, explain(err, opts.Addr))
		return 1
	}
	return 0
}

// useMenu makes the main menu opts' first scene and the one a player who
// leaves a game returns to (client.UseMenu), with the games it starts:
// against bots on loopback, or hosted on hostAddr, whose ports the router
// is asked to forward when upnp is set (menuReach). cmd names the command
// in a warning about config.cfg. The function returned deletes the port
// mappings: call it when the program ends.
func useMenu(opts *client.Options, cf clientFlags, hostAddr string, upnp bool, cmd string, stderr io.Writer) (release func()) {
	dir, err := config.Dir()
	if err != nil {
		dir = "" // nothing is kept
	} else if _, err := config.Load(dir); err != nil {
		fmt.Fprintf(stderr, "%s %s: %v (the rest of the file is used)\n", prog, cmd, err)
	}
	settings, name := cf.settings, *cf.name // the name: --name, config.cfg's, or $USER
	logger := slog.New(slog.NewTextHandler(stderr, &slog.HandlerOptions{Level: slog.LevelWarn}))
	opts.Config.Name = name
	reach := newMenuReach(hostAddr, upnp && beyondLoopback(hostAddr), logger) // main_menu_reach.go
	client.UseMenu(opts, client.MenuOptions{
		Reach: reach.get(), Copy: copyText,
		Dir: dir, Settings: settings, DefaultName: name,
		Servers: lanServers(), Internet: internetServers, Status: serverStatus, CanSpectate: true,
		Maps: hostMaps(), MaxPlayersLimit: server.MaxPlayersLimit,
		MinTickRate: server.MinTickRate, MaxTickRate: server.MaxTickRate,
		PlayBots: func(player string) (client.LocalServer, error) {
			// Today's `tickshot play`: three bots, loopback only, and the
			// first game easier.
			marker := firstGameMarker()
			cfg := server.Config{Addr: "127.0.0.1:0", TickRate: server.DefaultTickRate, Bots: 3, Logger: logger,
				Cvars: append(localGameCvars(), firstGameCvars(nil, marker)...), LAN: true, Hostname: player + "'s game"}
			return startLocal(cfg, marker)
		},
		Host: func(o menu.HostOptions) (client.LocalServer, error) {
			cfg := server.Config{Addr: hostAddr, TickRate: o.TickRate, MaxPlayers: o.MaxPlayers, Bots: o.Bots,
				Map: o.Map, Logger: logger, Hostname: o.Hostname, LAN: true, Password: o.Password}
			return startLocal(cfg, "")
		},
	})
	return reach.release
}

// lanServers returns the menu's LAN list: a net/lan browser, started
// the first time the Join page asks and kept until the program ends.
func lanServers() func() []menu.Server {
	var b *lan.Browser
	var failed error
	return func() []menu.Server {
		if b == nil && failed == nil {
			b, failed = lan.NewBrowser()
		}
		if b == nil {
			return nil
		}
		var out []menu.Server
		for _, s := range b.Servers() {
			out = append(out, menuServer(s))
		}
		return out
	}
}

// menuServer is a server of net/lan's as the menu's lists show it.
func menuServer(s lan.Server) menu.Server {
	return menu.Server{Addr: s.Addr, Name: s.Name, Map: s.Map, Players: s.Players, Bots: s.Bots,
		Spectators: s.Spectators, MaxPlayers: s.MaxPlayers, Password: s.Password, Ping: s.Ping}
}

// internetServers is the menu's internet list: the servers of the master
// at masterURL (master.Fetch), those of another protocol version left
// out (they cannot be joined).
func internetServers(ctx context.Context, masterURL string) ([]menu.Server, error) {
	entries, err := master.Fetch(ctx, nil, masterURL)
	if err != nil {
		return nil, err
	}
	var out []menu.Server
	for _, e := range entries {
		if e.Protocol != 0 && e.Protocol != proto.ProtocolVersion {
			continue
		}
		out = append(out, menu.Server{Addr: e.Addr, Name: e.Name, Map: e.Map, Players: e.Players, Bots: e.Bots,
			MaxPlayers: e.MaxPlayers, Password: e.Password})
	}
	return out, nil
}

// serverStatus reads the server at addr for the menu's internet list:
// its /status now and the round trip (lan.GetStatus, the reader of the
// LAN list and the master's check).
func serverStatus(ctx context.Context, addr string) (menu.Server, error) {
	s, err := lan.GetStatus(ctx, http.DefaultClient, addr)
	if err != nil {
		return menu.Server{}, err
	}
	return menuServer(s), nil
}

// localServer is a server started from the menu, in this process.
type localServer struct {
	*server.Server
	cancel context.CancelFunc
	done   chan error
	marker string // the first-game marker to write when it stops ("": none)
}

// startLocal starts a server with cfg and runs it until Stop.
func startLocal(cfg server.Config, marker string) (*localServer, error) {
	srv, err := server.New(cfg)
	if err != nil {
		return nil, err
	}
	if err := srv.Listen(); err != nil {
		return nil, err
	}
	ctx, cancel := context.WithCancel(context.Background())
	l := &localServer{Server: srv, cancel: cancel, done: make(chan error, 1), marker: marker}
	go func() { l.done <- srv.Run(ctx) }()
	return l, nil
}

// Stop shuts the server down (its players are told) and waits for it.
func (l *localServer) Stop() {
	l.cancel()
	if err := <-l.done; err != nil {
		fmt.Fprintln(os.Stderr, prog+": local server:", err)
	}
	markPlayed(l.marker)
}

// hostMaps is the host page's map list: the playable maps in the default
// cycle's order (game.DefaultMapCycle, arena first), then the tool maps
// (range, lab).
func hostMaps() []string {
	maps := game.DefaultMapCycle()
	for _, name := range game.MapNames() {
		if !slices.Contains(maps, name) {
			maps = append(maps, name)
		}
	}
	return maps
}
