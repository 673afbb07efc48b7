//go:build !headless

// Package menu is Tickshot's main menu: player name, play against bots,
// host a game, join one (the LAN server list, an address, recent
// servers), settings and quit, drawn with ebitenui in the game's fonts and
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
	"fmt"
	"strings"
	"time"
	"unicode"

	"github.com/ebitenui/ebitenui"
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
	// Maps are the maps a hosted game may use; the first is the default.
	Maps []string
	// MaxPlayersLimit, MinTickRate, MaxTickRate bound the host settings.
	MaxPlayersLimit, MinTickRate, MaxTickRate int
	// CanSpectate offers joining as a spectator.
	CanSpectate bool
	// HostPassword offers a join password on the host page (the server
	// must support one).
	HostPassword bool

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
)

// Menu is the main menu: call Update and Draw from the window's.
type Menu struct {
	opt   Options
	cfg   *config.Config
	ui    *ebitenui.UI
	f     faces
	scr   screen
	roots map[screen]*widget.Container

	main     mainScreen
	host     hostScreen
	join     joinScreen
	settings settingsScreen
	pass     passwordScreen

	// message is shown under the title (an error of the last game, a
	// refused setting); empty when none.
	message *widget.Text
	// capture is the binding waiting for a key ("" when none).
	capture string
	now     func() time.Time
}

