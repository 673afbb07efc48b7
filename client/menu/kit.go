//go:build !headless

package menu

import (
	"image/color"

	"github.com/ebitenui/ebitenui"
	"github.com/ebitenui/ebitenui/image"
	"github.com/ebitenui/ebitenui/widget"
	"github.com/hajimehoshi/ebiten/v2/text/v2"

	"tickshot/client/palette"
)

// Column widths of the pages, pixels.
const (
	colWidth  = 380
	wideWidth = 760
)

// kit is what every page is built with: the fonts, and the one UI whose
// theme the widgets take and whose keyboard focus they share.
type kit struct {
	f  faces
	ui *ebitenui.UI
}

func newKit() *kit {
	k := &kit{f: newFaces()}
	k.ui = &ebitenui.UI{PrimaryTheme: newTheme(&k.f)}
	return k
}

// validate gives a page's widgets their looks from the theme, so that
// their text can be set before the first frame.
func (k *kit) validate(root *widget.Container) {
	root.GetWidget().SetTheme(k.ui.PrimaryTheme)
	root.Validate()
}

// page is a screen's frame: the title, a heading, then the page's widgets
// in a centred column width pixels wide (col).
func (k *kit) page(heading string, width int) (root, col *widget.Container) {
	root = widget.NewContainer(
		widget.ContainerOpts.BackgroundImage(image.NewNineSliceColor(palette.BG)),
		widget.ContainerOpts.Layout(widget.NewAnchorLayout()))
	col = widget.NewContainer(
		widget.ContainerOpts.WidgetOpts(widget.WidgetOpts.LayoutData(widget.AnchorLayoutData{
			HorizontalPosition: widget.AnchorLayoutPositionCenter, VerticalPosition: widget.AnchorLayoutPositionCenter}),
			widget.WidgetOpts.MinSize(width, 0)),
		widget.ContainerOpts.Layout(widget.NewRowLayout(widget.RowLayoutOpts.Direction(widget.DirectionVertical),
			widget.RowLayoutOpts.Spacing(10))))
	root.AddChild(col)
	col.AddChild(centred("TICKSHOT", &k.f.title, palette.Me))
	if heading != "" {
		col.AddChild(centred(heading, &k.f.heading, palette.Text))
	}
	return root, col
}

func stretch() widget.WidgetOpt {
	return widget.WidgetOpts.LayoutData(widget.RowLayoutData{Stretch: true})
}

// centred is a line of text centred across its column.
func centred(s string, face *text.Face, clr color.Color) *widget.Text {
	return widget.NewText(widget.TextOpts.Text(s, face, clr),
		widget.TextOpts.Position(widget.TextPositionCenter, widget.TextPositionCenter), widget.TextOpts.WidgetOpts(stretch()))
}

func button(label string, onClick func()) *widget.Button {
	return widget.NewButton(widget.ButtonOpts.TextLabel(label), widget.ButtonOpts.WidgetOpts(stretch()),
		widget.ButtonOpts.ClickedHandler(func(*widget.ButtonClickedEventArgs) { onClick() }))
}

func label(s string, face *text.Face, clr color.Color) *widget.Text {
	return widget.NewText(widget.TextOpts.Text(s, face, clr), widget.TextOpts.WidgetOpts(stretch()))
}

// cycler is a button that shows "what: value" and steps through values
// on a click, Enter or Space; refresh shows the value again.
func cycler(value func() string, next func()) (b *widget.Button, refresh func()) {
	b = button(value(), func() {
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
