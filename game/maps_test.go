package game

import (
	"math"
	"slices"
	"testing"

	"tickshot/shared"
)

// The playable maps of issue 21 (docs/MAPS.md): each loads, every spawn
// can walk to every other, spawns lie out of the middle, and bots play
// each one without getting stuck.

// newMaps are the maps added in issue 21 and the bots each is played with
// in TestBotsPlayNewMaps (inside the map's intended player count).
var newMaps = []struct {
	name      string
	minSpawns int // at least this many spawn points
	bots      int
}{
	{"foundry", 8, 8},
	{"plaza", 12, 12},
	{"bunker", 6, 6},
	{"sprawl", 16, 20},
}

// TestDefaultMapCycle: the default cycle is arena and the new maps, every
// one an embedded map; the benchmark range and the lag lab's map are not
// in it; callers get their own copy.
func TestDefaultMapCycle(t *testing.T) {
	cycle := DefaultMapCycle()
	want := []string{DefaultMap}
	for _, nm := range newMaps {
		want = append(want, nm.name)
	}
	if !slices.Equal(cycle, want) {
		t.Fatalf("DefaultMapCycle() = %v, want %v", cycle, want)
	}
	for _, name := range cycle {
		if !slices.Contains(MapNames(), name) {
			t.Errorf("cycle map %q is not embedded (MapNames %v)", name, MapNames())
		}
	}
	for _, tool := range []string{"range", "lab"} {
		if slices.Contains(cycle, tool) {
			t.Errorf("%q is in the default cycle", tool)
		}
	}
	cycle[0] = "range"
	if DefaultMapCycle()[0] != DefaultMap {
		t.Error("changing the returned slice changed the default cycle")
	}
}

// TestNewMapsLoad: each new map loads with its title, enough spawns, and
// every spawn inside the map, clear of the walls by the player radius and
// out of the middle (at least three quarters of the way from the centre to
// the nearest edge's distance).
func TestNewMapsLoad(t *testing.T) {
	for _, nm := range newMaps {
		m, err := LoadMap(nm.name)
		if err != nil {
			t.Fatalf("%s: %v", nm.name, err)
		}
		if m.Title == "" || m.Title == m.Name {
			t.Errorf("%s: title %q, want the map's own", nm.name, m.Title)
		}
		if len(m.Spawns) < nm.minSpawns {
			t.Errorf("%s: %d spawns, want at least %d", nm.name, len(m.Spawns), nm.minSpawns)
		}
		cx, cy := m.Width/2, m.Height/2
		minOff := 0.75 * math.Min(cx, cy)
		for i, s := range m.Spawns {
			if s.X <= 0 || s.Y <= 0 || s.X >= m.Width || s.Y >= m.Height || m.Solid(s.X, s.Y, shared.PlayerRadius) {
				t.Errorf("%s: spawn %d at (%v, %v) is outside the map or in a wall", nm.name, i, s.X, s.Y)
			}
			if d := math.Hypot(s.X-cx, s.Y-cy); d < minOff {
				t.Errorf("%s: spawn %d at (%v, %v) is %.0f units from the centre, want at least %.0f", nm.name, i, s.X, s.Y, d, minOff)
			}
		}
		t.Logf("%s: %v × %v units, %d walls, %d spawns", nm.name, m.Width, m.Height, len(m.Walls), len(m.Spawns))
	}
}

// reachGridStep is the flood fill's grid, world units: spawns sit on
// multiples of 16, so on the grid; walls are at least 32 thick, so none
// fits between two neighbouring grid points.
const reachGridStep = 8

