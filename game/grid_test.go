package game

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"tickshot/shared"
)

// Spatial index tests: the grid's candidates hold every item a loop over
// all of them would find, and the world's users of it (bots' sight, a
// rocket's flight and splash) decide exactly what that loop decided, on
// thousands of random worlds.

// gridCoord is a random coordinate on an axis of size: mostly inside,
// sometimes on a cell edge, outside the map, or far out.
func gridCoord(r *rand.Rand, size float64) float64 {
	switch r.IntN(10) {
	case 0:
		return float64(r.IntN(int(size/GridCell)+2)) * GridCell // on an edge
	case 1:
		return -r.Float64() * 600 // left of or above the map
	case 2:
		return size + r.Float64()*600 // right of or below it
	}
	return r.Float64() * size
}

// TestGridQueryRectsIsTheUnion: for random maps, items and lists of
// rectangles (none, one, a chain along a line, overlapping), QueryRects
// returns exactly the union of Query's answers for each, ascending and
// each once.
func TestGridQueryRectsIsTheUnion(t *testing.T) {
	var g Grid
	var got, one []int32
	for seed := uint64(0); seed < 3000; seed++ {
		r := rand.New(rand.NewPCG(seed, 2))
		w, h := 200+r.Float64()*8000, 200+r.Float64()*6000
		n := r.IntN(300)
		g.Reset(w, h, n)
		for i := range n {
			g.Put(i, gridCoord(r, w), gridCoord(r, h))
		}
		var rs []Rect
		for range r.IntN(12) {
			x0, y0 := gridCoord(r, w), gridCoord(r, h)
			rs = append(rs, Rect{x0, y0, x0 + r.Float64()*600 - 50, y0 + r.Float64()*600 - 50})
		}
		got = g.QueryRects(rs, got)
		union := map[int32]bool{}
		for _, rect := range rs {
			one = g.Query(rect, one)
			for _, i := range one {
				union[i] = true
			}
		}
		if !slices.IsSorted(got) || len(slices.Compact(slices.Clone(got))) != len(got) {
			t.Fatalf("seed %d: QueryRects = %v: not ascending and unique", seed, got)
		}
		if got == nil || len(got) != len(union) {
			t.Fatalf("seed %d: QueryRects holds %d items (nil %v), the union of Query %d", seed, len(got), got == nil, len(union))
		}
		for _, i := range got {
			if !union[i] {
				t.Fatalf("seed %d: item %d from QueryRects is in no rectangle's Query", seed, i)
			}
		}
	}
}

// TestGridQueryHoldsEveryItemInside: for random maps, items (some moved
// after they were put) and rectangles (some inverted, some infinite),
// Query returns every item inside the rectangle, each once, ascending.
func TestGridQueryHoldsEveryItemInside(t *testing.T) {
	var g Grid
	var got []int32
	for seed := uint64(0); seed < 4000; seed++ {
		r := rand.New(rand.NewPCG(seed, 1))
		w, h := 200+r.Float64()*8000, 200+r.Float64()*6000
		n := r.IntN(300)
		xs, ys := make([]float64, n), make([]float64, n)
		g.Reset(w, h, n)
		for i := range xs {
			xs[i], ys[i] = gridCoord(r, w), gridCoord(r, h)
			g.Put(i, xs[i], ys[i])
		}
		for k := 0; k < n/3; k++ { // some move, some within their cell
			i := r.IntN(n)
			if r.IntN(2) == 0 {
				xs[i], ys[i] = gridCoord(r, w), gridCoord(r, h)
			} else {
				xs[i] += r.Float64()*8 - 4
			}
			g.Put(i, xs[i], ys[i])
		}
		for q := 0; q < 8; q++ {
			x0, y0 := gridCoord(r, w), gridCoord(r, h)
			rect := Rect{x0, y0, x0 + r.Float64()*2000 - 200, y0 + r.Float64()*1500 - 200}
			if q == 0 {
				rect = Rect{math.Inf(-1), math.Inf(-1), math.Inf(1), math.Inf(1)}
			}
			got = g.Query(rect, got)
			if !slices.IsSorted(got) || len(slices.Compact(slices.Clone(got))) != len(got) {
				t.Fatalf("seed %d: Query(%v) = %v: not ascending and unique", seed, rect, got)
			}
			for i := range xs {
				if rect.Contains(xs[i], ys[i]) {
					if _, ok := slices.BinarySearch(got, int32(i)); !ok {
						t.Fatalf("seed %d: item %d at (%g, %g) in %v not among Query's %v", seed, i, xs[i], ys[i], rect, got)
					}
				}
			}
			if q == 0 && len(got) != n {
				t.Fatalf("seed %d: everywhere holds %d of %d items", seed, len(got), n)
			}
		}
	}
}

