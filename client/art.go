//go:build !headless

package client

import (
	"image/color"
	"math"
	"slices"
	"strings"

	"github.com/hajimehoshi/ebiten/v2"

	"tickshot/client/palette"
	"tickshot/game"
	"tickshot/shared"
)

// The arena's art, drawn by the program itself (nothing is loaded from
// files): floor textures made pixel by pixel into the atlas's art row when
// the atlas is made (artTextures), then the frame's floor as one textured
// quad per 64-unit tile, tinted by vertex colour, walls as shaded quads
// with a top face, a side face and a drop shadow, and decals from the
// map's data (spawn pads at the spawns, each named area's floor and its
// name painted on it). All of it goes into the frame's one batch
// (batch.go), so the frame stays one DrawTriangles call (issue 13).
//
// A texture is grey, its flat texel artBase (0.8): drawn with a vertex
// colour of tint/artBase, a flat texel shows the tint exactly, the texture's
// highlights (up to 1.0) a quarter lighter and its seams darker.

// artTile is a floor texture's size and the floor's tile, pixels = world units.
const artTile = 64

// artBase is the flat texel of every texture, 0..255.
const artBase = 204

// Floor patterns: the textures of the art row, in order.
const (
	patConcrete = iota // slabs with speckle: the plain floor
	patCracked         // the same slab, cracked (one tile in seven)
	patPlate           // steel tread plate with rivets: bases, wings
	patPaving          // offset paving stones: squares, halls
	patGrass           // grass: parks
	patPlanks          // wooden planks: markets
	patAsphalt         // fine asphalt: streets, lanes
	patTiles           // square 32-unit tiles: rooms
	patWallTop         // the walls' top face: cast concrete in 32-unit courses
	numPatterns
)

// artTexX is the atlas x of pattern p's texture (in the art row, artY).
func artTexX(p int) int { return 1 + p*(artTile+2) }

// floorStyle is how an area's floor looks: its pattern and tint (the
// colour of a flat texel, opaque).
type floorStyle struct {
	pat  int
	tint color.RGBA
}

// floorStyles are the styles an area takes by a word of its name (in this
// order: the first word found wins); an area whose name has none of them,
// and the floor outside every area, is plain concrete in palette.Floor.
var floorStyles = []struct {
	word  string
	style floorStyle
}{
	{"base", floorStyle{patPlate, color.RGBA{0x22, 0x29, 0x33, 0xff}}},
	{"wing", floorStyle{patPlate, palette.Floor}},
	{"park", floorStyle{patGrass, color.RGBA{0x1f, 0x30, 0x22, 0xff}}},
	{"market", floorStyle{patPlanks, color.RGBA{0x33, 0x29, 0x1f, 0xff}}},
	{"square", floorStyle{patPaving, color.RGBA{0x2e, 0x2b, 0x28, 0xff}}},
	{"centre", floorStyle{patPaving, color.RGBA{0x27, 0x27, 0x2a, 0xff}}}, // near palette.Floor: the arena stays its grey
	{"hall", floorStyle{patPaving, color.RGBA{0x2c, 0x2a, 0x27, 0xff}}},
	{"street", floorStyle{patAsphalt, color.RGBA{0x1f, 0x21, 0x25, 0xff}}},
	{"lane", floorStyle{patAsphalt, color.RGBA{0x21, 0x23, 0x28, 0xff}}},
	{"room", floorStyle{patTiles, color.RGBA{0x26, 0x28, 0x30, 0xff}}},
}

// roomTints vary the rooms (areas named "... room") one from the next, so
// that each room of an indoor map reads as a place of its own.
var roomTints = []color.RGBA{
	{0x26, 0x28, 0x30, 0xff}, {0x2c, 0x26, 0x26, 0xff}, {0x24, 0x2b, 0x28, 0xff},
	{0x2b, 0x29, 0x22, 0xff}, {0x27, 0x25, 0x2e, 0xff}, {0x22, 0x2a, 0x2e, 0xff},
}

// styleOf is the floor style of area i of a map, named name.
func styleOf(name string, i int) floorStyle {
	n := strings.ToLower(name)
	for _, s := range floorStyles {
		if strings.Contains(n, s.word) {
			st := s.style
			if st.pat == patTiles {
				st.tint = roomTints[i%len(roomTints)]
			}
			return st
		}
	}
	return floorStyle{patConcrete, palette.Floor}
}

