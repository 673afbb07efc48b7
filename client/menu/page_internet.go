//go:build !headless

package menu

import (
	"context"
	"fmt"
	"image"
	"image/color"
	"math"
	"slices"
	"strings"
	"time"

	"github.com/ebitenui/ebitenui/widget"
	"github.com/hajimehoshi/ebiten/v2"
	"github.com/hajimehoshi/ebiten/v2/vector"

	"tickshot/client/palette"
)

// noMaster (below) is the internet page's line while cl_master is empty:
// no master is built in (the project runs no public one).

// statusHeight is the internet page's status box, pixels: two lines.
const statusHeight = 40

// maxStatus is the most runes of the status line: about two lines.
const maxStatus = 200

// The internet list's rows.
const (
	// maxRows is the most rows shown (a master may list thousands): the
	// first in the list's order; the filters narrow the rest.
	maxRows = 200
	// rearrangeEvery is how often the rows follow the pings coming in.
	rearrangeEvery = 250 * time.Millisecond
)

const noMaster = "No master server set: type its URL above (http://HOST:PORT) and press Enter. " +
	"docs/HOSTING.md says how to run one."

// internetScreen is the join page's Internet tab: the servers that the
// master servers of cl_master list (fetched and pinged in the background
// by an inetFetcher, again on entering the tab and on Refresh), sorted
// by ping, players or name, filtered (not full, not empty, no password),
// with the favourites (a star a row, kept in favourites.txt) and the
// recent servers pinned at the top. A row joins as the LAN list's do.
type internetScreen struct {
	k     *kit
	prefs *prefs
	*rowList

	fetcher *inetFetcher // nil: no internet list in this build
	master  *widget.TextInput
	sortB   *widget.Button
	by      inetSort
	filter  inetFilter
	found   inetResult   // the fetcher's result as last taken
	seen    int          // the fetcher's version of found
	taken   time.Time    // when found was taken
	shown   []inetServer // the rows, arranged
	rowsKey string       // the rows' key, to rebuild them only on a change
	favs    []string     // favourites.txt, as read on entering and starring
	recent  []string     // recent.txt, as read on entering
	clicks  rowClicks
	status  *widget.Text
	spec    *widget.Checkbox
	// spectate is the join page's "Join as a spectator" (one choice for
	// both tabs).
	spectate *bool

	now         func() time.Time
	join        func(addr, password string) // joins, adding addr to the recent servers
	askPassword func(addr, server string)   // goes to the password page

	lock, blank, star, unstar *ebiten.Image
}

// newInternetScreen builds the Internet tab. fetch and status are
// Options.Internet and Options.Status; spectate is the join page's choice;
// join joins; askPassword goes to the password page; show switches pages.
func newInternetScreen(k *kit, p *prefs, fetch func(context.Context, string) ([]Server, error),
	status func(context.Context, string) (Server, error), canSpectate bool, spectate *bool,
	join func(addr, password string), askPassword func(addr, server string), show func(screen)) (*internetScreen, *widget.Container) {
	s := &internetScreen{k: k, prefs: p, rowList: newRowList(k), spectate: spectate, now: time.Now, join: join, askPassword: askPassword,
		lock: lockImage(palette.Warn), blank: ebiten.NewImage(18, 20), star: starImage(palette.Me, true), unstar: starImage(palette.Dim, false)}
	if fetch != nil {
		s.fetcher = &inetFetcher{fetch: fetch, status: status}
	}
	root, col := k.page("", wideWidth)
	col.AddChild(tabs(scrInternet, show))
	s.master = widget.NewTextInput(widget.TextInputOpts.WidgetOpts(stretch()),
		widget.TextInputOpts.Placeholder("master server: http://HOST:PORT (several: spaces between)"),
		widget.TextInputOpts.SubmitHandler(func(a *widget.TextInputChangedEventArgs) { s.setMaster(a.InputText) }))
	masterRow := widget.NewContainer(widget.ContainerOpts.WidgetOpts(stretch()),
		widget.ContainerOpts.Layout(widget.NewGridLayout(widget.GridLayoutOpts.Columns(2),
			widget.GridLayoutOpts.Spacing(10, 0), widget.GridLayoutOpts.Stretch([]bool{true, false}, nil))))
	masterRow.AddChild(s.master, button("Refresh", func() { s.setMaster(s.master.GetText()) }))
	col.AddChild(masterRow)
	s.sortB, _ = cycler(func() string { return "Sort: " + s.by.String() }, func() {
		s.by = (s.by + 1) % sortCount
		s.rearrange()
	})
	filterBox := func(name string, on *bool) *widget.Checkbox {
		return widget.NewCheckbox(widget.CheckboxOpts.TextLabel(name),
			widget.CheckboxOpts.StateChangedHandler(func(a *widget.CheckboxChangedEventArgs) {
				*on = a.State == widget.WidgetChecked
				s.rearrange()
			}))
	}
	col.AddChild(row(s.sortB, filterBox("Not full", &s.filter.notFull), filterBox("Not empty", &s.filter.notEmpty),
		filterBox("No password", &s.filter.noPassword)))
	col.AddChild(label(fmt.Sprintf("%-6s%-23s%-11s%-15s%7s", "", "Internet server", "Map", "Players", "Ping"), &k.f.mono, palette.Dim))
	col.AddChild(s.scroll)
	// The status line wraps within the column, in a box of two lines, so
	// that a long error moves nothing (inetStatus keeps it to two).
	s.status = widget.NewText(widget.TextOpts.Text("", &k.f.small, palette.Dim), widget.TextOpts.MaxWidth(wideWidth),
		widget.TextOpts.WidgetOpts(stretch(), widget.WidgetOpts.MinSize(0, statusHeight)))
	col.AddChild(s.status)
	s.spec = spectateBox(canSpectate, spectate)
	col.AddChild(backRow(button("Back", func() { show(scrMain) }), s.spec))
	return s, root
}

