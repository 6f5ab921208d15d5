package fastmath

import "math"

// Limits of Exp32's argument: e^x overflows float32 above 88.72 and its result is subnormal
// below -87.34, where 2^k in Exp32 would leave the exponent range.
const (
	expMin = -87
	expMax = 88
)

// Exp32 returns e^x for x in [-87, 88], with a relative error below 3e-7 (Cephes' expf): x =
// k ln2 + r with |r| <= ln2/2, e^r by a degree-7 polynomial, times 2^k. Outside that range the
// result is wrong; callers clamp (Sigmoid32 does). It is small enough to inline.
func Exp32(x float32) float32 {
	// Adding 1.5*2^23 rounds x*log2(e) to the integer k, which lands in the low mantissa bits
	// of t; shifting those (plus the exponent bias) into the exponent field gives 2^k, since
	// the bits of 1.5*2^23 above them shift out.
	t := x*1.44269504088896341 + 12582912
	k := t - 12582912
	r := x - k*0.693359375 - k*-2.12194440e-4 // ln2 split in two for an exact product
	p := ((((1.9875691500e-4*r+1.3981999507e-3)*r+8.3334519073e-3)*r+4.1665795894e-2)*r+1.6666665459e-1)*r + 5.0000001201e-1
	return (p*r*r + r + 1) * math.Float32frombits((math.Float32bits(t)+127)<<23)
}

// Sigmoid32 returns 1/(1+e^-x), within 2e-7 absolute and 1e-6 relative of the exact value
// (for results above 1e-37); NaN gives NaN.
func Sigmoid32(x float32) float32 {
	v := -x
	// Comparisons rather than min/max: NaN fails both and stays NaN.
	if v < expMin {
		v = expMin
	} else if v > expMax {
		v = expMax
	}
	return 1 / (1 + Exp32(v))
}

// Tanh32 returns tanh(x) within 2e-7 absolute and 4e-7 relative of the exact value (Cephes'
// tanhf): an odd polynomial for |x| < 0.625, where 1-2/(e^2x+1) would cancel, and that
// formula elsewhere.
func Tanh32(x float32) float32 {
	ax := x
	if ax < 0 {
		ax = -ax
	}
	if ax < 0.625 {
		z := x * x
		return ((((-5.70498872745e-3*z+2.06390887954e-2)*z-5.37397155531e-2)*z+1.33314422036e-1)*z-3.33332819422e-1)*z*x + x
	}
	if ax > 10 { // tanh(10) rounds to 1 in float32
		ax = 10
	}
	y := 1 - 2/(Exp32(2*ax)+1)
	if x < 0 {
		return -y
	}
	return y
}