// artHash is a small integer hash (splitmix-like) for the textures' noise
// and the tiles' variants: the same picture on every run.
func artHash(a, b, c int) uint32 {
	x := uint64(a)*0x9E3779B97F4A7C15 ^ uint64(b)*0xC2B2AE3D27D4EB4F ^ uint64(c)*0x165667B19E3779F9
	x ^= x >> 29
	x *= 0xBF58476D1CE4E5B9
	x ^= x >> 32
	return uint32(x)
}

// artNoise is artHash as a value in [-1, 1).
func artNoise(a, b, c int) float64 { return float64(artHash(a, b, c)%2048)/1024 - 1 }

// smoothNoise is value noise of cell size s at x, y, wrapping every
// artTile pixels (so that a tile's texture repeats without a seam), in
// [-1, 1).
func smoothNoise(x, y, s, seed int) float64 {
	n := artTile / s
	cx, cy := x/s, y/s
	fx, fy := float64(x%s)/float64(s), float64(y%s)/float64(s)
	fx, fy = fx*fx*(3-2*fx), fy*fy*(3-2*fy)
	v := func(i, j int) float64 { return artNoise((i+n)%n, (j+n)%n, seed) }
	a := v(cx, cy)*(1-fx) + v(cx+1, cy)*fx
	b := v(cx, cy+1)*(1-fx) + v(cx+1, cy+1)*fx
	return a*(1-fy) + b*fy
}

// artTexel is pattern p's grey at x, y (0..artTile-1), 0..255.
func artTexel(p, x, y int) float64 {
	const B = artBase
	n := artNoise(x, y, p)
	bevel := func(x, y, w int) float64 { // a slab's lit top-left and dark bottom-right edges
		switch {
		case x == 0 || y == 0:
			return 255
		case x == w-1 || y == w-1:
			return 160
		case x == 1 || y == 1:
			return 224
		}
		return 0
	}
	switch p {
	case patConcrete, patCracked:
		if e := bevel(x, y, artTile); e != 0 {
			return e
		}
		v := B + 3*n + 5*smoothNoise(x, y, 16, p+40)
		if artHash(x, y, 7)%53 == 0 {
			v -= 22 // a pit
		}
		if p == patCracked {
			// A crack: a wandering dark line from the top-left part to the bottom-right.
			cy := 10 + x*3/4 + int(6*smoothNoise(x, 0, 8, 9))
			if x > 14 && x < 50 && (y == cy || (y == cy+1 && x%3 == 0)) {
				v = 176
			}
		}
		return v
	case patPlate:
		if e := bevel(x, y, artTile); e != 0 {
			return e
		}
		// Rivets in the corners.
		for _, c := range [4][2]int{{6, 6}, {57, 6}, {6, 57}, {57, 57}} {
			dx, dy := x-c[0], y-c[1]
			if d := dx*dx + dy*dy; d <= 5 {
				return 232 - 14*float64(dx+dy)
			}
		}
		// Diamond tread: short diagonal bars, alternating direction.
		cx, cy := (x-4+64)%12, (y-4+64)%12
		if cx < 8 && cy < 8 {
			alt := ((x-4)/12+(y-4)/12)%2 == 0
			d := cx - cy
			if !alt {
				d = cx + cy - 7
			}
			switch d {
			case 0:
				return 228
			case 1:
				return 168
			}
		}
		return B + 2*n
	case patPaving:
		// Rows of 32 units, every other row offset by 16: stones of 32 × 32.
		row := y / 32
		sx := (x + 16*(row%2)) % artTile
		gx, gy := sx%32, y%32
		if gx == 31 || gy == 31 {
			return 150
		}
		stone := artNoise(sx/32, row, 11)
		v := B + 9*stone + 3*n
		if gx == 0 || gy == 0 {
			v += 18
		}
		return v
	case patGrass:
		v := B + 10*smoothNoise(x, y, 16, 12) + 6*n
		if artHash(x, y, 13)%9 == 0 { // blades: a light tip over a dark foot
			v += 30
		} else if artHash(x, (y+63)%artTile, 13)%9 == 0 {
			v -= 22
		}
		return v
	case patPlanks:
		// Planks 16 units wide, each with one butt joint.
		row := y / 16
		if y%16 == 15 {
			return 140
		}
		joint := int(artHash(row, 0, 14) % artTile)
		if x == joint {
			return 150
		}
		grain := 8 * math.Sin(float64(x)*0.35+float64(y%16)*0.9+float64(row)*2)
		return B + 0.5*grain + 6*artNoise(row, 1, 15) + 2*n
	case patAsphalt:
		v := B + 14*n + 8*smoothNoise(x, y, 8, 16)
		if artHash(x, y, 17)%23 == 0 {
			v += 40 // a pebble
		}
		return v
	case patWallTop:
		v := B + 3*n + 4*smoothNoise(x, y, 16, 18)
		switch y % 32 {
		case 31:
			v -= 12
		case 0:
			v += 8
		}
		return v
	case patTiles:
		gx, gy := x%32, y%32
		if gx == 31 || gy == 31 {
			return 165
		}
		v := B + 2*n
		if (x/32+y/32)%2 == 1 {
			v -= 12
		}
		if gx == 0 || gy == 0 {
			v += 14
		}
		return v
	}
	return B
}

