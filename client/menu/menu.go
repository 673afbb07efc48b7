//go:build !headless

// Package menu is Tickshot's main menu: player name, play against bots,
// host a game, join one (the LAN server list, an address, recent
// servers; the internet list of the master servers in cl_master, with
// favourites), settings and quit, drawn with ebitenui in the game's fonts and
// colours. It knows nothing of servers or connections: it calls the
// window back (Options.PlayBots, Host, Join, Quit) and changes settings
// through the console (Options.Console), as a player typing would, so the
// menu and the console never disagree. The name, settings and key
// bindings persist in config.cfg and the servers joined in recent.txt, in
// the user config directory (package config).
//
// Keyboard and mouse both work: Tab/Shift+Tab and the arrow keys move the
// focus, Enter or Space presses, Esc goes back; clicks do the same.
package menu

import (
	"context"
	"strings"
	"time"
	"unicode"

	"github.com/ebitenui/ebitenui/widget"
	"github.com/hajimehoshi/ebiten/v2"
	"github.com/hajimehoshi/ebiten/v2/inpututil"

	"tickshot/client/config"
	"tickshot/client/palette"
	"tickshot/net/proto"
)

// Server is one server of the LAN list: what package net/lan's
// lan.Server says of it (from the server's /status).
type Server struct {
	Addr, Name, Map                       string
	Players, Bots, Spectators, MaxPlayers int
	Password                              bool
	Ping                                  time.Duration
}

// Console runs console lines in the game: the menu's settings are the
// console's cvars and bind command.
type Console interface {
	// Exec runs one console line and returns what it prints; output
	// starting with "error" or "unknown" is a refusal.
	Exec(line string) string
	// Cvar returns a console variable's value ("" when unknown).
	Cvar(name string) string
}

// HostOptions are the settings of a listen server started from the menu.
type HostOptions struct {
	// Player is the host's player name.
	Player string
	// Hostname is the server's name in server lists (Source's hostname).
	Hostname string
	// Map, Bots, MaxPlayers and TickRate (sv_tickrate) configure the server.
	Map                        string
	Bots, MaxPlayers, TickRate int
	// Password, when set, is asked of players who join.
	Password string
}

// JoinOptions say which server to join and how.
type JoinOptions struct {
	// Player is the player name.
	Player string
	// Addr is HOST[:PORT] or a ws:// URL.
	Addr string
	// Password is the server's join password ("" when it has none).
	Password string
	// Spectate joins as a spectator.
	Spectate bool
}

// Options configure a Menu.
type Options struct {
	// Dir is where config.cfg and recent.txt are kept ("" keeps nothing).
	Dir string
	// Config is the loaded config.cfg (nil: a new one).
	Config *config.Config
	// DefaultName is the name to offer when the config has none.
	DefaultName string
	// Console applies the settings (nil: settings only saved).
	Console Console
	// Servers returns the LAN server list now (nil: no LAN list).
	Servers func() []Server
	// Internet fetches the server list of the master server at the URL
	// given (one of cl_master's; package net/master's Fetch); nil: no
	// internet list. The menu calls it on a goroutine of its own, with a
	// deadline (fetchTimeout), never in a frame; the Servers' Ping is
	// unused (Status measures it).
	Internet func(ctx context.Context, masterURL string) ([]Server, error)
	// Status reads the server at addr (HOST:PORT) for the internet list:
	// what its /status says now, and the request's round trip in Ping
	// (net/lan's GetStatus); nil: no pings. Called on goroutines of the
	// menu's, pingWorkers at a time, each with a deadline (pingTimeout).
	Status func(ctx context.Context, addr string) (Server, error)
	// Maps are the maps a hosted game may use; the first is the default.
	Maps []string
	// MaxPlayersLimit, MinTickRate, MaxTickRate bound the host settings.
	MaxPlayersLimit, MinTickRate, MaxTickRate int
	// CanSpectate offers joining as a spectator.
	CanSpectate bool
	// HostPassword offers a join password on the host page (the server
	// must support one).
	HostPassword bool

	// Reach, when set, says whether friends on the internet can join a
	// hosted game: the port mapping's sentence and the invite link ("" when
	// none), shown on the host page (package net/portmap's Outcome).
	Reach func() (sentence, link string)
	// Copy puts text on the system clipboard (nil: no Copy button).
	Copy func(text string) error

	// PlayBots starts a local game against bots (tickshot play).
	PlayBots func(player string)
	// Host starts a listen server and joins it.
	Host func(HostOptions)
	// Join joins a server.
	Join func(JoinOptions)
	// Quit closes the game.
	Quit func()
}

