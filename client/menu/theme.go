//go:build !headless

package menu

import (
	"bytes"
	"image/color"

	"github.com/ebitenui/ebitenui/image"
	"github.com/ebitenui/ebitenui/themes"
	"github.com/ebitenui/ebitenui/widget"
	"github.com/hajimehoshi/ebiten/v2"
	"github.com/hajimehoshi/ebiten/v2/text/v2"
	"github.com/hajimehoshi/ebiten/v2/vector"
	"golang.org/x/image/font/gofont/gobold"
	"golang.org/x/image/font/gofont/gomono"
	"golang.org/x/image/font/gofont/goregular"

	"tickshot/client/palette"
)

// faces are the game's fonts (client/fonts.go: Go regular and bold), with
// Go Mono for the server list's columns.
type faces struct {
	title, heading, normal, small, mono text.Face
}

func newFaces() faces {
	src := func(ttf []byte) *text.GoTextFaceSource {
		s, err := text.NewGoTextFaceSource(bytes.NewReader(ttf))
		if err != nil {
			panic(err)
		}
		return s
	}
	reg, bold, mono := src(goregular.TTF), src(gobold.TTF), src(gomono.TTF)
	return faces{
		title:   &text.GoTextFace{Source: bold, Size: 64},
		heading: &text.GoTextFace{Source: bold, Size: 28},
		normal:  &text.GoTextFace{Source: reg, Size: 20},
		small:   &text.GoTextFace{Source: reg, Size: 16},
		mono:    &text.GoTextFace{Source: mono, Size: 17},
	}
}

// newTheme is ebitenui's dark theme in the game's colours and fonts: a
// focused or hovered widget gets the accent border, so the keyboard's
// place is always visible.
func newTheme(f *faces) *widget.Theme {
	t := themes.GetBasicDarkTheme()
	idle := image.NewBorderedNineSliceColor(palette.Floor, palette.Wall, 2)
	hover := image.NewBorderedNineSliceColor(palette.Wall, palette.Me, 2)
	pressed := image.NewBorderedNineSliceColor(palette.Me, palette.Me, 2)
	t.DefaultFace, t.DefaultTextColor = &f.normal, palette.Text
	b := t.ButtonTheme
	b.TextFace = &f.normal
	b.TextColor = &widget.ButtonTextColor{Idle: palette.Text, Hover: palette.Text, Pressed: palette.Outline, Disabled: palette.Dim}
	b.Image = &widget.ButtonImage{Idle: idle, Hover: hover, Pressed: pressed, PressedHover: pressed,
		Disabled: image.NewBorderedNineSliceColor(palette.BG, palette.Floor, 2)}
	b.TextPadding = &widget.Insets{Left: 16, Right: 16, Top: 8, Bottom: 8}
	t.LabelTheme.Face = &f.normal
	t.LabelTheme.Color = &widget.LabelColor{Idle: palette.Text, Disabled: palette.Dim}
	t.TextTheme.Face, t.TextTheme.Color = &f.normal, palette.Text
	ti := t.TextInputTheme
	ti.Face = &f.normal
	ti.Image = &widget.TextInputImage{Idle: image.NewBorderedNineSliceColor(palette.Outline, palette.WallEdge, 2),
		Disabled: image.NewBorderedNineSliceColor(palette.BG, palette.Floor, 2)}
	ti.Color = &widget.TextInputColor{Idle: palette.Text, Caret: palette.Me, Disabled: palette.Dim, DisabledCaret: palette.Dim}
	ti.Padding = widget.NewInsetsSimple(8)
	t.CheckboxTheme.Label.Face = &f.normal
	t.CheckboxTheme.Label.Color = &widget.LabelColor{Idle: palette.Text, Disabled: palette.Dim}
	s := t.SliderTheme
	s.TrackImage = &widget.SliderTrackImage{Idle: image.NewBorderedNineSliceColor(palette.Floor, palette.Wall, 2),
		Hover: image.NewBorderedNineSliceColor(palette.Floor, palette.Me, 2)}
	s.HandleImage = &widget.ButtonImage{Idle: image.NewNineSliceColor(palette.WallEdge), Hover: image.NewNineSliceColor(palette.Me),
		Pressed: image.NewNineSliceColor(palette.Me), PressedHover: image.NewNineSliceColor(palette.Me)}
	fixed := 14
	s.FixedHandleSize = &fixed
	return t
}

// lockImage is a padlock drawn with vector shapes (the Go fonts have no
// lock glyph), for servers that want a password; blank is as large and
// empty, so that rows without one line up.
func lockImage(clr color.Color) *ebiten.Image {
	img := ebiten.NewImage(18, 20)
	vector.StrokeRect(img, 4.5, 1.5, 9, 10, 2, clr, true)
	vector.DrawFilledRect(img, 2, 8, 14, 11, clr, true)
	vector.DrawFilledRect(img, 8, 11, 2, 4, palette.Outline, false)
	return img
}
