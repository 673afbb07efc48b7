package game

import (
	"cmp"
	"math"
	"math/rand/v2"
	"slices"

	"tickshot/shared"
)

// Rules of deathmatch.
const (
	MaxHealth      = 100  // hit points at spawn
	RespawnDelayMs = 2000 // time from death to respawn, ms
)

// Player is the server's record of one player: the predicted state plus the
// rules' state (health, score, respawn).
type Player struct {
	ID   uint16
	Name string
	Bot  bool
	// Team is TeamNone in deathmatch, TeamRed or TeamBlue in team deathmatch.
	Team  Team
	State shared.PlayerState
	// Angle is the aim of the newest command, radians.
	Angle float64
	// Health in hit points, 0..MaxHealth; 0 while dead.
	Health int
	// Armour in armour points, 0..MaxArmour: it takes ArmourAbsorbPct of
	// each hit (pickup.go). PowerUntil is the tick double damage ends.
	Armour     int
	PowerUntil uint32
	Kills      int
	Deaths     int
	// RespawnTick is the server tick at which a dead player respawns.
	RespawnTick uint32
	// DiedTick is the tick of the latest death; PreDeath the state just before it.
	DiedTick uint32
	PreDeath shared.PlayerState
	// Teleport increments at every respawn so that clients restart the
	// player's interpolation history instead of sliding across the map.
	Teleport uint8
	// ProtectedUntil is the tick spawn protection ends (mp_spawnprotection):
	// at most SpawnIdleProtectMs after the spawn while the player stands
	// still, mp_spawnprotection seconds after its first movement, and at
	// once when it fires (World.RunCommand).
	ProtectedUntil uint32
	// LastSpawn is the spawn point of the latest spawn (valid once spawned
	// is true): ChooseSpawn never picks it twice in a row for one player.
	LastSpawn Point
	spawned   bool
	moved     bool // it moved since its latest spawn (spawn protection)
}

// SpawnIdleProtectMs caps spawn protection while a player that just
// spawned stands still (reads the scoreboard, types in chat), ms; its first
// movement starts the mp_spawnprotection countdown instead.
const SpawnIdleProtectMs = 10000

// Protected reports whether spawn protection covers the player at tick.
func (p *Player) Protected(tick uint32) bool { return p.Alive() && tick < p.ProtectedUntil }

// Alive reports whether the player is in the game.
func (p *Player) Alive() bool { return !p.State.Dead }

// Hitbox returns p's hitbox now (NewHitbox at p's position, with its team).
func (p *Player) Hitbox() Hitbox { return NewHitbox(p.ID, p.State.X, p.State.Y, p.Alive(), p.Team) }

// Damage takes amount hit points, less what armour absorbs; it returns true when this kills the player,
// who is then dead and scheduled to respawn at tick+RespawnDelay.
func (p *Player) Damage(amount int, tick uint32, tickRate int) (killed bool) {
	if p.State.Dead || amount <= 0 {
		return false
	}
	p.Health -= p.absorb(amount)
	if p.Health > 0 {
		return false
	}
	p.Health = 0
	p.State.Dead = true
	p.State.VX, p.State.VY = 0, 0
	p.Deaths++
	p.RespawnTick = tick + uint32(shared.Ticks(RespawnDelayMs, tickRate))
	return true
}

// Spawn puts the player at (x, y) alive with full health and magazines,
// no armour and no power-up.
func (p *Player) Spawn(pt Point) {
	w := p.State.Weapon
	p.State = shared.NewPlayerState(pt.X, pt.Y)
	p.State.Weapon = w
	p.Health, p.Armour, p.PowerUntil = MaxHealth, 0, 0
	p.Teleport++
	p.LastSpawn, p.spawned, p.moved = pt, true, false
}

// ChooseSpawn returns the index in m.Spawns of the spawn point for a player
// whose previous spawn was m.Spawns[last] (last < 0: none). enemies are the
// positions of live opponents. The rules, in order:
//   - never last again (when the map has another spawn);
//   - a spawn out of every enemy's sight (Map.Sees: inside the enemy's
//     view, ViewRect, and in its line of sight) when one of the
//     SpawnSightMax farthest from the nearest enemy (equal ones by index)
//     is; otherwise all are considered;
//   - among those, the farthest from the nearest enemy, choosing at random
//     among points within 10% of the best so that spawns vary.
//
// rng must be seeded by the caller.
//
// The spawns are visited best first (farthest from the nearest enemy), and
// the lines of sight asked only until the choice is settled: the first
// spawn out of sight sets the best, the walk stops below 90 % of it. On
// expanse (316 spawns, 1 023 enemies) that is a few spawns' lines of sight
// instead of every spawn's; the choice is the one the rules above give
// (TestChooseSpawnMatchesRules compares it with them on random worlds).
func (m *Map) ChooseSpawn(enemies []Point, last int, rng *rand.Rand) int {
	return m.chooseSpawn(enemies, last, rng, new(spawnChoice), -1)
}