// screen names the menu's pages.
type screen int

const (
	scrMain screen = iota
	scrHost
	scrJoin
	scrSettings
	scrPassword
	scrInternet
	scrCount
)

// A page is one screen of the menu; Menu shows one at a time.
type page interface {
	// enter readies the page as it is shown: its widgets take the
	// current values and the keyboard goes to its first widget.
	enter()
}

// Menu is the main menu: call Update and Draw from the window's. It
// switches between the pages and wires them to each other; each page
// owns its widgets and state, and prefs owns what persists.
type Menu struct {
	k     *kit
	prefs *prefs
	scr   screen
	roots [scrCount]*widget.Container
	pages [scrCount]page

	main     *mainScreen
	host     *hostScreen
	join     *joinScreen
	inet     *internetScreen
	settings *settingsScreen
	pass     *passwordScreen
	// passBack is the page the password page goes back to (the tab whose
	// server asked).
	passBack screen

	// message is shown under the title (an error of the last game, a
	// refused setting); empty when none.
	message *widget.Text
}

// New builds the menu.
func New(opt Options) *Menu {
	cfg := opt.Config
	if cfg == nil {
		cfg = config.New()
	}
	if cfg.Name == "" {
		cfg.Name = ValidName(opt.DefaultName)
	}
	if len(opt.Maps) == 0 {
		opt.Maps = []string{""}
	}
	m := &Menu{}
	m.k = newKit()
	m.message = widget.NewText(widget.TextOpts.Text("", &m.k.f.normal, palette.Warn))
	m.prefs = &prefs{dir: opt.Dir, cfg: cfg, console: opt.Console, warn: func(s string) { m.message.Label = s }}
	m.main, m.roots[scrMain] = newMainScreen(m.k, m.prefs, m.message, opt.PlayBots, opt.Quit, m.show)
	m.host, m.roots[scrHost] = newHostScreen(m.k, m.prefs, newHostChoice(opt), opt.HostPassword, opt.Host, m.show,
		newHostReach(m.k, opt.Reach, opt.Copy))
	m.join, m.roots[scrJoin] = newJoinScreen(m.k, m.prefs, opt.Servers, opt.CanSpectate, opt.Join,
		func(addr, server string) { m.askPassword(scrJoin, addr, server) }, m.show)
	m.inet, m.roots[scrInternet] = newInternetScreen(m.k, m.prefs, opt.Internet, opt.Status, opt.CanSpectate, &m.join.spectate,
		m.join.joinWith, func(addr, server string) { m.askPassword(scrInternet, addr, server) }, m.show)
	m.settings, m.roots[scrSettings] = newSettingsScreen(m.k, m.prefs, m.show)
	m.pass, m.roots[scrPassword] = newPasswordScreen(m.k, m.join.joinWith, func() { m.show(m.passBack) })
	m.pages = [scrCount]page{scrMain: m.main, scrHost: m.host, scrJoin: m.join, scrSettings: m.settings, scrPassword: m.pass,
		scrInternet: m.inet}
	for _, r := range m.roots {
		m.k.validate(r)
	}
	m.show(scrMain)
	return m
}

// ValidName makes s a name the server takes: printable, trimmed, at most
// proto.MaxNameLen bytes on a rune boundary; "player" when nothing is left.
func ValidName(s string) string {
	s = strings.TrimSpace(strings.Map(func(r rune) rune {
		if !unicode.IsPrint(r) || r == '"' {
			return -1
		}
		return r
	}, s))
	for len(s) > proto.MaxNameLen {
		_, size := lastRune(s)
		s = s[:len(s)-size]
	}
	if s == "" {
		return "player"
	}
	return s
}

func lastRune(s string) (rune, int) {
	for i := len(s) - 1; i >= 0; i-- {
		if s[i]&0xc0 != 0x80 {
			return []rune(s[i:])[0], len(s) - i
		}
	}
	return 0, 1
}

// Name is the player name in the name field.
func (m *Menu) Name() string { return m.prefs.cfg.Name }

// Config is the menu's config (what config.cfg holds).
func (m *Menu) Config() *config.Config { return m.prefs.cfg }