// gridTestWorld is a world on a random map with n players placed at
// random, most in a few clusters (shared positions too), some dead, some on
// teams; bruteForce as given.
func gridTestWorld(t *testing.T, r *rand.Rand, n int, bruteForce bool) *World {
	t.Helper()
	maps := []string{"arena", "sprawl", "plaza"}
	m, err := LoadMap(maps[r.IntN(len(maps))])
	if err != nil {
		t.Fatal(err)
	}
	w := NewWorld(m, 64, r.Uint64(), Rules{TeamPlay: r.IntN(3) == 0})
	w.Near.bruteForce = bruteForce
	var cx, cy [3]float64
	for c := range cx {
		cx[c], cy[c] = r.Float64()*m.Width, r.Float64()*m.Height
	}
	for i := 0; i < n; i++ {
		p := &Player{ID: uint16(1 + i*3 + r.IntN(3)), Health: 1 + r.IntN(MaxHealth)}
		x, y := r.Float64()*m.Width, r.Float64()*m.Height
		if k := r.IntN(4); k < 3 { // near a cluster's centre, or on it
			x, y = cx[k]+r.NormFloat64()*150, cy[k]+r.NormFloat64()*150
			if r.IntN(8) == 0 {
				x, y = cx[k], cy[k]
			}
		}
		p.State = shared.NewPlayerState(x, y)
		p.State.Dead = r.IntN(8) == 0
		if w.teamPlay {
			p.Team = TeamRed + Team(r.IntN(2))
		}
		w.Players = append(w.Players, p)
	}
	return w
}

// TestBotTargetsGridMatchBruteForce: on random worlds every bot picks, from
// its grid candidates (botQuery), the target it picks from all the others,
// at the same distance, and finds the same nearest enemy to hunt.
func TestBotTargetsGridMatchBruteForce(t *testing.T) {
	found := 0
	for seed := uint64(0); seed < 3000; seed++ {
		r := rand.New(rand.NewPCG(seed, 2))
		w := gridTestWorld(t, r, 1+r.IntN(60), false)
		s := &w.Squad
		s.view = s.view[:0]
		for _, o := range w.Players {
			s.view = append(s.view, o.Hitbox())
		}
		w.Near.index()
		all, last := s.view, len(s.view)-1
		b := NewBot(seed)
		for i := range all {
			b.Team = w.Players[i].Team
			all[i], all[last] = all[last], all[i]
			x, y := all[last].X, all[last].Y
			wantI, wantD := b.nearestVisible(w.Map, x, y, all[:last], nil)
			q := botQuery{w: w, view: all, i: i, last: last}
			near, _ := q.within(botSightRange)
			gotI, gotD := b.nearestVisible(w.Map, x, y, all[:last], near)
			wantE, wantOK := b.nearestEnemy(all[:last], x, y, nil)
			gotE, gotOK := b.nearestEnemy(all[:last], x, y, &q)
			all[i], all[last] = all[last], all[i]
			if gotI != wantI || gotD != wantD {
				t.Fatalf("seed %d, bot %d of %d at (%g, %g): grid target %d at %g, brute force %d at %g",
					seed, i, len(all), x, y, gotI, gotD, wantI, wantD)
			}
			if gotE != wantE || gotOK != wantOK {
				t.Fatalf("seed %d, bot %d of %d at (%g, %g): grid's nearest enemy %+v (%v), brute force %+v (%v)",
					seed, i, len(all), x, y, gotE, gotOK, wantE, wantOK)
			}
			if wantI >= 0 {
				found++
			}
		}
	}
	if found < 10000 {
		t.Fatalf("only %d bots found a target: the worlds test too little", found)
	}
}

