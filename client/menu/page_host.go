//go:build !headless

package menu

import (
	"fmt"
	"slices"
	"strings"

	"github.com/ebitenui/ebitenui/widget"

	"tickshot/client/config"
	"tickshot/client/palette"
	"tickshot/net/proto"
)

// The host page's steps: player slots and tick rates (ticks/s).
var (
	hostSizes     = []int{2, 4, 8, 12, 16, 24, 32, 48, 64, 128, 256, 512, 1024}
	hostTickRates = []int{20, 32, 64, 100, 128}
)

// hostChoice is what the host page's buttons choose (a map, bots, player
// slots, the tick rate), stepped within the program's limits. It has no
// widgets.
type hostChoice struct {
	maps                                      []string
	mapIdx, bots, maxPlayers, tickRate        int
	maxPlayersLimit, minTickRate, maxTickRate int // 0: no limit
}

// newHostChoice starts on the first map with 3 bots, 16 slots (or the
// limit) and 64 ticks/s.
func newHostChoice(opt Options) hostChoice {
	c := hostChoice{maps: opt.Maps, bots: 3, maxPlayers: 16, tickRate: 64,
		maxPlayersLimit: opt.MaxPlayersLimit, minTickRate: opt.MinTickRate, maxTickRate: opt.MaxTickRate}
	if c.maxPlayersLimit > 0 {
		c.maxPlayers = min(c.maxPlayers, c.maxPlayersLimit)
	}
	return c
}

func (c *hostChoice) nextMap() { c.mapIdx = (c.mapIdx + 1) % len(c.maps) }

// nextBots steps the bots from 0 to the slots, then back to 0: one at a
// time up to 8, then through the slot sizes (12, 16, ... 1024), so that a
// big server's bots are a few clicks away.
func (c *hostChoice) nextBots() {
	next := c.bots + 1
	if c.bots >= 8 {
		next = c.maxPlayers
		if i := slices.IndexFunc(hostSizes, func(v int) bool { return v > c.bots }); i >= 0 {
			next = min(hostSizes[i], c.maxPlayers)
		}
		if c.bots == c.maxPlayers {
			next = 0
		}
	}
	c.bots = next % (c.maxPlayers + 1)
}

// nextMaxPlayers steps the slots under the limit; the bots never
// outnumber them.
func (c *hostChoice) nextMaxPlayers() {
	c.maxPlayers = nextOf(hostSizes, c.maxPlayers, c.maxPlayersLimit)
	c.bots = min(c.bots, c.maxPlayers)
}

// nextTickRate steps the tick rate within the limits.
func (c *hostChoice) nextTickRate() {
	c.tickRate = max(nextOf(hostTickRates, c.tickRate, c.maxTickRate), c.minTickRate)
}

// options are the HostOptions of these choices for player, with the
// server name typed (cleaned, at most 64 bytes; "PLAYER's game" when
// empty) and the password.
func (c *hostChoice) options(player, hostname, password string) HostOptions {
	o := HostOptions{Player: player, Hostname: strings.TrimSpace(config.Clean(hostname)), Password: password,
		Map: c.maps[c.mapIdx], Bots: c.bots, MaxPlayers: c.maxPlayers, TickRate: c.tickRate}
	if o.Hostname == "" {
		o.Hostname = player + "'s game"
	}
	if len(o.Hostname) > 64 {
		o.Hostname = o.Hostname[:64]
	}
	return o
}

// nextOf returns the value after cur in values (wrapping, and skipping
// values above limit when limit > 0).
func nextOf(values []int, cur, limit int) int {
	i := slices.Index(values, cur)
	for n := 0; n < len(values); n++ {
		i = (i + 1) % len(values)
		if limit <= 0 || values[i] <= limit {
			return values[i]
		}
	}
	return cur
}

// hostScreen is the host page: the server's name, the hostChoice's
// buttons, a join password (when the server supports one) and Start.
type hostScreen struct {
	hostChoice
	k                  *kit
	prefs              *prefs
	hostname, password *widget.TextInput // password nil without Options.HostPassword
	startButton        *widget.Button
	onHost             func(HostOptions) // Options.Host (nil: none)
	reach              *hostReach        // nil without Options.Reach
}

// newHostScreen builds the host page; show switches pages; reach (nil:
// none) is the line about friends on the internet.
func newHostScreen(k *kit, p *prefs, c hostChoice, withPassword bool, host func(HostOptions),
	show func(screen), reach *hostReach) (*hostScreen, *widget.Container) {
	h := &hostScreen{hostChoice: c, k: k, prefs: p, onHost: host, reach: reach}
	root, col := k.page("Host a game", colWidth)
	col.AddChild(label("Server name", &k.f.small, palette.Dim))
	h.hostname = widget.NewTextInput(widget.TextInputOpts.WidgetOpts(stretch()), widget.TextInputOpts.Placeholder("NAME's game"),
		widget.TextInputOpts.Validation(func(s string) (bool, *string) { return len(s) <= 64, nil }))
	col.AddChild(h.hostname)
	mapB, _ := cycler(func() string { return "Map: " + h.maps[h.mapIdx] }, h.nextMap)
	botsB, botsR := cycler(func() string { return fmt.Sprintf("Bots: %d", h.bots) }, h.nextBots)
	maxB, _ := cycler(func() string { return fmt.Sprintf("Max players: %d", h.maxPlayers) },
		func() { h.nextMaxPlayers(); botsR() })
	tickB, _ := cycler(func() string { return fmt.Sprintf("Tick rate: %d/s", h.tickRate) }, h.nextTickRate)
	col.AddChild(mapB, botsB, maxB, tickB)
	if withPassword {
		col.AddChild(label("Password (empty: anyone may join)", &k.f.small, palette.Dim))
		h.password = widget.NewTextInput(widget.TextInputOpts.WidgetOpts(stretch()), widget.TextInputOpts.Secure(true),
			widget.TextInputOpts.Validation(func(s string) (bool, *string) { return len(s) <= proto.MaxPasswordLen, nil }))
		col.AddChild(h.password)
	}
	col.AddChild(label("Others on your network see it under Join a game.", &k.f.small, palette.Dim))
	if reach != nil {
		col.AddChild(reach.widgets()...)
	}
	h.startButton = button("Start", h.start)
	col.AddChild(row(button("Back", func() { show(scrMain) }), h.startButton))
	return h, root
}

// enter puts the keyboard on Start.
func (h *hostScreen) enter() { h.k.ui.SetFocusedWidget(h.startButton) }

// start starts a listen server with the page's settings.
func (h *hostScreen) start() {
	password := ""
	if h.password != nil {
		password = h.password.GetText()
	}
	if h.onHost != nil {
		h.onHost(h.options(h.prefs.cfg.Name, h.hostname.GetText(), password))
	}
}
