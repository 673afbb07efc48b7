package shared_test

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"tickshot/game"
	"tickshot/shared"
)

// slideCase is one move: a start, a velocity, a tick length.
type slideCase struct{ x, y, vx, vy, dt float64 }

// randomSlide draws a move on a w×h world of walls: from anywhere (past the
// edges too), from a wall's edge or corner, or from inside a wall (a deep
// overlap, whose push leaves the region nearSlide vouches for); at walking,
// dashing or huge speeds, along an axis or still.
func randomSlide(rng *rand.Rand, walls []shared.Box, w, h float64) slideCase {
	var c slideCase
	b := walls[rng.IntN(len(walls))]
	switch rng.IntN(6) {
	case 0, 1:
		c.x, c.y = rng.Float64()*(w+200)-100, rng.Float64()*(h+200)-100
	case 2: // touching a wall's side or corner, give or take a skin
		r := shared.PlayerRadius + (rng.Float64()*4-2)/shared.PosScale
		c.x = []float64{b.MinX - r, b.MaxX + r, b.MinX + rng.Float64()*(b.MaxX-b.MinX)}[rng.IntN(3)]
		c.y = []float64{b.MinY - r, b.MaxY + r, b.MinY + rng.Float64()*(b.MaxY-b.MinY)}[rng.IntN(3)]
	case 3: // inside a wall
		c.x, c.y = b.MinX+rng.Float64()*(b.MaxX-b.MinX), b.MinY+rng.Float64()*(b.MaxY-b.MinY)
	default: // near a wall
		c.x, c.y = b.MinX-40+rng.Float64()*(b.MaxX-b.MinX+80), b.MinY-40+rng.Float64()*(b.MaxY-b.MinY+80)
	}
	c.x, c.y = shared.Quantize(c.x), shared.Quantize(c.y)
	speed := []float64{0, 50, shared.MaxSpeed, 900, 4000}[rng.IntN(5)] * rng.Float64()
	a := rng.Float64() * 2 * math.Pi
	c.vx, c.vy = speed*math.Cos(a), speed*math.Sin(a)
	switch rng.IntN(4) {
	case 0:
		c.vx = 0
	case 1:
		c.vy = 0
	}
	c.dt = 1 / float64(shared.MinTickRate+rng.IntN(shared.MaxTickRate-shared.MinTickRate+1))
	return c
}

// slideMatches runs n random moves on walls with and without a wall grid
// and fails on the first whose result differs in a bit; it returns how many
// moves nearSlide vouched for and how many it gave up (run over all walls).
func slideMatches(t *testing.T, name string, walls []shared.Box, w, h float64, rng *rand.Rand, n int) (near, redone int) {
	t.Helper()
	grid := shared.NewWallGrid(walls, w, h)
	if grid == nil {
		t.Fatalf("%s: no wall grid", name)
	}
	withGrid := &shared.World{TickRate: 64, Walls: walls, WallGrid: grid}
	plain := &shared.World{TickRate: 64, Walls: walls}
	for range n {
		c := randomSlide(rng, walls, w, h)
		gx, gy, gvx, gvy := shared.SlideMove(c.x, c.y, c.vx, c.vy, c.dt, withGrid)
		px, py, pvx, pvy := shared.SlideMove(c.x, c.y, c.vx, c.vy, c.dt, plain)
		if !sameBits(gx, px) || !sameBits(gy, py) || !sameBits(gvx, pvx) || !sameBits(gvy, pvy) {
			t.Fatalf("%s: move %+v: grid (%v, %v, %v, %v), all walls (%v, %v, %v, %v)", name, c, gx, gy, gvx, gvy, px, py, pvx, pvy)
		}
		nx, ny, nvx, nvy, ok := shared.NearSlide(c.x, c.y, c.vx, c.vy, c.dt, withGrid)
		if !ok {
			redone++
			continue
		}
		near++
		if !sameBits(nx, px) || !sameBits(ny, py) || !sameBits(nvx, pvx) || !sameBits(nvy, pvy) {
			t.Fatalf("%s: move %+v: near walls (%v, %v, %v, %v), all walls (%v, %v, %v, %v)", name, c, nx, ny, nvx, nvy, px, py, pvx, pvy)
		}
	}
	return near, redone
}

