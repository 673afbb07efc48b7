package shared_test

import (
	"encoding/binary"
	"hash/fnv"
	"math"
	"runtime"
	"runtime/debug"
	"testing"

	"tickshot/shared"
)

// goldenSincosHash is the FNV-1a 64 hash of shared.Sincos over
// sincosAngles(goldenSincosN, goldenSincosSeed). It must be identical on
// every build target; scripts/crosstarget.sh runs TestGoldenSincos on each.
// It was computed on amd64 (GOAMD64=v1), where TestSincosMatchesMath also
// checks that every one of these results equals math.Sincos.
const goldenSincosHash uint64 = 0xf5b7250e2cc12158

const (
	goldenSincosN    = 1000000
	goldenSincosSeed = 0x73696e636f73 // "sincos"
)

// sincosAngles returns n deterministic arguments for Sincos. Each is built
// from integers with exact operations only (no rounding, nothing the
// compiler could fuse), so the inputs themselves are the same on every
// target: seven in eight are uniform in [-8, 8) with a full 53-bit
// mantissa, covering aim angles (±4 rad plus spread) with margin; the
// eighth are huge or tiny magnitudes, up to about 2^1000, which take
// Payne-Hanek reduction above 2^29.
func sincosAngles(n int, seed uint64) []float64 {
	r := &prng{s: seed}
	xs := make([]float64, n)
	for i := range xs {
		u := r.next()
		if i%8 != 7 {
			// (u>>10) - 2^53 is in [-2^53, 2^53), exact as float64; /2^50 is exact.
			xs[i] = float64(int64(u>>10)-1<<53) / (1 << 50)
			continue
		}
		x := math.Ldexp(float64(u>>11), int(r.next()%1020)-73) // [2^-73, 2^1000)
		if u&1 == 1 {
			x = -x
		}
		xs[i] = x
	}
	return xs
}

// sincosHash is the FNV-1a 64 hash of the bits of Sincos(x) for every x.
func sincosHash(xs []float64) uint64 {
	h := fnv.New64a()
	var b [16]byte
	for _, x := range xs {
		s, c := shared.Sincos(x)
		binary.LittleEndian.PutUint64(b[:8], math.Float64bits(s))
		binary.LittleEndian.PutUint64(b[8:], math.Float64bits(c))
		h.Write(b[:])
	}
	return h.Sum64()
}

// TestGoldenSincos checks that Sincos gives bit-identical results on every
// build target: scripts/crosstarget.sh runs it (as TestGolden*) on native
// amd64, GOAMD64=v3, 386 and js/wasm.
func TestGoldenSincos(t *testing.T) {
	got := sincosHash(sincosAngles(goldenSincosN, goldenSincosSeed))
	t.Logf("golden Sincos hash %#016x over %d arguments", got, goldenSincosN)
	if got != goldenSincosHash {
		t.Errorf("Sincos hash = %#016x, want %#016x: Sincos differs on %s/%s "+
			"(a product in shared/trig.go not wrapped in float64()?), or its algorithm changed",
			got, goldenSincosHash, runtime.GOOS, runtime.GOARCH)
	}
}

func sameBits(a, b float64) bool {
	return math.Float64bits(a) == math.Float64bits(b) || math.IsNaN(a) && math.IsNaN(b)
}

func TestSincosSpecialCases(t *testing.T) {
	negZero := math.Copysign(0, -1)
	for _, c := range []struct{ x, sin, cos float64 }{
		{0, 0, 1},
		{negZero, negZero, 1},
		{math.Inf(1), math.NaN(), math.NaN()},
		{math.Inf(-1), math.NaN(), math.NaN()},
		{math.NaN(), math.NaN(), math.NaN()},
	} {
		s, co := shared.Sincos(c.x)
		if !sameBits(s, c.sin) || !sameBits(co, c.cos) {
			t.Errorf("Sincos(%v) = %v, %v, want %v, %v", c.x, s, co, c.sin, c.cos)
		}
	}
	// Sanity against the exact values at a few points, and odd/even symmetry.
	for _, x := range []float64{math.Pi / 6, math.Pi / 4, math.Pi / 2, 1, 3, 4, 1 << 29, 1e300} {
		s, c := shared.Sincos(x)
		if d := math.Abs(float64(s*s) + float64(c*c) - 1); d > 4e-16 {
			t.Errorf("Sincos(%v) = %v, %v: sin²+cos² off by %g", x, s, c, d)
		}
		ns, nc := shared.Sincos(-x)
		if ns != -s || nc != c {
			t.Errorf("Sincos(-%v) = %v, %v, want %v, %v", x, ns, nc, -s, c)
		}
	}
	if s, c := shared.Sincos(math.Pi / 6); math.Abs(s-0.5) > 1e-16 || math.Abs(c-math.Sqrt(3)/2) > 1e-16 {
		t.Errorf("Sincos(pi/6) = %v, %v", s, c)
	}
}

