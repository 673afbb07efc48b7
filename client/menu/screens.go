//go:build !headless

package menu

import (
	"fmt"
	"image/color"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/ebitenui/ebitenui/image"
	"github.com/ebitenui/ebitenui/widget"
	"github.com/hajimehoshi/ebiten/v2"
	"github.com/hajimehoshi/ebiten/v2/inpututil"
	"github.com/hajimehoshi/ebiten/v2/text/v2"

	"tickshot/client/config"
	"tickshot/client/keys"
	"tickshot/client/palette"
	"tickshot/net/proto"
)

// Column widths of the pages, pixels.
const (
	colWidth  = 380
	wideWidth = 760
)

type mainScreen struct {
	name  *widget.TextInput
	first widget.Focuser
	play  *widget.Button
}

type hostScreen struct {
	hostname, password         *widget.TextInput
	mapIdx                     int
	bots, maxPlayers, tickRate int
	start                      *widget.Button
}

type joinScreen struct {
	addr     *widget.TextInput
	list     *widget.Container
	scroll   *widget.ScrollContainer
	rows     map[string]*widget.Button
	servers  []Server
	shown    string // the list as shown, to rebuild only on a change
	polled   time.Time
	selected string
	clickAt  time.Time
	recent   []string
	recentC  *widget.Container
	status   *widget.Text
	spectate bool
	lock     *ebiten.Image
	blank    *ebiten.Image
}

type settingsScreen struct {
	first   widget.Focuser
	sens    *widget.Slider
	vol     *widget.Slider
	full    *widget.Checkbox
	refresh []func()
	binds   map[string]*widget.Button
	status  *widget.Text
}

type passwordScreen struct {
	title        *widget.Text
	input        *widget.TextInput
	addr, server string
}

// page is a screen: the title, a heading, the message line, then the
// page's widgets in a centred column width pixels wide.
func (m *Menu) page(heading string, width int) (*widget.Container, *widget.Container) {
	root := widget.NewContainer(
		widget.ContainerOpts.BackgroundImage(image.NewNineSliceColor(palette.BG)),
		widget.ContainerOpts.Layout(widget.NewAnchorLayout()))
	col := widget.NewContainer(
		widget.ContainerOpts.WidgetOpts(widget.WidgetOpts.LayoutData(widget.AnchorLayoutData{
			HorizontalPosition: widget.AnchorLayoutPositionCenter, VerticalPosition: widget.AnchorLayoutPositionCenter}),
			widget.WidgetOpts.MinSize(width, 0)),
		widget.ContainerOpts.Layout(widget.NewRowLayout(widget.RowLayoutOpts.Direction(widget.DirectionVertical),
			widget.RowLayoutOpts.Spacing(10))))
	root.AddChild(col)
	col.AddChild(widget.NewText(widget.TextOpts.Text("TICKSHOT", &m.f.title, palette.Me),
		widget.TextOpts.Position(widget.TextPositionCenter, widget.TextPositionCenter),
		widget.TextOpts.WidgetOpts(widget.WidgetOpts.LayoutData(widget.RowLayoutData{Stretch: true}))))
	if heading != "" {
		col.AddChild(widget.NewText(widget.TextOpts.Text(heading, &m.f.heading, palette.Text),
			widget.TextOpts.Position(widget.TextPositionCenter, widget.TextPositionCenter),
			widget.TextOpts.WidgetOpts(widget.WidgetOpts.LayoutData(widget.RowLayoutData{Stretch: true}))))
	}
	return root, col
}

func stretch() widget.WidgetOpt {
	return widget.WidgetOpts.LayoutData(widget.RowLayoutData{Stretch: true})
}

func (m *Menu) button(label string, onClick func()) *widget.Button {
	return widget.NewButton(widget.ButtonOpts.TextLabel(label), widget.ButtonOpts.WidgetOpts(stretch()),
		widget.ButtonOpts.ClickedHandler(func(*widget.ButtonClickedEventArgs) { onClick() }))
}

func (m *Menu) label(s string, face *text.Face, clr color.Color) *widget.Text {
	return widget.NewText(widget.TextOpts.Text(s, face, clr), widget.TextOpts.WidgetOpts(stretch()))
}

