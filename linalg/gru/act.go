package gru

import "math"

// sigmoidInPlace sets v[i] = 1/(1+exp(-v[i])). float64 uses math.Exp (exact enough for
// gradient checks); float32 uses exp32, which is faster and accurate to a few ulp.
func sigmoidInPlace[F Float](v []F) {
	switch v := any(v).(type) {
	case []float32:
		for i, x := range v {
			v[i] = 1 / (1 + exp32(min32(max32(-x, -87), 88)))
		}
	case []float64:
		for i, x := range v {
			v[i] = 1 / (1 + math.Exp(-x))
		}
	}
}

// tanhInPlace sets v[i] = tanh(v[i]), with float32 done as in Cephes' tanhf: an odd
// polynomial near zero (where 1-2/(e^2x+1) would cancel) and exp32 elsewhere.
func tanhInPlace[F Float](v []F) {
	switch v := any(v).(type) {
	case []float32:
		for i, x := range v {
			v[i] = tanh32(x)
		}
	case []float64:
		for i, x := range v {
			v[i] = math.Tanh(x)
		}
	}
}

// exp32 returns e^x for float32 x in [-87, 88] with a relative error of a few ulp:
// x = k ln2 + r with |r| <= ln2/2, e^r by Cephes' expf polynomial, times 2^k. It is small
// enough to inline, so callers clamp.
func exp32(x float32) float32 {
	// Adding 1.5*2^23 rounds x*log2(e) to the integer k, which lands in the low mantissa bits
	// of t; shifting those (plus the exponent bias) into the exponent field gives 2^k, since
	// the bits of 1.5*2^23 above them shift out.
	t := x*1.44269504088896341 + 12582912
	k := t - 12582912
	r := x - k*0.693359375 - k*-2.12194440e-4 // ln2 split in two for an exact product
	p := ((((1.9875691500e-4*r+1.3981999507e-3)*r+8.3334519073e-3)*r+4.1665795894e-2)*r+1.6666665459e-1)*r + 5.0000001201e-1
	return (p*r*r + r + 1) * math.Float32frombits((math.Float32bits(t)+127)<<23)
}

// tanh32 returns tanh(x) for float32 x, to within a few ulp.
func tanh32(x float32) float32 {
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
	y := 1 - 2/(exp32(2*ax)+1)
	if x < 0 {
		return -y
	}
	return y
}

// min32 and max32 are plain comparisons: the builtin min and max on floats handle NaN and
// signed zeros with extra branches, which is measurable in the activation loops.
func min32(a, b float32) float32 {
	if a < b {
		return a
	}
	return b
}

// max32: see min32.
func max32(a, b float32) float32 {
	if a > b {
		return a
	}
	return b
}
