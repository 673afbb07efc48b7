//go:build !headless

package client

import (
	"image/color"
	"math"

	"github.com/hajimehoshi/ebiten/v2"

	"tickshot/client/palette"
	"tickshot/shared"
)

// shapeBatch collects what a frame draws — solid shapes (rectangles,
// lines, discs, rings), the players' bodies and text — as textured
// triangles of one source image, the atlas, and draws them in one
// DrawTriangles call when flushed, reusing its vertex and index buffers
// from frame to frame. Triangles are drawn in the order they were added,
// so shapes and text layer as if drawn one by one.
//
// Edges are smoothed by a one-pixel feather whose vertices fade to
// transparent: nothing is drawn with Ebiten's anti-aliasing, which renders
// every anti-aliased draw call into a double-sized offscreen and copies it
// back when the next plain one comes; on a software rasteriser (Mesa
// llvmpipe) that made 16 players cost 200 ms a frame.
type shapeBatch struct {
	dst *ebiten.Image
	vs  []ebiten.Vertex
	is  []uint16
	// src is the source image, nil for the atlas; sx, sy a white point
	// of it.
	src    *ebiten.Image
	sx, sy float32
	// calls counts the DrawTriangles calls issued (tests).
	calls int
}

// batch is the frame's batch: Ebiten draws on one goroutine.
var batch shapeBatch

// maxBatchVerts is the most vertices one call takes: indices are uint16.
const maxBatchVerts = 1 << 16

// fcolor is a premultiplied colour as vertex colour scales, 0..1.
type fcolor struct{ r, g, b, a float32 }

// fc converts an alpha-premultiplied color.RGBA (Go's convention for that
// type).
func fc(c color.RGBA) fcolor {
	return fcolor{float32(c.R) / 255, float32(c.G) / 255, float32(c.B) / 255, float32(c.A) / 255}
}

// nrgba converts a straight-alpha colour to color.RGBA (premultiplied).
func nrgba(c color.NRGBA) color.RGBA {
	m := func(v uint8) uint8 { return uint8((uint16(v)*uint16(c.A) + 127) / 255) }
	return color.RGBA{m(c.R), m(c.G), m(c.B), c.A}
}

func (c fcolor) scaled(k float32) fcolor { return fcolor{c.r * k, c.g * k, c.b * k, c.a * k} }

// use makes dst the batch's destination, drawing what is held for
// another destination first.
func (b *shapeBatch) use(dst *ebiten.Image) {
	if b.dst != dst {
		b.flush()
		b.dst = dst
	}
}

// reserve makes room for n more vertices, drawing what is held when full.
func (b *shapeBatch) reserve(n int) {
	if len(b.vs)+n > maxBatchVerts {
		b.flush()
	}
}

func (b *shapeBatch) vertex(x, y float32, c fcolor) uint16 {
	sx, sy := b.sx, b.sy
	if b.src == nil {
		sx, sy = atlasWhiteX, atlasWhiteY
	}
	b.vs = append(b.vs, ebiten.Vertex{DstX: x, DstY: y, SrcX: sx, SrcY: sy, ColorR: c.r, ColorG: c.g, ColorB: c.b, ColorA: c.a})
	return uint16(len(b.vs) - 1)
}

// quad adds a quadrilateral p0 p1 p3 p2 (p0-p1 one side, p2-p3 the other).
func (b *shapeBatch) quad(i0, i1, i2, i3 uint16) {
	b.is = append(b.is, i0, i1, i2, i1, i3, i2)
}

// rect adds an axis-aligned rectangle, x, y its top-left, in pixels.
func (b *shapeBatch) rect(x, y, w, h float32, c color.RGBA) {
	if w <= 0 || h <= 0 || c.A == 0 {
		return
	}
	b.reserve(4)
	f := fc(c)
	i := b.vertex(x, y, f)
	b.vertex(x+w, y, f)
	b.vertex(x, y+h, f)
	b.vertex(x+w, y+h, f)
	b.quad(i, i+1, i+2, i+3)
}