// enter shows cl_master, reads the favourites and recent servers, asks
// the masters again and puts the keyboard on the master field.
func (s *internetScreen) enter() {
	showSpectate(s.spec, *s.spectate)
	s.master.SetText(s.prefs.cvar("cl_master", ""))
	s.favs, s.recent = s.prefs.favourites(), s.prefs.recent()
	s.refresh()
	s.k.ui.SetFocusedWidget(s.master)
}

// leave stops the fetching (the page is left).
func (s *internetScreen) leave() {
	if s.fetcher != nil {
		s.fetcher.stop()
	}
}

// setMaster takes the master field's text as cl_master (when it changed)
// and asks the masters again.
func (s *internetScreen) setMaster(text string) {
	v := strings.Join(masterURLs(text), " ")
	if v != s.prefs.cvar("cl_master", "") {
		if out := s.prefs.setCvar("cl_master", v); out != "" {
			s.status.Label = out
			return
		}
	}
	s.refresh()
}

// refresh asks the masters of cl_master for their lists, in the
// background.
func (s *internetScreen) refresh() {
	masters := masterURLs(s.prefs.cvar("cl_master", ""))
	s.found, s.rowsKey = inetResult{}, ""
	s.clearRows()
	switch {
	case s.fetcher == nil:
		s.status.Label = "No internet server list in this build: type an address on the LAN tab."
	case len(masters) == 0:
		s.status.Label = noMaster
	default:
		s.fetcher.refresh(masters)
		s.update()
	}
}

// update takes the fetcher's newest result, once a frame.
func (s *internetScreen) update() {
	if s.fetcher == nil {
		return
	}
	// While the pings come in, the rows follow them at most every
	// rearrangeEvery: a long list is not sorted and rebuilt every frame.
	if now := s.now(); s.found.pinging == 0 || now.Sub(s.taken) >= rearrangeEvery {
		if r, ok := s.fetcher.take(&s.seen); ok {
			s.found, s.taken = r, now
			s.rearrange()
		}
	}
}

// rearrange sorts and filters the rows again: their widgets are rebuilt
// when the servers, their order, locks or stars changed; otherwise only
// their text follows (a row rebuilt between a press and its release would
// lose the click).
func (s *internetScreen) rearrange() {
	s.shown = arrange(s.found.servers, s.by, s.filter, s.favs, s.recent)
	s.shown = s.shown[:min(len(s.shown), maxRows)]
	s.status.Label = inetStatus(s.found, len(s.shown))
	var key strings.Builder
	for _, v := range s.shown {
		fmt.Fprintf(&key, "%s|%v|%v\n", v.Addr, v.Password, slices.Contains(s.favs, v.Addr))
	}
	if key.String() != s.rowsKey {
		s.rowsKey = key.String()
		s.rebuildRows()
		return
	}
	for _, v := range s.shown {
		if b := s.rows[v.Addr]; b != nil && b.Text() != nil {
			b.Text().Label = inetRowText(v)
		}
	}
}

