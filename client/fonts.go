//go:build !headless

package client

import (
	"bytes"
	"image"
	"image/color"
	"math"

	"github.com/hajimehoshi/ebiten/v2"
	"github.com/hajimehoshi/ebiten/v2/text/v2"
	"golang.org/x/image/font/gofont/gobold"
	"golang.org/x/image/font/gofont/goregular"
)

var (
	fontSrc *text.GoTextFaceSource
	boldSrc *text.GoTextFaceSource
)

func init() {
	var err error
	if fontSrc, err = text.NewGoTextFaceSource(bytes.NewReader(goregular.TTF)); err != nil {
		panic(err)
	}
	if boldSrc, err = text.NewGoTextFaceSource(bytes.NewReader(gobold.TTF)); err != nil {
		panic(err)
	}
}

type faceKey struct {
	size float64
	bold bool
}

var faces = map[faceKey]*text.GoTextFace{}

// face returns the Go font at size pixels, regular or bold (one value per
// size, reused).
func face(size float64, bold bool) *text.GoTextFace {
	k := faceKey{size, bold}
	f := faces[k]
	if f == nil {
		src := fontSrc
		if bold {
			src = boldSrc
		}
		f = &text.GoTextFace{Source: src, Size: size}
		faces[k] = f
	}
	return f
}

// textStyle is what, besides the string, makes a cached text image.
type textStyle struct {
	size float64
	bold bool
	clr  color.RGBA
}

// textImage is one string laid out with its shadow in the atlas.
type textImage struct {
	x, y, w, h int     // its region in the atlas, pixels
	adv        float64 // advance of the text, pixels (without the shadow)
}

// textCache finds the strings drawn before in the atlas, so that a frame
// draws name plates and HUD text as quads of the frame's batch instead of
// shaping and laying out glyphs.
type textCache struct {
	styles map[textStyle]map[string]*textImage
	frame  uint64 // frames drawn
	// resetFrame is the frame in which the atlas was last emptied.
	resetFrame uint64
	// misses counts the strings laid out (tests).
	misses int
}

// txt is the cache drawText uses.
var txt = &textCache{}

// drop forgets every string: the atlas was emptied.
func (tc *textCache) drop() {
	tc.styles = nil
	tc.resetFrame = tc.frame
}

// get returns s's image in style st, laying it out into the atlas at the
// first call; nil when the atlas has no room for it.
func (tc *textCache) get(s string, st textStyle) *textImage {
	if m := tc.styles[st]; m != nil {
		if t := m[s]; t != nil {
			return t
		}
	}
	tc.misses++
	f := face(st.size, st.bold)
	adv, h := text.Measure(s, f, 0)
	w, hh := int(math.Ceil(adv))+1, int(math.Ceil(h))+1 // +1: the shadow
	if adv == 0 {
		w = 0
	}
	t := &textImage{w: w, h: hh, adv: adv}
	if w > 0 {
		x, y, ok := allocText(w, hh)
		if !ok {
			return nil
		}
		t.x, t.y = x, y
		dst := atlasImage().SubImage(image.Rect(x, y, x+w, y+hh)).(*ebiten.Image)
		layoutText(dst, s, st.size, st.bold, float64(x), float64(y), 0, st.clr)
	}
	if tc.styles == nil {
		tc.styles = map[textStyle]map[string]*textImage{}
	}
	m := tc.styles[st]
	if m == nil {
		m = map[string]*textImage{}
		tc.styles[st] = m
	}
	m[s] = t
	return t
}

// getBytes is get for a string being built in a reused buffer: looking it
// up does not allocate (the map index converts b without copying).
func (tc *textCache) getBytes(b []byte, st textStyle) *textImage {
	if m := tc.styles[st]; m != nil {
		if t := m[string(b)]; t != nil {
			return t
		}
	}
	return tc.get(string(b), st)
}

