package game

import (
	"cmp"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"tickshot/shared"
)

// chooseSpawnByRules is ChooseSpawn as its rules read, the way it was
// written before issue 23: every spawn's distance to every enemy and
// whether any enemy sees it; the spawns out of sight when one of the
// SpawnSightMax farthest (equal ones by index) is, else all; then the
// farthest within 10 %. The reference for
// TestChooseSpawnMatchesRules.
func chooseSpawnByRules(m *Map, enemies []Point, last int, rng *rand.Rand) int {
	allowed := make([]bool, len(m.Spawns))
	score := make([]float64, len(m.Spawns))
	var ranked []int
	for i, s := range m.Spawns {
		if i == last && len(m.Spawns) > 1 {
			continue
		}
		allowed[i] = true
		d := math.Inf(1)
		for _, e := range enemies {
			d = math.Min(d, hypot(e.X-s.X, e.Y-s.Y))
		}
		if math.IsInf(d, 1) {
			d = 1e9
		}
		score[i] = d
		ranked = append(ranked, i)
	}
	slices.SortStableFunc(ranked, func(a, b int) int { return cmp.Compare(score[b], score[a]) })
	free := make([]bool, len(m.Spawns))
	anyFree := false // one of the SpawnSightMax farthest is out of sight
	for n, i := range ranked {
		if free[i] = !m.seenByAny(m.Spawns[i], enemies); free[i] && n < SpawnSightMax {
			anyFree = true
		}
	}
	best := 0.0
	for i := range m.Spawns {
		if !allowed[i] || (anyFree && !free[i]) {
			allowed[i] = false
			continue
		}
		best = math.Max(best, score[i])
	}
	var cands []int
	for i := range m.Spawns {
		if allowed[i] && score[i] >= best*0.9 {
			cands = append(cands, i)
		}
	}
	return cands[rng.IntN(len(cands))]
}

// TestChooseSpawnMatchesRules: on every map, with 0 to 1 023 enemies
// (some near spawns, some anywhere, some on a spawn itself) and every kind
// of last spawn, ChooseSpawn picks the spawn the rules pick, drawing the
// same numbers: 3 000 worlds.
func TestChooseSpawnMatchesRules(t *testing.T) {
	for _, name := range MapNames() {
		m, err := LoadMap(name)
		if err != nil {
			t.Fatal(err)
		}
		rng := rand.New(rand.NewPCG(23, uint64(len(name))))
		worlds := 400
		if name == "expanse" {
			worlds = 60 // the reference asks every spawn's lines of sight to 1 023 enemies
		}
		for w := range worlds {
			n := []int{0, 1, 2, 5, 16, 64}[w%6]
			if name == "expanse" && w%2 == 1 {
				n = 1023
			}
			enemies := make([]Point, n)
			for k := range enemies {
				switch rng.IntN(3) {
				case 0:
					s := m.Spawns[rng.IntN(len(m.Spawns))]
					enemies[k] = Point{s.X + rng.Float64()*300 - 150, s.Y + rng.Float64()*300 - 150}
				case 1:
					enemies[k] = m.Spawns[rng.IntN(len(m.Spawns))]
				default:
					enemies[k] = Point{rng.Float64() * m.Width, rng.Float64() * m.Height}
				}
			}
			last := rng.IntN(len(m.Spawns)+1) - 1
			s1, s2 := rng.Uint64(), rng.Uint64()
			got := m.ChooseSpawn(enemies, last, rand.New(rand.NewPCG(s1, s2)))
			want := chooseSpawnByRules(m, enemies, last, rand.New(rand.NewPCG(s1, s2)))
			if got != want {
				t.Fatalf("%s, world %d (%d enemies, last %d): spawn %d, the rules give %d", name, w, n, last, got, want)
			}
		}
	}
}

// TestSpawnAllocatesNothing: a respawn chooses its spawn in the world's
// storage (spawnChoice): once it has grown, a spawn allocates nothing (it
// made BenchmarkTick64Bots allocate 6-13 times a tick).
func TestSpawnAllocatesNothing(t *testing.T) {
	for _, name := range []string{"arena", "expanse"} {
		m, err := LoadMap(name)
		if err != nil {
			t.Skip(err)
		}
		w := NewWorld(m, 64, 1, Rules{})
		for range 64 {
			w.AddBot(32)
		}
		p := w.Players[10]
		if a := testing.AllocsPerRun(50, func() { w.spawn(p) }); a != 0 {
			t.Errorf("%s: a spawn allocates %.1f times", name, a)
		}
	}
}

