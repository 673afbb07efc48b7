//go:build !headless

package client

import (
	"image"
	"image/color"

	"github.com/hajimehoshi/ebiten/v2"
)

// The atlas is the one source image of the frame's batch: a white block
// that solid shapes sample, the players' bodies drawn once in each colour,
// and every string drawn recently, laid out once with its shadow (text/v2
// shapes and lays out glyphs at a cost far above drawing them). With all
// of it in one texture, a frame's shapes, bodies, name plates and HUD text
// go out in one DrawTriangles call.
//
// Layout, pixels: the top row (spriteRowH high) holds the white 4×4 block
// at the top-left, sampled at its centre, and the body sprites from
// bodyX0; below it the art row (artY, artTile high: the floor textures,
// art.go); text is packed in shelves below that (from textTop). When the text does not fit any
// more, the text is dropped and packed again from empty.
const (
	atlasW, atlasH = 2048, 1024
	atlasWhiteX    = 2 // where shapes sample white
	atlasWhiteY    = 2
	bodySize       = 44 // a body sprite: radius 16, outline 2, shadow, feather, transparent padding
	bodyX0         = 8
	bodySlots      = 24
	spriteRowH     = bodySize + 8
	artY           = spriteRowH
	handSize       = 14 // a hand sprite (character.go), in the art row from handX0, one per body colour
	handX0         = artRowW + 8
	textTop        = artY + artTile + 2
)

type atlas struct {
	img    *ebiten.Image
	bodies map[color.RGBA]int // body colour -> slot
	shelf  shelfPacker
	// resets counts the times the text was dropped because the atlas
	// was full (tests).
	resets int
}

var atl atlas

// atlasImage returns the atlas, made at the first call.
func atlasImage() *ebiten.Image {
	if atl.img == nil {
		// Unmanaged: one texture of its own, never moved by Ebiten's
		// own atlas, which would split the frame's batch.
		atl.img = ebiten.NewImageWithOptions(image.Rect(0, 0, atlasW, atlasH), &ebiten.NewImageOptions{Unmanaged: true})
		atl.img.SubImage(image.Rect(0, 0, 4, 4)).(*ebiten.Image).Fill(color.White)
		atl.img.SubImage(image.Rect(0, artY, artRowW, artY+artTile)).(*ebiten.Image).WritePixels(artTextures())
		atl.bodies = map[color.RGBA]int{}
		atl.shelf = shelfPacker{w: atlasW, h: atlasH, top: textTop}
	}
	return atl.img
}

// allocText returns a free w×h region of the atlas for text, dropping all
// the text held when the atlas is full; ok is false when the text could
// not fit even in an empty atlas, or was dropped already in this frame.
func allocText(w, h int) (x, y int, ok bool) {
	img := atlasImage()
	if x, y, ok := atl.shelf.alloc(w, h); ok {
		return x, y, true
	}
	if txt.resetFrame == txt.frame && txt.frame != 0 {
		return 0, 0, false // full again within a frame: do not thrash
	}
	dropText(img)
	return atl.shelf.alloc(w, h)
}

// dropText empties the atlas of text (it is full). What the batch holds
// still refers to the old text: it is drawn first.
func dropText(img *ebiten.Image) {
	batch.flush()
	img.SubImage(image.Rect(0, textTop, atlasW, atlasH)).(*ebiten.Image).Clear()
	atl.shelf = shelfPacker{w: atlasW, h: atlasH, top: textTop}
	atl.resets++
	txt.drop()
}

// whiteSource is a plain white image: the source of the batch that draws
// the body sprites into the atlas (an image cannot be drawn onto itself).
var whiteSource *ebiten.Image

// bodySprite returns the atlas position of a player's body in colour col,
// drawing it at the first call; ok is false when the sprite row is full.
func bodySprite(col color.RGBA) (x, y int, ok bool) {
	img := atlasImage()
	k, ok := atl.bodies[col]
	if !ok {
		k = len(atl.bodies)
		if k >= bodySlots {
			return 0, 0, false
		}
		atl.bodies[col] = k
		if whiteSource == nil {
			whiteSource = ebiten.NewImage(3, 3)
			whiteSource.Fill(color.White)
		}
		b := shapeBatch{src: whiteSource, sx: 1.5, sy: 1.5}
		b.use(img)
		cx, cy := float32(bodyX0+k*bodySize+bodySize/2), float32(bodySize/2)
		drawBodySprite(&b, cx, cy, col) // character.go
		drawHandSprite(&b, float32(handX0+k*handSize)+handSize/2, artY+handSize/2, col)
		b.flush()
	}
	return bodyX0 + k*bodySize, 0, true
}

// handSprite returns the atlas position of a hand of a body in colour col
// (drawn with the body's sprite); ok is false when the sprite row is full.
func handSprite(col color.RGBA) (x, y int, ok bool) {
	bx, _, ok := bodySprite(col)
	return handX0 + (bx-bodyX0)/bodySize*handSize, artY, ok
}

// shelfPacker places rectangles in rows ("shelves") from top down, each
// row as high as its first rectangle; a rectangle goes in the first row
// with room that is as high as it and not much higher.
type shelfPacker struct {
	w, h    int // the area
	top     int // where the next shelf starts
	shelves []shelf
}

type shelf struct{ y, h, x int }

// alloc returns the top-left of a free w×h region, one pixel apart from
// the others, or ok false when there is none.
func (p *shelfPacker) alloc(w, h int) (x, y int, ok bool) {
	if w > p.w || h <= 0 || w <= 0 {
		return 0, 0, false
	}
	for i := range p.shelves {
		s := &p.shelves[i]
		if h <= s.h && h*5 >= s.h*4 && s.x+w <= p.w {
			x, y = s.x, s.y
			s.x += w + 1
			return x, y, true
		}
	}
	if p.top+h > p.h {
		return 0, 0, false
	}
	p.shelves = append(p.shelves, shelf{y: p.top, h: h, x: w + 1})
	y = p.top
	p.top += h + 1
	return 0, y, true
}