// artTextures makes the textures' pixels: numPatterns textures of
// artTile × artTile side by side, 2 pixels apart, as RGBA rows of the art
// row (artRowW × artTile).
func artTextures() []byte {
	pix := make([]byte, 4*artRowW*artTile)
	for p := range numPatterns {
		x0 := artTexX(p)
		for y := range artTile {
			for x := range artTile {
				v := uint8(math.Max(0, math.Min(255, math.Round(artTexel(p, x, y)))))
				i := 4 * (y*artRowW + x0 + x)
				pix[i], pix[i+1], pix[i+2], pix[i+3] = v, v, v, 0xff
			}
		}
	}
	return pix
}

// artRowW is the width of the art row's textures, pixels.
const artRowW = numPatterns*(artTile+2) + 2

// mapArt is what the floor needs of a map, worked out once per map: each
// tile's style, and the areas' name plates.
type mapArt struct {
	m      *game.Map
	cols   int
	rows   int
	styles []floorStyle // per tile, row by row
	names  []areaName
	// emblems are the paved areas' (squares, halls, the arena's centre)
	// mosaic rings at their centres: centre and outer radius, world units.
	emblems [][3]float64
	// lines are the dashed centre lines of the streets and lanes (areas
	// of asphalt), along their longer side: world units.
	lines []shared.Box
}

// areaName is an area's name as painted on its floor: the text and where
// its centre goes, world units.
type areaName struct {
	text string
	x, y float64
}

var curArt mapArt

// artOf returns the art of map m, worked out at its first frame.
func artOf(m *game.Map) *mapArt {
	if curArt.m == m {
		return &curArt
	}
	a := mapArt{m: m, cols: int(math.Ceil(m.Width / artTile)), rows: int(math.Ceil(m.Height / artTile))}
	a.styles = make([]floorStyle, a.cols*a.rows)
	for ty := range a.rows {
		for tx := range a.cols {
			st := floorStyle{patConcrete, palette.Floor}
			// The tile's centre decides; the smallest area holding it wins,
			// so that a small area inside a large one keeps its look.
			cx, cy := (float64(tx)+0.5)*artTile, (float64(ty)+0.5)*artTile
			best := math.Inf(1)
			for i, ar := range m.Areas {
				b := ar.Box
				if cx >= b.MinX && cx < b.MaxX && cy >= b.MinY && cy < b.MaxY {
					if s := (b.MaxX - b.MinX) * (b.MaxY - b.MinY); s < best {
						best, st = s, styleOf(ar.Name, i)
					}
				}
			}
			if st.pat == patConcrete && artHash(tx, ty, 1)%13 == 5 {
				st.pat = patCracked
			}
			a.styles[ty*a.cols+tx] = st
		}
	}
	for _, ar := range m.Areas {
		if ar.Name == "" {
			continue
		}
		b := ar.Box
		a.names = append(a.names, areaName{strings.ToUpper(ar.Name), (b.MinX + b.MaxX) / 2, (b.MinY + b.MaxY) / 2})
	}
	for i, ar := range m.Areas {
		if styleOf(ar.Name, i).pat == patPaving {
			b := ar.Box
			r := math.Min(math.Min(b.MaxX-b.MinX, b.MaxY-b.MinY)*0.3, 200)
			a.emblems = append(a.emblems, [3]float64{(b.MinX + b.MaxX) / 2, (b.MinY + b.MaxY) / 2, r})
		}
		if styleOf(ar.Name, i).pat != patAsphalt {
			continue
		}
		b := ar.Box
		if mx, my := (b.MinX+b.MaxX)/2, (b.MinY+b.MaxY)/2; b.MaxX-b.MinX >= b.MaxY-b.MinY {
			a.lines = append(a.lines, shared.Box{MinX: b.MinX + 32, MinY: my - 2, MaxX: b.MaxX - 32, MaxY: my + 2})
		} else {
			a.lines = append(a.lines, shared.Box{MinX: mx - 2, MinY: b.MinY + 32, MaxX: mx + 2, MaxY: b.MaxY - 32})
		}
	}
	curArt = a
	return &curArt
}

