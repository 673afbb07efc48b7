// Package mapgen generates Tickshot's big arena, `expanse` (256 × 192 tiles
// of 32 units, 8192 × 6144 units: the player density of `arena` at 64
// players, for 1 024), as a Tiled .tmx file in the style of the maps made by
// hand (docs/MAPS.md): object layers walls, spawns, areas and pickups, and
// the map properties title, players and shape. The output is a pure
// function of the code (a fixed seed, no clock, no map iteration):
// assets/maps/expanse.tmx is its committed output, rewritten by
// `go generate ./assets` and checked by TestExpanseCommitted.
//
// The layout is a district plan, the way a city builder lays out blocks
// before it details them: a 4 × 3 grid of districts, each about 1 840 ×
// 1 856 units and each of one kind (park, market, blocks, rooms, base,
// square, hall), between three north–south streets and two east–west
// lanes 256 units wide, with barriers along them and a block at each
// crossing. Spawns are laid on a lattice inside every district wherever a
// player's body clears the walls, so that the 1 024 players start spread
// over the whole map; each district carries its own pickups.
package mapgen

import (
	"bytes"
	"fmt"
	"math/rand/v2"
)

// Expanse's dimensions, world units.
const (
	Tile        = 32
	TilesX      = 256
	TilesY      = 192
	Width       = TilesX * Tile // 8192
	Height      = TilesY * Tile // 6144
	border      = 32            // the outer wall's thickness
	street      = 256           // width of the streets and lanes between districts
	districtsX  = 4
	districtsY  = 3
	districtW   = (Width - 2*border - (districtsX-1)*street) / districtsX  // 1840
	districtH   = (Height - 2*border - (districtsY-1)*street) / districtsY // 1856
	spawnStep   = 208                                                      // the spawn lattice's pitch inside a district
	spawnClear  = 40                                                       // a spawn's least distance to a wall (the body's 16 and room to turn)
	pickupClear = 48                                                       // a pickup's least distance to a wall (game.PickupReach 28 and margin)
	seed        = 23                                                       // issue 23
)

// rect is an axis-aligned rectangle, world units (x, y its top-left).
type rect struct{ x, y, w, h int }

func (r rect) x1() int { return r.x + r.w }
func (r rect) y1() int { return r.y + r.h }

// inset is r shrunk by d on every side.
func (r rect) inset(d int) rect { return rect{r.x + d, r.y + d, r.w - 2*d, r.h - 2*d} }

// point is a position, world units.
type point struct{ x, y int }

// area is a named rectangle of the areas layer (the client's floor art).
type area struct {
	name string
	r    rect
}

// pickup is a pickup object: its class (game's pickup kinds) and centre.
type pickup struct {
	kind string
	at   point
}

// plan is the map being generated.
type plan struct {
	rng     *rand.Rand
	walls   []rect
	spawns  []point
	areas   []area
	pickups []pickup
}

// wall adds a wall; every coordinate is snapped to 16 units.
func (p *plan) wall(x, y, w, h int) {
	p.walls = append(p.walls, rect{snap(x), snap(y), snap(w), snap(h)})
}

// snap rounds v down to a multiple of 16.
func snap(v int) int { return v &^ 15 }

// clearOf reports whether a circle of radius r at c is clear of every wall.
func (p *plan) clearOf(c point, r int) bool {
	for _, w := range p.walls {
		dx := max(w.x-c.x, 0, c.x-w.x1())
		dy := max(w.y-c.y, 0, c.y-w.y1())
		if dx*dx+dy*dy < r*r {
			return false
		}
	}
	return true
}

// district is one cell of the district plan: its rectangle and its place
// in the grid (column i, row j).
type district struct {
	r    rect
	i, j int
	name string
	kind func(p *plan, d district)
}