// TestRespawnPassSharesDistances: a respawn pass that shares each enemy
// set's distances to the spawns (spawnScores) spawns every player where
// choosing afresh for each does, drawing the same numbers: on random
// worlds of every map, deathmatch and team deathmatch (some players on no
// team), up to 300 players of whom up to all are due to respawn at once,
// some with a last spawn.
func TestRespawnPassSharesDistances(t *testing.T) {
	names := MapNames()
	for seed := uint64(0); seed < 300; seed++ {
		build := func(noBatch bool) *World {
			r := rand.New(rand.NewPCG(seed, 7))
			m, err := LoadMap(names[r.IntN(len(names))])
			if err != nil {
				t.Fatal(err)
			}
			w := NewWorld(m, 64, r.Uint64(), Rules{TeamPlay: r.IntN(2) == 0})
			w.spawns.noBatch = noBatch
			n, deadShare := 1+r.IntN(300), 1+r.IntN(4)
			for i := range n {
				p := &Player{ID: uint16(1 + i), Health: MaxHealth}
				p.State = shared.NewPlayerState(r.Float64()*m.Width, r.Float64()*m.Height)
				if r.IntN(deadShare) == 0 {
					p.State.Dead = true
					if r.IntN(2) == 0 {
						p.LastSpawn, p.spawned = m.Spawns[r.IntN(len(m.Spawns))], true
					}
				}
				if w.teamPlay && r.IntN(10) > 0 {
					p.Team = TeamRed + Team(r.IntN(2))
				}
				w.Players = append(w.Players, p)
			}
			return w
		}
		pass, fresh := build(false), build(true)
		pass.respawn()
		fresh.respawn()
		// The pass step by step: after each spawn every set's shared
		// distances are those measured afresh, bit for bit.
		w := build(false)
		w.spawns.beginBatch()
		for _, p := range w.Players {
			if !p.State.Dead || w.Tick < p.RespawnTick {
				continue
			}
			w.balanceAtRespawn(p)
			w.spawn(p)
			for _, b := range w.spawns.batch {
				probe := &Player{Team: TeamNone} // a dead player of the set's team
				if b.key >= 0 {
					probe.Team = Team(b.key)
				}
				var rings enemyRings
				rings.reset(w.Map, slices.Clone(w.enemyPositions(probe)))
				for j, sp := range w.Map.Spawns {
					if d := rings.nearest(sp); d != b.score[j] {
						t.Fatalf("seed %d (%s): after player %d spawned, set %d's spawn %d is %v from its nearest enemy, measured afresh %v",
							seed, w.Map.Name, p.ID, b.key, j, b.score[j], d)
					}
				}
			}
		}
		w.spawns.endBatch()
		spawned := 0
		for i, p := range pass.Players {
			q := fresh.Players[i]
			if p.State.X != q.State.X || p.State.Y != q.State.Y || p.State.Dead != q.State.Dead {
				t.Fatalf("seed %d (%s, team play %v): player %d spawned at (%v, %v), afresh at (%v, %v)",
					seed, pass.Map.Name, pass.teamPlay, p.ID, p.State.X, p.State.Y, q.State.X, q.State.Y)
			}
			if p.Teleport > 0 {
				spawned++
			}
		}
		if a, b := pass.rng.Uint64(), fresh.rng.Uint64(); a != b {
			t.Fatalf("seed %d: the pass drew other numbers than choosing afresh", seed)
		}
		if spawned == 0 && seed%50 == 0 {
			t.Logf("seed %d: nobody was due", seed)
		}
	}
}

// BenchmarkChooseSpawn is one respawn pass's first choice on expanse (316
// spawns) against 1 023 enemies scattered round the spawns: what a death
// costs the tick at 1 024 players.
//
//	go test ./game -run '^$' -bench ChooseSpawn
func BenchmarkChooseSpawn(b *testing.B) {
	m, err := LoadMap("expanse")
	if err != nil {
		b.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(1, 2))
	enemies := make([]Point, 1023)
	for i := range enemies {
		s := m.Spawns[rng.IntN(len(m.Spawns))]
		enemies[i] = Point{X: s.X + rng.NormFloat64()*400, Y: s.Y + rng.NormFloat64()*400}
	}
	var sc spawnChoice
	for b.Loop() {
		sc.beginBatch()
		m.chooseSpawn(enemies, -1, rng, &sc, -1)
		sc.endBatch()
	}
}