// texQuad adds the atlas region sx, sy, sw × sh drawn over the screen
// rectangle x, y, w × h, its texels scaled by vertex colour c.
func (b *shapeBatch) texQuad(sx, sy, sw, sh, x, y, w, h float32, c fcolor) {
	b.reserve(4)
	i := uint16(len(b.vs))
	for _, p := range [4][2]float32{{0, 0}, {1, 0}, {0, 1}, {1, 1}} {
		b.vs = append(b.vs, ebiten.Vertex{DstX: x + p[0]*w, DstY: y + p[1]*h, SrcX: sx + p[0]*sw, SrcY: sy + p[1]*sh,
			ColorR: c.r, ColorG: c.g, ColorB: c.b, ColorA: c.a})
	}
	b.quad(i, i+1, i+2, i+3)
}

// gradRect adds an axis-aligned rectangle shaded from top (colour top) to
// bottom (colour bottom).
func (b *shapeBatch) gradRect(x, y, w, h float32, top, bottom color.RGBA) {
	if w <= 0 || h <= 0 {
		return
	}
	b.reserve(4)
	t, u := fc(top), fc(bottom)
	i := b.vertex(x, y, t)
	b.vertex(x+w, y, t)
	b.vertex(x, y+h, u)
	b.vertex(x+w, y+h, u)
	b.quad(i, i+1, i+2, i+3)
}

// tintScale is the vertex colour that shows tint on a flat texel.
func tintScale(c color.RGBA) fcolor {
	k := float32(255) / artBase / 255
	return fcolor{min(float32(c.R)*k, 1), min(float32(c.G)*k, 1), min(float32(c.B)*k, 1), 1}
}

// shade scales an opaque colour's brightness by k.
func shade(c color.RGBA, k float64) color.RGBA {
	m := func(v uint8) uint8 { return uint8(math.Max(0, math.Min(255, float64(v)*k+0.5))) }
	return color.RGBA{m(c.R), m(c.G), m(c.B), c.A}
}