// Expanse returns the .tmx text of the map `expanse`.
func Expanse() []byte {
	p := &plan{rng: rand.New(rand.NewPCG(seed, seed))}
	p.wall(0, 0, Width, border)
	p.wall(0, Height-border, Width, border)
	p.wall(0, border, border, Height-2*border)
	p.wall(Width-border, border, border, Height-2*border)
	layout := [districtsY][districtsX]struct {
		name string
		kind func(p *plan, d district)
	}{
		{{"north-west park", park}, {"north market", market}, {"old town north", blocks}, {"north-east rooms", rooms}},
		{{"west base", base}, {"central square", square}, {"central hall", hall}, {"east base", base}},
		{{"south-west rooms", rooms}, {"old town south", blocks}, {"south market", market}, {"south-east park", park}},
	}
	var ds []district
	for j := range districtsY {
		for i := range districtsX {
			l := layout[j][i]
			r := rect{border + i*(districtW+street), border + j*(districtH+street), districtW, districtH}
			ds = append(ds, district{r: r, i: i, j: j, name: l.name, kind: l.kind})
		}
	}
	p.streets()
	for _, d := range ds {
		p.areas = append(p.areas, area{d.name, d.r})
		d.kind(p, d)
	}
	for _, d := range ds {
		p.layPickups(d)
	}
	for _, d := range ds {
		p.laySpawns(d)
	}
	return p.tmx()
}

// streets lays the three north–south streets and the two east–west lanes
// between the districts: each an area (asphalt with a centre line), with
// pairs of jersey barriers (96 × 32) along every stretch between two
// crossings, set off the centre line, and a 96-unit block in the middle of
// each crossing, so that a street is a lane to run down with cover to stop
// at, never a clear shot from one end of the map to the other.
func (p *plan) streets() {
	names := []string{"first street", "second street", "third street"}
	for i := range districtsX - 1 {
		x := border + (i+1)*districtW + i*street
		p.areas = append(p.areas, area{names[i], rect{x, border, street, Height - 2*border}})
		for j := range districtsY {
			y := border + j*(districtH+street)
			// Two barriers a stretch, on alternate sides of the centre line.
			p.wall(x+48, y+districtH/3, 32, 96)
			p.wall(x+street-80, y+2*districtH/3, 32, 96)
		}
	}
	lanes := []string{"north lane", "south lane"}
	for j := range districtsY - 1 {
		y := border + (j+1)*districtH + j*street
		p.areas = append(p.areas, area{lanes[j], rect{border, y, Width - 2*border, street}})
		for i := range districtsX {
			x := border + i*(districtW+street)
			p.wall(x+districtW/3, y+48, 96, 32)
			p.wall(x+2*districtW/3, y+street-80, 96, 32)
		}
		for i := range districtsX - 1 {
			x := border + (i+1)*districtW + i*street
			p.wall(x+street/2-48, y+street/2-48, 96, 96) // the crossing's block
		}
	}
}

// park: tree clumps on a jittered grid, a pond in the middle and hedges
// along the edges facing the streets, with paths left open between them.
func park(p *plan, d district) {
	r := d.r.inset(64)
	pond := rect{d.r.x + d.r.w/2 - 192, d.r.y + d.r.h/2 - 112, 384, 224}
	p.wall(pond.x, pond.y, pond.w, pond.h)
	const cell = 232
	for y := r.y; y+cell <= r.y1(); y += cell {
		for x := r.x; x+cell <= r.x1(); x += cell {
			if p.rng.IntN(100) >= 70 {
				continue
			}
			s := 48 + 16*p.rng.IntN(2)
			tx, ty := x+32+p.rng.IntN(cell-s-64), y+32+p.rng.IntN(cell-s-64)
			t := rect{snap(tx), snap(ty), s, s}
			if overlaps(t, pond, 96) {
				continue
			}
			p.wall(t.x, t.y, t.w, t.h)
		}
	}
	// Hedges: two along each long edge, gaps between them for the paths.
	for _, f := range []int{1, 3} {
		x := d.r.x + f*d.r.w/4 - 112
		p.wall(x, d.r.y+24, 224, 32)
		p.wall(x, d.r.y1()-56, 224, 32)
	}
}

