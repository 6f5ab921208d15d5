package sinkhorn

import (
	"math"
	"math/rand/v2"
)

// naiveExp is the textbook Sinkhorn operator in the exp domain for one n x n matrix: S^0 =
// exp(x/tau), then iters times divide rows by their sums and columns by their sums. It is only
// stable for moderate x/tau.
func naiveExp(x []float64, n int, tau float64, iters int) []float64 {
	p := make([]float64, n*n)
	for i, v := range x {
		p[i] = math.Exp(v / tau)
	}
	for l := 0; l < iters; l++ {
		for i := 0; i < n; i++ {
			s := 0.0
			for j := 0; j < n; j++ {
				s += p[i*n+j]
			}
			for j := 0; j < n; j++ {
				p[i*n+j] /= s
			}
		}
		for j := 0; j < n; j++ {
			s := 0.0
			for i := 0; i < n; i++ {
				s += p[i*n+j]
			}
			for i := 0; i < n; i++ {
				p[i*n+j] /= s
			}
		}
	}
	return p
}

// naiveLog is the plain log-domain Sinkhorn operator for one n x n matrix, written directly from
// the definition (logsumexp with max subtraction, one exp per entry and half-step).
func naiveLog(x []float64, n int, tau float64, iters int) []float64 {
	z := make([]float64, n*n)
	for i, v := range x {
		z[i] = v / tau
	}
	lse := func(idx func(k int) int) float64 {
		mx := math.Inf(-1)
		for k := 0; k < n; k++ {
			mx = math.Max(mx, z[idx(k)])
		}
		s := 0.0
		for k := 0; k < n; k++ {
			s += math.Exp(z[idx(k)] - mx)
		}
		return mx + math.Log(s)
	}
	for l := 0; l < iters; l++ {
		for i := 0; i < n; i++ {
			c := lse(func(k int) int { return i*n + k })
			for j := 0; j < n; j++ {
				z[i*n+j] -= c
			}
		}
		for j := 0; j < n; j++ {
			c := lse(func(k int) int { return k*n + j })
			for i := 0; i < n; i++ {
				z[i*n+j] -= c
			}
		}
	}
	for i, v := range z {
		z[i] = math.Exp(v)
	}
	return z
}

// randSlice returns l values uniform in [-scale, scale].
func randSlice(rnd *rand.Rand, l int, scale float64) []float64 {
	s := make([]float64, l)
	for i := range s {
		s[i] = scale * (2*rnd.Float64() - 1)
	}
	return s
}

// to32 converts a float64 slice to float32.
func to32(s []float64) []float32 {
	t := make([]float32, len(s))
	for i, v := range s {
		t[i] = float32(v)
	}
	return t
}

// to64 converts a float32 slice to float64.
func to64(s []float32) []float64 {
	t := make([]float64, len(s))
	for i, v := range s {
		t[i] = float64(v)
	}
	return t
}

// maxAbsDiff returns max_i |a[i] - b[i]|.
func maxAbsDiff(a, b []float64) float64 {
	d := 0.0
	for i := range a {
		d = math.Max(d, math.Abs(a[i]-b[i]))
	}
	return d
}

// allFinite reports whether s has no NaN or Inf.
func allFinite[T Float](s []T) bool {
	for _, v := range s {
		if math.IsNaN(float64(v)) || math.IsInf(float64(v), 0) {
			return false
		}
	}
	return true
}

// naiveLogVJP is the vector-Jacobian product of naiveLog for one n x n matrix, written directly
// from the definition: it keeps every half-step's log-iterate y and walks back with
// dz = dy - exp(y) * sum_axis(dy), finishing with dX = dz0 / tau.
func naiveLogVJP(x, dm []float64, n int, tau float64, iters int) []float64 {
	z := make([]float64, n*n)
	for i, v := range x {
		z[i] = v / tau
	}
	ys := make([][]float64, 0, 2*iters)
	for s := 0; s < 2*iters; s++ {
		at := func(line, k int) int { // k-th entry of the line normalised at half-step s
			if s%2 == 0 {
				return line*n + k
			}
			return k*n + line
		}
		for line := 0; line < n; line++ {
			mx := math.Inf(-1)
			for k := 0; k < n; k++ {
				mx = math.Max(mx, z[at(line, k)])
			}
			sum := 0.0
			for k := 0; k < n; k++ {
				sum += math.Exp(z[at(line, k)] - mx)
			}
			c := mx + math.Log(sum)
			for k := 0; k < n; k++ {
				z[at(line, k)] -= c
			}
		}
		ys = append(ys, append([]float64(nil), z...))
	}
	d := make([]float64, n*n)
	for i := range d {
		d[i] = dm[i] * math.Exp(z[i])
	}
	for s := 2*iters - 1; s >= 0; s-- {
		at := func(line, k int) int {
			if s%2 == 0 {
				return line*n + k
			}
			return k*n + line
		}
		for line := 0; line < n; line++ {
			sum := 0.0
			for k := 0; k < n; k++ {
				sum += d[at(line, k)]
			}
			for k := 0; k < n; k++ {
				d[at(line, k)] -= math.Exp(ys[s][at(line, k)]) * sum
			}
		}
	}
	for i := range d {
		d[i] /= tau
	}
	return d
}