// strokeRect adds a rectangle's outline of width w, centred on its edges.
func (b *shapeBatch) strokeRect(x, y, w, h, lw float32, c color.RGBA) {
	b.rect(x-lw/2, y-lw/2, w+lw, lw, c)
	b.rect(x-lw/2, y+h-lw/2, w+lw, lw, c)
	b.rect(x-lw/2, y+lw/2, lw, h-lw, c)
	b.rect(x+w-lw/2, y+lw/2, lw, h-lw, c)
}

// line adds a segment of width w with feathered long sides.
func (b *shapeBatch) line(x0, y0, x1, y1, w float32, c color.RGBA) {
	dx, dy := x1-x0, y1-y0
	l := float32(math.Hypot(float64(dx), float64(dy)))
	if l == 0 || c.A == 0 {
		return
	}
	nx, ny := -dy/l, dx/l // unit normal
	core := max(w/2-0.5, 0)
	f := fc(c).scaled(min(w, 1))
	z := fcolor{}
	b.reserve(8)
	// Across the line: outer edge, core edge, core edge, outer edge; at both ends.
	offs := [4]float32{-core - 1, -core, core, core + 1}
	cols := [4]fcolor{z, f, f, z}
	i := uint16(len(b.vs))
	for k := range 4 {
		b.vertex(x0+nx*offs[k], y0+ny*offs[k], cols[k])
		b.vertex(x1+nx*offs[k], y1+ny*offs[k], cols[k])
	}
	for k := uint16(0); k < 3; k++ {
		b.quad(i+2*k, i+2*k+1, i+2*k+2, i+2*k+3)
	}
}

// circleSegments is how many segments approximate a circle of radius r
// pixels: chords of about 4 px, so the edge is within a tenth of a pixel
// of round for the player's 16 px.
func circleSegments(r float32) int {
	return int(min(max(math.Ceil(2*math.Pi*float64(r)/4), 12), 128))
}

// unitCircles caches cos and sin of each segment count.
var unitCircles = map[int][][2]float32{}

func unitCircle(n int) [][2]float32 {
	if u, ok := unitCircles[n]; ok {
		return u
	}
	u := make([][2]float32, n)
	for i := range u {
		a := 2 * math.Pi * float64(i) / float64(n)
		u[i] = [2]float32{float32(math.Cos(a)), float32(math.Sin(a))}
	}
	unitCircles[n] = u
	return u
}

// disc adds a filled circle with a feathered edge.
func (b *shapeBatch) disc(cx, cy, r float32, c color.RGBA) {
	if r <= 0 || c.A == 0 {
		return
	}
	n := circleSegments(r)
	u := unitCircle(n)
	b.reserve(2*n + 1)
	f := fc(c)
	if r < 1 {
		f = f.scaled(r)
	}
	in, out := max(r-0.5, 0), r+0.5
	centre := b.vertex(cx, cy, f)
	first := uint16(len(b.vs))
	for _, p := range u {
		b.vertex(cx+p[0]*in, cy+p[1]*in, f)
		b.vertex(cx+p[0]*out, cy+p[1]*out, fcolor{})
	}
	for k := 0; k < n; k++ {
		i := first + uint16(2*k)
		j := first + uint16(2*((k+1)%n))
		b.is = append(b.is, centre, i, j)
		b.quad(i, i+1, j, j+1)
	}
}

// ring adds a circle's outline of width w centred on radius r, feathered
// on both sides.
func (b *shapeBatch) ring(cx, cy, r, w float32, c color.RGBA) {
	if r <= 0 || w <= 0 || c.A == 0 {
		return
	}
	n := circleSegments(r + w/2)
	u := unitCircle(n)
	b.reserve(4 * n)
	f := fc(c).scaled(min(w, 1))
	half := max(w/2, 0.5)
	radii := [4]float32{max(r-half-0.5, 0), max(r-half+0.5, 0), r + half - 0.5, r + half + 0.5}
	cols := [4]fcolor{{}, f, f, {}}
	first := uint16(len(b.vs))
	for _, p := range u {
		for k := range 4 {
			b.vertex(cx+p[0]*radii[k], cy+p[1]*radii[k], cols[k])
		}
	}
	for s := 0; s < n; s++ {
		i := first + uint16(4*s)
		j := first + uint16(4*((s+1)%n))
		for k := uint16(0); k < 3; k++ {
			b.quad(i+k, i+k+1, j+k, j+k+1)
		}
	}
}