// market: rows of stalls (96 × 32) in a lot, aisles between the rows and
// a wider cross aisle through the middle.
func market(p *plan, d district) {
	r := d.r.inset(128)
	const rows, cols = 6, 6
	dy := r.h / rows
	dx := r.w / cols
	for j := range rows {
		for i := range cols {
			if (i == cols/2-1 || i == cols/2) && (j == rows/2-1 || j == rows/2) {
				continue // the middle of the lot is kept open
			}
			x := r.x + i*dx + dx/2 - 48
			y := r.y + j*dy + dy/2 - 16
			if (i+j)%3 == 0 {
				p.wall(x+32, y-32, 32, 96) // a stall turned across the aisle
				continue
			}
			p.wall(x, y, 96, 32)
		}
	}
	// A fountain in the open middle.
	cx, cy := d.r.x+d.r.w/2, d.r.y+d.r.h/2
	p.wall(cx-48, cy-48, 96, 96)
}

// blocks: a grid of 4 × 4 buildings of 320 × 320 between 112-unit
// streets, a third of them cut by a 64-unit alley (a choke).
func blocks(p *plan, d district) {
	const n, b = 4, 320
	gx := (d.r.w - n*b) / (n + 1)
	gy := (d.r.h - n*b) / (n + 1)
	for j := range n {
		for i := range n {
			x := d.r.x + gx + i*(b+gx)
			y := d.r.y + gy + j*(b+gy)
			switch p.rng.IntN(6) {
			case 0, 1: // cut north–south
				p.wall(x, y, 128, b)
				p.wall(x+192, y, 128, b)
			case 2: // cut east–west
				p.wall(x, y, b, 128)
				p.wall(x, y+192, b, 128)
			case 3: // an L-shaped building round a courtyard open to the street
				p.wall(x, y, b, 128)
				p.wall(x, y+128, 128, b-128)
			default:
				p.wall(x, y, b, b)
			}
		}
	}
}

// roomNames name the rooms of a rooms district, in reading order.
var roomNames = [][]string{
	{"archive room", "radio room", "map room", "boiler room", "store room", "guard room", "mess room", "locker room", "server room"},
	{"pump room", "chart room", "engine room", "stock room", "wash room", "drill room", "print room", "tool room", "war room"},
}

// rooms: a building of 3 × 3 rooms filling the district, 32-unit walls
// with a 128-unit doorway in every wall between two rooms and a 160-unit
// one into each corner room from each street side, a crate in every room.
func rooms(p *plan, d district) {
	const n, t, door = 3, 32, 128
	r := d.r.inset(48)
	cw, ch := r.w/n, r.h/n
	// The outer walls, each side cut by doorways into its corner rooms.
	doorsX := []int{r.x + cw/2, r.x + 2*cw + cw/2}
	doorsY := []int{r.y + ch/2, r.y + 2*ch + ch/2}
	sideH := func(y int) {
		for _, s := range segments(r.x, r.x1(), doorsX, door+32) {
			p.wall(s[0], y, s[1]-s[0], t)
		}
	}
	sideV := func(x int) {
		for _, s := range segments(r.y+t, r.y1()-t, doorsY, door+32) {
			p.wall(x, s[0], t, s[1]-s[0])
		}
	}
	sideH(r.y)
	sideH(r.y1() - t)
	sideV(r.x)
	sideV(r.x1() - t)
	// The inner walls: one doorway in every room's side.
	for k := 1; k < n; k++ {
		x := r.x + k*cw
		var doors []int
		for j := range n {
			doors = append(doors, r.y+j*ch+ch/2)
		}
		for _, s := range segments(r.y+t, r.y1()-t, doors, door) {
			p.wall(x, s[0], t, s[1]-s[0])
		}
		y := r.y + k*ch
		doors = doors[:0]
		for i := range n {
			doors = append(doors, r.x+i*cw+cw/2+(i-1)*96)
		}
		for _, s := range segments(r.x+t, r.x1()-t, doors, door) {
			p.wall(s[0], y, s[1]-s[0], t)
		}
	}
	names := roomNames[(d.i+d.j)%len(roomNames)]
	for j := range n {
		for i := range n {
			room := rect{r.x + i*cw, r.y + j*ch, cw, ch}
			p.areas = append(p.areas, area{names[j*n+i], room.inset(t)})
			// A crate off the room's centre, clear of its doorways.
			p.wall(room.x+cw/4+16*p.rng.IntN(4), room.y+ch/4+16*p.rng.IntN(4), 64, 64)
		}
	}
}