// reachable flood-fills the grid of points reachGridStep apart where a
// player's body (shared.PlayerRadius) touches no wall, four-connected,
// from m's first spawn, and returns the indexes of pts it does not reach
// (nil pts: the spawns).
func reachable(m *Map, pts ...Point) (unreached []int) {
	if pts == nil {
		pts = m.Spawns
	}
	nx, ny := int(m.Width/reachGridStep)+1, int(m.Height/reachGridStep)+1
	open := func(i, j int) bool {
		return !m.Solid(float64(i*reachGridStep), float64(j*reachGridStep), shared.PlayerRadius)
	}
	seen := make([]bool, nx*ny)
	cell := func(p Point) (int, int) {
		return int(math.Round(p.X / reachGridStep)), int(math.Round(p.Y / reachGridStep))
	}
	i0, j0 := cell(m.Spawns[0])
	queue := [][2]int{{i0, j0}}
	seen[j0*nx+i0] = true
	for len(queue) > 0 {
		c := queue[0]
		queue = queue[1:]
		for _, d := range [4][2]int{{1, 0}, {-1, 0}, {0, 1}, {0, -1}} {
			i, j := c[0]+d[0], c[1]+d[1]
			if i < 0 || j < 0 || i >= nx || j >= ny || seen[j*nx+i] || !open(i, j) {
				continue
			}
			seen[j*nx+i] = true
			queue = append(queue, [2]int{i, j})
		}
	}
	for k, s := range pts {
		if i, j := cell(s); !seen[j*nx+i] {
			unreached = append(unreached, k)
		}
	}
	return unreached
}

// TestMapSpawnsReachable: on every embedded map, a player can walk from
// the first spawn to each other one (so from each to each), by a flood
// fill over the walls with the player's radius.
func TestMapSpawnsReachable(t *testing.T) {
	for _, name := range MapNames() {
		m, err := LoadMap(name)
		if err != nil {
			t.Fatal(err)
		}
		if u := reachable(m); len(u) > 0 {
			t.Errorf("%s: spawns %v cannot be reached from spawn 0", name, u)
		}
	}
}

// A closed room has a spawn the flood fill cannot reach: the check can fail.
func TestMapSpawnsReachableFindsAClosedRoom(t *testing.T) {
	m, err := LoadMap("bunker")
	if err != nil {
		t.Fatal(err)
	}
	walled := *m
	s := m.Spawns[len(m.Spawns)-1]
	walled.Walls = append(slices.Clone(m.Walls),
		shared.Box{MinX: s.X - 64, MinY: s.Y - 64, MaxX: s.X + 64, MaxY: s.Y - 48},
		shared.Box{MinX: s.X - 64, MinY: s.Y + 48, MaxX: s.X + 64, MaxY: s.Y + 64},
		shared.Box{MinX: s.X - 64, MinY: s.Y - 48, MaxX: s.X - 48, MaxY: s.Y + 48},
		shared.Box{MinX: s.X + 48, MinY: s.Y - 48, MaxX: s.X + 64, MaxY: s.Y + 48})
	if u := reachable(&walled); !slices.Equal(u, []int{len(m.Spawns) - 1}) {
		t.Fatalf("unreached %v, want only the walled-in spawn %d", u, len(m.Spawns)-1)
	}
}

// Bot play: botStuckWindow seconds of a bot's life in which it gets less
// than botStuckDistance units from where the window began mean it is stuck.
const (
	botPlaySeconds   = 60
	botStuckWindow   = 10
	botStuckDistance = 50
)

// TestBotsPlayNewMaps: bots play each new map for 60 s of simulated time
// (World stepped tick by tick, no wall clock) and none is stuck: in every
// 10 s a bot stays alive, it gets at least 50 units from where those 10 s
// began. It also asserts that they fight (someone is killed) and that
// every bot moved.
func TestBotsPlayNewMaps(t *testing.T) {
	for _, nm := range newMaps {
		t.Run(nm.name, func(t *testing.T) {
			w := testWorld(t, nm.name, 21, Rules{BotSkill: 1, SpawnProtection: 1})
			for range nm.bots {
				w.AddBot(32)
			}
			ticks := botPlaySeconds * w.TickRate
			window := botStuckWindow * w.TickRate
			track := make([][]botSample, len(w.Bots))
			deaths := 0
			for range ticks {
				w.NextTick()
				w.Step()
				for _, e := range w.TakeEvents() {
					if e.Kind == EvKill {
						deaths++
					}
				}
				for i, b := range w.Bots {
					s := b.Player.State
					track[i] = append(track[i], botSample{s.X, s.Y, !s.Dead})
				}
			}
			worst, windows := math.Inf(1), 0
			for i, tr := range track {
				least, at, n := leastTravel(tr, window, w.TickRate/4)
				windows += n
				worst = min(worst, least)
				if least < botStuckDistance {
					t.Fatalf("bot %d stuck near (%.0f, %.0f): %.1f units in the %d s from tick %d", i, tr[at].x, tr[at].y, least, botStuckWindow, at)
				}
			}
			if windows == 0 || deaths == 0 {
				t.Fatalf("%d alive 10-s windows, %d kills in %d s: the bots did not play", windows, deaths, botPlaySeconds)
			}
			t.Logf("%s, %d bots, %d s: %d kills; %d 10-s windows alive, the least a bot got from a window's start %.0f units",
				nm.name, nm.bots, botPlaySeconds, deaths, windows, worst)
		})
	}
}

