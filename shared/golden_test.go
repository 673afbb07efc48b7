package shared_test

import (
	"encoding/binary"
	"hash"
	"hash/fnv"
	"math"
	"testing"

	"tickshot/game"
	"tickshot/shared"
)

// goldenHash is the FNV-1a 64 hash of every state (and result) produced by
// goldenTrace. It must be identical on every build target (native amd64,
// GOAMD64=v3, 386, arm64, riscv64, js/wasm; see scripts/crosstarget.sh). If a deliberate
// change to shared/ movement or weapon rules changes it, run
// `go test ./shared -run TestGoldenTrace -v` and paste the hash it reports.
const goldenHash uint64 = 0x5e321bd67d88c2e5

const (
	goldenSeed     = 0x7469636B73686F74 // "tickshot"
	goldenCmds     = 10000
	goldenPlayers  = 4
	goldenTickRate = 64
)

// prng is SplitMix64: tiny, integer-only and therefore identical on every
// target (math/rand's streams are not part of any compatibility promise).
type prng struct{ s uint64 }

func (p *prng) next() uint64 {
	p.s += 0x9E3779B97F4A7C15
	z := p.s
	z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9
	z = (z ^ (z >> 27)) * 0x94D049BB133111EB
	return z ^ (z >> 31)
}

// intn returns a value in [0, n).
func (p *prng) intn(n int) int { return int(p.next() % uint64(n)) }

// axisChoices are the interesting exact axis values; others are drawn at
// random. They are float32 literals, the type UserCmd carries.
var axisChoices = [...]float32{-1, -0.7071, -0.3, 0, 0, 0.3, 0.7071, 1, 0.5, -0.5}

// axis returns a movement axis in [-1, 1]. Every value is computed with a
// single rounding (integer to float32 conversion, then one division), so the
// test's own inputs cannot be altered by fused multiply-add.
func (p *prng) axis() float32 {
	if p.intn(3) > 0 {
		return axisChoices[p.intn(len(axisChoices))]
	}
	k := int32(p.intn(2049)) - 1024 // [-1024, 1024]
	return float32(k) / 1024
}

// angle returns an aim angle in [-pi, pi].
func (p *prng) angle() float32 {
	k := int32(p.intn(1<<21+1)) - 1<<20 // [-2^20, 2^20]
	return float32(float64(k) / (1 << 20) * math.Pi)
}

// genCmds generates n usercmds for one player. Movement input is held for a
// random number of commands so that players build up speed and run into
// walls; aim changes every command; attack is held in bursts; reload is rare;
// the weapon wanted changes now and then (all NumWeapons, the shotgun's
// pellets included); dash is pressed now and then, often inside its
// cooldown.
func genCmds(r *prng, n, tickRate int) []shared.UserCmd {
	cmds := make([]shared.UserCmd, n)
	var mx, my float32
	hold := 0
	attack := false
	weapon := uint8(0)
	for i := range cmds {
		if r.intn(4*tickRate) == 0 {
			weapon = uint8(r.intn(shared.NumWeapons))
		}
		if hold == 0 {
			mx, my = r.axis(), r.axis()
			hold = 1 + r.intn(3*tickRate)
		}
		hold--
		if r.intn(40) == 0 {
			attack = !attack
		}
		c := shared.UserCmd{
			CommandNumber: uint32(i + 1),
			TickCount:     uint32(1000 + i),
			Msec:          shared.MsecFor(tickRate),
			LerpMsec:      100,
			MoveX:         mx,
			MoveY:         my,
			ViewAngle:     r.angle(),
			Weapon:        weapon,
		}
		if r.intn(tickRate/2) == 0 {
			c.Buttons |= shared.ButtonDash
		}
		if attack {
			c.Buttons |= shared.ButtonAttack
		}
		if r.intn(300) == 0 {
			c.Buttons |= shared.ButtonReload
		}
		if r.intn(500) == 0 {
			c.Buttons |= shared.ButtonAttack2
		}
		cmds[i] = c
	}
	return cmds
}

func putU64(h hash.Hash64, v uint64) {
	var b [8]byte
	binary.LittleEndian.PutUint64(b[:], v)
	h.Write(b[:])
}

func putF64(h hash.Hash64, v float64) { putU64(h, math.Float64bits(v)) }

func putBool(h hash.Hash64, v bool) {
	if v {
		putU64(h, 1)
	} else {
		putU64(h, 0)
	}
}

// hashStep feeds every field of a state and of the command's result into h,
// bit-exactly, including the shot direction Shot.DirX/DirY: ShotDir uses
// shared.Sincos, whose products are never fused (unlike math.Sincos on
// GOAMD64=v3 or arm64), so the direction is bit-exact on every target too.
func hashStep(h hash.Hash64, s shared.PlayerState, res shared.Result) {
	putF64(h, s.X)
	putF64(h, s.Y)
	putF64(h, s.VX)
	putF64(h, s.VY)
	putBool(h, s.Dead)
	putU64(h, uint64(s.Weapon))
	for _, a := range s.Ammo {
		putU64(h, uint64(a))
	}
	putU64(h, uint64(s.NextAttack))
	putU64(h, uint64(s.ReloadTicks))
	putU64(h, uint64(s.SwitchTicks))
	putU64(h, uint64(s.DashTicks))
	putBool(h, res.Fired)
	putBool(h, res.ReloadStarted)
	if res.Fired {
		putU64(h, uint64(res.Shot.Weapon))
		putF64(h, res.Shot.X)
		putF64(h, res.Shot.Y)
		putF64(h, res.Shot.DirX)
		putF64(h, res.Shot.DirY)
		putF64(h, res.Shot.Angle)
		putU64(h, uint64(res.Shot.Pellets))
		for i := 1; i < res.Shot.NumRays(); i++ {
			ry := res.Shot.Ray(i)
			putF64(h, ry.DirX)
			putF64(h, ry.DirY)
			putF64(h, ry.Angle)
		}
	}
}