// segments cuts the span lo..hi at each centre of cuts (a gap of width
// gap there) and returns the pieces left, each [from, to).
func segments(lo, hi int, cuts []int, gap int) [][2]int {
	var out [][2]int
	at := lo
	for _, c := range cuts {
		if c-gap/2 > at {
			out = append(out, [2]int{at, c - gap/2})
		}
		at = c + gap/2
	}
	if hi > at {
		out = append(out, [2]int{at, hi})
	}
	return out
}

// base: a fortified yard in the middle of the district (walls with a
// gate in each side, towers at the corners, crates inside), sandbag
// barriers in the open ground round it.
func base(p *plan, d district) {
	const yard, t, gate = 768, 32, 160
	x0 := d.r.x + (d.r.w-yard)/2
	y0 := d.r.y + (d.r.h-yard)/2
	mid := yard / 2
	for _, s := range segments(x0, x0+yard, []int{x0 + mid}, gate) {
		p.wall(s[0], y0, s[1]-s[0], t)
		p.wall(s[0], y0+yard-t, s[1]-s[0], t)
	}
	for _, s := range segments(y0+t, y0+yard-t, []int{y0 + mid}, gate) {
		p.wall(x0, s[0], t, s[1]-s[0])
		p.wall(x0+yard-t, s[0], t, s[1]-s[0])
	}
	for _, c := range [][2]int{{x0 - 32, y0 - 32}, {x0 + yard - 32, y0 - 32}, {x0 - 32, y0 + yard - 32}, {x0 + yard - 32, y0 + yard - 32}} {
		p.wall(c[0], c[1], 64, 64) // towers
	}
	// Crates inside the yard, round its centre.
	for _, c := range [][2]int{{-224, -224}, {160, -224}, {-224, 160}, {160, 160}, {-32, -32}} {
		p.wall(x0+mid+c[0], y0+mid+c[1], 64, 64)
	}
	// Sandbags facing each gate from outside, and in the open ground.
	p.wall(x0+mid-64, y0-224, 128, 32)
	p.wall(x0+mid-64, y0+yard+192, 128, 32)
	p.wall(x0-224, y0+mid-64, 32, 128)
	p.wall(x0+yard+192, y0+mid-64, 32, 128)
	for _, c := range [][2]int{{1, 1}, {3, 1}, {1, 3}, {3, 3}} {
		x := d.r.x + c[0]*d.r.w/4 + (c[0]-2)*160
		y := d.r.y + c[1]*d.r.h/4 + (c[1]-2)*200
		p.wall(x-48, y-16, 96, 32)
		p.wall(x-16+(c[0]-2)*40, y+16, 32, 64)
	}
}

// square: the open heart of the map: a monument in the middle, a ring of
// eight pillars, four L-shaped low walls and benches; cover everywhere,
// no long safe lane.
func square(p *plan, d district) {
	cx, cy := d.r.x+d.r.w/2, d.r.y+d.r.h/2
	p.wall(cx-96, cy-96, 192, 192) // the monument
	for k := range 8 {
		dx := [8]int{0, 1, 1, 1, 0, -1, -1, -1}[k]
		dy := [8]int{-1, -1, 0, 1, 1, 1, 0, -1}[k]
		rx, ry := 400, 400
		if dx != 0 && dy != 0 {
			rx, ry = 288, 288
		}
		p.wall(cx+dx*rx-24, cy+dy*ry-24, 48, 48)
	}
	for _, s := range [][2]int{{-1, -1}, {1, -1}, {-1, 1}, {1, 1}} {
		x := cx + s[0]*640
		y := cy + s[1]*640
		// Each L opens towards the monument.
		p.wall(min(x, x-s[0]*192), y-16, 192, 32)
		p.wall(x-16, min(y, y-s[1]*192), 32, 192)
	}
	for _, s := range []int{-1, 1} {
		p.wall(cx+s*720-48, cy-16, 96, 32) // benches on the east–west axis
		p.wall(cx-16, cy+s*720-48, 32, 96) // and the north–south one
	}
}

