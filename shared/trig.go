// Copyright 2010 The Go Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE-go file beside this one (Go's LICENSE).
//
// Sincos and trigReduce below are ports of Go's math.Sincos
// (src/math/sincos.go, src/math/sin.go) and math.trigReduce
// (src/math/trig_reduce.go, Copyright 2018 The Go Authors), changed only so
// that every floating-point product is wrapped in an explicit float64()
// conversion.
//
// The original C code, the coefficients and the algorithm come from the
// Cephes Math Library (http://netlib.sandia.gov/cephes/cmath/sin.c,
// available from http://www.netlib.org/cephes/cmath.tgz):
//
//	Cephes Math Library Release 2.8:  June, 2000
//	Copyright 1984, 1987, 1989, 1992, 2000 by Stephen L. Moshier
//
// The readme file at http://netlib.sandia.gov/cephes/ says:
//
//	Some software in this archive may be from the book _Methods and
//	Programs for Mathematical Functions_ (Prentice-Hall or Simon & Schuster
//	International, 1989) or from the Cephes Mathematical Library, a
//	commercial product. In either event, it is copyrighted by the author.
//	What you see here may be used freely but it comes with no support or
//	guarantee.
//
//	The two known misprints in the book are repaired here in the
//	source listings for the gamma function and the incomplete beta
//	integral.
//
//	Stephen L. Moshier
//	moshier@na-net.ornl.gov

package shared

import (
	"math"
	"math/bits"
)

// sinCoef and cosCoef are the Cephes polynomial coefficients (math's _sin
// and _cos).
var sinCoef = [...]float64{
	1.58962301576546568060e-10, // 0x3de5d8fd1fd19ccd
	-2.50507477628578072866e-8, // 0xbe5ae5e5a9291f5d
	2.75573136213857245213e-6,  // 0x3ec71de3567d48a1
	-1.98412698295895385996e-4, // 0xbf2a01a019bfdf03
	8.33333333332211858878e-3,  // 0x3f8111111110f7d0
	-1.66666666666666307295e-1, // 0xbfc5555555555548
}

var cosCoef = [...]float64{
	-1.13585365213876817300e-11, // 0xbda8fa49a0861a9b
	2.08757008419747316778e-9,   // 0x3e21ee9d7b4e3f05
	-2.75573141792967388112e-7,  // 0xbe927e4f7eac4bc6
	2.48015872888517045348e-5,   // 0x3efa01a019c844f5
	-1.38888888888730564116e-3,  // 0xbf56c16c16c14f91
	4.16666666666665929218e-2,   // 0x3fa555555555554b
}

// Sincos returns sin(x), cos(x). It is math.Sincos with every product
// rounded on its own (explicit float64 conversions, which the Go spec
// forbids the compiler to fuse into a multiply-add), so it gives the same
// bits on every target: exactly what math.Sincos gives where the compiler
// does not fuse (amd64 below GOAMD64=v3, 386, wasm), whereas math.Sincos
// itself differs in the last bit for a few percent of arguments on
// GOAMD64=v3, arm64, ppc64le, s390x and riscv64.
//
// Special cases are:
//
//	Sincos(±0) = ±0, 1
//	Sincos(±Inf) = NaN, NaN
//	Sincos(NaN) = NaN, NaN
func Sincos(x float64) (sin, cos float64) {
	const (
		PI4A = 7.85398125648498535156e-1  // 0x3fe921fb40000000, Pi/4 split into three parts
		PI4B = 3.77489470793079817668e-8  // 0x3e64442d00000000,
		PI4C = 2.69515142907905952645e-15 // 0x3ce8469898cc5170,
	)
	// special cases
	switch {
	case x == 0:
		return x, 1 // return ±0.0, 1.0
	case math.IsNaN(x) || math.IsInf(x, 0):
		return math.NaN(), math.NaN()
	}

	// make argument positive
	sinSign, cosSign := false, false
	if x < 0 {
		x = -x
		sinSign = true
	}

	var j uint64
	var y, z float64
	if x >= reduceThreshold {
		j, z = trigReduce(x)
	} else {
		j = uint64(float64(x * (4 / math.Pi))) // integer part of x/(Pi/4), as integer for tests on the phase angle
		y = float64(j)                         // integer part of x/(Pi/4), as float

		if j&1 == 1 { // map zeros to origin
			j++
			y++
		}
		j &= 7 // octant modulo 2Pi radians (360 degrees)
		// Extended precision modular arithmetic.
		z = ((x - float64(y*PI4A)) - float64(y*PI4B)) - float64(y*PI4C)
	}
	if j > 3 { // reflect in x axis
		j -= 4
		sinSign, cosSign = !sinSign, !cosSign
	}
	if j > 1 {
		cosSign = !cosSign
	}

	zz := float64(z * z)
	cp := float64(cosCoef[0] * zz)
	cp = float64((cp + cosCoef[1]) * zz)
	cp = float64((cp + cosCoef[2]) * zz)
	cp = float64((cp + cosCoef[3]) * zz)
	cp = float64((cp + cosCoef[4]) * zz)
	cp += cosCoef[5]
	cos = (1.0 - float64(0.5*zz)) + float64(float64(zz*zz)*cp)

	sp := float64(sinCoef[0] * zz)
	sp = float64((sp + sinCoef[1]) * zz)
	sp = float64((sp + sinCoef[2]) * zz)
	sp = float64((sp + sinCoef[3]) * zz)
	sp = float64((sp + sinCoef[4]) * zz)
	sp += sinCoef[5]
	sin = z + float64(float64(z*zz)*sp)

	if j == 1 || j == 2 {
		sin, cos = cos, sin
	}
	if cosSign {
		cos = -cos
	}
	if sinSign {
		sin = -sin
	}
	return
}