// botSample is a bot's position at one tick and whether it is alive.
type botSample struct {
	x, y  float64
	alive bool
}

// leastTravel looks at every window of window ticks of track, started
// every step ticks, in which the bot is alive throughout (a death and
// respawn breaks a window): in each, the farthest the bot gets from where
// the window began. It returns the least of those, the tick its window
// began, and how many windows there were (least is +Inf when none).
func leastTravel(track []botSample, window, step int) (least float64, at, windows int) {
	least = math.Inf(1)
	for start := 0; start+window <= len(track); start += step {
		far, alive := 0.0, true
		for _, s := range track[start : start+window] {
			if !s.alive {
				alive = false
				break
			}
			far = max(far, math.Hypot(s.x-track[start].x, s.y-track[start].y))
		}
		if !alive {
			continue
		}
		windows++
		if far < least {
			least, at = far, start
		}
	}
	return least, at, windows
}

// leastTravel finds a bot pinned for 10 s (it jitters in place) and does
// not count the time it lies dead.
func TestLeastTravelFindsAStuckBot(t *testing.T) {
	const tickRate, window = 64, botStuckWindow * 64
	var tr []botSample
	for i := range 20 * tickRate { // 20 s walking right at 100 units/s
		tr = append(tr, botSample{x: float64(i) * 100 / tickRate, alive: true})
	}
	if least, _, n := leastTravel(tr, window, tickRate/4); least < 900 || n == 0 {
		t.Fatalf("a walking bot: least %v units over %d windows", least, n)
	}
	for i := range 11 * tickRate { // then 11 s pinned against a wall, jittering 3 units
		tr = append(tr, botSample{x: 2000 + float64(i%2)*3, alive: true})
	}
	if least, at, _ := leastTravel(tr, window, tickRate/4); least >= botStuckDistance || at < 20*tickRate {
		t.Fatalf("a pinned bot: least %v units from tick %d, want under %d after tick %d", least, at, botStuckDistance, 20*tickRate)
	}
	dead := slices.Clone(tr[:20*tickRate])
	for i := range 11 * tickRate { // 11 s dead in one place instead
		dead = append(dead, botSample{x: 2000, alive: i > 10*tickRate})
	}
	if least, _, _ := leastTravel(dead, window, tickRate/4); least < botStuckDistance {
		t.Fatalf("a dead bot counted as stuck: least %v units", least)
	}
}

// TestMapPickups: every playable map places each kind of pickup, every one
// clear of the walls by PickupReach and reachable on foot from spawn 0.
func TestMapPickups(t *testing.T) {
	for _, name := range DefaultMapCycle() {
		m, err := LoadMap(name)
		if err != nil {
			t.Fatal(err)
		}
		kinds := map[PickupKind]int{}
		var pts []Point
		for i, sp := range m.Pickups {
			kinds[sp.Kind]++
			pts = append(pts, sp.At)
			if m.Solid(sp.At.X, sp.At.Y, PickupReach) {
				t.Errorf("%s: pickup %d (%s) at (%v, %v) is within %v units of a wall", name, i+1, sp.Kind, sp.At.X, sp.At.Y, PickupReach)
			}
		}
		for k := PickupHealth; k <= MaxPickupKind; k++ {
			if kinds[k] == 0 {
				t.Errorf("%s: no %s pickup", name, k)
			}
		}
		if u := reachable(m, pts...); len(u) > 0 {
			t.Errorf("%s: pickups %v cannot be reached from spawn 0", name, u)
		}
		t.Logf("%s: %d pickups %v", name, len(m.Pickups), kinds)
	}
}