// hall: a great covered hall, walls round it with three wide doors a side,
// a grid of pillars inside and a stage at its north end.
func hall(p *plan, d district) {
	const t, door = 32, 192
	r := d.r.inset(96)
	for _, y := range []int{r.y, r.y1() - t} {
		for _, s := range segments(r.x, r.x1(), []int{r.x + r.w/4, r.x + r.w/2, r.x + 3*r.w/4}, door) {
			p.wall(s[0], y, s[1]-s[0], t)
		}
	}
	for _, x := range []int{r.x, r.x1() - t} {
		for _, s := range segments(r.y+t, r.y1()-t, []int{r.y + r.h/4, r.y + r.h/2, r.y + 3*r.h/4}, door) {
			p.wall(x, s[0], t, s[1]-s[0])
		}
	}
	for j := 1; j <= 4; j++ {
		for i := 1; i <= 4; i++ {
			if (i == 2 || i == 3) && (j == 2 || j == 3) {
				continue // the floor's middle stays clear
			}
			p.wall(r.x+i*r.w/5-32, r.y+j*r.h/5-32, 64, 64)
		}
	}
	p.wall(r.x+r.w/2-192, r.y+160, 384, 64)     // the stage
	p.wall(r.x+r.w/2-32, r.y+r.h/2+128, 64, 64) // below the hall's name, which is painted at its centre
}

// layPickups puts a district's pickups: two health and one of armour and
// rockets on points of a 3 × 3 lattice over the district clear of the
// walls; the square, the hall and the bases add double damage. 12
// districts × 4 + 4 = 52, under game.MaxPickups (64).
func (p *plan) layPickups(d district) {
	kinds := []string{"health", "armour", "health", "rockets"}
	if isOneOf(d.name, "central square", "central hall", "west base", "east base") {
		kinds = append(kinds, "damage")
	}
	var spots []point
	for _, f := range [][2]int{{1, 1}, {3, 3}, {3, 1}, {1, 3}, {2, 2}, {2, 1}, {1, 2}, {3, 2}, {2, 3}} {
		c := point{snap(d.r.x + f[0]*d.r.w/4), snap(d.r.y + f[1]*d.r.h/4)}
		if c2, ok := p.nearestClear(c, pickupClear, 160); ok {
			spots = append(spots, c2)
		}
	}
	for i, k := range kinds {
		if i < len(spots) {
			p.pickups = append(p.pickups, pickup{k, spots[i]})
		}
	}
}

// isOneOf reports whether s is one of list.
func isOneOf(s string, list ...string) bool {
	for _, l := range list {
		if s == l {
			return true
		}
	}
	return false
}

// nearestClear is the point on the 16-unit grid nearest c, within reach
// units, whose circle of radius r clears every wall and every pickup by
// 64 units.
func (p *plan) nearestClear(c point, r, reach int) (point, bool) {
	for d := 0; d <= reach; d += 16 {
		for dy := -d; dy <= d; dy += 16 {
			for dx := -d; dx <= d; dx += 16 {
				if max(abs(dx), abs(dy)) != d {
					continue
				}
				q := point{c.x + dx, c.y + dy}
				if p.clearOf(q, r) && !p.nearPickup(q, 64) {
					return q, true
				}
			}
		}
	}
	return point{}, false
}

// nearPickup reports whether a pickup lies within r of c.
func (p *plan) nearPickup(c point, r int) bool {
	for _, pk := range p.pickups {
		if dx, dy := pk.at.x-c.x, pk.at.y-c.y; dx*dx+dy*dy < r*r {
			return true
		}
	}
	return false
}

func abs(v int) int { return max(v, -v) }