// TestSplashGridMatchesBruteForce: a blast on random worlds (a direct hit
// or none, friendly fire on or off) deals the same damage to the same
// players, in the same order (the events), as with every player tested.
func TestSplashGridMatchesBruteForce(t *testing.T) {
	hurt := 0
	for seed := uint64(0); seed < 3000; seed++ {
		var worlds [2]*World
		var bx, by float64
		var direct uint16
		for k, brute := range []bool{false, true} {
			r := rand.New(rand.NewPCG(seed, 3))
			w := gridTestWorld(t, r, 2+r.IntN(60), brute)
			w.Rules.FriendlyFire = r.IntN(2) == 0
			owner := w.Players[r.IntN(len(w.Players))]
			o := w.Players[r.IntN(len(w.Players))]
			bx, by = o.State.X+r.NormFloat64()*60, o.State.Y+r.NormFloat64()*60
			if r.IntN(3) == 0 {
				direct, bx, by = o.ID, o.State.X+shared.PlayerRadius+rocketPad, o.State.Y
			}
			w.Flight.explode(w, &Projectile{ID: 1, Owner: owner.ID, Weapon: 1}, bx, by, direct)
			worlds[k] = w
		}
		g, b := worlds[0], worlds[1]
		if got, want := fmt.Sprint(g.TakeEvents()), fmt.Sprint(b.TakeEvents()); got != want {
			t.Fatalf("seed %d: blast at (%g, %g), direct %d: events with the grid\n%s\nwith every player\n%s", seed, bx, by, direct, got, want)
		}
		for i, p := range g.Players {
			if q := b.Players[i]; p.Health != q.Health || p.State.Dead != q.State.Dead {
				t.Fatalf("seed %d: player %d has %d health with the grid, %d with every player", seed, p.ID, p.Health, q.Health)
			}
			if p.Health < MaxHealth && !p.State.Dead {
				hurt++
			}
		}
	}
	if hurt < 1000 {
		t.Fatalf("only %d players hurt: the blasts test too little", hurt)
	}
}

// TestWorldGridMatchesBruteForce: bot matches run tick for tick beside the
// same matches with every spatial query answered by every player (the
// loops the grid replaced) emit the same events and leave every player in
// the same state.
func TestWorldGridMatchesBruteForce(t *testing.T) {
	seeds, ticks := uint64(24), 64*8
	if testing.Short() {
		seeds = 6
	}
	for seed := uint64(0); seed < seeds; seed++ {
		var worlds [2]*World
		for k, brute := range []bool{false, true} {
			r := rand.New(rand.NewPCG(seed, 4))
			m, err := LoadMap([]string{"arena", "plaza"}[r.IntN(2)])
			if err != nil {
				t.Fatal(err)
			}
			w := NewWorld(m, 64, seed, Rules{BotSkill: 3, TeamPlay: r.IntN(3) == 0, FriendlyFire: r.IntN(2) == 0})
			w.Near.bruteForce = brute
			for i := 0; i < 12+r.IntN(24); i++ {
				w.AddBot(32)
			}
			worlds[k] = w
		}
		g, b := worlds[0], worlds[1]
		for tick := 0; tick < ticks; tick++ {
			testSteps(g, 1)
			testSteps(b, 1)
			if got, want := fmt.Sprint(g.TakeEvents()), fmt.Sprint(b.TakeEvents()); got != want {
				t.Fatalf("seed %d tick %d: events with the grid\n%s\nwith every player\n%s", seed, g.Tick, got, want)
			}
		}
		for i, p := range g.Players {
			if q := b.Players[i]; p.State != q.State || p.Health != q.Health || p.Kills != q.Kills {
				t.Fatalf("seed %d: player %d differs after %d ticks: %+v, brute force %+v", seed, p.ID, ticks, *p, *q)
			}
		}
	}
}

