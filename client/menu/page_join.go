//go:build !headless

package menu

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/ebitenui/ebitenui/image"
	"github.com/ebitenui/ebitenui/widget"
	"github.com/hajimehoshi/ebiten/v2"

	"tickshot/client/palette"
	"tickshot/net/proto"
)

// The join page's timing.
const (
	// pollEvery is how often the LAN list is read while the page shows.
	pollEvery = 500 * time.Millisecond
	// doubleClick is the most time between a double click's two clicks.
	doubleClick = 500 * time.Millisecond
	// maxServerName is the most bytes of a server's or map's name shown
	// (a server's hostname is at most 64 bytes).
	maxServerName = 64
	// listHeight is the server list's height in pixels: six rows.
	listHeight = 188
)

// joinScreen is the join page: the LAN server list (polled twice a
// second, its rows kept while the same servers are listed), an address
// field, the recent servers, and joining as a spectator.
type joinScreen struct {
	k     *kit
	prefs *prefs

	addr     *widget.TextInput
	list     *widget.Container
	scroll   *widget.ScrollContainer
	rows     map[string]*widget.Button // by address
	servers  []Server                  // the list as last polled, sorted
	shown    string                    // the list's listKey as shown, to rebuild only on a change
	polled   time.Time
	clicks   rowClicks
	recentC  *widget.Container
	status   *widget.Text
	spectate bool
	lock     *ebiten.Image
	blank    *ebiten.Image

	lan         func() []Server           // Options.Servers (nil: no LAN list)
	now         func() time.Time          // the clock of polls and double clicks
	onJoin      func(JoinOptions)         // Options.Join (nil: none)
	askPassword func(addr, server string) // goes to the password page
}

// newJoinScreen builds the join page. askPassword goes to the password
// page for a server that wants one; show switches pages.
func newJoinScreen(k *kit, p *prefs, lan func() []Server, canSpectate bool, join func(JoinOptions),
	askPassword func(addr, server string), show func(screen)) (*joinScreen, *widget.Container) {
	j := &joinScreen{k: k, prefs: p, lan: lan, now: time.Now, onJoin: join, askPassword: askPassword,
		rows: map[string]*widget.Button{}, lock: lockImage(palette.Warn), blank: ebiten.NewImage(18, 20)}
	root, col := k.page("Join a game", wideWidth)
	col.AddChild(label(fmt.Sprintf("%-3s%-26s%-12s%9s%8s", "", "Server on your network", "Map", "Players", "Ping"), &k.f.mono, palette.Dim))
	// The rows scroll inside a box of fixed height (six rows), so that the
	// page does not move as servers come and go.
	j.list = widget.NewContainer(widget.ContainerOpts.WidgetOpts(widget.WidgetOpts.MinSize(0, listHeight)),
		widget.ContainerOpts.Layout(widget.NewRowLayout(widget.RowLayoutOpts.Direction(widget.DirectionVertical),
			widget.RowLayoutOpts.Padding(widget.NewInsetsSimple(4)), widget.RowLayoutOpts.Spacing(2))))
	// A scroll container does not pass the theme to its content: the rows
	// get it here, and are validated as they are added.
	j.list.GetWidget().SetTheme(k.ui.PrimaryTheme)
	j.list.Validate()
	box := image.NewBorderedNineSliceColor(palette.Outline, palette.Floor, 2)
	j.scroll = widget.NewScrollContainer(widget.ScrollContainerOpts.Content(j.list), widget.ScrollContainerOpts.StretchContentWidth(),
		widget.ScrollContainerOpts.Image(&widget.ScrollContainerImage{Idle: box, Disabled: box, Mask: box}),
		widget.ScrollContainerOpts.WidgetOpts(widget.WidgetOpts.LayoutData(widget.RowLayoutData{Stretch: true, MaxHeight: listHeight}),
			widget.WidgetOpts.ScrolledHandler(func(a *widget.WidgetScrolledEventArgs) { j.scrollList(-a.Y * 30) })))
	col.AddChild(j.scroll)
	j.status = label("", &k.f.small, palette.Dim)
	col.AddChild(j.status)
	j.addr = widget.NewTextInput(widget.TextInputOpts.WidgetOpts(stretch()), widget.TextInputOpts.Placeholder("address: HOST or HOST:PORT"),
		widget.TextInputOpts.SubmitHandler(func(a *widget.TextInputChangedEventArgs) { j.joinAddr(a.InputText) }))
	joinB := button("Join address", func() { j.joinAddr(j.addr.GetText()) })
	addrRow := widget.NewContainer(widget.ContainerOpts.WidgetOpts(stretch()),
		widget.ContainerOpts.Layout(widget.NewGridLayout(widget.GridLayoutOpts.Columns(2),
			widget.GridLayoutOpts.Spacing(10, 0), widget.GridLayoutOpts.Stretch([]bool{true, false}, nil))))
	addrRow.AddChild(j.addr, joinB)
	col.AddChild(addrRow)
	col.AddChild(label("Recent servers", &k.f.small, palette.Dim))
	j.recentC = widget.NewContainer(widget.ContainerOpts.WidgetOpts(stretch()),
		widget.ContainerOpts.Layout(widget.NewGridLayout(widget.GridLayoutOpts.Columns(4),
			widget.GridLayoutOpts.Spacing(8, 8), widget.GridLayoutOpts.DefaultStretch(true, false))))
	col.AddChild(j.recentC)
	back := button("Back", func() { show(scrMain) })
	if canSpectate {
		spec := widget.NewCheckbox(widget.CheckboxOpts.TextLabel("Join as a spectator"),
			widget.CheckboxOpts.StateChangedHandler(func(a *widget.CheckboxChangedEventArgs) { j.spectate = a.State == widget.WidgetChecked }))
		col.AddChild(row(back, spec))
	} else {
		col.AddChild(back)
	}
	return j, root
}