// reduceThreshold is the maximum value of x where the reduction using Pi/4
// in 3 float64 parts still gives accurate results (math.reduceThreshold).
// Above it Payne-Hanek range reduction (trigReduce) is used.
const reduceThreshold = 1 << 29

// float64 layout (math's unexported shift, mask and bias).
const (
	f64Shift = 64 - 11 - 1
	f64Mask  = 0x7FF
	f64Bias  = 1023
)

// trigReduce implements Payne-Hanek range reduction by Pi/4
// for x > 0. It returns the integer part mod 8 (j) and
// the fractional part (z) of x / (Pi/4).
// The implementation is based on:
// "ARGUMENT REDUCTION FOR HUGE ARGUMENTS: Good to the Last Bit"
// K. C. Ng et al, March 24, 1992
// The simulated multi-precision calculation of x*B uses 64-bit integer arithmetic.
func trigReduce(x float64) (j uint64, z float64) {
	const PI4 = math.Pi / 4
	if x < PI4 {
		return 0, x
	}
	// Extract out the integer and exponent such that,
	// x = ix * 2 ** exp.
	ix := math.Float64bits(x)
	exp := int(ix>>f64Shift&f64Mask) - f64Bias - f64Shift
	ix &^= f64Mask << f64Shift
	ix |= 1 << f64Shift
	// Use the exponent to extract the 3 appropriate uint64 digits from mPi4,
	// B ~ (z0, z1, z2), such that the product leading digit has the exponent -61.
	// Note, exp >= -53 since x >= PI4 and exp < 971 for maximum float64.
	digit, bitshift := uint(exp+61)/64, uint(exp+61)%64
	z0 := (mPi4[digit] << bitshift) | (mPi4[digit+1] >> (64 - bitshift))
	z1 := (mPi4[digit+1] << bitshift) | (mPi4[digit+2] >> (64 - bitshift))
	z2 := (mPi4[digit+2] << bitshift) | (mPi4[digit+3] >> (64 - bitshift))
	// Multiply mantissa by the digits and extract the upper two digits (hi, lo).
	z2hi, _ := bits.Mul64(z2, ix)
	z1hi, z1lo := bits.Mul64(z1, ix)
	z0lo := z0 * ix
	lo, c := bits.Add64(z1lo, z2hi, 0)
	hi, _ := bits.Add64(z0lo, z1hi, c)
	// The top 3 bits are j.
	j = hi >> 61
	// Extract the fraction and find its magnitude.
	hi = hi<<3 | lo>>61
	lz := uint(bits.LeadingZeros64(hi))
	e := uint64(f64Bias - (lz + 1))
	// Clear implicit mantissa bit and shift into place.
	hi = (hi << (lz + 1)) | (lo >> (64 - (lz + 1)))
	hi >>= 64 - f64Shift
	// Include the exponent and convert to a float.
	hi |= e << f64Shift
	z = math.Float64frombits(hi)
	// Map zeros to origin.
	if j&1 == 1 {
		j++
		j &= 7
		z--
	}
	// Multiply the fractional part by pi/4.
	return j, float64(z * PI4)
}

// mPi4 is the binary digits of 4/pi as a uint64 array,
// that is, 4/pi = Sum mPi4[i]*2^(-64*i)
// 19 64-bit digits and the leading one bit give 1217 bits
// of precision to handle the largest possible float64 exponent.
var mPi4 = [...]uint64{
	0x0000000000000001,
	0x45f306dc9c882a53,
	0xf84eafa3ea69bb81,
	0xb6c52b3278872083,
	0xfca2c757bd778ac3,
	0x6e48dc74849ba5c0,
	0x0c925dd413a32439,
	0xfc3bd63962534e7d,
	0xd1046bea5d768909,
	0xd338e04d68befc82,
	0x7323ac7306a673e9,
	0x3908bf177bf25076,
	0x3ff12fffbc0b301f,
	0xde5e2316b414da3e,
	0xda6cfd9e4f96136e,
	0x9e8c7ecd3cbfd45a,
	0xea4f758fd7cbe2f6,
	0x7a0e73ef14a525d4,
	0xd7f6bf623f1aba10,
	0xac06608df8f6d757,
}