// cycler is a button that shows "what: value" and steps through values
// on a click, Enter or Space.
func (m *Menu) cycler(value func() string, next func()) (*widget.Button, func()) {
	var b *widget.Button
	b = m.button(value(), func() {
		next()
		b.Text().Label = value()
	})
	return b, func() { b.Text().Label = value() }
}

// row lays widgets out side by side.
func row(children ...widget.PreferredSizeLocateableWidget) *widget.Container {
	c := widget.NewContainer(widget.ContainerOpts.WidgetOpts(stretch()),
		widget.ContainerOpts.Layout(widget.NewGridLayout(widget.GridLayoutOpts.Columns(len(children)),
			widget.GridLayoutOpts.Spacing(10, 0), widget.GridLayoutOpts.DefaultStretch(true, false))))
	c.AddChild(children...)
	return c
}

func (m *Menu) buildMain() *widget.Container {
	root, col := m.page("", colWidth)
	col.AddChild(widget.NewText(widget.TextOpts.Text("Top-down shooter with Source-style netcode", &m.f.small, palette.Dim),
		widget.TextOpts.Position(widget.TextPositionCenter, widget.TextPositionCenter), widget.TextOpts.WidgetOpts(stretch())))
	col.AddChild(m.message)
	col.AddChild(m.label("Player name", &m.f.small, palette.Dim))
	m.main.name = widget.NewTextInput(widget.TextInputOpts.WidgetOpts(stretch()),
		widget.TextInputOpts.Placeholder("your name"),
		widget.TextInputOpts.Validation(func(s string) (bool, *string) { return len(s) <= proto.MaxNameLen, nil }),
		widget.TextInputOpts.SubmitHandler(func(a *widget.TextInputChangedEventArgs) {
			m.setName(a.InputText)
			m.ui.SetFocusedWidget(m.main.play)
		}))
	col.AddChild(m.main.name)
	m.main.first = m.main.name
	m.main.play = m.button("Play against bots", m.PlayBots)
	col.AddChild(m.main.play,
		m.button("Host a game", func() { m.setName(m.main.name.GetText()); m.show(scrHost) }),
		m.button("Join a game", func() { m.setName(m.main.name.GetText()); m.show(scrJoin) }),
		m.button("Settings", func() { m.setName(m.main.name.GetText()); m.show(scrSettings) }),
		m.button("Quit", m.Quit))
	col.AddChild(widget.NewText(widget.TextOpts.Text("Tab / arrows move, Enter picks, Esc goes back", &m.f.small, palette.Dim),
		widget.TextOpts.Position(widget.TextPositionCenter, widget.TextPositionCenter), widget.TextOpts.WidgetOpts(stretch())))
	return root
}

