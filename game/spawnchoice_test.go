package game

import (
	"math"
	"math/rand/v2"
	"testing"
)

// chooseSpawnByRules is ChooseSpawn as it was written before issue 23:
// every spawn's line of sight to every enemy, then the farthest within
// 10 %. The reference for TestChooseSpawnMatchesRules.
func chooseSpawnByRules(m *Map, enemies []Point, last int, rng *rand.Rand) int {
	allowed := make([]bool, len(m.Spawns))
	seen := make([]bool, len(m.Spawns))
	free := 0
	for i, s := range m.Spawns {
		if i == last && len(m.Spawns) > 1 {
			continue
		}
		allowed[i] = true
		if seen[i] = m.seenByAny(s, enemies); !seen[i] {
			free++
		}
	}
	score := make([]float64, len(m.Spawns))
	best := 0.0
	for i, s := range m.Spawns {
		if !allowed[i] || (free > 0 && seen[i]) {
			allowed[i] = false
			continue
		}
		d := math.Inf(1)
		for _, e := range enemies {
			d = math.Min(d, hypot(e.X-s.X, e.Y-s.Y))
		}
		if math.IsInf(d, 1) {
			d = 1e9
		}
		score[i] = d
		best = math.Max(best, d)
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
