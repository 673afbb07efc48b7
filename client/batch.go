//go:build !headless

package client

import (
	"image/color"

	"github.com/hajimehoshi/ebiten/v2"
)

// rectBatch collects solid rectangles and draws them in one DrawTriangles
// call: the net_graph draws hundreds a frame, which one vector call each
// would make costly.
type rectBatch struct {
	vs []ebiten.Vertex
	is []uint16
}

var whitePixel = func() *ebiten.Image {
	img := ebiten.NewImage(3, 3)
	img.Fill(color.White)
	return img
}

var whiteSub *ebiten.Image

func (b *rectBatch) add(x, y, w, h float32, c color.Color) {
	if len(b.vs)+4 > 65535 {
		return
	}
	r, g, bl, a := c.RGBA()
	cr, cg, cb, ca := float32(r)/0xffff, float32(g)/0xffff, float32(bl)/0xffff, float32(a)/0xffff
	n := uint16(len(b.vs))
	for _, p := range [4][2]float32{{x, y}, {x + w, y}, {x, y + h}, {x + w, y + h}} {
		b.vs = append(b.vs, ebiten.Vertex{DstX: p[0], DstY: p[1], SrcX: 1, SrcY: 1,
			ColorR: cr, ColorG: cg, ColorB: cb, ColorA: ca})
	}
	b.is = append(b.is, n, n+1, n+2, n+1, n+3, n+2)
}

func (b *rectBatch) draw(dst *ebiten.Image) {
	if len(b.is) == 0 {
		return
	}
	if whiteSub == nil {
		whiteSub = whitePixel()
	}
	dst.DrawTriangles(b.vs, b.is, whiteSub, &ebiten.DrawTrianglesOptions{})
	b.vs, b.is = b.vs[:0], b.is[:0]
}
