// Copyright 2009 The Go Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE-go file in ../shared (Go's LICENSE).
//
// hypot and atan2 below are ports of Go's math.hypot (src/math/hypot.go)
// and math.atan2, math.atan, satan and xatan (src/math/atan2.go,
// src/math/atan.go), changed only so that every floating-point product is
// wrapped in an explicit float64() conversion. atan's coefficients and
// algorithm come from the Cephes Math Library (Stephen L. Moshier,
// http://netlib.sandia.gov/cephes/cmath/atan.c; see shared/trig.go for its
// terms).

package game

import "math"

// Why game/ has its own hypot and atan2 (and uses shared.Sincos, never
// math.Sin, math.Cos or math.Sincos): Go compiles package math with fused
// multiply-adds where the target has them, so math.Hypot's 1+q*q,
// math.Atan's polynomial and math.Sin's differ in the last bit for some
// arguments between an amd64 machine and an arm64, riscv64, ppc64le or
// s390x one (or a GOAMD64=v3 build). The rules of game.World (bots' aim and
// roaming, rockets' flight, splash falloff, the teleport test of an
// EntityView) call them, so the world would not be the same on every
// target. These ports give on every target exactly what math gives on
// amd64 (whose Hypot is an assembly routine doing the same five operations,
// and whose Atan2 is this Go code compiled without fusion).
// scripts/crosstarget.sh fails if game/ (but camera.go) calls the math
// functions that are compiled with fused multiply-adds.

// hypot returns sqrt(p*p + q*q) without undue overflow: math.Hypot, bit
// for bit as amd64 computes it, on every target.
func hypot(p, q float64) float64 {
	p, q = math.Abs(p), math.Abs(q)
	switch {
	case math.IsInf(p, 1) || math.IsInf(q, 1):
		return math.Inf(1)
	case math.IsNaN(p) || math.IsNaN(q):
		return math.NaN()
	}
	if p < q {
		p, q = q, p
	}
	if p == 0 {
		return 0
	}
	q = q / p
	return float64(p * math.Sqrt(1+float64(q*q)))
}

// atan2 returns the arc tangent of y/x in radians, using the signs of both
// to pick the quadrant: math.Atan2, bit for bit as amd64 computes it, on
// every target.
func atan2(y, x float64) float64 {
	switch {
	case math.IsNaN(y) || math.IsNaN(x):
		return math.NaN()
	case y == 0:
		if x >= 0 && !math.Signbit(x) {
			return math.Copysign(0, y)
		}
		return math.Copysign(math.Pi, y)
	case x == 0:
		return math.Copysign(math.Pi/2, y)
	case math.IsInf(x, 0):
		if math.IsInf(x, 1) {
			if math.IsInf(y, 0) {
				return math.Copysign(math.Pi/4, y)
			}
			return math.Copysign(0, y)
		}
		if math.IsInf(y, 0) {
			return math.Copysign(3*math.Pi/4, y)
		}
		return math.Copysign(math.Pi, y)
	case math.IsInf(y, 0):
		return math.Copysign(math.Pi/2, y)
	}
	q := atan(y / x)
	if x < 0 {
		if q <= 0 {
			return q + math.Pi
		}
		return q - math.Pi
	}
	return q
}

// atan returns the arc tangent of x in radians (math.Atan).
func atan(x float64) float64 {
	if x == 0 {
		return x
	}
	if x > 0 {
		return satan(x)
	}
	return -satan(-x)
}

// satan reduces its argument (known to be positive) to the range
// [0, 0.66] and calls xatan.
func satan(x float64) float64 {
	const (
		Morebits = 6.123233995736765886130e-17 // pi/2 = PIO2 + Morebits
		Tan3pio8 = 2.41421356237309504880      // tan(3*pi/8)
	)
	if x <= 0.66 {
		return xatan(x)
	}
	if x > Tan3pio8 {
		return math.Pi/2 - xatan(1/x) + Morebits
	}
	return math.Pi/4 + xatan((x-1)/(x+1)) + 0.5*Morebits
}

// xatan evaluates a series valid in the range [0, 0.66].
func xatan(x float64) float64 {
	const (
		P0 = -8.750608600031904122785e-01
		P1 = -1.615753718733365076637e+01
		P2 = -7.500855792314704667340e+01
		P3 = -1.228866684490136173410e+02
		P4 = -6.485021904942025371773e+01
		Q0 = +2.485846490142306297962e+01
		Q1 = +1.650270098316988542046e+02
		Q2 = +4.328810604912902668951e+02
		Q3 = +4.853903996359136964868e+02
		Q4 = +1.945506571482613964425e+02
	)
	z := float64(x * x)
	p := float64(P0 * z)
	p = float64((p + P1) * z)
	p = float64((p + P2) * z)
	p = float64((p + P3) * z)
	p += P4
	q := float64((z + Q0) * z)
	q = float64((q + Q1) * z)
	q = float64((q + Q2) * z)
	q = float64((q + Q3) * z)
	q += Q4
	z = float64(z*p) / q
	return float64(x*z) + x
}