// TestSpawnSightMaxFallsBack: when every one of the SpawnSightMax spawns
// farthest from the enemies is seen, all spawns are considered (the
// farthest within 10 %), not a nearer one that nobody sees; with fewer
// spawns watched, that one is out of sight among the farthest and chosen.
func TestSpawnSightMaxFallsBack(t *testing.T) {
	for _, watched := range []int{SpawnSightMax + 16, SpawnSightMax / 2} {
		m := &Map{Width: 20000, Height: 20000}
		var enemies []Point
		// Spawns in the open, far apart, each watched by an enemy 300 units off.
		for k := range watched {
			s := Point{X: 1000 + float64(k%8)*2000, Y: 1000 + float64(k/8)*1800}
			m.Spawns = append(m.Spawns, s)
			enemies = append(enemies, Point{X: s.X + 300, Y: s.Y})
		}
		// A pocket: a spawn walled in, an enemy 100 units off outside the walls.
		pocket := Point{X: 19000, Y: 19000}
		m.Spawns = append(m.Spawns, pocket)
		m.Walls = []shared.Box{
			{MinX: 18940, MinY: 18940, MaxX: 19060, MaxY: 18950}, {MinX: 18940, MinY: 19050, MaxX: 19060, MaxY: 19060},
			{MinX: 18940, MinY: 18940, MaxX: 18950, MaxY: 19060}, {MinX: 19050, MinY: 18940, MaxX: 19060, MaxY: 19060},
		}
		enemies = append(enemies, Point{X: pocket.X + 100, Y: pocket.Y})
		if m.seenByAny(pocket, enemies) || !m.seenByAny(m.Spawns[0], enemies) {
			t.Fatal("the test's walls do not hide the pocket, or its open spawns are not watched")
		}
		for seed := range uint64(20) {
			got := m.ChooseSpawn(enemies, -1, rand.New(rand.NewPCG(seed, 9)))
			want := chooseSpawnByRules(m, enemies, -1, rand.New(rand.NewPCG(seed, 9)))
			if got != want {
				t.Fatalf("%d watched spawns, seed %d: spawn %d, the rules give %d", watched, seed, got, want)
			}
			if inPocket := m.Spawns[got] == pocket; inPocket != (watched < SpawnSightMax) {
				t.Fatalf("%d watched spawns, seed %d: chose the pocket %v, want %v", watched, seed, inPocket, watched < SpawnSightMax)
			}
		}
	}
}

// TestRingsSeeAsTheRules: on random maps of every size (not multiples of
// the rings' cell, smaller than a view or far larger), with enemies
// anywhere, near the edges where the camera stops and off the map,
// enemyRings.seen (stopped at sightRing) says what asking every enemy
// (Map.seenByAny) says, for spawns and points anywhere on the map.
func TestRingsSeeAsTheRules(t *testing.T) {
	r := rand.New(rand.NewPCG(31, 7))
	var rings enemyRings
	disagree := 0
	for world := range 3000 {
		m := &Map{Width: 300 + r.Float64()*6000, Height: 300 + r.Float64()*4000}
		if world%3 == 0 { // a wall or two: lines of sight blocked
			for range 1 + r.IntN(4) {
				x, y := r.Float64()*m.Width, r.Float64()*m.Height
				m.Walls = append(m.Walls, shared.Box{MinX: x, MinY: y, MaxX: x + 20 + r.Float64()*400, MaxY: y + 20 + r.Float64()*400})
			}
		}
		coord := func(size float64) float64 {
			switch r.IntN(6) {
			case 0:
				return size - r.Float64()*60 // near the far edge: the camera stops
			case 1:
				return r.Float64() * 60 // near the near edge
			case 2:
				return size + r.Float64()*900 - 300 // about and past the far edge
			case 3:
				return -r.Float64() * 900 // past the near edge
			}
			return r.Float64() * size
		}
		enemies := make([]Point, 1+r.IntN(6))
		for k := range enemies {
			enemies[k] = Point{X: coord(m.Width), Y: coord(m.Height)}
		}
		rings.reset(m, enemies)
		for range 20 {
			s := Point{X: r.Float64() * m.Width, Y: r.Float64() * m.Height}
			if got, want := rings.seen(m, s), m.seenByAny(s, enemies); got != want {
				disagree++
				if disagree < 4 {
					t.Errorf("map %.0f×%.0f, enemies %v: point %v seen %v by the rings, %v by every enemy", m.Width, m.Height, enemies, s, got, want)
				}
			}
		}
	}
	if disagree > 0 {
		t.Fatalf("%d points seen otherwise by the rings than by every enemy", disagree)
	}
}
