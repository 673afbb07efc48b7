//go:build !headless && !js

package client

import (
	"context"

	"github.com/hajimehoshi/ebiten/v2"

	"tickshot/client/config"
	"tickshot/client/menu"
)

// LocalServer is a server the window started from the menu (a game
// against bots, a hosted game): the player joins it, its host console
// runs server commands, and it stops when the player goes back to the menu.
type LocalServer interface {
	// Addr is where it listens, host:port.
	Addr() string
	// Exec runs a server console line (the host's console, rcon-free).
	Exec(line string) string
	// Stop shuts it down, telling its players why.
	Stop()
}

// MenuOptions are what the main menu needs from the program: where its
// files are, the LAN and internet lists, and how to start local servers (package
// client cannot import the server; main wires it).
type MenuOptions struct {
	// Dir is the config directory (config.Dir; "" keeps nothing).
	Dir string
	// Settings is config.cfg as loaded.
	Settings *config.Config
	// DefaultName is the name offered when config.cfg has none.
	DefaultName string
	// Servers returns the LAN server list (nil: none).
	Servers func() []menu.Server
	// Internet fetches a master server's list and Status reads a
	// server's /status and round trip (menu.Options.Internet and Status;
	// nil: none).
	Internet func(ctx context.Context, masterURL string) ([]menu.Server, error)
	Status   func(ctx context.Context, addr string) (menu.Server, error)
	// Maps, MaxPlayersLimit, MinTickRate and MaxTickRate bound what the
	// host page offers.
	Maps                                      []string
	MaxPlayersLimit, MinTickRate, MaxTickRate int
	// CanSpectate offers joining as a spectator.
	CanSpectate bool
	// PlayBots starts a local server with bots for player.
	PlayBots func(player string) (LocalServer, error)
	// Host starts a listen server others can join.
	Host func(o menu.HostOptions) (LocalServer, error)
	// Reach and Copy are the host page's line about friends on the
	// internet and its clipboard (menu.Options.Reach, Copy; nil: none).
	Reach func() (sentence, link string)
	Copy  func(text string) error
}

// UseMenu makes the main menu the window's first scene and the scene a
// player who leaves a game returns to (Options.Start and Options.Home);
// leaving a game started from the menu stops its local server.
func UseMenu(opt *Options, mo MenuOptions) {
	var s *menuScene
	get := func(ctx *SceneContext) Scene {
		if s == nil {
			s = newMenuScene(ctx, mo)
		}
		s.stopLocal(ctx)
		return s
	}
	opt.Start, opt.Home = get, get
	if opt.Settings == nil {
		opt.Settings = mo.Settings
	}
}

// menuScene is the main menu (package menu) as a scene of the window.
type menuScene struct {
	m     *menu.Menu
	mo    MenuOptions
	ctx   *SceneContext
	local LocalServer
}

func newMenuScene(ctx *SceneContext, mo MenuOptions) *menuScene {
	s := &menuScene{mo: mo, ctx: ctx}
	g := ctx.Game
	s.m = menu.New(menu.Options{
		Dir: mo.Dir, Config: mo.Settings, DefaultName: mo.DefaultName, Console: menuConsole{g},
		Servers: mo.Servers, Internet: mo.Internet, Status: mo.Status, Maps: mo.Maps, MaxPlayersLimit: mo.MaxPlayersLimit,
		MinTickRate: mo.MinTickRate, MaxTickRate: mo.MaxTickRate, CanSpectate: mo.CanSpectate,
		HostPassword: true, Reach: mo.Reach, Copy: mo.Copy,
		PlayBots: func(name string) {
			s.startLocal(name, "", func() (LocalServer, error) { return mo.PlayBots(name) })
		},
		Host: func(o menu.HostOptions) {
			s.startLocal(o.Player, o.Password, func() (LocalServer, error) { return mo.Host(o) })
		},
		Join: func(o menu.JoinOptions) {
			g.opt.Config.Name, g.opt.Config.Spectate = o.Player, o.Spectate
			_ = g.cv.password.Set(o.Password) // the password cvar, as `password X; connect ADDR`
			s.ctx.Connect(o.Addr)
		},
		Quit: func() { s.ctx.Quit() },
	})
	return s
}

// startLocal starts a local server and joins it; a failure shows on the menu.
func (s *menuScene) startLocal(name, password string, start func() (LocalServer, error)) {
	g := s.ctx.Game
	if start == nil {
		return
	}
	srv, err := start()
	if err != nil {
		s.m.SetMessage("Could not start the server: " + err.Error())
		return
	}
	s.local = srv
	g.opt.Host = srv
	g.opt.Config.Name, g.opt.Config.Spectate = name, false
	_ = g.cv.password.Set(password)
	s.ctx.Connect(srv.Addr())
}

// stopLocal stops the server of the last game, if the menu started one.
func (s *menuScene) stopLocal(ctx *SceneContext) {
	if s.local == nil {
		return
	}
	ctx.Game.disconnect("left the game")
	s.local.Stop()
	s.local = nil
	ctx.Game.opt.Host = nil
}

// OnEnter shows the main page; a server the last game ran is stopped.
func (s *menuScene) OnEnter(ctx *SceneContext) {
	s.ctx = ctx
	s.stopLocal(ctx)
	s.m.ShowMain()
}

// Update implements Scene: the console (backquote) has the keyboard while
// open; otherwise the menu runs.
func (s *menuScene) Update(ctx *SceneContext) error {
	s.ctx = ctx
	if ctx.Game.con.update(float64(ctx.Height())) {
		return nil
	}
	s.m.Update()
	return nil
}

// Draw implements Scene.
func (s *menuScene) Draw(screen *ebiten.Image) {
	batch.use(screen)
	batch.flush()
	s.m.Draw(screen)
}

// report fills the phase.
func (s *menuScene) report(r *Report) { r.Phase, r.Menu = "menu", s.m.Screen() }

// menuConsole lets the menu set cvars and binds as the console does.
type menuConsole struct{ g *Game }

func (c menuConsole) Exec(line string) string { return c.g.exec(line) }

func (c menuConsole) Cvar(name string) string {
	if v := c.g.cvars.Lookup(name); v != nil {
		return v.String()
	}
	return ""
}