// TestNearSlideMatchesLoop: movement against the walls near a move (the
// wall grid's broad phase) ends at the same bits as against every wall, on
// every shipped map and on random worlds of boxes (sparse and overlapping,
// and dense enough to overflow the gathered set), over random starts (deep
// inside walls too), velocities and tick lengths; both the broad phase's
// own answers and its redo over all walls are exercised.
func TestNearSlideMatchesLoop(t *testing.T) {
	rng := rand.New(rand.NewPCG(23, 64))
	moves := 40000
	if testing.Short() {
		moves = 5000
	}
	var near, redone int
	for _, name := range game.MapNames() {
		m, err := game.LoadMap(name)
		if err != nil {
			t.Fatal(err)
		}
		if !m.World(64).WallGrid.Serves(m.Walls) {
			t.Fatalf("%s: Map.World has no wall grid", name)
		}
		a, b := slideMatches(t, name, m.Walls, m.Width, m.Height, rng, moves)
		near, redone = near+a, redone+b
	}
	for i := range 40 {
		w, h := 256+rng.Float64()*3000, 256+rng.Float64()*3000
		walls := make([]shared.Box, 1+rng.IntN(300))
		size := []float64{8, 64, 400}[i%3] // dense small boxes, rooms, large overlapping slabs
		for j := range walls {
			x0, y0 := rng.Float64()*w, rng.Float64()*h
			walls[j] = shared.Box{MinX: x0, MinY: y0, MaxX: math.Min(w, x0+1+rng.Float64()*size), MaxY: math.Min(h, y0+1+rng.Float64()*size)}
		}
		a, b := slideMatches(t, fmt.Sprintf("random world %d", i), walls, w, h, rng, moves/10)
		near, redone = near+a, redone+b
	}
	t.Logf("%d moves vouched for by the broad phase, %d redone over all walls", near, redone)
	if near < redone || redone < 1000 {
		t.Fatalf("%d moves near walls, %d redone: the test exercises too little of one path", near, redone)
	}
}

// A World whose walls are not the ones its grid was built from moves
// against its walls (the grid is ignored).
func TestWallGridFollowsWorldWalls(t *testing.T) {
	m, err := game.LoadMap("expanse")
	if err != nil {
		t.Fatal(err)
	}
	w := m.World(64)
	w.Walls = []shared.Box{{MinX: 0, MinY: 0, MaxX: 4000, MaxY: 32}}
	x, _, _, _ := shared.SlideMove(100, 60, -1000, 0, 1.0/64, w)
	if x != 100-1000.0/64 {
		t.Fatalf("x = %v: moved against the map's walls, not the World's", x)
	}
}

// BenchmarkRunCommand: one usercmd of one of 256 players walking and
// dashing about a map (from its spawns, new directions every half second),
// against every wall (walls=all, the loop before the wall grid) and against
// the walls near the move (walls=grid).
func BenchmarkRunCommand(b *testing.B) {
	for _, name := range []string{"arena", "expanse"} {
		m, err := game.LoadMap(name)
		if err != nil {
			b.Fatal(err)
		}
		for _, mode := range []string{"all", "grid"} {
			b.Run(fmt.Sprintf("map=%s/walls=%s", name, mode), func(b *testing.B) {
				w := m.World(64)
				if mode == "all" {
					w.WallGrid = nil
				}
				rng := rand.New(rand.NewPCG(1, 2))
				players := make([]shared.PlayerState, 256)
				cmds := make([]shared.UserCmd, len(players))
				for i := range players {
					sp := m.Spawns[i%len(m.Spawns)]
					players[i] = shared.NewPlayerState(sp.X, sp.Y)
				}
				b.ResetTimer()
				for i := 0; i < b.N; i++ {
					p := i % len(players)
					if (i/len(players))%32 == 0 {
						a := rng.Float64() * 2 * math.Pi
						cmds[p] = shared.UserCmd{MoveX: float32(math.Cos(a)), MoveY: float32(math.Sin(a))}
						if rng.IntN(8) == 0 {
							cmds[p].Buttons = shared.ButtonDash
						}
					}
					cmds[p].CommandNumber++
					players[p], _ = shared.RunCommand(players[p], cmds[p], w)
				}
			})
		}
	}
}
