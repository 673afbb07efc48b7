package game

import (
	"hash"
	"hash/fnv"
	"math"
	"testing"

	"tickshot/shared"
)

// goldenHitHash and goldenWorldHash are the FNV-1a 64 hashes of goldenHits
// and goldenWorld. scripts/crosstarget.sh runs TestGoldenHits and
// TestGoldenWorld on every target it runs (amd64, GOAMD64=v3, 386, arm64,
// riscv64, js/wasm) and requires the same hashes: a hit trace (TraceShot:
// the client draws its tracer with it, the server decides hits with it) and
// the world's rules (bots, rockets, splash, spawns, pickups) must give the same bits
// on an arm64 machine as on an amd64 one. If a deliberate change to game/
// or shared/ changes them, run `go test ./game -run 'TestGolden(Hits|World)' -v`
// and paste the hashes it reports.
const (
	goldenHitHash   uint64 = 0xaaae4b407cb9d6ca
	goldenWorldHash uint64 = 0x4bbad7786b332810
)

const (
	goldenHitSeed   = 0x6869747300000000 // "hits"
	goldenHitTraces = 60000
	goldenWorldSeed = 0x776f726c64000000 // "world"
	goldenWorldBots = 8
	// goldenWorldTicks is 40 s at 64 ticks/s: a few hundred shots, dozens
	// of rockets and kills, every bot through several lives.
	goldenWorldTicks = 64 * 40
)

func putF(h hash.Hash64, v float64) { interpPutU64(h, math.Float64bits(v)) }

func putI(h hash.Hash64, v int) { interpPutU64(h, uint64(int64(v))) }

// goldenHits traces random hitscan shots across the arena (random origins
// and aim with full mantissas, a dozen random hitboxes around the shooter,
// half of them within two radii of the line of fire, some dead) and hashes TraceShot's result, the wall fraction (RayWalls),
// and RayCircle and DistToRay against one box: the arithmetic of a hit.
func goldenHits(m *Map) (sum uint64, hits, walls int) {
	r := &interpRand{s: goldenHitSeed}
	h := fnv.New64a()
	rng := shared.Weapons[0].Range
	boxes := make([]Hitbox, 12)
	for i := 0; i < goldenHitTraces; i++ {
		// Every product is wrapped in float64() (the inputs must be the
		// same on every target too).
		x := float64(float64(r.coord()/4096) * m.Width)
		y := float64(float64(r.coord()/4096) * m.Height)
		dy, dx := shared.Sincos(r.angle())
		for j := range boxes {
			bx, by := x+float64(float64(r.coord()/4096)*1200)-600, y+float64(float64(r.coord()/4096)*1200)-600
			if j < 6 { // near the line of fire: hits, misses and grazes
				along, off := float64(float64(r.coord()/4096)*500), float64(float64(float64(r.coord()/1024)-2)*shared.PlayerRadius)
				bx, by = x+float64(dx*along)-float64(dy*off), y+float64(dy*along)+float64(dx*off)
			}
			boxes[j] = Hitbox{ID: uint16(j + 1), X: bx, Y: by, R: shared.PlayerRadius, Alive: r.intn(6) != 0}
		}
		tr := TraceShot(m, x, y, dx, dy, rng, boxes, uint16(1+r.intn(12)))
		putI(h, tr.Hit)
		putF(h, tr.EndX)
		putF(h, tr.EndY)
		f := m.RayWalls(x, y, x+float64(dx*rng), y+float64(dy*rng))
		putF(h, f)
		b := boxes[r.intn(len(boxes))]
		t, ok := RayCircle(x, y, dx, dy, b.X, b.Y, b.R)
		putF(h, t)
		if ok {
			putI(h, 1)
		}
		putF(h, DistToRay(x, y, dx, dy, b.X, b.Y))
		if tr.Hit >= 0 {
			hits++
		}
		if f < 1 {
			walls++
		}
	}
	return h.Sum64(), hits, walls
}

// goldenCounts are what goldenWorld saw, to show it was not tame: rifle
// shots and hits, shotgun shots and the pellets that hit (of players
// holding the shotgun), rockets, explosions, kills, pickups taken and
// back, and dashes.
type goldenCounts struct {
	shots, hits, pellets, pelletHits, rockets, explosions, kills, takes, returns, dashes int
}