// rebuildRows makes a row a server shown: its star, then its button,
// keeping the keyboard on the server that had it.
func (s *internetScreen) rebuildRows() {
	focused := s.focusedRow()
	s.clearRows()
	for _, v := range s.shown {
		img, star := s.blank, s.unstar
		if v.Password {
			img = s.lock
		}
		fav := slices.Contains(s.favs, v.Addr)
		if fav {
			star = s.star
		}
		starB := widget.NewButton(widget.ButtonOpts.Graphic(&widget.GraphicImage{Idle: star, Disabled: star}),
			widget.ButtonOpts.WidgetOpts(widget.WidgetOpts.MinSize(40, 0)),
			widget.ButtonOpts.ClickedHandler(func(*widget.ButtonClickedEventArgs) { s.setFavourite(v.Addr, !fav) }))
		b := serverButton(s.k, inetRowText(v), img, func(keyboard bool) { s.rowClicked(v.Addr, keyboard) })
		line := widget.NewContainer(widget.ContainerOpts.WidgetOpts(stretch()),
			widget.ContainerOpts.Layout(widget.NewGridLayout(widget.GridLayoutOpts.Columns(2),
				widget.GridLayoutOpts.Spacing(4, 0), widget.GridLayoutOpts.Stretch([]bool{false, true}, []bool{true}))))
		line.AddChild(starB, b)
		s.addRow(v.Addr, b, line)
		line.GetWidget().SetTheme(s.k.ui.PrimaryTheme)
		line.Validate()
		if v.Addr == focused {
			s.k.ui.SetFocusedWidget(b)
		}
	}
}

// setFavourite stars or unstars the server at addr.
func (s *internetScreen) setFavourite(addr string, on bool) {
	s.favs = s.prefs.setFavourite(addr, on)
	s.rearrange()
}

// rowClicked joins on a double click or on Enter; a single click selects
// the row (the keyboard moves to it, so Enter then joins).
func (s *internetScreen) rowClicked(addr string, keyboard bool) {
	double := s.clicks.click(addr, s.now())
	if b := s.rows[addr]; b != nil && !keyboard {
		s.k.ui.SetFocusedWidget(b)
	}
	if keyboard || double {
		s.joinServer(addr)
	}
}

// joinServer joins a listed server, asking for its password first when
// it wants one.
func (s *internetScreen) joinServer(addr string) {
	for _, v := range s.found.servers {
		if v.Addr == addr && v.Password {
			s.askPassword(addr, v.Name)
			return
		}
	}
	s.join(addr, "")
}

// inetStatus is the line under the internet list: what the masters
// answered, how many servers are shown, the pings still running.
func inetStatus(r inetResult, shown int) string {
	if r.fetching {
		return "Asking the master server..."
	}
	var b strings.Builder
	switch n := len(r.servers); {
	case n == 0 && len(r.errs) > 0:
		return clip("No list: "+strings.Join(r.errs, "; "), maxStatus)
	case n == 0:
		b.WriteString("The master server lists no servers.")
	case shown == maxRows && n > maxRows:
		fmt.Fprintf(&b, "%d servers listed, the first %d shown (the filters narrow the list).", n, shown)
	case shown < n:
		fmt.Fprintf(&b, "%d servers listed, %d shown (the filters hide the rest).", n, shown)
	case n == 1:
		b.WriteString("1 server listed: double-click it, or Tab to it and press Enter.")
	default:
		fmt.Fprintf(&b, "%d servers listed: double-click one, or Tab to it and press Enter.", n)
	}
	if r.pinging > 0 {
		fmt.Fprintf(&b, " Pinging %d...", r.pinging)
	}
	if len(r.errs) > 0 {
		fmt.Fprintf(&b, " (%s)", strings.Join(r.errs, "; "))
	}
	return clip(b.String(), maxStatus)
}

// starImage is a five-pointed star, filled (a favourite) or outlined,
// drawn with vector paths (the Go fonts have no star glyph).
func starImage(clr color.Color, filled bool) *ebiten.Image {
	img := ebiten.NewImage(20, 20)
	var p vector.Path
	for i := range 10 {
		r := 9.0
		if i%2 == 1 {
			r = 3.8
		}
		a := -math.Pi/2 + float64(i)*math.Pi/5
		x, y := float32(10+r*math.Cos(a)), float32(10.5+r*math.Sin(a))
		if i == 0 {
			p.MoveTo(x, y)
		} else {
			p.LineTo(x, y)
		}
	}
	p.Close()
	var vs []ebiten.Vertex
	var is []uint16
	if filled {
		vs, is = p.AppendVerticesAndIndicesForFilling(nil, nil)
	} else {
		vs, is = p.AppendVerticesAndIndicesForStroke(nil, nil, &vector.StrokeOptions{Width: 1.5, LineJoin: vector.LineJoinMiter})
	}
	cr, cg, cb, ca := clr.RGBA()
	for i := range vs {
		vs[i].SrcX, vs[i].SrcY = 1, 1
		vs[i].ColorR, vs[i].ColorG, vs[i].ColorB, vs[i].ColorA = float32(cr)/0xffff, float32(cg)/0xffff, float32(cb)/0xffff, float32(ca)/0xffff
	}
	white := ebiten.NewImage(3, 3)
	white.Fill(color.White)
	img.DrawTriangles(vs, is, white.SubImage(image.Rect(1, 1, 2, 2)).(*ebiten.Image), &ebiten.DrawTrianglesOptions{AntiAlias: true})
	return img
}