// BenchmarkGrid is one tick's spatial index at the densities (64
// players on a 2048×1536 arena, 256 on sprawl's 3840×2880, 1 024 on
// 8192×6144): the rebuild, then per player a view query (ViewRect's size)
// and a bot's sight query, counting the candidates
// (`go test ./game -run '^$' -bench Grid`).
func BenchmarkGrid(b *testing.B) {
	for _, c := range []struct {
		n    int
		w, h float64
	}{{64, 2048, 1536}, {256, 3840, 2880}, {1024, 8192, 6144}} {
		b.Run(fmt.Sprintf("players=%d", c.n), func(b *testing.B) {
			r := rand.New(rand.NewPCG(1, 2))
			xs, ys := make([]float64, c.n), make([]float64, c.n)
			for i := range xs {
				xs[i], ys[i] = r.Float64()*c.w, r.Float64()*c.h
			}
			var g Grid
			var buf []int32
			cands := 0
			for b.Loop() {
				g.Reset(c.w, c.h, c.n)
				for i := range xs {
					g.Put(i, xs[i], ys[i])
				}
				for i := range xs {
					buf = g.Query(Rect{xs[i] - 800, ys[i] - 520, xs[i] + 800, ys[i] + 520}, buf)
					cands += len(buf)
					buf = g.Query(Around(xs[i], ys[i], botSightRange), buf)
					cands += len(buf)
				}
			}
			b.ReportMetric(float64(cands)/float64(b.N)/float64(2*c.n), "candidates/query")
		})
	}
}

// BenchmarkWorldTickGrid is one world tick of bots (movement, sight, aim,
// fire, rockets) at the densities (64 on arena, 256 on sprawl,
// 1 024 on expanse), with the grid and with every spatial query answering
// every player (Near.bruteForce: the loops the grid replaced), so the two
// are compared in one run on one machine
// (`go test ./game -run '^$' -bench WorldTickGrid -benchtime 100x`).
func BenchmarkWorldTickGrid(b *testing.B) {
	for _, c := range []struct {
		n       int
		mapName string
	}{{64, "arena"}, {256, "sprawl"}, {1024, "expanse"}} {
		m, err := LoadMap(c.mapName)
		if err != nil {
			b.Skip(err) // a map not there yet
		}
		for _, brute := range []bool{false, true} {
			name := "grid"
			if brute {
				name = "loops"
			}
			b.Run(fmt.Sprintf("players=%d/%s", c.n, name), func(b *testing.B) {
				w := NewWorld(m, 64, 1, Rules{BotSkill: 1})
				w.Near.bruteForce = brute
				for range c.n {
					w.AddBot(32)
				}
				testSteps(w, 64) // past the spawn protection, into the fights
				for b.Loop() {
					w.NextTick()
					w.Step()
					w.TakeEvents()
				}
			})
		}
	}
}

// TestPackedGridMatchesGrid: on random maps, items (some past the map's
// edges, some NaN, some sharing a point) and rectangles (inverted, empty,
// infinite), a PackedGrid built from the positions answers every Query as
// a Grid given the same positions does, rebuilt over its own storage.
func TestPackedGridMatchesGrid(t *testing.T) {
	var g Grid
	var pg PackedGrid
	var want, got []int32
	for seed := uint64(0); seed < 3000; seed++ {
		r := rand.New(rand.NewPCG(seed, 2))
		w, h := 200+r.Float64()*9000, 200+r.Float64()*7000
		n := r.IntN(400)
		xs, ys := make([]float64, n), make([]float64, n)
		for i := range xs {
			xs[i], ys[i] = gridCoord(r, w), gridCoord(r, h)
			switch r.IntN(40) {
			case 0:
				xs[i] = math.NaN()
			case 1:
				if i > 0 {
					xs[i], ys[i] = xs[i-1], ys[i-1]
				}
			}
		}
		g.Reset(w, h, n)
		for i := range xs {
			g.Put(i, xs[i], ys[i])
		}
		pg.Build(w, h, n, func(i int) (float64, float64) { return xs[i], ys[i] })
		if pg.Len() != n {
			t.Fatalf("seed %d: built with %d items, holds %d", seed, n, pg.Len())
		}
		for q := 0; q < 10; q++ {
			x0, y0 := gridCoord(r, w), gridCoord(r, h)
			rect := Rect{x0, y0, x0 + r.Float64()*2400 - 300, y0 + r.Float64()*1600 - 300}
			switch q {
			case 0:
				rect = Rect{math.Inf(-1), math.Inf(-1), math.Inf(1), math.Inf(1)}
			case 1:
				rect = Rect{math.NaN(), y0, x0, y0 + 500}
			}
			want, got = g.Query(rect, want), pg.Query(rect, got)
			if !slices.Equal(want, got) {
				t.Fatalf("seed %d: Query(%v): packed %v, grid %v", seed, rect, got, want)
			}
		}
	}
}