// goldenWorld runs a deathmatch on the arena for goldenWorldTicks: 8 server
// bots (Bot.Think: hypot, atan2, Sincos, line of sight) and two scripted
// players, one with the rifle and one with the rocket launcher, who aim
// at the nearest live bot with a wobble and move in seeded patterns, and
// a third with the rifle who walks to the nearest pickup it sees and can
// take, and else wanders, and a fourth with the shotgun who dashes now and
// then (the bots use the shotgun up close and dash too: botarms.go). Every
// tick it hashes every player (state, health, score), every rocket in
// flight, every pickup (taken and back again: health, armour, rockets,
// double damage) and every event (shots with their end points, hits,
// explosions, kills, respawns).
func goldenWorld(m *Map) (uint64, goldenCounts) {
	r := &interpRand{s: goldenWorldSeed}
	h := fnv.New64a()
	w := NewWorld(m, 64, goldenWorldSeed, Rules{})
	for range goldenWorldBots {
		w.AddBot(16)
	}
	rifle, rocket := w.AddPlayer("rifle", false), w.AddPlayer("rocket", false)
	collector := w.AddPlayer("collector", false)
	shotgun := w.AddPlayer("shotgun", false)
	weapons := [...]uint8{shared.WeaponRifle, shared.WeaponRocket, shared.WeaponRifle, shared.WeaponShotgun}
	var cmdNum [4]uint32
	var wander [2]float32 // the collector's heading when no pickup is in sight
	var c goldenCounts
	away := make([]uint32, len(w.Pickups)) // each pickup's RespawnTick a tick ago
	for tick := 0; tick < goldenWorldTicks; tick++ {
		w.NextTick()
		for k, p := range []*Player{rifle, rocket, collector, shotgun} {
			cmdNum[k]++
			wpn := weapons[k]
			cmd := shared.UserCmd{CommandNumber: cmdNum[k], TickCount: w.Tick, Msec: shared.MsecFor(w.TickRate),
				Weapon: uint8(wpn), MoveX: float32(r.intn(3) - 1), MoveY: float32(r.intn(3) - 1)}
			if p == collector {
				// Head for the nearest pickup in sight it can take, else
				// wander: a new seeded heading every 48 ticks.
				if tick%48 == 0 {
					wander = [2]float32{float32(r.intn(3) - 1), float32(r.intn(3) - 1)}
				}
				cmd.MoveX, cmd.MoveY = wander[0], wander[1]
				best := math.Inf(1)
				for _, pk := range w.Pickups {
					d := hypot(pk.X-p.State.X, pk.Y-p.State.Y)
					if pk.Present() && CanTake(pk.Kind, p.Health, p.Armour, p.State) && d < best &&
						w.Map.LineOfSight(p.State.X, p.State.Y, pk.X, pk.Y) {
						best = d
						cmd.MoveX, cmd.MoveY = norm32(pk.X-p.State.X, pk.Y-p.State.Y)
					}
				}
			}
			// Aim at the nearest live bot, off by up to ±0.05 rad.
			best := math.Inf(1)
			for _, o := range w.Players {
				if o.Bot && o.Alive() {
					if d := hypot(o.State.X-p.State.X, o.State.Y-p.State.Y); d < best {
						best = d
						cmd.ViewAngle = float32(atan2(o.State.Y-p.State.Y, o.State.X-p.State.X) + float64(r.intn(1001)-500)/10000)
					}
				}
			}
			if r.intn(3) != 0 {
				cmd.Buttons |= shared.ButtonAttack
			}
			if p.State.Ammo[wpn] == 0 {
				cmd.Buttons = shared.ButtonReload
			}
			if p == shotgun && r.intn(32) == 0 {
				cmd.Buttons |= shared.ButtonDash
			}
			w.RunCommand(p, cmd, nil)
		}
		for _, p := range w.Players {
			if p.Alive() && p.State.DashTicks == shared.DashCooldownTicks(w.TickRate) {
				c.dashes++
			}
		}
		w.Step()
		for _, p := range w.Players {
			putI(h, int(p.ID))
			putF(h, p.State.X)
			putF(h, p.State.Y)
			putF(h, p.State.VX)
			putF(h, p.State.VY)
			putF(h, p.Angle)
			putI(h, p.Health)
			putI(h, p.Kills)
			putI(h, p.Deaths)
			putI(h, int(p.State.Ammo[0])<<8|int(p.State.Ammo[1]))
			putI(h, int(p.State.Ammo[2])<<16|int(p.State.Weapon)<<8)
			putI(h, int(p.State.DashTicks))
			putI(h, p.Armour)
			putI(h, int(p.PowerUntil))
		}
		for i, pk := range w.Pickups {
			putI(h, int(pk.ID)<<16|int(pk.Taker))
			putI(h, int(pk.RespawnTick))
			if pk.RespawnTick != away[i] {
				if pk.Present() {
					c.returns++
				} else {
					c.takes++
				}
			}
			away[i] = pk.RespawnTick
		}
		for _, pr := range w.Projectiles {
			putI(h, int(pr.ID))
			putF(h, pr.X)
			putF(h, pr.Y)
			putF(h, pr.VX)
			putF(h, pr.VY)
		}
		for _, e := range w.TakeEvents() {
			putI(h, int(e.Kind))
			putI(h, int(e.Tick))
			putI(h, int(e.A)<<16|int(e.B))
			putI(h, e.Value)
			putF(h, e.X)
			putF(h, e.Y)
			putF(h, e.X2)
			putF(h, e.Y2)
			switch e.Kind {
			case EvShot:
				switch e.Value {
				case int(shared.WeaponRifle):
					c.shots++
					if e.B != 0 {
						c.hits++
					}
				case int(shared.WeaponShotgun):
					c.pellets++ // one EvShot a shotgun shot
				default:
					c.rockets++
				}
			case EvHit:
				if a := w.Player(e.A); a != nil && a.State.Weapon == shared.WeaponShotgun && e.Value%shared.Weapons[shared.WeaponShotgun].Damage == 0 {
					c.pelletHits += e.Value / shared.Weapons[shared.WeaponShotgun].Damage
				}
			case EvExplode:
				c.explosions++
			case EvKill:
				c.kills++
			}
		}
	}
	return h.Sum64(), c
}