// SpawnSightMax is how many spawns, farthest from the enemies first, a
// spawn choice asks whether an enemy sees them (ChooseSpawn). Every map
// but expanse has fewer, so there the rule is "out of sight" alone. On
// expanse at 1 024 players (316 spawns) some enemy sees nearly every
// spawn, so a choice asked all 316 before it fell back to all of them:
// 315 sight tests a choice (measured in the 1 024-player ServerTick
// benchmark), each up to some 35 lines of sight. The spawns past the 64
// farthest are the nearest to an enemy: one of them that nobody sees is
// not worth the search. Once one of the 64 is out of sight, the others
// within 10 % of it are asked as before, wherever they rank.
const SpawnSightMax = 64

// chooseSpawn is ChooseSpawn in sc's storage; key names the enemy set
// (enemyKey) whose distances a respawn pass shares (spawnScores).
func (m *Map) chooseSpawn(enemies []Point, last int, rng *rand.Rand, sc *spawnChoice, key int) int {
	near := &sc.rings
	near.reset(m, enemies)
	score := slices.Grow(sc.score[:0], len(m.Spawns))[:len(m.Spawns)]
	switch kept := sc.scores(key); {
	case kept != nil:
		copy(score, kept)
	case sc.inPass: // the pass's first choice against this set: every spawn, kept
		for i, s := range m.Spawns {
			score[i] = near.nearest(s)
		}
		sc.keep(key, score)
	default:
		clear(score)
	}
	ranks := sc.ranks[:0]
	for i, s := range m.Spawns {
		if i == last && len(m.Spawns) > 1 {
			score[i] = 0
			continue
		}
		if !sc.inPass {
			score[i] = near.nearest(s)
		}
		ranks = append(ranks, spawnRank{^math.Float64bits(score[i]), int32(i)})
	}
	// Farthest first, equal ones by index: a distance is never negative
	// (nor -0 or NaN), so its bits order as it does, and their complement
	// the other way; one integer compare a pair, not a closure's reads of
	// score (a stable sort of the indices took a quarter of a choice).
	slices.SortFunc(ranks, func(a, b spawnRank) int {
		if c := cmp.Compare(a.key, b.key); c != 0 {
			return c
		}
		return cmp.Compare(a.i, b.i)
	})
	sc.ranks = ranks
	cands := sc.cands[:0]
	best, free := 0.0, false
	for n, r := range ranks {
		i := int(r.i)
		if (free && score[i] < best*0.9) || (!free && n == SpawnSightMax) {
			break
		}
		if near.seen(m, m.Spawns[i]) {
			continue
		}
		if !free {
			free, best = true, score[i]
		}
		cands = append(cands, i)
	}
	if !free { // every spawn is seen: all are considered
		best = score[ranks[0].i]
		for _, r := range ranks {
			i := int(r.i)
			if score[i] < best*0.9 {
				break
			}
			cands = append(cands, i)
		}
	}
	slices.Sort(cands)
	sc.score, sc.cands = score, cands
	return cands[rng.IntN(len(cands))]
}

// Sees reports whether a player at e sees point s: s lies inside e's view
// (ViewRect: what its screen can show, and the server sends it) and e has
// a line of sight to it (Map.LineOfSight from e to s). A wall hides a
// spawn, and so does distance: before issue 23 the line of sight alone
// counted, at any range, so on expanse (8 192 units across, 1 023
// enemies) some enemy had a long clear line to nearly every spawn, the
// rule chose among all, and each choice asked a line of sight of every
// enemy of the unseen spawns: O(players) a death.
func (m *Map) Sees(e, s Point) bool {
	return ViewRect(m, e.X, e.Y).Contains(s.X, s.Y) && m.LineOfSight(e.X, e.Y, s.X, s.Y)
}

// seenByAny reports whether any of enemies sees s (Sees).
func (m *Map) seenByAny(s Point, enemies []Point) bool {
	for _, e := range enemies {
		if m.Sees(e, s) {
			return true
		}
	}
	return false
}
