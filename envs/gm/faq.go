package gm

import (
	"fmt"
	"math"
	"math/rand/v2"

	"spg-tui/linalg/assign"
)

// The stopping rule of FAQ, scipy's defaults: at most faqMaxIter Frank-Wolfe steps, and stop
// once a step moves P by less than faqTol in Frobenius norm divided by sqrt(n).
const (
	faqMaxIter = 30
	faqTol     = 0.03
)

// faqSinkhornTol and faqSinkhornMaxIter are scipy's _doubly_stochastic's: a random start is
// balanced until every row and column sum is within faqSinkhornTol of 1.
const (
	faqSinkhornTol     = 1e-3
	faqSinkhornMaxIter = 1000
)

// FAQ is Vogelstein et al.'s (2015) Fast Approximate QAP, as scipy's
// quadratic_assignment(method="faq", maximize=True): Frank-Wolfe on the relaxation of
// max trace(A P B P^T) to doubly stochastic P, each linear subproblem solved exactly
// (linalg/assign), then P rounded to the nearest permutation. It starts from the barycentre
// J = 11^T/n, then from restarts random doubly stochastic matrices (J + K)/2, K a uniform
// matrix Sinkhorn-balanced (scipy's P0="randomized"), drawn from rng, and returns the
// correspondence that preserves the most edges, the earliest of equals. rng may be nil when
// restarts is 0.
func FAQ(g1, g2 [][]int8, restarts int, rng *rand.Rand) ([]int, error) {
	n := len(g1)
	dense := func(g [][]int8) []float64 {
		m := make([]float64, n*n)
		for i, row := range g {
			for j, x := range row {
				m[i*n+j] = float64(x)
			}
		}
		return m
	}
	// On 0/1 matrices trace(A P B P^T) is twice the edges preserved, so the best of the starts
	// is the one preserving the most edges.
	return faqSolve(dense(g1), dense(g2), n, restarts, rng)
}

// faqSolve is FAQ on the symmetric n x n row-major matrices a and b (weighted graphs, which
// the check against scipy uses: their subproblems have no ties), keeping the start of the
// largest trace(A P B P^T).
func faqSolve(a, b []float64, n, restarts int, rng *rand.Rand) ([]int, error) {
	if restarts < 0 {
		return nil, fmt.Errorf("gm: faq: restarts = %d, need at least 0", restarts)
	}
	if restarts > 0 && rng == nil {
		return nil, fmt.Errorf("gm: faq: %d random restarts need a random source", restarts)
	}
	f := &faq{
		n: n, a: a, b: b,
		p: make([]float64, n*n), q: make([]float64, n*n), r: make([]float64, n*n),
		t: make([]float64, n*n), g: make([]float64, n*n),
		cols: make([]int, n), rowS: make([]float64, n), colS: make([]float64, n),
	}
	var best []int
	bestScore := math.Inf(-1)
	for r := 0; r <= restarts; r++ {
		if r == 0 {
			for k := range f.p {
				f.p[k] = 1 / float64(n)
			}
		} else {
			f.randomStart(rng)
		}
		perm, err := f.run()
		if err != nil {
			return nil, err
		}
		if s := faqScore(a, b, n, perm); s > bestScore {
			best, bestScore = perm, s
		}
	}
	return best, nil
}

// faqScore is trace(A P B P^T) = sum_ij a[i][j] b[perm[i]][perm[j]].
func faqScore(a, b []float64, n int, perm []int) float64 {
	s := 0.0
	for i, pi := range perm {
		for j, pj := range perm {
			s += a[i*n+j] * b[pi*n+pj]
		}
	}
	return s
}

// faq is the workspace of faqSolve: the matrices and the n x n iterates.
type faq struct {
	n          int
	a, b       []float64 // the symmetric matrices (G1's and G2's adjacency)
	p, q, r    []float64 // the iterate P, the Frank-Wolfe vertex Q and R = P - Q
	t, g       []float64 // A X and A X B for the X last given to sandwich
	cols       []int     // Q's permutation
	solver     assign.Solver
	rowS, colS []float64 // Sinkhorn's scalings
}