// endFrame counts a frame.
func (tc *textCache) endFrame() { tc.frame++ }

// align moves x for a text of width w: its left (align 0), centre (1) or
// right (2) at x; positions are whole pixels so cached text stays crisp.
func align(x, w float64, a int) float64 {
	switch a {
	case 1:
		x -= w / 2
	case 2:
		x -= w
	}
	return math.Round(x)
}

// drawCached adds t to the frame's batch, or lays s out onto dst when the
// atlas had no room (t nil).
func drawCached(dst *ebiten.Image, t *textImage, s string, st textStyle, x, y float64, a int) {
	if t == nil {
		batch.use(dst)
		batch.flush()
		layoutText(dst, s, st.size, st.bold, x, y, a, st.clr)
		return
	}
	if t.w == 0 {
		return
	}
	batch.use(dst)
	batch.image(t.x, t.y, t.w, t.h, align(x, t.adv, a), y)
}

// drawText draws s with its top-left (align 0), centre (1) or right (2) at
// x, y (pixels), size in pixels: laid out once, then from the atlas, in the
// frame's batch (call batch.flush before drawing onto dst otherwise).
func drawText(dst *ebiten.Image, s string, size float64, bold bool, x, y float64, a int, clr color.RGBA) {
	st := textStyle{size, bold, clr}
	drawCached(dst, txt.get(s, st), s, st, x, y, a)
}

// drawTextFaded is drawText with its opacity scaled by alpha, 0..1: the
// text is laid out and cached once, in clr, whatever the alpha.
func drawTextFaded(dst *ebiten.Image, s string, size float64, bold bool, x, y float64, a int, clr color.RGBA, alpha float32) {
	st := textStyle{size, bold, clr}
	t := txt.get(s, st)
	if t == nil || alpha >= 1 {
		drawCached(dst, t, s, st, x, y, a)
		return
	}
	if t.w > 0 && alpha > 0 {
		batch.use(dst)
		batch.imageAlpha(t.x, t.y, t.w, t.h, align(x, t.adv, a), y, alpha)
	}
}

// drawTextBytes is drawText for text built in a reused buffer.
func drawTextBytes(dst *ebiten.Image, b []byte, size float64, bold bool, x, y float64, a int, clr color.RGBA) {
	st := textStyle{size, bold, clr}
	if t := txt.getBytes(b, st); t != nil {
		drawCached(dst, t, "", st, x, y, a)
		return
	}
	drawCached(dst, nil, string(b), st, x, y, a)
}

// textWidth is the advance of s in pixels.
func textWidth(s string, size float64, bold bool) float64 {
	w, _ := text.Measure(s, face(size, bold), 0)
	return w
}

// textAdv is the advance of b in pixels as drawTextBytes draws it in that
// style: from the text cache, so a line drawn every frame is measured once.
func textAdv(b []byte, size float64, bold bool, clr color.RGBA) float64 {
	if t := txt.getBytes(b, textStyle{size, bold, clr}); t != nil {
		return t.adv
	}
	return textWidth(string(b), size, bold)
}

// layoutText shapes and draws s with a shadow, aligned as drawText: for
// text drawn into images that are themselves cached (the text cache, the
// net_graph's text).
func layoutText(dst *ebiten.Image, s string, size float64, bold bool, x, y float64, a int, clr color.Color) {
	f := face(size, bold)
	if a != 0 {
		w, _ := text.Measure(s, f, 0)
		x = align(x, w, a)
	}
	// A shadow keeps text readable over any background.
	op := &text.DrawOptions{}
	op.GeoM.Translate(x+1, y+1)
	op.ColorScale.ScaleWithColor(color.RGBA{0, 0, 0, 0xc0})
	text.Draw(dst, s, f, op)
	op = &text.DrawOptions{}
	op.GeoM.Translate(x, y)
	op.ColorScale.ScaleWithColor(clr)
	text.Draw(dst, s, f, op)
}