// goldenRun is the outcome of one golden trace.
type goldenRun struct {
	hash  uint64   // hash of everything
	steps []uint64 // running hash after each command of each player, in order
	moved int      // commands that changed a position
	shots int
	walls int // commands that ended touching a wall
	// pellets counts the shots of more than one ray (the shotgun), dashes
	// the dashes started, dashBlocked the dash presses refused by the
	// cooldown.
	pellets, dashes, dashBlocked int
}

// goldenTrace runs goldenCmds random commands for goldenPlayers players from
// the arena's spawns at tickRate. Command streams depend only on the seed.
func goldenTrace(t *testing.T, tickRate int) goldenRun {
	t.Helper()
	m, err := game.LoadMap("arena")
	if err != nil {
		t.Fatal(err)
	}
	w := m.World(tickRate)
	r := &prng{s: goldenSeed ^ uint64(tickRate)}
	h := fnv.New64a()
	var run goldenRun
	for p := 0; p < goldenPlayers; p++ {
		sp := m.Spawns[p%len(m.Spawns)]
		s := shared.NewPlayerState(sp.X, sp.Y)
		cmds := genCmds(r, goldenCmds, tickRate)
		for _, c := range cmds {
			prev := s
			var res shared.Result
			s, res = shared.RunCommand(s, c, w)
			hashStep(h, s, res)
			run.steps = append(run.steps, h.Sum64())
			if s.X != prev.X || s.Y != prev.Y {
				run.moved++
			}
			if res.Fired {
				run.shots++
				if res.Shot.NumRays() > 1 {
					run.pellets++
				}
			}
			if c.Has(shared.ButtonDash) && !s.Dead {
				if s.DashTicks == shared.DashCooldownTicks(tickRate) {
					run.dashes++
				} else if prev.DashTicks > 0 {
					run.dashBlocked++
				}
			}
			if m.Solid(s.X, s.Y, shared.PlayerRadius+0.5) {
				run.walls++
			}
		}
	}
	run.hash = h.Sum64()
	return run
}

// TestGoldenTrace checks that shared.RunCommand produces bit-identical
// states on every build target: 4 players x 10 000 random commands against
// the arena walls at tick rates 64 and 20, with every weapon (the
// shotgun's every pellet) and dashes, every state field hashed.
func TestGoldenTrace(t *testing.T) {
	h := fnv.New64a()
	for _, tr := range []int{goldenTickRate, 20} {
		run := goldenTrace(t, tr)
		t.Logf("tick rate %d: hash %#016x, %d moves, %d shots (%d of them shotgun pellets), %d commands touching a wall, %d dashes (%d refused in the cooldown)",
			tr, run.hash, run.moved, run.shots, run.pellets, run.walls, run.dashes, run.dashBlocked)
		// The trace must exercise what it claims to cover.
		n := goldenPlayers * goldenCmds
		if run.moved < n/2 || run.shots < n/50 || run.walls < n/100 || run.pellets < n/500 ||
			run.dashes < n/500 || run.dashBlocked < n/500 {
			t.Errorf("tick rate %d: trace too tame: %d moves, %d shots, %d shotgun shots, %d at walls, %d dashes, %d refused of %d commands",
				tr, run.moved, run.shots, run.pellets, run.walls, run.dashes, run.dashBlocked, n)
		}
		putU64(h, run.hash)
	}
	got := h.Sum64()
	t.Logf("golden trace hash %#016x", got) // scripts/crosstarget.sh compares it across targets
	if got != goldenHash {
		t.Errorf("golden trace hash = %#016x, want %#016x (GOOS/GOARCH differ in floating point, "+
			"or shared/ behaviour changed: if deliberate, set goldenHash = %#016x)", got, goldenHash, got)
	}
}

// TestGoldenRepeatable runs the same trace twice and requires the identical
// hash sequence, and that rerunning any command from the same state gives
// the identical state and result.
func TestGoldenRepeatable(t *testing.T) {
	for _, tr := range []int{goldenTickRate, 20} {
		a, b := goldenTrace(t, tr), goldenTrace(t, tr)
		if len(a.steps) != len(b.steps) {
			t.Fatalf("tick rate %d: %d vs %d steps", tr, len(a.steps), len(b.steps))
		}
		for i := range a.steps {
			if a.steps[i] != b.steps[i] {
				t.Fatalf("tick rate %d: runs diverge at step %d: %#016x vs %#016x", tr, i, a.steps[i], b.steps[i])
			}
		}
		if a.hash != b.hash {
			t.Fatalf("tick rate %d: hash %#016x vs %#016x", tr, a.hash, b.hash)
		}
	}

	// Same state + same command => same result, also when interleaved with
	// other work (no hidden state in package shared).
	m, err := game.LoadMap("arena")
	if err != nil {
		t.Fatal(err)
	}
	w := m.World(goldenTickRate)
	r := &prng{s: 42}
	sp := m.Spawns[0]
	s := shared.NewPlayerState(sp.X, sp.Y)
	other := shared.NewPlayerState(m.Spawns[1].X, m.Spawns[1].Y)
	for i, c := range genCmds(r, 3000, goldenTickRate) {
		s1, r1 := shared.RunCommand(s, c, w)
		other, _ = shared.RunCommand(other, c, w)
		s2, r2 := shared.RunCommand(s, c, w)
		if !s1.Equal(s2) || r1 != r2 {
			t.Fatalf("command %d: rerun differs: %+v %+v vs %+v %+v", i, s1, r1, s2, r2)
		}
		s = s1
	}
}
