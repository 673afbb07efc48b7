//go:build !headless

package menu

import (
	"fmt"
	"slices"
	"strings"
	"time"

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
	*rowList

	addr     *widget.TextInput
	servers  []Server // the list as last polled, sorted
	shown    string   // the list's listKey as shown, to rebuild only on a change
	polled   time.Time
	clicks   rowClicks
	recentC  *widget.Container
	status   *widget.Text
	spec     *widget.Checkbox // nil when joining as a spectator is not offered
	spectate bool             // join as a spectator (the internet page's box too)
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
	j := &joinScreen{k: k, prefs: p, rowList: newRowList(k), lan: lan, now: time.Now, onJoin: join, askPassword: askPassword,
		lock: lockImage(palette.Warn), blank: ebiten.NewImage(18, 20)}
	root, col := k.page("", wideWidth)
	col.AddChild(tabs(scrJoin, show))
	col.AddChild(label(fmt.Sprintf("%-3s%-26s%-12s%9s%8s", "", "Server on your network", "Map", "Players", "Ping"), &k.f.mono, palette.Dim))
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
	j.spec = spectateBox(canSpectate, &j.spectate)
	col.AddChild(backRow(back, j.spec))
	return j, root
}

// spectateBox is the "Join as a spectator" box that sets *on (nil when
// not offered).
func spectateBox(offered bool, on *bool) *widget.Checkbox {
	if !offered {
		return nil
	}
	return widget.NewCheckbox(widget.CheckboxOpts.TextLabel("Join as a spectator"),
		widget.CheckboxOpts.StateChangedHandler(func(a *widget.CheckboxChangedEventArgs) { *on = a.State == widget.WidgetChecked }))
}

// showSpectate sets a spectateBox to on (when there is one).
func showSpectate(box *widget.Checkbox, on bool) {
	if box != nil {
		box.SetState(map[bool]widget.WidgetState{true: widget.WidgetChecked, false: widget.WidgetUnchecked}[on])
	}
}

// backRow is the page's last row: Back, beside the spectator box when
// there is one.
func backRow(back *widget.Button, spec *widget.Checkbox) widget.PreferredSizeLocateableWidget {
	if spec == nil {
		return back
	}
	return row(back, spec)
}

// enter reads the LAN list and the recent servers now and puts the
// keyboard on the address, selected so that typing replaces it.
func (j *joinScreen) enter() {
	showSpectate(j.spec, j.spectate)
	j.refreshServers(true)
	j.refreshRecent()
	j.k.ui.SetFocusedWidget(j.addr)
	j.addr.SelectAll()
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
	focused := j.focusedRow()
	j.clearRows()
	for _, s := range j.servers {
		img := j.blank
		if s.Password {
			img = j.lock
		}
		b := serverButton(j.k, rowText(s), img, func(keyboard bool) { j.rowClicked(s.Addr, keyboard) })
		j.addRow(s.Addr, b, b)
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
	players := fmt.Sprintf("%d/%d", s.Players, s.MaxPlayers)
	return fmt.Sprintf("%-26s%-12s%9s%6d ms", clip(s.Name, 25), s.Map, players, s.Ping.Milliseconds())
}

// byKeyboard tells a click made with Enter or Space on a focused button
// from a mouse click: ebitenui reports the keyboard's at the button's far
// corner (its size as the offset), or at -1, never inside it.
func byKeyboard(a *widget.ButtonClickedEventArgs) bool {
	r := a.Button.GetWidget().Rect
	return a.OffsetX < 0 || a.OffsetY < 0 || a.OffsetX >= r.Dx() || a.OffsetY >= r.Dy()
}
