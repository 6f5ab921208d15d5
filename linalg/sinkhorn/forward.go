package sinkhorn

import (
	"math"
	"unsafe"
)

// The forward pass keeps P = exp(y), the exponential of the log-iterate y = X/tau - alpha_i -
// beta_j, together with the potentials alpha (rows) and beta (columns) in float64. A half-step
// along an axis normalises every line (row or column) of P by its sum S, so in exact arithmetic
// it only needs S, not any exponential: P' = P/S, potential += log S.
//
// That shortcut fails only through underflow: an entry too small to represent is stored with an
// absolute error of up to the smallest subnormal eta, and dividing by S < 1 amplifies it. Every
// entry has been amplified, since the last exact step, by at most exp(growth), where growth sums
// max(0, -log min S) over the shortcut half-steps. While growth stays under a budget B with
// n*eta*exp(B) far below the type's epsilon, each entry and each line sum is accurate to
// rounding. A half-step that would push growth past B is instead done exactly from the
// potentials (exact.go): y is rebuilt in float64, the line maximum subtracted, and exp taken per
// entry, which resets growth to 0. The first half-step is always exact. In practice the
// shortcut serves all but the first few half-steps, when X/tau spans hundreds or more.
//
// Saved layout, per matrix: slot s (n*n values) of half-step s holds P_s, except that a column
// step done by the shortcut (other than the last) stores only its scale factors, negated, in
// the first n values: P_s = P_{s-1} with column j times -slot[j]. A full P is never negative,
// so the sign of slot[0] tells Backward which form it has, and the shortcut saves half the
// memory traffic of keeping every P.

// growthBudget returns B (see above) for T: for float64 eta = 2^-1074 ~ e^-744, for float32
// eta = 2^-149 ~ e^-103; the margins keep the amplified error below ~1e-36 (float64) and ~1e-10
// (float32) for n*2*iters up to 1e4.
func growthBudget[T Float]() float64 {
	var t T
	if unsafe.Sizeof(t) == 4 {
		return 70
	}
	return 650
}

// forwardOne runs the iterations on one n x n matrix x, writing M into m. If saved (len
// 2*iters*n*n) is non-nil it receives the half-steps in the layout above; otherwise everything
// runs in place in m. w is scratch of len 9*n.
//
// A column step only decides its scale factors; applying them is fused into the pass of the
// following row step, which also accumulates the column sums the next column step needs, so
// each iteration walks the matrix once (twice within each row, while it is in L1).
func forwardOne[T Float](m, x, saved []T, n int, invTau float64, iters int, budget float64, w []float64) {
	nn := n * n
	alpha, beta, pendA, pendB := w[:n], w[n:2*n], w[2*n:3*n], w[3*n:4*n]
	scale, colSum, rowSum, colMax, tmp := w[4*n:5*n], w[5*n:6*n], w[6*n:7*n], w[7*n:8*n], w[8*n:9*n]
	slot := func(s int) []T {
		if saved == nil {
			return m
		}
		return saved[s*nn : (s+1)*nn]
	}
	clear(beta)
	fill(pendB, 1)
	src := slot(0)
	rowExact(src, x, n, invTau, alpha, beta, colSum, tmp)
	fill(pendA, 1)
	growth := 0.0
	for s := 1; ; s += 2 {
		last := s == 2*iters-1
		// Column step s: afterwards P_s = src with column j times scale[j].
		if g := lineGrowth(colSum); growth+g <= budget {
			growth += g
			accumulate(beta, pendB, colSum)
			for j, v := range colSum {
				scale[j] = 1 / v
			}
			if saved != nil && !last {
				sv := slot(s)
				for j, c := range scale {
					sv[j] = T(-c)
				}
			}
		} else { // also for NaN
			growth = 0
			settle(alpha, pendA)
			src = slot(s)
			colExact(src, x, n, invTau, alpha, beta, scale, colMax, tmp)
			fill(pendB, 1)
			// Normalise now so that slot s holds P_s in full.
			scaleCols(src, src, scale, n)
			fill(scale, 1)
		}
		if last {
			scaleCols(m, src, scale, n)
			if saved != nil {
				copy(slot(s), m)
			}
			return
		}
		// Row step s+1, applied speculatively: its line sums are known only after the pass.
		rowFused(slot(s+1), src, scale, rowSum, colSum, n)
		src = slot(s + 1)
		if g := lineGrowth(rowSum); growth+g <= budget {
			growth += g
			accumulate(alpha, pendA, rowSum)
		} else {
			growth = 0
			settle(beta, pendB)
			rowExact(src, x, n, invTau, alpha, beta, colSum, tmp)
			fill(pendA, 1)
		}
	}
}

// lineGrowth returns max(0, -log min(sums)): how much dividing by these line sums can amplify
// an entry. It is +Inf for a zero sum and NaN for a NaN sum, both of which force an exact step.
func lineGrowth(sums []float64) float64 {
	lo := 1.0
	for _, v := range sums {
		lo = min(lo, v) // min propagates NaN
	}
	return -math.Log(lo)
}

// A potential is kept as pot + log(pend): the shortcut multiplies its line sums into pend, and
// logs are taken only when an exact step reads pot or pend leaves [1e-150, 1e150]. This saves
// 2*n logs per iteration, a tenth of the forward time.

// accumulate multiplies the positive line sums into pend, folding pend into pot when it
// leaves [1e-150, 1e150].
func accumulate(pot, pend, sums []float64) {
	pot, pend = pot[:len(sums)], pend[:len(sums)]
	for i, v := range sums {
		p := pend[i] * v
		if !(p >= 1e-150 && p <= 1e150) {
			pot[i] += math.Log(p)
			p = 1
		}
		pend[i] = p
	}
}

// settle folds pend into pot and resets pend to 1.
func settle(pot, pend []float64) {
	pot = pot[:len(pend)]
	for i, p := range pend {
		pot[i] += math.Log(p)
		pend[i] = 1
	}
}

// fill sets every element of s to v.
func fill(s []float64, v float64) {
	for i := range s {
		s[i] = v
	}
}