// run iterates Frank-Wolfe from f.p and returns its rounding to a permutation.
func (f *faq) run() ([]int, error) {
	n := f.n
	for range faqMaxIter {
		// The gradient of trace(A P B P^T) is A P B^T + A^T P B = 2 A P B for symmetric A and
		// B; the factor 2 does not change the linear subproblem's argmax.
		f.sandwich(f.p)
		if _, err := f.solver.Maximize(f.g, n, f.cols); err != nil {
			return nil, fmt.Errorf("gm: faq: %w", err)
		}
		// Along P(x) = Q + x R, R = P - Q, the objective is c + b x + a x^2 with
		// a = <A R B, R> and b = 2 <A R B, Q>.
		for k := range f.q {
			f.q[k] = 0
		}
		for i, j := range f.cols {
			f.q[i*n+j] = 1
		}
		for k := range f.p {
			f.r[k] = f.p[k] - f.q[k]
		}
		f.sandwich(f.r)
		a, b := 0.0, 0.0
		for k, x := range f.g {
			a += x * f.r[k]
		}
		for i, j := range f.cols {
			b += 2 * f.g[i*n+j]
		}
		// scipy's rule: the vertex of a concave parabola when it lies in [0, 1], else the
		// better end, x = 0 (Q) on a tie.
		var x float64
		if a < 0 && -b/(2*a) >= 0 && -b/(2*a) <= 1 {
			x = -b / (2 * a)
		} else if a+b > 0 {
			x = 1
		}
		// P' = Q + x R moves P by (1-x) |R|.
		moved := 0.0
		for k := range f.p {
			next := x*f.p[k] + (1-x)*f.q[k]
			d := f.p[k] - next
			moved += d * d
			f.p[k] = next
		}
		if math.Sqrt(moved)/math.Sqrt(float64(n)) < faqTol {
			break
		}
	}
	perm := make([]int, n)
	if _, err := f.solver.Maximize(f.p, n, perm); err != nil {
		return nil, fmt.Errorf("gm: faq: %w", err)
	}
	return perm, nil
}

// sandwich sets f.g = A X B through f.t = A X, skipping A's and B's zeros (graphs are sparse).
func (f *faq) sandwich(x []float64) {
	n := f.n
	for i := range n {
		ti := f.t[i*n : (i+1)*n]
		clear(ti)
		for k, y := range f.a[i*n : (i+1)*n] {
			if y == 0 {
				continue
			}
			for j, v := range x[k*n : (k+1)*n] {
				ti[j] += y * v
			}
		}
	}
	// B is symmetric, so entry j of row i of T B is row i of T dotted with row j of B.
	for i := range n {
		ti, gi := f.t[i*n:(i+1)*n], f.g[i*n:(i+1)*n]
		for j := range n {
			s := 0.0
			for k, y := range f.b[j*n : (j+1)*n] {
				if y != 0 {
					s += y * ti[k]
				}
			}
			gi[j] = s
		}
	}
}

// randomStart sets f.p to (J + K)/2, K a matrix of uniform entries balanced to be doubly
// stochastic within faqSinkhornTol as scipy's _doubly_stochastic does.
func (f *faq) randomStart(rng *rand.Rand) {
	n := f.n
	k := f.q
	for i := range k {
		k[i] = rng.Float64()
	}
	r, c := f.rowS, f.colS
	colScale := func(first bool) { // c = 1 / column sums of K, scaled by r after the first
		for j := range n {
			s := 0.0
			for i := range n {
				w := 1.0
				if !first {
					w = r[i]
				}
				s += w * k[i*n+j]
			}
			c[j] = 1 / s
		}
	}
	rowScale := func() { // r = 1 / (K c)
		for i := range n {
			s := 0.0
			for j := range n {
				s += k[i*n+j] * c[j]
			}
			r[i] = 1 / s
		}
	}
	balanced := func() bool {
		for i := range n {
			rs, cs := 0.0, 0.0
			for j := range n {
				rs += r[i] * k[i*n+j] * c[j]
				cs += r[j] * k[j*n+i] * c[i]
			}
			if math.Abs(rs-1) >= faqSinkhornTol || math.Abs(cs-1) >= faqSinkhornTol {
				return false
			}
		}
		return true
	}
	colScale(true)
	rowScale()
	for range faqSinkhornMaxIter {
		colScale(false)
		rowScale()
		if balanced() {
			break
		}
	}
	for i := range n {
		for j := range n {
			f.p[i*n+j] = (1/float64(n) + r[i]*k[i*n+j]*c[j]) / 2
		}
	}
}