// enter reads the LAN list and the recent servers now and puts the
// keyboard on the address, selected so that typing replaces it.
func (j *joinScreen) enter() {
	j.refreshServers(true)
	j.refreshRecent()
	j.k.ui.SetFocusedWidget(j.addr)
	j.addr.SelectAll()
}

// scrollList scrolls the server list by dy pixels.
func (j *joinScreen) scrollList(dy float64) {
	s := j.scroll
	if over := s.ContentRect().Dy() - s.ViewRect().Dy(); over > 0 {
		s.ScrollTop = min(max(s.ScrollTop+dy/float64(over), 0), 1)
	}
}

// keepFocusedRowVisible scrolls the list to the row that has the keyboard.
func (j *joinScreen) keepFocusedRowVisible() {
	view := j.scroll.ViewRect()
	for _, b := range j.rows {
		if !b.IsFocused() {
			continue
		}
		r := b.GetWidget().Rect
		switch {
		case r.Max.Y > view.Max.Y:
			j.scrollList(float64(r.Max.Y - view.Max.Y))
		case r.Min.Y < view.Min.Y:
			j.scrollList(float64(r.Min.Y - view.Min.Y))
		}
	}
}

// refreshServers polls the LAN list (every pollEvery, or now when force)
// and rebuilds the rows when other servers are listed; while the same
// are, only the rows' text follows the players and ping (a row rebuilt
// between a press and its release would lose the click).
func (j *joinScreen) refreshServers(force bool) {
	now := j.now()
	if !force && now.Sub(j.polled) < pollEvery {
		return
	}
	j.polled = now
	if j.lan == nil {
		j.status.Label = "No LAN server list in this build: type an address."
		return
	}
	j.servers = sortServers(cleanServers(j.lan()))
	if key := listKey(j.servers); key != j.shown || force {
		j.shown = key
		j.rebuildRows()
		return
	}
	for _, s := range j.servers {
		if b := j.rows[s.Addr]; b != nil && b.Text() != nil {
			b.Text().Label = rowText(s)
		}
	}
}

// rebuildRows makes a row a server, keeping the keyboard on the server
// that had it.
func (j *joinScreen) rebuildRows() {
	focused := ""
	for addr, b := range j.rows {
		if b.IsFocused() {
			focused = addr
		}
	}
	j.list.RemoveChildren()
	j.rows = map[string]*widget.Button{}
	for _, s := range j.servers {
		img := j.blank
		if s.Password {
			img = j.lock
		}
		b := widget.NewButton(widget.ButtonOpts.WidgetOpts(stretch()),
			widget.ButtonOpts.TextAndImage(rowText(s), &j.k.f.mono, &widget.GraphicImage{Idle: img, Disabled: img},
				&widget.ButtonTextColor{Idle: palette.Text, Hover: palette.Text, Pressed: palette.Outline}),
			widget.ButtonOpts.TextLabel(rowText(s)), // TextAndImage of v0.7.0 drops its label
			widget.ButtonOpts.TextPosition(widget.TextPositionStart, widget.TextPositionCenter),
			widget.ButtonOpts.TextPadding(&widget.Insets{Left: 8, Right: 8, Top: 4, Bottom: 4}),
			widget.ButtonOpts.ClickedHandler(func(a *widget.ButtonClickedEventArgs) { j.rowClicked(s.Addr, byKeyboard(a)) }))
		j.rows[s.Addr] = b
		j.list.AddChild(b)
		if s.Addr == focused {
			j.k.ui.SetFocusedWidget(b)
		}
	}
	j.status.Label = listStatus(len(j.servers))
}