func (m *Menu) buildHost() *widget.Container {
	root, col := m.page("Host a game", colWidth)
	h := &m.host
	h.bots, h.maxPlayers, h.tickRate = 3, 16, 64
	if m.opt.MaxPlayersLimit > 0 {
		h.maxPlayers = min(h.maxPlayers, m.opt.MaxPlayersLimit)
	}
	col.AddChild(m.label("Server name", &m.f.small, palette.Dim))
	h.hostname = widget.NewTextInput(widget.TextInputOpts.WidgetOpts(stretch()), widget.TextInputOpts.Placeholder("NAME's game"),
		widget.TextInputOpts.Validation(func(s string) (bool, *string) { return len(s) <= 64, nil }))
	col.AddChild(h.hostname)
	mapB, _ := m.cycler(func() string { return "Map: " + m.opt.Maps[h.mapIdx] },
		func() { h.mapIdx = (h.mapIdx + 1) % len(m.opt.Maps) })
	botsB, _ := m.cycler(func() string { return fmt.Sprintf("Bots: %d", h.bots) },
		func() { h.bots = (h.bots + 1) % (h.maxPlayers + 1) })
	sizes := []int{2, 4, 8, 12, 16, 24, 32, 48, 64}
	maxB, _ := m.cycler(func() string { return fmt.Sprintf("Max players: %d", h.maxPlayers) }, func() {
		h.maxPlayers = nextOf(sizes, h.maxPlayers, m.opt.MaxPlayersLimit)
		h.bots = min(h.bots, h.maxPlayers)
		botsB.Text().Label = fmt.Sprintf("Bots: %d", h.bots)
	})
	rates := []int{20, 32, 64, 100, 128}
	tickB, _ := m.cycler(func() string { return fmt.Sprintf("Tick rate: %d/s", h.tickRate) }, func() {
		h.tickRate = nextOf(rates, h.tickRate, m.opt.MaxTickRate)
		h.tickRate = max(h.tickRate, m.opt.MinTickRate)
	})
	col.AddChild(mapB, botsB, maxB, tickB)
	if m.opt.HostPassword {
		col.AddChild(m.label("Password (empty: anyone may join)", &m.f.small, palette.Dim))
		h.password = widget.NewTextInput(widget.TextInputOpts.WidgetOpts(stretch()), widget.TextInputOpts.Secure(true),
			widget.TextInputOpts.Validation(func(s string) (bool, *string) { return len(s) <= proto.MaxPasswordLen, nil }))
		col.AddChild(h.password)
	}
	col.AddChild(m.label("Others on your network see it under Join a game.", &m.f.small, palette.Dim))
	h.start = m.button("Start", m.Host)
	col.AddChild(row(m.button("Back", func() { m.show(scrMain) }), h.start))
	return root
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

func (m *Menu) buildJoin() *widget.Container {
	root, col := m.page("Join a game", wideWidth)
	j := &m.join
	j.lock, j.blank = lockImage(palette.Warn), ebiten.NewImage(18, 20)
	j.rows = map[string]*widget.Button{}
	col.AddChild(m.label(fmt.Sprintf("%-3s%-26s%-12s%9s%8s", "", "Server on your network", "Map", "Players", "Ping"), &m.f.mono, palette.Dim))
	// The rows scroll inside a box of fixed height (six rows), so that the
	// page does not move as servers come and go.
	j.list = widget.NewContainer(widget.ContainerOpts.WidgetOpts(widget.WidgetOpts.MinSize(0, listHeight)),
		widget.ContainerOpts.Layout(widget.NewRowLayout(widget.RowLayoutOpts.Direction(widget.DirectionVertical),
			widget.RowLayoutOpts.Padding(widget.NewInsetsSimple(4)), widget.RowLayoutOpts.Spacing(2))))
	// A scroll container does not pass the theme to its content: the rows
	// get it here, and are validated as they are added.
	j.list.GetWidget().SetTheme(m.ui.PrimaryTheme)
	j.list.Validate()
	box := image.NewBorderedNineSliceColor(palette.Outline, palette.Floor, 2)
	j.scroll = widget.NewScrollContainer(widget.ScrollContainerOpts.Content(j.list), widget.ScrollContainerOpts.StretchContentWidth(),
		widget.ScrollContainerOpts.Image(&widget.ScrollContainerImage{Idle: box, Disabled: box, Mask: box}),
		widget.ScrollContainerOpts.WidgetOpts(widget.WidgetOpts.LayoutData(widget.RowLayoutData{Stretch: true, MaxHeight: listHeight}),
			widget.WidgetOpts.ScrolledHandler(func(a *widget.WidgetScrolledEventArgs) { m.scrollList(-a.Y * 30) })))
	col.AddChild(j.scroll)
	j.status = m.label("", &m.f.small, palette.Dim)
	col.AddChild(j.status)
	j.addr = widget.NewTextInput(widget.TextInputOpts.WidgetOpts(stretch()), widget.TextInputOpts.Placeholder("address: HOST or HOST:PORT"),
		widget.TextInputOpts.SubmitHandler(func(a *widget.TextInputChangedEventArgs) { m.JoinAddr(a.InputText) }))
	joinB := m.button("Join address", func() { m.JoinAddr(j.addr.GetText()) })
	addrRow := widget.NewContainer(widget.ContainerOpts.WidgetOpts(stretch()),
		widget.ContainerOpts.Layout(widget.NewGridLayout(widget.GridLayoutOpts.Columns(2),
			widget.GridLayoutOpts.Spacing(10, 0), widget.GridLayoutOpts.Stretch([]bool{true, false}, nil))))
	addrRow.AddChild(j.addr, joinB)
	col.AddChild(addrRow)
	col.AddChild(m.label("Recent servers", &m.f.small, palette.Dim))
	j.recentC = widget.NewContainer(widget.ContainerOpts.WidgetOpts(stretch()),
		widget.ContainerOpts.Layout(widget.NewGridLayout(widget.GridLayoutOpts.Columns(4),
			widget.GridLayoutOpts.Spacing(8, 8), widget.GridLayoutOpts.DefaultStretch(true, false))))
	col.AddChild(j.recentC)
	back := m.button("Back", func() { m.show(scrMain) })
	if m.opt.CanSpectate {
		spec := widget.NewCheckbox(widget.CheckboxOpts.TextLabel("Join as a spectator"),
			widget.CheckboxOpts.StateChangedHandler(func(a *widget.CheckboxChangedEventArgs) { j.spectate = a.State == widget.WidgetChecked }))
		col.AddChild(row(back, spec))
	} else {
		col.AddChild(back)
	}
	return root
}

// listHeight is the server list's height in pixels: six rows.
const listHeight = 188

// scrollList scrolls the server list by dy pixels.
func (m *Menu) scrollList(dy float64) {
	s := m.join.scroll
	if over := s.ContentRect().Dy() - s.ViewRect().Dy(); over > 0 {
		s.ScrollTop = min(max(s.ScrollTop+dy/float64(over), 0), 1)
	}
}

// keepFocusedRowVisible scrolls the list to the row that has the keyboard.
func (m *Menu) keepFocusedRowVisible() {
	s := m.join.scroll
	view := s.ViewRect()
	for _, b := range m.join.rows {
		if !b.IsFocused() {
			continue
		}
		r := b.GetWidget().Rect
		switch {
		case r.Max.Y > view.Max.Y:
			m.scrollList(float64(r.Max.Y - view.Max.Y))
		case r.Min.Y < view.Min.Y:
			m.scrollList(float64(r.Min.Y - view.Min.Y))
		}
	}
}

// lastServers is the LAN list as last polled.
func (m *Menu) lastServers() []Server { return m.join.servers }

// refreshServers polls the LAN list (twice a second, or now when force)
// and rebuilds the rows when it changed, keeping the keyboard on the
// same server.
func (m *Menu) refreshServers(force bool) {
	j := &m.join
	now := m.now()
	if !force && now.Sub(j.polled) < 500*time.Millisecond {
		return
	}
	j.polled = now
	if m.opt.Servers == nil {
		j.status.Label = "No LAN server list in this build: type an address."
		return
	}
	list := m.opt.Servers()
	slices.SortStableFunc(list, func(a, b Server) int { return strings.Compare(a.Name+a.Addr, b.Name+b.Addr) })
	// The rows stay while the same servers are listed (a row rebuilt
	// between a press and its release would lose the click); their text
	// follows the players and ping.
	var key strings.Builder
	for _, s := range list {
		fmt.Fprintf(&key, "%s|%v\n", s.Addr, s.Password)
	}
	j.servers = list
	if key.String() == j.shown && !force {
		for _, s := range list {
			if b := j.rows[s.Addr]; b != nil && b.Text() != nil {
				b.Text().Label = rowText(s)
			}
		}
		return
	}
	j.shown = key.String()
	focused := ""
	for addr, b := range j.rows {
		if b.IsFocused() {
			focused = addr
		}
	}
	j.list.RemoveChildren()
	j.rows = map[string]*widget.Button{}
	for _, s := range list {
		s := s
		img := j.blank
		if s.Password {
			img = j.lock
		}
		b := widget.NewButton(widget.ButtonOpts.WidgetOpts(stretch()),
			widget.ButtonOpts.TextAndImage(rowText(s), &m.f.mono, &widget.GraphicImage{Idle: img, Disabled: img},
				&widget.ButtonTextColor{Idle: palette.Text, Hover: palette.Text, Pressed: palette.Outline}),
			widget.ButtonOpts.TextLabel(rowText(s)), // TextAndImage of v0.7.0 drops its label
			widget.ButtonOpts.TextPosition(widget.TextPositionStart, widget.TextPositionCenter),
			widget.ButtonOpts.TextPadding(&widget.Insets{Left: 8, Right: 8, Top: 4, Bottom: 4}),
			widget.ButtonOpts.ClickedHandler(func(a *widget.ButtonClickedEventArgs) { m.rowClicked(s.Addr, byKeyboard(a)) }))
		j.rows[s.Addr] = b
		j.list.AddChild(b)
		if s.Addr == focused {
			m.ui.SetFocusedWidget(b)
		}
	}
	switch {
	case len(list) == 0:
		j.status.Label = "Looking for servers on your network... (none yet)"
	case len(list) == 1:
		j.status.Label = "1 server found: double-click it, or Tab to it and press Enter."
	default:
		j.status.Label = fmt.Sprintf("%d servers found: double-click one, or Tab to it and press Enter.", len(list))
	}
}

// rowText is a server's row: name, map, players/max, ping.
func rowText(s Server) string {
	name := s.Name
	if r := []rune(name); len(r) > 25 {
		name = string(r[:24]) + "…"
	}
	players := fmt.Sprintf("%d/%d", s.Players, s.MaxPlayers)
	return fmt.Sprintf("%-26s%-12s%9s%6d ms", name, s.Map, players, s.Ping.Milliseconds())
}

// byKeyboard tells a click made with Enter or Space on a focused button
// from a mouse click: ebitenui reports the keyboard's at the button's far
// corner (its size as the offset), or at -1, never inside it.
func byKeyboard(a *widget.ButtonClickedEventArgs) bool {
	r := a.Button.GetWidget().Rect
	return a.OffsetX < 0 || a.OffsetY < 0 || a.OffsetX >= r.Dx() || a.OffsetY >= r.Dy()
}

// rowClicked joins on a double click (two clicks on one row within 0.5
// s) or on Enter; a single click selects the row (the keyboard moves to
// it, so Enter then joins) and puts the address in the field.
func (m *Menu) rowClicked(addr string, keyboard bool) {
	j := &m.join
	now := m.now()
	double := j.selected == addr && now.Sub(j.clickAt) < 500*time.Millisecond
	j.selected, j.clickAt = addr, now
	j.addr.SetText(addr)
	if b := j.rows[addr]; b != nil && !keyboard {
		m.ui.SetFocusedWidget(b)
	}
	if keyboard || double {
		m.JoinAddr(addr)
	}
}

func (m *Menu) refreshRecent() {
	j := &m.join
	if m.opt.Dir != "" {
		j.recent = config.LoadRecent(m.opt.Dir)
	}
	j.recentC.RemoveChildren()
	if len(j.recent) == 0 {
		j.recentC.AddChild(widget.NewText(widget.TextOpts.Text("none yet", &m.f.small, palette.Dim)))
		return
	}
	for _, a := range j.recent {
		a := a
		j.recentC.AddChild(m.button(a, func() { j.addr.SetText(a); m.JoinAddr(a) }))
	}
}

func (m *Menu) buildPassword() *widget.Container {
	root, col := m.page("Password", colWidth)
	p := &m.pass
	p.title = m.label("", &m.f.normal, palette.Text)
	col.AddChild(p.title)
	p.input = widget.NewTextInput(widget.TextInputOpts.WidgetOpts(stretch()), widget.TextInputOpts.Secure(true),
		widget.TextInputOpts.Placeholder("password"),
		widget.TextInputOpts.Validation(func(s string) (bool, *string) { return len(s) <= proto.MaxPasswordLen, nil }),
		widget.TextInputOpts.SubmitHandler(func(a *widget.TextInputChangedEventArgs) { m.joinWith(p.addr, a.InputText) }))
	col.AddChild(p.input)
	col.AddChild(row(m.button("Cancel", func() { m.show(scrJoin) }), m.button("Join", func() { m.joinWith(p.addr, p.input.GetText()) })))
	return root
}

// The settings page's choices.
var (
	rates        = []int{20000, 40000, 80000, 196608, 786432}
	interpRatios = []string{"1", "2", "3", "4", "5"}
)

func (m *Menu) buildSettings() *widget.Container {
	root, col := m.page("Settings", wideWidth)
	s := &m.settings
	s.status = m.label("", &m.f.small, palette.Warn)
	col.AddChild(s.status)
	left := widget.NewContainer(widget.ContainerOpts.Layout(widget.NewRowLayout(
		widget.RowLayoutOpts.Direction(widget.DirectionVertical), widget.RowLayoutOpts.Spacing(8))))
	right := widget.NewContainer(widget.ContainerOpts.Layout(widget.NewRowLayout(
		widget.RowLayoutOpts.Direction(widget.DirectionVertical), widget.RowLayoutOpts.Spacing(4))))
	col.AddChild(row(left, right))

	sensLabel := m.label("Mouse sensitivity", &m.f.small, palette.Dim)
	s.sens = widget.NewSlider(widget.SliderOpts.WidgetOpts(stretch(), widget.WidgetOpts.MinSize(0, 24)),
		widget.SliderOpts.MinMax(1, 50),
		widget.SliderOpts.ChangedHandler(func(a *widget.SliderChangedEventArgs) {
			v := config.FormatTenths(a.Current)
			sensLabel.Label = "Mouse sensitivity: " + v
			m.changeCvar("sensitivity", v, "1")
		}))
	volLabel := m.label("Volume", &m.f.small, palette.Dim)
	s.vol = widget.NewSlider(widget.SliderOpts.WidgetOpts(stretch(), widget.WidgetOpts.MinSize(0, 24)),
		widget.SliderOpts.MinMax(0, 100),
		widget.SliderOpts.ChangedHandler(func(a *widget.SliderChangedEventArgs) {
			volLabel.Label = fmt.Sprintf("Volume: %d %%", a.Current)
			m.changeCvar("volume", strconv.FormatFloat(float64(a.Current)/100, 'f', -1, 64), "1")
		}))
	s.full = widget.NewCheckbox(widget.CheckboxOpts.TextLabel("Fullscreen"),
		widget.CheckboxOpts.StateChangedHandler(func(a *widget.CheckboxChangedEventArgs) {
			m.changeCvar("r_fullscreen", map[bool]string{true: "1", false: "0"}[a.State == widget.WidgetChecked], "0")
		}))
	ngB, ngR := m.cycler(func() string { return "net_graph: " + m.cvar("net_graph", "0") }, func() {
		n, _ := strconv.Atoi(m.cvar("net_graph", "0"))
		m.setCvar("net_graph", strconv.Itoa((n+1)%4))
	})
	irB, irR := m.cycler(func() string { return "cl_interp_ratio: " + m.cvar("cl_interp_ratio", "2") }, func() {
		cur := m.cvar("cl_interp_ratio", "2")
		i := (slices.Index(interpRatios, cur) + 1) % len(interpRatios)
		m.setCvar("cl_interp_ratio", interpRatios[i])
	})
	rateB, rateR := m.cycler(func() string {
		n, _ := strconv.Atoi(m.cvar("rate", "196608"))
		return fmt.Sprintf("rate: %d (%d KB/s)", n, n/1024)
	}, func() {
		n, _ := strconv.Atoi(m.cvar("rate", "196608"))
		m.setCvar("rate", strconv.Itoa(nextOf(rates, n, 0)))
	})
	s.refresh = append(s.refresh, ngR, irR, rateR)
	left.AddChild(sensLabel, s.sens, volLabel, s.vol, s.full, ngB, irB, rateB,
		m.label("net_graph: the network overlay (F3)\ncl_interp_ratio: snapshot intervals of interpolation\nrate: most bytes/s the server may send you", &m.f.small, palette.Dim))
	s.first = s.sens

	right.AddChild(m.label("Keys (click, then press the new key)", &m.f.small, palette.Dim))
	s.binds = map[string]*widget.Button{}
	for _, a := range config.Actions {
		a := a
		b := widget.NewButton(widget.ButtonOpts.WidgetOpts(stretch()), widget.ButtonOpts.TextLabel(""),
			widget.ButtonOpts.TextFace(&m.f.mono),
			widget.ButtonOpts.TextPosition(widget.TextPositionStart, widget.TextPositionCenter),
			widget.ButtonOpts.TextPadding(&widget.Insets{Left: 10, Right: 10, Top: 3, Bottom: 3}),
			widget.ButtonOpts.ClickedHandler(func(*widget.ButtonClickedEventArgs) { m.startCapture(a.Command) }))
		s.binds[a.Command] = b
		right.AddChild(b)
	}
	col.AddChild(row(m.button("Default keys", m.DefaultKeys), m.button("Back", func() { m.show(scrMain) })))
	return root
}

// cvar reads a console variable (def without a console or value).
func (m *Menu) cvar(name, def string) string {
	if m.opt.Console != nil {
		if v := m.opt.Console.Cvar(name); v != "" {
			return v
		}
	}
	if v, ok := m.cfg.Get(name); ok {
		return v
	}
	return def
}

// setCvar sets a console variable through the console, as typing
// `name value` would, and saves it in config.cfg when the console took it.
func (m *Menu) setCvar(name, value string) {
	if m.opt.Console != nil {
		if out := m.opt.Console.Exec(name + " " + value); refused(out) {
			m.settings.status.Label = out
			return
		}
	}
	m.settings.status.Label = ""
	m.cfg.Set(name, value)
	m.save()
}

// changeCvar sets a cvar when value differs from its value (def when
// unset): the widgets report the values they were given as changes too.
func (m *Menu) changeCvar(name, value, def string) {
	if strings.TrimSpace(value) != m.cvar(name, def) {
		m.setCvar(name, value)
	}
}

func refused(out string) bool {
	return strings.HasPrefix(out, "error") || strings.HasPrefix(out, "unknown")
}

// SetCvar sets a setting as the settings page does (tests and scripts).
func (m *Menu) SetCvar(name, value string) { m.setCvar(name, value) }

// loadSettings shows the current values on the settings page.
func (m *Menu) loadSettings() {
	s := &m.settings
	if f, err := strconv.ParseFloat(m.cvar("sensitivity", "1"), 64); err == nil {
		s.sens.Current = min(max(int(f*10+0.5), 1), 50)
	}
	if f, err := strconv.ParseFloat(m.cvar("volume", "1"), 64); err == nil {
		s.vol.Current = min(max(int(f*100+0.5), 0), 100)
	}
	state := widget.WidgetUnchecked
	if m.cvar("r_fullscreen", "0") == "1" {
		state = widget.WidgetChecked
	}
	s.full.SetState(state)
	for _, r := range s.refresh {
		r()
	}
	m.refreshBinds()
}

func (m *Menu) refreshBinds() {
	for _, a := range config.Actions {
		ks := m.cfg.KeysOf(a.Command)
		if len(ks) > 2 {
			ks = append(ks[:2:2], "...")
		}
		k := strings.ToUpper(strings.Join(ks, ", "))
		if k == "" {
			k = "(none)"
		}
		label := fmt.Sprintf("%-16s %s", a.Label, k)
		if m.capture == a.Command {
			label = fmt.Sprintf("%-16s press a key (Esc cancels)", a.Label)
		}
		m.settings.binds[a.Command].Text().Label = label
	}
}

func (m *Menu) startCapture(command string) {
	m.capture = command
	m.refreshBinds()
}

// captureKey waits for the key to bind: any key, mouse button or wheel
// turn; Esc cancels.
func (m *Menu) captureKey() {
	if inpututil.IsKeyJustPressed(ebiten.KeyEscape) {
		m.capture = ""
		m.refreshBinds()
		return
	}
	name := ""
	if pressed := inpututil.AppendJustPressedKeys(nil); len(pressed) > 0 {
		name = keys.Name(pressed[0])
	}
	for b := ebiten.MouseButton0; b <= ebiten.MouseButtonMax; b++ {
		if n := keys.MouseButtonName(b); n != "" && inpututil.IsMouseButtonJustPressed(b) {
			name = n
		}
	}
	if _, wy := ebiten.Wheel(); wy > 0 {
		name = "mwheelup"
	} else if wy < 0 {
		name = "mwheeldown"
	}
	if name == "" || name == "`" {
		return
	}
	m.Rebind(m.capture, name)
	m.capture = ""
	m.refreshBinds()
}

// Rebind makes key the one key of command, through the console's
// unbind and bind commands, and saves it.
func (m *Menu) Rebind(command, key string) {
	if m.opt.Console != nil {
		for _, k := range m.cfg.KeysOf(command) {
			m.opt.Console.Exec("unbind " + config.Quote(k))
		}
		if out := m.opt.Console.Exec("bind " + config.Quote(key) + " " + config.Quote(command)); refused(out) {
			m.settings.status.Label = out
			return
		}
	}
	m.cfg.Rebind(command, key)
	m.save()
	m.capture = ""
	m.refreshBinds()
}

// DefaultKeys puts the default bindings back.
func (m *Menu) DefaultKeys() {
	if m.opt.Console != nil {
		m.opt.Console.Exec("unbindall")
		for _, b := range config.DefaultBinds() {
			m.opt.Console.Exec("bind " + config.Quote(b.Key) + " " + config.Quote(b.Command))
		}
	}
	m.cfg.Binds = config.DefaultBinds()
	m.save()
	m.refreshBinds()
}
