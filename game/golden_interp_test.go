package game

import (
	"encoding/binary"
	"hash"
	"hash/fnv"
	"math"
	"testing"
)

// goldenInterpHash is the FNV-1a 64 hash of every sample produced by
// goldenInterp. Lerp and History.At are what the client renders other
// players with and what the server rewinds them with (server/lagcomp.go),
// so they must agree to the last bit between an arm64 client and an amd64
// server: scripts/crosstarget.sh runs this test on every target it runs
// shared's golden trace on and compares the hash. If a deliberate change to
// game/interp.go changes it, run `go test ./game -run TestGoldenInterp -v`
// and paste the hash it reports.
const goldenInterpHash uint64 = 0x37d19a88544fda86

const (
	goldenInterpSeed  = 0x696E746572700000 // "interp"
	goldenInterpPairs = 200000
	goldenInterpHists = 2000
)

// interpRand is SplitMix64 (as in shared/golden_test.go): integer-only, so
// the inputs are identical on every target.
type interpRand struct{ s uint64 }

func (p *interpRand) next() uint64 {
	p.s += 0x9E3779B97F4A7C15
	z := p.s
	z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9
	z = (z ^ (z >> 27)) * 0x94D049BB133111EB
	return z ^ (z >> 31)
}

func (p *interpRand) intn(n int) int { return int(p.next() % uint64(n)) }

// coord returns a world coordinate in [0, 4096) with a full 53-bit mantissa
// (positions from snapshots are fixed-point, but prediction and rewinds work
// on arbitrary float64s, and full mantissas make a fused multiply-add differ
// from the separately rounded one in the last bit). Every operation here is
// exact (scaling by powers of two), so no target can compute it differently.
func (p *interpRand) coord() float64 {
	return float64(p.next()>>11) / (1 << 53) * 4096
}

// angle returns an aim angle in [-pi, pi] (one rounding: the product).
func (p *interpRand) angle() float64 {
	k := int64(p.intn(1<<21+1)) - 1<<20
	return float64(k) / (1 << 20) * math.Pi
}

// frac returns an interpolation fraction in [0, 1.5] with a single rounding
// (integer to float64, one division by a non-power of two), so t>1
// extrapolation is covered too.
func (p *interpRand) frac() float64 {
	return float64(p.intn(1501)) / 1000
}

func (p *interpRand) sample(tick uint32) Sample {
	return Sample{Tick: tick, X: p.coord(), Y: p.coord(), Angle: p.angle(), Alive: p.intn(8) != 0}
}

func interpPutU64(h hash.Hash64, v uint64) {
	var b [8]byte
	binary.LittleEndian.PutUint64(b[:], v)
	h.Write(b[:])
}

func interpPutSample(h hash.Hash64, s Sample) {
	interpPutU64(h, uint64(s.Tick))
	interpPutU64(h, math.Float64bits(s.X))
	interpPutU64(h, math.Float64bits(s.Y))
	interpPutU64(h, math.Float64bits(s.Angle))
	if s.Alive {
		interpPutU64(h, 1)
	} else {
		interpPutU64(h, 0)
	}
}

// goldenInterp hashes (1) Lerp over random sample pairs and fractions, and
// (2) History.At over random histories at fractional render ticks inside,
// before and beyond them (interpolation, hold and extrapolation), which is
// the path the client's rendering and the server's rewind take.
func goldenInterp() (sum uint64, lerps, ats, extrapolated int) {
	r := &interpRand{s: goldenInterpSeed}
	h := fnv.New64a()
	for i := 0; i < goldenInterpPairs; i++ {
		tick := uint32(r.intn(1 << 20))
		a := r.sample(tick)
		b := r.sample(tick + 1 + uint32(r.intn(4)))
		interpPutSample(h, Lerp(a, b, r.frac()))
		lerps++
	}
	for i := 0; i < goldenInterpHists; i++ {
		var hist History
		tick := uint32(1000 + r.intn(1<<16))
		n := 1 + r.intn(HistorySize+8) // some overflow the ring
		for j := 0; j < n; j++ {
			tick += 1 + uint32(r.intn(3))
			hist.Add(r.sample(tick))
		}
		first := hist.Get(0)
		last, _ := hist.Newest()
		for k := 0; k < 16; k++ {
			span := int(last.Tick-first.Tick) + 8
			rt := float64(first.Tick) - 2 + float64(r.intn(span*1000))/1000
			maxExtrap := float64(r.intn(5)) / 2
			s, ex, ok := hist.At(rt, maxExtrap)
			if !ok {
				continue
			}
			if ex {
				extrapolated++
				interpPutU64(h, 1)
			}
			interpPutSample(h, s)
			ats++
		}
	}
	return h.Sum64(), lerps, ats, extrapolated
}

// TestGoldenInterp checks that Lerp and History.At give bit-identical
// samples on every build target (see scripts/crosstarget.sh).
func TestGoldenInterp(t *testing.T) {
	got, lerps, ats, ex := goldenInterp()
	t.Logf("%d lerps, %d History.At samples (%d extrapolated)", lerps, ats, ex)
	if ats < goldenInterpHists*8 || ex < goldenInterpHists {
		t.Errorf("trace too tame: %d History.At samples, %d extrapolated", ats, ex)
	}
	again, _, _, _ := goldenInterp()
	if again != got {
		t.Errorf("two runs differ: %#016x then %#016x", got, again)
	}
	t.Logf("golden interp hash %#016x", got) // scripts/crosstarget.sh compares it across targets
	if got != goldenInterpHash {
		t.Errorf("golden interp hash = %#016x, want %#016x (GOOS/GOARCH differ in floating point, "+
			"or game/interp.go changed: if deliberate, set goldenInterpHash = %#016x)", got, goldenInterpHash, got)
	}
}