// New builds the menu.
func New(opt Options) *Menu {
	m := &Menu{opt: opt, cfg: opt.Config, f: newFaces(), roots: map[screen]*widget.Container{}, now: time.Now}
	if m.cfg == nil {
		m.cfg = config.New()
	}
	if m.cfg.Name == "" {
		m.cfg.Name = ValidName(opt.DefaultName)
	}
	if len(m.opt.Maps) == 0 {
		m.opt.Maps = []string{""}
	}
	m.ui = &ebitenui.UI{PrimaryTheme: newTheme(&m.f)}
	m.message = widget.NewText(widget.TextOpts.Text("", &m.f.normal, palette.Warn))
	m.roots[scrMain] = m.buildMain()
	m.roots[scrHost] = m.buildHost()
	m.roots[scrJoin] = m.buildJoin()
	m.roots[scrSettings] = m.buildSettings()
	m.roots[scrPassword] = m.buildPassword()
	for _, r := range m.roots {
		// Widgets take their looks from the theme when validated; done
		// now, their text can be set before the first frame.
		r.GetWidget().SetTheme(m.ui.PrimaryTheme)
		r.Validate()
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
func (m *Menu) Name() string { return m.cfg.Name }

// Config is the menu's config (what config.cfg holds).
func (m *Menu) Config() *config.Config { return m.cfg }

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

// show switches to a page and puts the keyboard on its first widget.
func (m *Menu) show(s screen) {
	m.scr = s
	m.capture = ""
	old := m.ui.Container
	m.ui.Container = m.roots[s]
	if old != nil && old != m.ui.Container {
		m.ui.ClearFocus()
	}
	switch s {
	case scrMain:
		m.main.name.SetText(m.cfg.Name)
		m.ui.SetFocusedWidget(m.main.first)
	case scrHost:
		m.ui.SetFocusedWidget(m.host.start)
	case scrJoin:
		m.refreshServers(true)
		m.refreshRecent()
		m.ui.SetFocusedWidget(m.join.addr)
		m.join.addr.SelectAll() // typing replaces the last address

	case scrSettings:
		m.loadSettings()
		m.ui.SetFocusedWidget(m.settings.first)
	case scrPassword:
		m.pass.input.SetText("")
		m.ui.SetFocusedWidget(m.pass.input)
	}
}

// Screen names the page shown: "main", "host", "join", "settings" or
// "password".
func (m *Menu) Screen() string {
	return [...]string{"main", "host", "join", "settings", "password"}[m.scr]
}

// Update runs the menu for one frame: ebitenui's input, then the keys the
// menu adds (arrows move the focus, Esc goes back, a key being bound).
func (m *Menu) Update() {
	if m.capture != "" {
		m.captureKey()
		return
	}
	if m.scr == scrJoin {
		m.refreshServers(false)
	}
	m.ui.Update()
	if m.scr == scrJoin {
		m.keepFocusedRowVisible()
	}
	switch {
	case inpututil.IsKeyJustPressed(ebiten.KeyEscape):
		switch m.scr {
		case scrPassword:
			m.show(scrJoin)
		case scrMain:
		default:
			m.show(scrMain)
		}
	case inpututil.IsKeyJustPressed(ebiten.KeyArrowDown):
		if !m.arrowsOwned() {
			m.ui.ChangeFocus(widget.FOCUS_NEXT)
		}
	case inpututil.IsKeyJustPressed(ebiten.KeyArrowUp):
		if !m.arrowsOwned() {
			m.ui.ChangeFocus(widget.FOCUS_PREVIOUS)
		}
	}
}

// arrowsOwned reports whether the focused widget uses the up and down
// arrows itself (a slider moves with them).
func (m *Menu) arrowsOwned() bool {
	_, ok := m.ui.GetFocusedWidget().(*widget.Slider)
	return ok
}

// Draw draws the menu over the whole screen.
func (m *Menu) Draw(screen *ebiten.Image) {
	screen.Fill(palette.BG)
	m.ui.Draw(screen)
}

// save writes config.cfg (when there is a directory); a failure shows.
func (m *Menu) save() {
	if m.opt.Dir == "" {
		return
	}
	if err := m.cfg.Save(m.opt.Dir); err != nil {
		m.message.Label = "Settings not saved: " + err.Error()
	}
}

// setName takes the name field's text.
func (m *Menu) setName(s string) {
	if n := ValidName(s); n != m.cfg.Name {
		m.cfg.Name = n
		m.save()
	}
}

// PlayBots starts a game against bots, as the button does.
func (m *Menu) PlayBots() {
	m.setName(m.main.name.GetText())
	if m.opt.PlayBots != nil {
		m.opt.PlayBots(m.cfg.Name)
	}
}

// Quit closes the game, as the button does.
func (m *Menu) Quit() {
	m.setName(m.main.name.GetText())
	if m.opt.Quit != nil {
		m.opt.Quit()
	}
}

// JoinAddr joins a server by address (adding it to the recent servers),
// asking for a password first when the LAN list says it needs one.
func (m *Menu) JoinAddr(addr string) {
	addr = strings.TrimSpace(addr)
	if addr == "" {
		m.join.status.Label = "Type an address (HOST or HOST:PORT), or pick a server from the list."
		return
	}
	for _, s := range m.lastServers() {
		if s.Addr == addr && s.Password {
			m.pass.addr, m.pass.server = addr, s.Name
			m.pass.title.Label = fmt.Sprintf("%s wants a password", s.Name)
			m.show(scrPassword)
			return
		}
	}
	m.joinWith(addr, "")
}

func (m *Menu) joinWith(addr, password string) {
	if m.opt.Dir != "" {
		if list, err := config.AddRecent(m.opt.Dir, addr); err == nil {
			m.join.recent = list
		}
	}
	if m.opt.Join != nil {
		m.opt.Join(JoinOptions{Player: m.cfg.Name, Addr: addr, Password: password, Spectate: m.join.spectate})
	}
}

// Host starts a listen server with the host page's settings.
func (m *Menu) Host() {
	h := &m.host
	o := HostOptions{Player: m.cfg.Name, Hostname: strings.TrimSpace(config.Clean(h.hostname.GetText())),
		Map: m.opt.Maps[h.mapIdx], Bots: h.bots, MaxPlayers: h.maxPlayers, TickRate: h.tickRate}
	if h.password != nil {
		o.Password = h.password.GetText()
	}
	if o.Hostname == "" {
		o.Hostname = m.cfg.Name + "'s game"
	}
	if len(o.Hostname) > 64 {
		o.Hostname = o.Hostname[:64]
	}
	if m.opt.Host != nil {
		m.opt.Host(o)
	}
}