// drawArena draws the map v shows: the background beyond its edges, the
// floor tiles, the decals (area names, spawn pads), the walls' shadows and
// the walls.
func drawArena(v *worldView) {
	m := v.view.Map
	b := &batch
	b.use(v.screen)
	// Whole pixels: the textures stay put on the screen as the camera moves.
	cx, cy, W, H := math.Round(v.camX), math.Round(v.camY), v.W, v.H
	fx0, fy0 := math.Max(-cx, 0), math.Max(-cy, 0)
	fx1, fy1 := math.Max(math.Min(m.Width-cx, W), fx0), math.Max(math.Min(m.Height-cy, H), fy0)
	b.rect(0, 0, f32(W), f32(fy0), palette.BG)
	b.rect(0, f32(fy1), f32(W), f32(H-fy1), palette.BG)
	b.rect(0, f32(fy0), f32(fx0), f32(fy1-fy0), palette.BG)
	b.rect(f32(fx1), f32(fy0), f32(W-fx1), f32(fy1-fy0), palette.BG)
	a := artOf(m)
	tx0, ty0 := max(int((cx+fx0)/artTile), 0), max(int((cy+fy0)/artTile), 0)
	for ty := ty0; ty < a.rows && float64(ty*artTile)-cy < fy1; ty++ {
		for tx := tx0; tx < a.cols && float64(tx*artTile)-cx < fx1; tx++ {
			st := a.styles[ty*a.cols+tx]
			wx, wy := float64(tx*artTile), float64(ty*artTile)
			tw, th := math.Min(artTile, m.Width-wx), math.Min(artTile, m.Height-wy)
			b.texQuad(f32(float64(artTexX(st.pat))), artY, f32(tw), f32(th), f32(wx-cx), f32(wy-cy), f32(tw), f32(th), tintScale(st.tint))
		}
	}
	for _, l := range a.lines {
		drawDashes(l, cx, cy, W, H)
	}
	for _, e := range a.emblems {
		if x, y := e[0]-cx, e[1]-cy; v.onScreen(x, y, e[2]+8) {
			drawEmblem(f32(x), f32(y), f32(e[2]))
		}
	}
	for _, n := range a.names {
		if x, y := n.x-cx, n.y-cy; v.onScreen(x, y, 300) {
			drawTextFaded(v.screen, n.text, 26, true, x, y-16, 1, palette.Text, areaNameAlpha)
		}
	}
	for _, s := range m.Spawns {
		if x, y := s.X-cx, s.Y-cy; v.onScreen(x, y, 40) {
			drawSpawnPad(f32(x), f32(y))
		}
	}
	visible := func(w shared.Box) bool {
		return w.MinX-cx <= W+24 && w.MinY-cy <= H+24 && w.MaxX-cx >= -24 && w.MaxY-cy >= -24
	}
	for _, w := range m.Walls {
		if visible(w) {
			x, y := f32(w.MinX-cx), f32(w.MinY-cy)
			ww, wh := f32(w.MaxX-w.MinX), f32(w.MaxY-w.MinY)
			b.rect(x+wallShadowX, y+wallShadowY, ww, wh, wallShadow)
			b.rect(x+wallShadowX/2, y+wallShadowY/2, ww+wallShadowX/2, wh+wallShadowY/2, wallShadow)
		}
	}
	for _, w := range m.Walls {
		if visible(w) {
			drawWall(f32(w.MinX-cx), f32(w.MinY-cy), f32(w.MaxX-w.MinX), f32(w.MaxY-w.MinY))
		}
	}
}

// The walls' drop shadow: its offset (pixels) and colour, drawn twice (a
// soft edge).
const wallShadowX, wallShadowY = 6, 10

// areaNameAlpha is the opacity of an area's name painted on its floor.
const areaNameAlpha = 0.11

var (
	wallShadow     = color.RGBA{0, 0, 0, 0x48}
	spawnPadRing   = fade(color.RGBA{0x6c, 0xe0, 0xa8, 0xff}, 0.55)
	spawnPadFill   = fade(color.RGBA{0x6c, 0xe0, 0xa8, 0xff}, 0.10)
	wallSideTop    = shade(palette.Wall, 0.62)
	wallSideBottom = shade(palette.Wall, 0.40)
	wallDark       = shade(palette.Wall, 0.72)
)

// drawWall adds a wall whose box is at x, y, w × h on the screen: a top
// face (cast concrete in palette.Wall, lit top and left edges, a dark right edge) over a
// side face along its bottom (the wall's south side, seen from above and a
// little to the south), and on a large wall a roof's recessed border and
// vents.
func drawWall(x, y, w, h float32) {
	b := &batch
	d := min(max(h*0.3, 4), 12) // the side face's height
	top := h - d
	c := tintScale(palette.Wall)
	for ty := float32(0); ty < top; ty += artTile {
		for tx := float32(0); tx < w; tx += artTile {
			tw, th := min(artTile, w-tx), min(artTile, top-ty)
			b.texQuad(float32(artTexX(patWallTop)), artY, tw, th, x+tx, y+ty, tw, th, c)
		}
	}
	b.gradRect(x, y+top, w, d, wallSideTop, wallSideBottom)
	b.rect(x, y+top, w, 1, palette.Outline)
	b.rect(x, y+h-1, w, 1, palette.Outline)
	b.rect(x, y, w, 2, palette.WallEdge)
	b.rect(x, y+2, 2, top-2, palette.WallEdge)
	b.rect(x+w-2, y+2, 2, top-2, wallDark)
	if w >= 96 && top >= 80 {
		const in = 12
		b.strokeRect(x+in, y+in, w-2*in, top-2*in, 2, wallDark)
		b.rect(x+in+1, y+in+1, w-2*in-2, 1, shade(palette.Wall, 1.12))
		// Two vents near the corners.
		for _, p := range [2][2]float32{{x + in + 10, y + in + 10}, {x + w - in - 30, y + top - in - 24}} {
			b.rect(p[0], p[1], 20, 14, wallSideBottom)
			for k := float32(0); k < 4; k++ {
				b.rect(p[0]+2, p[1]+2+k*3, 16, 1, wallDark)
			}
		}
	}
}