// arc adds the part of a ring (see ring) from angle a0 to a1 (radians,
// a0 < a1, clockwise on screen), its ends cut square.
func (b *shapeBatch) arc(cx, cy, r, w, a0, a1 float32, c color.RGBA) {
	if r <= 0 || w <= 0 || c.A == 0 || a1 <= a0 {
		return
	}
	n := max(int(float32(circleSegments(r+w/2))*(a1-a0)/(2*math.Pi))+1, 2)
	b.reserve(4 * (n + 1))
	f := fc(c).scaled(min(w, 1))
	half := max(w/2, 0.5)
	radii := [4]float32{max(r-half-0.5, 0), max(r-half+0.5, 0), r + half - 0.5, r + half + 0.5}
	first := uint16(len(b.vs))
	for s := 0; s <= n; s++ {
		sin, cos := math.Sincos(float64(a0 + (a1-a0)*float32(s)/float32(n)))
		for k := range 4 {
			col := f
			if k == 0 || k == 3 {
				col = fcolor{}
			}
			b.vertex(cx+float32(cos)*radii[k], cy+float32(sin)*radii[k], col)
		}
	}
	for s := 0; s < n; s++ {
		i := first + uint16(4*s)
		for k := uint16(0); k < 3; k++ {
			b.quad(i+k, i+k+1, i+k+4, i+k+5)
		}
	}
}

// image adds the atlas region at sx, sy, w×h pixels, copied texel for
// texel with its top-left at x, y rounded to whole pixels.
func (b *shapeBatch) image(sx, sy, w, h int, x, y float64) { b.imageAlpha(sx, sy, w, h, x, y, 1) }

// imageAlpha is image with its opacity scaled by a, 0..1.
func (b *shapeBatch) imageAlpha(sx, sy, w, h int, x, y float64, a float32) {
	b.reserve(4)
	x0, y0 := float32(math.Round(x)), float32(math.Round(y))
	fw, fh := float32(w), float32(h)
	i := uint16(len(b.vs))
	for _, p := range [4][2]float32{{0, 0}, {fw, 0}, {0, fh}, {fw, fh}} {
		b.vs = append(b.vs, ebiten.Vertex{DstX: x0 + p[0], DstY: y0 + p[1], SrcX: float32(sx) + p[0], SrcY: float32(sy) + p[1],
			ColorR: a, ColorG: a, ColorB: a, ColorA: a})
	}
	b.quad(i, i+1, i+2, i+3)
}

// body adds a player's body (disc in col and dark outline) centred at x,
// y: one quad of its sprite in the atlas.
func (b *shapeBatch) body(x, y float32, col color.RGBA) {
	sx, sy, ok := bodySprite(col)
	if !ok || b.src != nil {
		r := float32(shared.PlayerRadius)
		b.disc(x, y, r, col)
		b.ring(x, y, r, 2, palette.Outline)
		return
	}
	b.image(sx, sy, bodySize, bodySize, float64(x)-bodySize/2, float64(y)-bodySize/2)
}

var batchOptions = &ebiten.DrawTrianglesOptions{ColorScaleMode: ebiten.ColorScaleModePremultipliedAlpha}

// flush draws what the batch holds onto its destination and empties it.
func (b *shapeBatch) flush() {
	if len(b.is) == 0 || b.dst == nil {
		b.vs, b.is = b.vs[:0], b.is[:0]
		return
	}
	src := b.src
	if src == nil {
		src = atlasImage()
	}
	b.dst.DrawTriangles(b.vs, b.is, src, batchOptions)
	b.calls++
	b.vs, b.is = b.vs[:0], b.is[:0]
}
