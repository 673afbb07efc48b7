package game

import (
	"math"
	"math/rand/v2"
	"runtime"
	"runtime/debug"
	"testing"

	"github.com/jakecoffman/cp/v2"
)

// mathUnfused reports whether package math was compiled without fused
// multiply-adds in this test binary (386, wasm, amd64 below GOAMD64=v3):
// there hypot and atan2 must equal math.Hypot and math.Atan2 bit for bit.
func mathUnfused() bool {
	switch runtime.GOARCH {
	case "386", "wasm":
		return true
	case "amd64":
		if bi, ok := debug.ReadBuildInfo(); ok {
			for _, s := range bi.Settings {
				if s.Key == "GOAMD64" {
					return s.Value == "v1" || s.Value == "v2"
				}
			}
		}
		return true // v1 is the default
	}
	return false
}

func ulps(a, b float64) uint64 {
	x, y := int64(math.Float64bits(a)), int64(math.Float64bits(b))
	if x < y {
		x, y = y, x
	}
	return uint64(x - y)
}

// TestFenced: hypot and atan2 give what math gives on amd64, bit for bit
// (where this binary's math is compiled without fusion) or within 2 ulp
// (elsewhere, where math itself is the one that differs), special cases
// included.
func TestFencedHypotAtan2(t *testing.T) {
	exact := mathUnfused()
	rng := rand.New(rand.NewPCG(12, 34))
	worstH, worstA := uint64(0), uint64(0)
	for i := 0; i < 200000; i++ {
		x := (rng.Float64()*2 - 1) * math.Ldexp(1, rng.IntN(24)-8)
		y := (rng.Float64()*2 - 1) * math.Ldexp(1, rng.IntN(24)-8)
		h, mh := hypot(x, y), math.Hypot(x, y)
		a, ma := atan2(y, x), math.Atan2(y, x)
		worstH, worstA = max(worstH, ulps(h, mh)), max(worstA, ulps(a, ma))
		if exact && (h != mh || a != ma) {
			t.Fatalf("hypot(%v, %v) = %v, math %v; atan2 = %v, math %v", x, y, h, mh, a, ma)
		}
	}
	// Where math is fused it is math that strays, by a rounding or two.
	if worstH > 2 || worstA > 2 {
		t.Errorf("worst difference from math: hypot %d ulp, atan2 %d ulp (want at most 2)", worstH, worstA)
	}
	inf, nan := math.Inf(1), math.NaN()
	for _, c := range [][2]float64{{0, 0}, {0, -1}, {-0.0, -1}, {3, 0}, {inf, 1}, {1, -inf}, {inf, inf}, {-inf, inf}, {-inf, -inf}, {2, -inf}, {inf, -inf}, {nan, 1}, {1, nan}, {-3, -4}, {1e-300, 1e-300}} {
		y, x := c[0], c[1]
		if got, want := atan2(y, x), math.Atan2(y, x); math.Float64bits(got) != math.Float64bits(want) && !(math.IsNaN(got) && math.IsNaN(want)) {
			t.Errorf("atan2(%v, %v) = %v, math %v", y, x, got, want)
		}
		if got, want := hypot(y, x), math.Hypot(y, x); got != want && !(math.IsNaN(got) && math.IsNaN(want)) {
			t.Errorf("hypot(%v, %v) = %v, math %v", y, x, got, want)
		}
	}
	t.Logf("exact comparison: %v; worst difference from math: hypot %d ulp, atan2 %d ulp", exact, worstH, worstA)
}

// cpRayWalls is what RayWalls was before issue 12: cp/v2's first segment
// hit against the map's walls.
func cpSpace(m *Map) *cp.Space {
	sp := cp.NewSpace()
	for _, w := range m.Walls {
		sp.AddShape(cp.NewBox2(sp.StaticBody, cp.NewBB(w.MinX, w.MinY, w.MaxX, w.MaxY), 0))
	}
	return sp
}

func cpRayWalls(sp *cp.Space, x0, y0, x1, y1 float64) float64 {
	info := sp.SegmentQueryFirst(cp.Vector{X: x0, Y: y0}, cp.Vector{X: x1, Y: y1}, 0, cp.SHAPE_FILTER_ALL)
	if info.Shape == nil {
		return 1
	}
	return info.Alpha
}

// TestRayWallsMatchesCp: the Liang–Barsky RayWalls and LineOfSight agree
// with cp/v2's segment query (which RayWalls used before it was made
// fusion-proof) on random segments of every map, long and short: the same
// blocked or free answer, and the same stopping fraction to 1e-9 of the
// segment.
func TestRayWallsMatchesCp(t *testing.T) {
	for _, name := range MapNames() {
		m, err := LoadMap(name)
		if err != nil {
			t.Fatal(err)
		}
		sp := cpSpace(m)
		rng := rand.New(rand.NewPCG(7, uint64(len(name))))
		blocked, worst := 0, 0.0
		for i := 0; i < 20000; i++ {
			x0, y0 := rng.Float64()*m.Width, rng.Float64()*m.Height
			if m.Solid(x0, y0, 0.01) {
				continue // cp's answer for a segment starting inside a wall is not a hit
			}
			x1, y1 := rng.Float64()*m.Width, rng.Float64()*m.Height
			if i%4 == 0 { // short segments too
				x1, y1 = x0+rng.Float64()*200-100, y0+rng.Float64()*200-100
			}
			got, want := m.RayWalls(x0, y0, x1, y1), cpRayWalls(sp, x0, y0, x1, y1)
			if (got < 1) != (want < 1) || math.Abs(got-want) > 1e-9 {
				t.Fatalf("%s: (%.3f, %.3f)-(%.3f, %.3f): RayWalls %v, cp %v", name, x0, y0, x1, y1, got, want)
			}
			if los := m.LineOfSight(x0, y0, x1, y1); los != (want >= 1) {
				t.Fatalf("%s: (%.3f, %.3f)-(%.3f, %.3f): LineOfSight %v, cp's fraction %v", name, x0, y0, x1, y1, los, want)
			}
			worst = max(worst, math.Abs(got-want))
			if got < 1 {
				blocked++
			}
		}
		if blocked < 1000 || blocked > 19000 {
			t.Errorf("%s: %d of 20000 segments blocked: the test exercises too little", name, blocked)
		}
		t.Logf("%s: %d blocked, worst |RayWalls - cp| = %.3g", name, blocked, worst)
	}
	// A segment that starts inside a wall is stopped at once.
	m := loadArenaT(t)
	w := m.Walls[0]
	cx, cy := (w.MinX+w.MaxX)/2, (w.MinY+w.MaxY)/2
	if f := m.RayWalls(cx, cy, cx+500, cy+3); f != 0 {
		t.Errorf("from inside a wall: fraction %v, want 0", f)
	}
}