// TestGoldenHits checks that hit traces give bit-identical results on
// every build target (see scripts/crosstarget.sh).
func TestGoldenHits(t *testing.T) {
	m := loadArenaT(t)
	got, hits, walls := goldenHits(m)
	t.Logf("%d traces: %d hit a box, %d stopped at a wall", goldenHitTraces, hits, walls)
	if hits < goldenHitTraces/10 || walls < goldenHitTraces/10 {
		t.Errorf("trace too tame: %d hits, %d walls of %d", hits, walls, goldenHitTraces)
	}
	if again, _, _ := goldenHits(m); again != got {
		t.Errorf("two runs differ: %#016x then %#016x", got, again)
	}
	t.Logf("golden hit hash %#016x", got) // scripts/crosstarget.sh compares it across targets
	if got != goldenHitHash {
		t.Errorf("golden hit hash = %#016x, want %#016x (GOOS/GOARCH differ in floating point, "+
			"or game/ changed: if deliberate, set goldenHitHash = %#016x)", got, goldenHitHash, got)
	}
}

// TestGoldenWorld checks that the world's rules (bots, hitscan, the
// shotgun's pellets, dashes, rockets, splash, deaths and respawns, pickups
// taken and back) play out bit-identically on every build
// target (see scripts/crosstarget.sh).
func TestGoldenWorld(t *testing.T) {
	m := loadArenaT(t)
	got, c := goldenWorld(m)
	t.Logf("%d ticks: %d rifle shots (%d hits), %d shotgun shots (%d pellets hit), %d rockets, %d explosions, %d kills, %d pickups taken, %d back, %d dashes",
		goldenWorldTicks, c.shots, c.hits, c.pellets, c.pelletHits, c.rockets, c.explosions, c.kills, c.takes, c.returns, c.dashes)
	if c.shots < 200 || c.hits < 30 || c.rockets < 20 || c.explosions < 20 || c.kills < 10 || c.takes < 4 || c.returns < 2 ||
		c.pellets < 30 || c.pelletHits < 30 || c.dashes < 20 {
		t.Errorf("world too tame: %+v", c)
	}
	if again, _ := goldenWorld(m); again != got {
		t.Errorf("two runs differ: %#016x then %#016x", got, again)
	}
	t.Logf("golden world hash %#016x", got) // scripts/crosstarget.sh compares it across targets
	if got != goldenWorldHash {
		t.Errorf("golden world hash = %#016x, want %#016x (GOOS/GOARCH differ in floating point, "+
			"or game/ or shared/ changed: if deliberate, set goldenWorldHash = %#016x)", got, goldenWorldHash, got)
	}
}
