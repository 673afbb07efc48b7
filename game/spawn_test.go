package game

import (
	"math/rand/v2"
	"testing"

	"tickshot/shared"
)

// spawnsOutOfSight returns the spawns of m that no enemy sees: in its
// view (ViewRect) and its line of sight.
func spawnsOutOfSight(m *Map, enemies []Point) []Point {
	var out []Point
	for _, s := range m.Spawns {
		seen := false
		for _, e := range enemies {
			seen = seen || (ViewRect(m, e.X, e.Y).Contains(s.X, s.Y) && m.LineOfSight(e.X, e.Y, s.X, s.Y))
		}
		if !seen {
			out = append(out, s)
		}
	}
	return out
}

// openPoint returns a random point of m at least a player's radius clear of
// every wall.
func openPoint(m *Map, r *rand.Rand) Point {
	for {
		p := Point{r.Float64() * m.Width, r.Float64() * m.Height}
		clear := true
		for _, w := range m.Walls {
			if p.X > w.MinX-shared.PlayerRadius && p.X < w.MaxX+shared.PlayerRadius &&
				p.Y > w.MinY-shared.PlayerRadius && p.Y < w.MaxY+shared.PlayerRadius {
				clear = false
				break
			}
		}
		if clear {
			return p
		}
	}
}

// Issue 21 item 6: over 50 respawns with enemies placed around the arena,
// a player never spawns in an enemy's line of sight while another spawn
// (not its previous one) is out of every enemy's sight, and never spawns at
// the same point twice in a row.
func TestRespawnAwayFromEnemySightNeverTwiceInARow(t *testing.T) {
	w := testWorld(t, "arena", 5, Rules{})
	p := w.AddPlayer("p", false)
	var enemies []*Player
	for _, n := range []string{"e1", "e2", "e3"} {
		enemies = append(enemies, w.AddPlayer(n, false))
	}
	r := rand.New(rand.NewPCG(21, 6))
	prev := p.LastSpawn
	choices, seenSome := 0, 0
	for round := 0; round < 50; round++ {
		var pts []Point
		for _, e := range enemies {
			e.State = shared.NewPlayerState(0, 0)
			pt := openPoint(w.Map, r)
			e.State.X, e.State.Y = pt.X, pt.Y
			pts = append(pts, pt)
		}
		if err := w.Suicide(p); err != nil {
			t.Fatal(err)
		}
		for i := 0; !p.Alive(); i++ {
			if i > 10*w.TickRate {
				t.Fatal("no respawn in 10 s")
			}
			w.NextTick()
			w.Step()
		}
		got := Point{p.State.X, p.State.Y}
		if got != p.LastSpawn {
			t.Fatalf("round %d: at %+v, LastSpawn says %+v", round, got, p.LastSpawn)
		}
		if got == prev {
			t.Fatalf("round %d: spawned at %+v twice in a row", round, got)
		}
		var free []Point
		for _, s := range spawnsOutOfSight(w.Map, pts) {
			if s != prev {
				free = append(free, s)
			}
		}
		if len(free) > 0 {
			choices++
			if len(free) < len(w.Map.Spawns)-1 {
				seenSome++
			}
			ok := false
			for _, s := range free {
				ok = ok || s == got
			}
			if !ok {
				t.Fatalf("round %d: spawned at %+v in sight of an enemy at %+v while %d spawns were out of sight",
					round, got, pts, len(free))
			}
		}
		prev = got
	}
	// The test means something only when enemies saw some spawns and
	// others were free.
	if seenSome < 10 {
		t.Fatalf("only %d of 50 rounds had spawns both in and out of sight (%d with a free one)", seenSome, choices)
	}
}

// Spawn protection (issue 21 item 6): it lasts while the player stands
// still after spawning (at most SpawnIdleProtectMs), then
// mp_spawnprotection seconds from its first movement; with
// mp_spawnprotection 0 there is none. (TestWorldSpawnProtection: firing
// ends it at once.)
func TestSpawnProtectionUntilMoved(t *testing.T) {
	w := testWorld(t, "range", 1, Rules{SpawnProtection: 2})
	a := w.AddPlayer("a", false)
	b := w.AddPlayer("b", false)
	spawnTick := w.Tick
	num := uint32(0)
	cmd := func(p *Player, moveX float32) {
		num++
		w.RunCommand(p, shared.UserCmd{CommandNumber: num, TickCount: w.Tick, Msec: shared.MsecFor(w.TickRate), MoveX: moveX}, nil)
	}
	// 5 s standing still (more than mp_spawnprotection): both still protected.
	for i := 0; i < 5*w.TickRate; i++ {
		w.NextTick()
		cmd(a, 0)
		cmd(b, 0)
	}
	if !a.Protected(w.Tick) || !b.Protected(w.Tick) {
		t.Fatal("standing still after spawning for 5 s ended a 2 s spawn protection")
	}
	// a moves: 2 s later its protection is over, not a tick earlier.
	w.NextTick()
	cmd(a, 1)
	moved := w.Tick
	for w.Tick < moved+uint32(2*w.TickRate)-1 {
		w.NextTick()
		cmd(a, 0) // stopping again does not bring it back
	}
	if !a.Protected(w.Tick) {
		t.Fatalf("protection ended %d ticks after the first movement, before 2 s", w.Tick-moved)
	}
	w.NextTick()
	if a.Protected(w.Tick) {
		t.Fatal("protection lasts more than 2 s after the first movement")
	}
	// b never moves: the idle cap ends it SpawnIdleProtectMs after its spawn.
	capEnd := spawnTick + uint32(shared.Ticks(SpawnIdleProtectMs, w.TickRate))
	for w.Tick < capEnd-1 {
		w.NextTick()
		cmd(b, 0)
	}
	if !b.Protected(w.Tick) {
		t.Fatal("a player standing still lost protection before SpawnIdleProtectMs")
	}
	w.NextTick()
	if b.Protected(w.Tick) {
		t.Fatal("a player standing still is protected past SpawnIdleProtectMs")
	}
	// mp_spawnprotection 0: no protection at all, moving or not.
	w0 := testWorld(t, "range", 1, Rules{})
	if c := w0.AddPlayer("c", false); c.Protected(w0.Tick) {
		t.Fatal("protected with mp_spawnprotection 0")
	}
}