// SetMessage shows text under the title of the main page (why the last
// game ended, for instance) and goes back to it; "" clears it.
func (m *Menu) SetMessage(text string) {
	m.message.Label = text
	m.show(scrMain)
}

// ShowMain goes to the main page (a game started from the menu ended).
func (m *Menu) ShowMain() { m.show(scrMain) }

// Message is the text shown under the title.
func (m *Menu) Message() string { return m.message.Label }

// show switches to a page and lets it ready itself (the keyboard on its
// first widget); a key being bound is given up.
func (m *Menu) show(s screen) {
	if m.scr == scrInternet && s != scrInternet {
		m.inet.leave()
	}
	m.scr = s
	m.settings.cancelCapture()
	old := m.k.ui.Container
	m.k.ui.Container = m.roots[s]
	if old != nil && old != m.k.ui.Container {
		m.k.ui.ClearFocus()
	}
	m.pages[s].enter()
}

// askPassword goes to the password page for a server of a list that
// wants one; its Cancel goes back to the page from.
func (m *Menu) askPassword(from screen, addr, server string) {
	m.passBack = from
	m.pass.ask(addr, server)
	m.show(scrPassword)
}

// Screen names the page shown: "main", "host", "join" (its LAN tab),
// "internet" (its Internet tab), "settings" or "password".
func (m *Menu) Screen() string {
	return [scrCount]string{"main", "host", "join", "settings", "password", "internet"}[m.scr]
}

// Update runs the menu for one frame: ebitenui's input, then the keys the
// menu adds (arrows move the focus, Esc goes back, a key being bound).
func (m *Menu) Update() {
	if m.settings.capturing() {
		m.settings.captureKey()
		return
	}
	switch m.scr {
	case scrJoin:
		m.join.refreshServers(false)
	case scrInternet:
		m.inet.update()
	}
	if m.scr == scrHost && m.host.reach != nil {
		m.host.reach.refresh()
	}
	m.k.ui.Update()
	switch m.scr {
	case scrJoin:
		m.join.keepFocusedRowVisible()
	case scrInternet:
		m.inet.keepFocusedRowVisible()
	}
	switch {
	case inpututil.IsKeyJustPressed(ebiten.KeyEscape):
		switch m.scr {
		case scrPassword:
			m.show(m.passBack)
		case scrMain:
		default:
			m.show(scrMain)
		}
	case inpututil.IsKeyJustPressed(ebiten.KeyArrowDown):
		if !m.arrowsOwned() {
			m.k.ui.ChangeFocus(widget.FOCUS_NEXT)
		}
	case inpututil.IsKeyJustPressed(ebiten.KeyArrowUp):
		if !m.arrowsOwned() {
			m.k.ui.ChangeFocus(widget.FOCUS_PREVIOUS)
		}
	}
}

// arrowsOwned reports whether the focused widget uses the up and down
// arrows itself (a slider moves with them).
func (m *Menu) arrowsOwned() bool {
	_, ok := m.k.ui.GetFocusedWidget().(*widget.Slider)
	return ok
}

// Draw draws the menu over the whole screen.
func (m *Menu) Draw(screen *ebiten.Image) {
	screen.Fill(palette.BG)
	m.k.ui.Draw(screen)
}

// PlayBots starts a game against bots, as the button does.
func (m *Menu) PlayBots() { m.main.playBots() }

// Quit closes the game, as the button does.
func (m *Menu) Quit() { m.main.quit() }

// JoinAddr joins a server by address (adding it to the recent servers),
// asking for a password first when the LAN list says it needs one.
func (m *Menu) JoinAddr(addr string) { m.join.joinAddr(addr) }

// Host starts a listen server with the host page's settings.
func (m *Menu) Host() { m.host.start() }

// HostReach is the host page's line about friends on the internet and
// whether its Copy button works ("", false without Options.Reach).
func (m *Menu) HostReach() (string, bool) {
	if m.host.reach == nil {
		return "", false
	}
	return m.host.reach.text.Label, !m.host.reach.copyB.GetWidget().Disabled
}

// SetCvar sets a setting as the settings page does (tests and scripts).
func (m *Menu) SetCvar(name, value string) { m.settings.setCvar(name, value) }

// Rebind makes key the one key of command, through the console's
// unbind and bind commands, and saves it.
func (m *Menu) Rebind(command, key string) { m.settings.rebind(command, key) }

// DefaultKeys puts the default bindings back.
func (m *Menu) DefaultKeys() { m.settings.defaultKeys() }
