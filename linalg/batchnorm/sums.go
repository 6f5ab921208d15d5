package batchnorm

// The row reductions below run the vector kernels (rows_amd64.s) over what they can and finish
// with four float64 accumulators: one accumulator is bound by the floating-point add latency,
// four let consecutive adds overlap.

// sum returns the sum of s.
func sum[F Float](s []F) float64 {
	v, i := sumVec(s)
	var a0, a1, a2, a3 float64
	for ; i+4 <= len(s); i += 4 {
		a0 += float64(s[i])
		a1 += float64(s[i+1])
		a2 += float64(s[i+2])
		a3 += float64(s[i+3])
	}
	for ; i < len(s); i++ {
		a0 += float64(s[i])
	}
	return v + (a0 + a1) + (a2 + a3)
}

// sumSqDev returns the sum of (s[i] - mu)^2.
func sumSqDev[F Float](s []F, mu float64) float64 {
	v, i := sumSqDevVec(s, mu)
	var a0, a1, a2, a3 float64
	for ; i+4 <= len(s); i += 4 {
		d0, d1, d2, d3 := float64(s[i])-mu, float64(s[i+1])-mu, float64(s[i+2])-mu, float64(s[i+3])-mu
		a0 += d0 * d0
		a1 += d1 * d1
		a2 += d2 * d2
		a3 += d3 * d3
	}
	for ; i < len(s); i++ {
		d := float64(s[i]) - mu
		a0 += d * d
	}
	return v + (a0 + a1) + (a2 + a3)
}

// sumDyXhat returns the sums of dy[i] and of dy[i] * (x[i] - mu) * is.
func sumDyXhat[F Float](dy, x []F, mu, is F) (sdy, sdyx float64) {
	dy = dy[:len(x)]
	vs, vp, i := sumDyXhatVec(dy, x, mu, is)
	var s0, s1, p0, p1 float64
	for ; i+2 <= len(x); i += 2 {
		g0, g1 := float64(dy[i]), float64(dy[i+1])
		s0 += g0
		s1 += g1
		p0 += g0 * float64((x[i]-mu)*is)
		p1 += g1 * float64((x[i+1]-mu)*is)
	}
	for ; i < len(x); i++ {
		g := float64(dy[i])
		s0 += g
		p0 += g * float64((x[i]-mu)*is)
	}
	return vs + s0 + s1, vp + p0 + p1
}