// rowClicked joins on a double click or on Enter; a single click selects
// the row (the keyboard moves to it, so Enter then joins) and puts the
// address in the field.
func (j *joinScreen) rowClicked(addr string, keyboard bool) {
	double := j.clicks.click(addr, j.now())
	j.addr.SetText(addr)
	if b := j.rows[addr]; b != nil && !keyboard {
		j.k.ui.SetFocusedWidget(b)
	}
	if keyboard || double {
		j.joinAddr(addr)
	}
}

// refreshRecent makes a button a recent server.
func (j *joinScreen) refreshRecent() {
	j.recentC.RemoveChildren()
	recent := j.prefs.recent()
	if len(recent) == 0 {
		j.recentC.AddChild(widget.NewText(widget.TextOpts.Text("none yet", &j.k.f.small, palette.Dim)))
		return
	}
	for _, a := range recent {
		j.recentC.AddChild(button(a, func() { j.addr.SetText(a); j.joinAddr(a) }))
	}
}

// joinAddr joins a server by address, asking for a password first when
// the LAN list says it needs one.
func (j *joinScreen) joinAddr(addr string) {
	addr = strings.TrimSpace(addr)
	if addr == "" {
		j.status.Label = "Type an address (HOST or HOST:PORT), or pick a server from the list."
		return
	}
	for _, s := range j.servers {
		if s.Addr == addr && s.Password {
			j.askPassword(addr, s.Name)
			return
		}
	}
	j.joinWith(addr, "")
}

// joinWith joins addr with a password ("" for none), adding it to the
// recent servers.
func (j *joinScreen) joinWith(addr, password string) {
	j.prefs.addRecent(addr)
	if j.onJoin != nil {
		j.onJoin(JoinOptions{Player: j.prefs.cfg.Name, Addr: addr, Password: password, Spectate: j.spectate})
	}
}

// rowClicks tells a double click on a row (two clicks on one row within
// doubleClick) from a single one.
type rowClicks struct {
	addr string
	at   time.Time
}

// click records a click on the row of addr at now and reports whether it
// makes a double click.
func (c *rowClicks) click(addr string, now time.Time) (double bool) {
	double = c.addr == addr && now.Sub(c.at) < doubleClick
	c.addr, c.at = addr, now
	return double
}

// cleanServers cleans the names and maps of a list in place, as every name
// shown to people is (proto.CleanName: a bidi override such as U+202E would
// draw "evil" as "live"; controls and escape sequences would break the row),
// and returns it. A server whose name cleans to nothing shows its address.
func cleanServers(list []Server) []Server {
	for i := range list {
		s := &list[i]
		s.Name, s.Map = proto.CleanName(s.Name, maxServerName), proto.CleanName(s.Map, maxServerName)
		if s.Name == "" {
			s.Name = s.Addr
		}
	}
	return list
}

// sortServers sorts the LAN list by name, then address (stable), in
// place, and returns it.
func sortServers(list []Server) []Server {
	slices.SortStableFunc(list, func(a, b Server) int { return strings.Compare(a.Name+a.Addr, b.Name+b.Addr) })
	return list
}

// listKey names the rows a list needs (a row a server, with or without a
// lock): lists of the same key keep their rows.
func listKey(list []Server) string {
	var key strings.Builder
	for _, s := range list {
		fmt.Fprintf(&key, "%s|%v\n", s.Addr, s.Password)
	}
	return key.String()
}

// listStatus is the line under the list for n servers found.
func listStatus(n int) string {
	switch n {
	case 0:
		return "Looking for servers on your network... (none yet)"
	case 1:
		return "1 server found: double-click it, or Tab to it and press Enter."
	default:
		return fmt.Sprintf("%d servers found: double-click one, or Tab to it and press Enter.", n)
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