// mathSincosUnfused reports whether math.Sincos in this test binary is
// compiled without fused multiply-add, so that shared.Sincos must equal it
// bit for bit. Only the amd64 baseline is checked: GOAMD64=v1 and v2 have no
// FMA instructions, while GOAMD64=v3 fuses inside math.Sincos (there
// crosstarget.sh checks shared.Sincos through TestGoldenSincos instead).
// Other targets are left to TestGoldenSincos too.
func mathSincosUnfused() (bool, string) {
	if runtime.GOARCH != "amd64" {
		return false, "GOARCH is " + runtime.GOARCH + ", not amd64"
	}
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return false, "no build info to read GOAMD64 from"
	}
	for _, s := range bi.Settings {
		if s.Key == "GOAMD64" {
			if s.Value == "v1" || s.Value == "v2" {
				return true, ""
			}
			return false, "GOAMD64=" + s.Value + " may fuse multiply-adds in math.Sincos"
		}
	}
	return false, "build info has no GOAMD64 setting"
}

// TestSincosMatchesMath checks that Sincos is math.Sincos, bit for bit, on
// a target where math.Sincos is not fused: the golden arguments, a denser
// sweep of [-8, 8], every float32 aim angle in a band around ±pi and ±4,
// arguments within a few ulps of multiples of pi/4 (where the octant
// changes), and the Payne-Hanek threshold 2^29.
func TestSincosMatchesMath(t *testing.T) {
	if ok, why := mathSincosUnfused(); !ok {
		t.Skip("math.Sincos may be fused here: " + why)
	}
	n := 4000000
	if testing.Short() {
		n = 400000
	}
	var xs []float64
	xs = append(xs, sincosAngles(goldenSincosN, goldenSincosSeed)...)
	xs = append(xs, sincosAngles(n, 1)...)
	for _, c := range []float32{math.Pi, 4} {
		for _, sign := range []float32{1, -1} {
			f := sign * c
			for i := 0; i < 100000; i++ {
				xs = append(xs, float64(f))
				f = math.Nextafter32(f, 0)
			}
		}
	}
	for k := -64; k <= 64; k++ {
		x := float64(k) * (math.Pi / 4)
		for _, dir := range []float64{math.Inf(1), math.Inf(-1)} {
			y := x
			for i := 0; i < 64; i++ {
				xs = append(xs, y)
				y = math.Nextafter(y, dir)
			}
		}
	}
	for _, x := range []float64{1 << 29, math.Nextafter(1<<29, 0), math.Nextafter(1<<29, 2<<29),
		math.Pi / 4, math.Nextafter(math.Pi/4, 0), math.MaxFloat64, math.SmallestNonzeroFloat64, 0x1p-1022} {
		xs = append(xs, x, -x)
	}
	bad := 0
	for _, x := range xs {
		s, c := shared.Sincos(x)
		ms, mc := math.Sincos(x)
		if !sameBits(s, ms) || !sameBits(c, mc) {
			if bad++; bad <= 10 {
				t.Errorf("Sincos(%v) [%#016x] = %v, %v; math.Sincos = %v, %v",
					x, math.Float64bits(x), s, c, ms, mc)
			}
		}
	}
	if bad > 0 {
		t.Errorf("%d of %d arguments differ from math.Sincos", bad, len(xs))
	}
	t.Logf("%d arguments, all identical to math.Sincos", len(xs))
}

func BenchmarkSincos(b *testing.B) {
	xs := sincosAngles(1024, 7)
	for i := range xs {
		xs[i] = math.Mod(xs[i], 8) // aim-like angles only
	}
	var sink float64
	b.Run("shared", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			s, c := shared.Sincos(xs[i&1023])
			sink += s + c
		}
	})
	b.Run("math", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			s, c := math.Sincos(xs[i&1023])
			sink += s + c
		}
	})
	_ = sink
}
