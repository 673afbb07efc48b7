//go:build !headless

package menu

import (
	"github.com/ebitenui/ebitenui/image"
	"github.com/ebitenui/ebitenui/widget"
	"github.com/hajimehoshi/ebiten/v2"

	"tickshot/client/palette"
)

// rowList is a server list's box: rows that scroll inside a box of fixed
// height (listHeight: six rows), so that the page does not move as
// servers come and go, and that follows the keyboard's row. The LAN and
// the internet list are one each.
type rowList struct {
	box    *widget.Container
	scroll *widget.ScrollContainer
	rows   map[string]*widget.Button // each server's button, by address
}

// newRowList builds an empty list box with k's theme.
func newRowList(k *kit) *rowList {
	l := &rowList{rows: map[string]*widget.Button{}}
	l.box = widget.NewContainer(widget.ContainerOpts.WidgetOpts(widget.WidgetOpts.MinSize(0, listHeight)),
		widget.ContainerOpts.Layout(widget.NewRowLayout(widget.RowLayoutOpts.Direction(widget.DirectionVertical),
			widget.RowLayoutOpts.Padding(widget.NewInsetsSimple(4)), widget.RowLayoutOpts.Spacing(2))))
	// A scroll container does not pass the theme to its content: the rows
	// get it here, and are validated as they are added.
	l.box.GetWidget().SetTheme(k.ui.PrimaryTheme)
	l.box.Validate()
	frame := image.NewBorderedNineSliceColor(palette.Outline, palette.Floor, 2)
	l.scroll = widget.NewScrollContainer(widget.ScrollContainerOpts.Content(l.box), widget.ScrollContainerOpts.StretchContentWidth(),
		widget.ScrollContainerOpts.Image(&widget.ScrollContainerImage{Idle: frame, Disabled: frame, Mask: frame}),
		widget.ScrollContainerOpts.WidgetOpts(widget.WidgetOpts.LayoutData(widget.RowLayoutData{Stretch: true, MaxHeight: listHeight}),
			widget.WidgetOpts.ScrolledHandler(func(a *widget.WidgetScrolledEventArgs) { l.scrollList(-a.Y * 30) })))
	return l
}

// scrollList scrolls the list by dy pixels.
func (l *rowList) scrollList(dy float64) {
	s := l.scroll
	if over := s.ContentRect().Dy() - s.ViewRect().Dy(); over > 0 {
		s.ScrollTop = min(max(s.ScrollTop+dy/float64(over), 0), 1)
	}
}

// keepFocusedRowVisible scrolls the list to the row that has the keyboard.
func (l *rowList) keepFocusedRowVisible() {
	view := l.scroll.ViewRect()
	for _, b := range l.rows {
		if !b.IsFocused() {
			continue
		}
		r := b.GetWidget().Rect
		switch {
		case r.Max.Y > view.Max.Y:
			l.scrollList(float64(r.Max.Y - view.Max.Y))
		case r.Min.Y < view.Min.Y:
			l.scrollList(float64(r.Min.Y - view.Min.Y))
		}
	}
}

// focusedRow is the address of the row that has the keyboard ("" when
// none).
func (l *rowList) focusedRow() string {
	for addr, b := range l.rows {
		if b.IsFocused() {
			return addr
		}
	}
	return ""
}

// clearRows removes every row.
func (l *rowList) clearRows() {
	l.box.RemoveChildren()
	l.rows = map[string]*widget.Button{}
}

// addRow adds the row of the server at addr: line is what is shown (b,
// or b beside other widgets), b the button that joins.
func (l *rowList) addRow(addr string, b *widget.Button, line widget.PreferredSizeLocateableWidget) {
	l.rows[addr] = b
	l.box.AddChild(line)
}

// serverButton is a server's row button: img (a lock, or as large and
// blank) and text in the monospace face; onClick is told whether Enter or
// Space pressed it (byKeyboard) rather than the mouse.
func serverButton(k *kit, text string, img *ebiten.Image, onClick func(keyboard bool)) *widget.Button {
	return widget.NewButton(widget.ButtonOpts.WidgetOpts(stretch()),
		widget.ButtonOpts.TextAndImage(text, &k.f.mono, &widget.GraphicImage{Idle: img, Disabled: img},
			&widget.ButtonTextColor{Idle: palette.Text, Hover: palette.Text, Pressed: palette.Outline}),
		widget.ButtonOpts.TextLabel(text), // TextAndImage of v0.7.0 drops its label
		widget.ButtonOpts.TextPosition(widget.TextPositionStart, widget.TextPositionCenter),
		widget.ButtonOpts.TextPadding(&widget.Insets{Left: 8, Right: 8, Top: 4, Bottom: 4}),
		widget.ButtonOpts.ClickedHandler(func(a *widget.ButtonClickedEventArgs) { onClick(byKeyboard(a)) }))
}

// tabs is the join page's tab row: a button a tab (LAN, Internet), the
// current one drawn pressed; show switches pages.
func tabs(current screen, show func(screen)) *widget.Container {
	pressed := image.NewBorderedNineSliceColor(palette.Me, palette.Me, 2)
	var bs []widget.PreferredSizeLocateableWidget
	for _, t := range []struct {
		name string
		scr  screen
	}{{"LAN", scrJoin}, {"Internet", scrInternet}} {
		opts := []widget.ButtonOpt{widget.ButtonOpts.TextLabel(t.name), widget.ButtonOpts.WidgetOpts(stretch()),
			widget.ButtonOpts.ClickedHandler(func(*widget.ButtonClickedEventArgs) { show(t.scr) })}
		if t.scr == current {
			opts = append(opts, widget.ButtonOpts.Image(&widget.ButtonImage{Idle: pressed, Hover: pressed, Pressed: pressed, PressedHover: pressed}),
				widget.ButtonOpts.TextColor(&widget.ButtonTextColor{Idle: palette.Outline, Hover: palette.Outline, Pressed: palette.Outline}))
		}
		bs = append(bs, widget.NewButton(opts...))
	}
	return row(bs...)
}
