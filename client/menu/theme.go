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
)

// The game's palette (client/draw.go): the arena's floor and walls, the
// local player's cyan as the accent, the HUD's text colours.
var (
	colBG       = color.RGBA{0x14, 0x16, 0x1b, 0xff}
	colFloor    = color.RGBA{0x22, 0x26, 0x2d, 0xff}
	colWall     = color.RGBA{0x5b, 0x64, 0x73, 0xff}
	colWallEdge = color.RGBA{0x8a, 0x95, 0xa8, 0xff}
	colAccent   = color.RGBA{0x3c, 0xd6, 0xf0, 0xff}
	colText     = color.RGBA{0xec, 0xef, 0xf4, 0xff}
	colDim      = color.RGBA{0x9a, 0xa3, 0xb2, 0xff}
	colWarn     = color.RGBA{0xff, 0xd8, 0x60, 0xff}
	colDark     = color.RGBA{0x10, 0x10, 0x10, 0xff}
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
	idle := image.NewBorderedNineSliceColor(colFloor, colWall, 2)
	hover := image.NewBorderedNineSliceColor(colWall, colAccent, 2)
	pressed := image.NewBorderedNineSliceColor(colAccent, colAccent, 2)
	t.DefaultFace, t.DefaultTextColor = &f.normal, colText
	b := t.ButtonTheme
	b.TextFace = &f.normal
	b.TextColor = &widget.ButtonTextColor{Idle: colText, Hover: colText, Pressed: colDark, Disabled: colDim}
	b.Image = &widget.ButtonImage{Idle: idle, Hover: hover, Pressed: pressed, PressedHover: pressed,
		Disabled: image.NewBorderedNineSliceColor(colBG, colFloor, 2)}
	b.TextPadding = &widget.Insets{Left: 16, Right: 16, Top: 8, Bottom: 8}
	t.LabelTheme.Face = &f.normal
	t.LabelTheme.Color = &widget.LabelColor{Idle: colText, Disabled: colDim}
	t.TextTheme.Face, t.TextTheme.Color = &f.normal, colText
	ti := t.TextInputTheme
	ti.Face = &f.normal
	ti.Image = &widget.TextInputImage{Idle: image.NewBorderedNineSliceColor(colDark, colWallEdge, 2),
		Disabled: image.NewBorderedNineSliceColor(colBG, colFloor, 2)}
	ti.Color = &widget.TextInputColor{Idle: colText, Caret: colAccent, Disabled: colDim, DisabledCaret: colDim}
	ti.Padding = widget.NewInsetsSimple(8)
	t.CheckboxTheme.Label.Face = &f.normal
	t.CheckboxTheme.Label.Color = &widget.LabelColor{Idle: colText, Disabled: colDim}
	s := t.SliderTheme
	s.TrackImage = &widget.SliderTrackImage{Idle: image.NewBorderedNineSliceColor(colFloor, colWall, 2),
		Hover: image.NewBorderedNineSliceColor(colFloor, colAccent, 2)}
	s.HandleImage = &widget.ButtonImage{Idle: image.NewNineSliceColor(colWallEdge), Hover: image.NewNineSliceColor(colAccent),
		Pressed: image.NewNineSliceColor(colAccent), PressedHover: image.NewNineSliceColor(colAccent)}
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
	vector.DrawFilledRect(img, 8, 11, 2, 4, colDark, false)
	return img
}