// drawSpawnPad adds a spawn point's pad at x, y: a faint disc, a ring and
// four ticks.
func drawSpawnPad(x, y float32) {
	b := &batch
	const r = 26
	b.disc(x, y, r, spawnPadFill)
	b.ring(x, y, r, 2, spawnPadRing)
	for _, p := range [4][2]float32{{1, 0}, {-1, 0}, {0, 1}, {0, -1}} {
		b.line(x+p[0]*(r+4), y+p[1]*(r+4), x+p[0]*(r-6), y+p[1]*(r-6), 3, spawnPadRing)
	}
}

// Lane markings: dashes of laneDash units, laneGap apart, in laneColour.
const laneDash, laneGap = 40, 28

var laneColour = fade(color.RGBA{0xd8, 0xc0, 0x60, 0xff}, 0.22)

// drawDashes adds the visible dashes of the dashed line l (a thin box,
// world units) with the camera at cx, cy and a W × H screen.
func drawDashes(l shared.Box, cx, cy, W, H float64) {
	if l.MaxX-cx < 0 || l.MaxY-cy < 0 || l.MinX-cx > W || l.MinY-cy > H {
		return
	}
	b := &batch
	if horiz := l.MaxX-l.MinX >= l.MaxY-l.MinY; horiz {
		first := l.MinX + math.Max(0, math.Floor((cx-l.MinX)/(laneDash+laneGap)))*(laneDash+laneGap)
		for x := first; x < l.MaxX && x-cx < W; x += laneDash + laneGap {
			b.rect(f32(x-cx), f32(l.MinY-cy), f32(math.Min(laneDash, l.MaxX-x)), f32(l.MaxY-l.MinY), laneColour)
		}
		return
	}
	first := l.MinY + math.Max(0, math.Floor((cy-l.MinY)/(laneDash+laneGap)))*(laneDash+laneGap)
	for y := first; y < l.MaxY && y-cy < H; y += laneDash + laneGap {
		b.rect(f32(l.MinX-cx), f32(y-cy), f32(l.MaxX-l.MinX), f32(math.Min(laneDash, l.MaxY-y)), laneColour)
	}
}

// FloorColours returns the colours a flat texel of map m's floor shows
// (the plain floor's, palette.Floor, and each area's tint; see
// floorStyles), for tests that read the floor off a screenshot.
func FloorColours(m *game.Map) []color.RGBA {
	cs := []color.RGBA{palette.Floor}
	for i, ar := range m.Areas {
		if c := styleOf(ar.Name, i).tint; !slices.Contains(cs, c) {
			cs = append(cs, c)
		}
	}
	return cs
}

// The mosaic emblem's colours: a dark band between light ones.
var (
	emblemDark  = color.RGBA{0, 0, 0, 0x38}
	emblemLight = fade(color.RGBA{0xe8, 0xd8, 0xb0, 0xff}, 0.10)
)

// drawEmblem adds a paved area's landmark at x, y: an outer ring of radius
// r, a dark band inside it, an inner ring and a star of eight spokes.
func drawEmblem(x, y, r float32) {
	b := &batch
	b.ring(x, y, r, 6, emblemLight)
	b.ring(x, y, r-14, 16, emblemDark)
	b.ring(x, y, r*0.45, 4, emblemLight)
	for k := range 8 {
		a := float64(k) * math.Pi / 4
		c, s := float32(math.Cos(a)), float32(math.Sin(a))
		b.line(x+c*r*0.45, y+s*r*0.45, x+c*(r-22), y+s*(r-22), 3, emblemLight)
	}
	b.disc(x, y, r*0.18, emblemDark)
}
