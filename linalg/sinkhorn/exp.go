package sinkhorn

import "math"

// expNegSlice replaces every s[i] <= 0 by e^s[i], to within 2 ulp. The exact half-steps spend
// most of their time in exp; this table-driven loop is about twice as fast as calling math.Exp
// per entry, since it has no call per entry, skips the overflow cases that x <= 0 cannot reach
// and needs only a degree-5 polynomial. Results below the smallest normal (and NaN) are rare and
// left to math.Exp.
//
// x = k*ln2 + j*ln2/64 + r with |r| <= ln2/128, so e^x = 2^k * 2^(j/64) * e^r.
func expNegSlice(s []float64) {
	const (
		shift     = 0x1.8p52              // adding it rounds to an integer held in the low mantissa bits
		invLn2    = 0x1.71547652b82fep+6  // 64/ln2
		ln2Hi     = 0x1.62e42fef00000p-7  // ln2/64 with 20 trailing zero bits: m*ln2Hi is exact
		ln2Lo     = 0x1.473de6af278edp-40 // ln2/64 - ln2Hi
		minNormal = -708.39               // above this k >= -1022: 2^k is normal
	)
	for i, x := range s {
		if !(x >= minNormal) {
			s[i] = math.Exp(x)
			continue
		}
		t := x*invLn2 + shift
		mf := t - shift
		m := int64(math.Float64bits(t) - math.Float64bits(shift))
		r := x - mf*ln2Hi - mf*ln2Lo
		// e^r - 1, Taylor to degree 5: the remainder r^6/720 is below 4e-17 for |r| <= ln2/128.
		q := r * (1 + r*(1.0/2+r*(1.0/6+r*(1.0/24+r*(1.0/120)))))
		tab := exp2Table[m&63]
		k := m >> 6 // floor(m/64)
		s[i] = (tab + tab*q) * math.Float64frombits(uint64(k+1023)<<52)
	}
}

// exp2Table[j] = 2^(j/64), correctly rounded.
var exp2Table = [64]float64{
	0x1.0000000000000p+00, 0x1.02c9a3e778061p+00, 0x1.059b0d3158574p+00, 0x1.0874518759bc8p+00,
	0x1.0b5586cf9890fp+00, 0x1.0e3ec32d3d1a2p+00, 0x1.11301d0125b51p+00, 0x1.1429aaea92de0p+00,
	0x1.172b83c7d517bp+00, 0x1.1a35beb6fcb75p+00, 0x1.1d4873168b9aap+00, 0x1.2063b88628cd6p+00,
	0x1.2387a6e756238p+00, 0x1.26b4565e27cddp+00, 0x1.29e9df51fdee1p+00, 0x1.2d285a6e4030bp+00,
	0x1.306fe0a31b715p+00, 0x1.33c08b26416ffp+00, 0x1.371a7373aa9cbp+00, 0x1.3a7db34e59ff7p+00,
	0x1.3dea64c123422p+00, 0x1.4160a21f72e2ap+00, 0x1.44e086061892dp+00, 0x1.486a2b5c13cd0p+00,
	0x1.4bfdad5362a27p+00, 0x1.4f9b2769d2ca7p+00, 0x1.5342b569d4f82p+00, 0x1.56f4736b527dap+00,
	0x1.5ab07dd485429p+00, 0x1.5e76f15ad2148p+00, 0x1.6247eb03a5585p+00, 0x1.6623882552225p+00,
	0x1.6a09e667f3bcdp+00, 0x1.6dfb23c651a2fp+00, 0x1.71f75e8ec5f74p+00, 0x1.75feb564267c9p+00,
	0x1.7a11473eb0187p+00, 0x1.7e2f336cf4e62p+00, 0x1.82589994cce13p+00, 0x1.868d99b4492edp+00,
	0x1.8ace5422aa0dbp+00, 0x1.8f1ae99157736p+00, 0x1.93737b0cdc5e5p+00, 0x1.97d829fde4e50p+00,
	0x1.9c49182a3f090p+00, 0x1.a0c667b5de565p+00, 0x1.a5503b23e255dp+00, 0x1.a9e6b5579fdbfp+00,
	0x1.ae89f995ad3adp+00, 0x1.b33a2b84f15fbp+00, 0x1.b7f76f2fb5e47p+00, 0x1.bcc1e904bc1d2p+00,
	0x1.c199bdd85529cp+00, 0x1.c67f12e57d14bp+00, 0x1.cb720dcef9069p+00, 0x1.d072d4a07897cp+00,
	0x1.d5818dcfba487p+00, 0x1.da9e603db3285p+00, 0x1.dfc97337b9b5fp+00, 0x1.e502ee78b3ff6p+00,
	0x1.ea4afa2a490dap+00, 0x1.efa1bee615a27p+00, 0x1.f50765b6e4540p+00, 0x1.fa7c1819e90d8p+00,
}