// laySpawns lays a district's spawns on a lattice of spawnStep units,
// each moved to the nearest point that clears the walls (spawnClear) and
// the pickups, so that they are spread over the district.
func (p *plan) laySpawns(d district) {
	n := d.r.w / spawnStep
	m := d.r.h / spawnStep
	ox := d.r.x + (d.r.w-(n-1)*spawnStep)/2
	oy := d.r.y + (d.r.h-(m-1)*spawnStep)/2
	for j := range m {
		for i := range n {
			if (i+j)%2 == 1 {
				continue // a checkerboard: half the lattice
			}
			c := point{snap(ox + i*spawnStep), snap(oy + j*spawnStep)}
			if q, ok := p.nearestClear(c, spawnClear, 48); ok && !p.nearSpawn(q, 96) {
				p.spawns = append(p.spawns, q)
			}
		}
	}
}

// nearSpawn reports whether a spawn lies within r of c.
func (p *plan) nearSpawn(c point, r int) bool {
	for _, s := range p.spawns {
		if dx, dy := s.x-c.x, s.y-c.y; dx*dx+dy*dy < r*r {
			return true
		}
	}
	return false
}

// overlaps reports whether a and b come within gap of each other.
func overlaps(a, b rect, gap int) bool {
	return a.x < b.x1()+gap && b.x < a.x1()+gap && a.y < b.y1()+gap && b.y < a.y1()+gap
}

// tmx writes the plan as Tiled 1.10 XML, laid out as the maps made by hand.
func (p *plan) tmx() []byte {
	var b bytes.Buffer
	id := 1
	nobj := len(p.walls) + len(p.spawns) + len(p.areas) + len(p.pickups)
	fmt.Fprintf(&b, `<?xml version="1.0" encoding="UTF-8"?>
<map version="1.10" tiledversion="1.10.2" orientation="orthogonal" renderorder="right-down" width="%d" height="%d" tilewidth="%d" tileheight="%d" infinite="0" backgroundcolor="#1e2126" nextlayerid="5" nextobjectid="%d">
 <!-- Generated by internal/tool/mapgen (go generate ./assets): edit the generator, not this file. CC0 1.0 (assets/ART.md). -->
 <properties>
  <property name="players" value="256-1024"/>
  <property name="shape" value="a 4 × 3 plan of districts (parks, markets, old town blocks, rooms, bases, a square and a hall) between streets and lanes"/>
  <property name="title" value="Expanse"/>
 </properties>
`, TilesX, TilesY, Tile, Tile, nobj+1)
	b.WriteString(` <objectgroup id="1" name="walls" color="#5a6270">` + "\n")
	for _, w := range p.walls {
		fmt.Fprintf(&b, `  <object id="%d" class="wall" x="%d" y="%d" width="%d" height="%d"/>`+"\n", id, w.x, w.y, w.w, w.h)
		id++
	}
	b.WriteString(" </objectgroup>\n" + ` <objectgroup id="2" name="spawns" color="#40c040">` + "\n")
	for _, s := range p.spawns {
		fmt.Fprintf(&b, `  <object id="%d" name="spawn" class="spawn" x="%d" y="%d">`+"\n   <point/>\n  </object>\n", id, s.x, s.y)
		id++
	}
	b.WriteString(" </objectgroup>\n" + ` <objectgroup id="3" name="areas" color="#c0a040" visible="0">` + "\n")
	for _, a := range p.areas {
		fmt.Fprintf(&b, `  <object id="%d" name="%s" class="area" x="%d" y="%d" width="%d" height="%d"/>`+"\n", id, a.name, a.r.x, a.r.y, a.r.w, a.r.h)
		id++
	}
	b.WriteString(" </objectgroup>\n" + ` <objectgroup id="4" name="pickups" color="#e0e040">` + "\n")
	for _, pk := range p.pickups {
		fmt.Fprintf(&b, `  <object id="%d" name="%s" class="%s" x="%d" y="%d">`+"\n   <point/>\n  </object>\n", id, pk.kind, pk.kind, pk.at.x, pk.at.y)
		id++
	}
	b.WriteString(" </objectgroup>\n</map>\n")
	return b.Bytes()
}
