package sinkhorn

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"
)

// maxAbs returns max_i |s[i]|.
func maxAbs(s []float64) float64 {
	a := 0.0
	for _, v := range s {
		a = math.Max(a, math.Abs(v))
	}
	return a
}

// TestBackwardFiniteDifference checks dX against central differences of the linear loss
// sum(G*M), in float64.
func TestBackwardFiniteDifference(t *testing.T) {
	rnd := rand.New(rand.NewPCG(11, 11))
	const h = 1e-5
	for _, b := range []int{2, 3} {
		for n := 1; n <= 5; n++ {
			for _, tau := range []float64{0.2, 1, 3} {
				for _, iters := range []int{1, 2, 5} {
					x := randSlice(rnd, b*n*n, 1.5)
					g := randSlice(rnd, b*n*n, 1)
					m := make([]float64, len(x))
					loss := func(x []float64) float64 {
						Forward(m, x, b, n, tau, iters, nil)
						l := 0.0
						for i, v := range m {
							l += g[i] * v
						}
						return l
					}
					saved := make([]float64, SavedLen(b, n, iters))
					Forward(m, x, b, n, tau, iters, saved)
					dx := make([]float64, len(x))
					Backward(dx, g, saved, b, n, tau, iters)

					fd := make([]float64, len(x))
					xp := append([]float64(nil), x...)
					for i := range x {
						xp[i] = x[i] + h
						lp := loss(xp)
						xp[i] = x[i] - h
						lm := loss(xp)
						xp[i] = x[i]
						fd[i] = (lp - lm) / (2 * h)
					}
					if d := maxAbsDiff(dx, fd); !(d <= 1e-7*math.Max(1, maxAbs(fd))) {
						t.Errorf("b=%d n=%d tau=%g L=%d: max |dX - fd| = %.3g (max |fd| %.3g)", b, n, tau, iters, d, maxAbs(fd))
					}
				}
			}
		}
	}
}

// TestBackwardFloat32 checks float32 Backward against float64 Backward on the same inputs.
func TestBackwardFloat32(t *testing.T) {
	rnd := rand.New(rand.NewPCG(12, 12))
	const b = 3
	for _, n := range []int{2, 5, 10} {
		for _, tau := range []float64{0.05, 0.5} {
			for _, iters := range []int{1, 10} {
				x32 := to32(randSlice(rnd, b*n*n, 1))
				g32 := to32(randSlice(rnd, b*n*n, 1))
				x, g := to64(x32), to64(g32)

				saved := make([]float64, SavedLen(b, n, iters))
				Forward(make([]float64, len(x)), x, b, n, tau, iters, saved)
				dx := make([]float64, len(x))
				Backward(dx, g, saved, b, n, tau, iters)

				saved32 := make([]float32, SavedLen(b, n, iters))
				Forward(make([]float32, len(x)), x32, b, n, float32(tau), iters, saved32)
				dx32 := make([]float32, len(x))
				Backward(dx32, g32, saved32, b, n, float32(tau), iters)

				if d := maxAbsDiff(to64(dx32), dx); !(d <= 1e-5*math.Max(1, maxAbs(dx))) {
					t.Errorf("n=%d tau=%g L=%d: max |dX32 - dX64| = %.3g (max |dX| %.3g)", n, tau, iters, d, maxAbs(dx))
				}
			}
		}
	}
}

// TestExtremes runs forward and backward at the edge of the supported range (|X| up to 1e3,
// tau = 0.01, L = 50) and at steep but not saturated settings, in both precisions: everything
// must stay finite, columns of M sum to 1, dX must match the plain log-domain vector-Jacobian
// product, and each row of dX sums to 0 (adding a constant to a row of X does not change M).
func TestExtremes(t *testing.T) {
	const b, iters = 3, 50
	for _, c := range []struct{ scale, tau float64 }{{1000, 0.01}, {5, 0.05}, {1000, 20}} {
		for _, n := range []int{1, 2, 5, 10} {
			rnd := rand.New(rand.NewPCG(13, uint64(n)))
			x := randSlice(rnd, b*n*n, c.scale)
			dm := randSlice(rnd, b*n*n, 1)
			name := fmt.Sprintf("X=%g/tau=%g/n=%d", c.scale, c.tau, n)
			t.Run("f64/"+name, func(t *testing.T) { checkExtremes(t, x, dm, b, n, c.tau, iters, 1e-9) })
			t.Run("f32/"+name, func(t *testing.T) { checkExtremes(t, to32(x), to32(dm), b, n, c.tau, iters, 2e-5) })
		}
	}
}

func checkExtremes[T Float](t *testing.T, x, dm []T, b, n int, tau float64, iters int, tol float64) {
	m, dx := make([]T, len(x)), make([]T, len(x))
	saved := make([]T, SavedLen(b, n, iters))
	Forward(m, x, b, n, T(tau), iters, saved)
	Backward(dx, dm, saved, b, n, T(tau), iters)
	if !allFinite(m) || !allFinite(saved) || !allFinite(dx) {
		t.Fatal("non-finite output")
	}
	nn := n * n
	for k := 0; k < b; k++ {
		xk, dmk := make([]float64, nn), make([]float64, nn)
		for i := range xk {
			xk[i], dmk[i] = float64(x[k*nn+i]), float64(dm[k*nn+i])
		}
		want := naiveLogVJP(xk, dmk, n, tau, iters)
		got := make([]float64, nn)
		for i := range got {
			got[i] = float64(dx[k*nn+i])
		}
		scale := math.Max(1, maxAbs(want))
		if d := maxAbsDiff(got, want); !(d <= tol*scale) {
			t.Errorf("n=%d matrix %d: max |dX - ref| = %.3g (max |ref| %.3g)", n, k, d, maxAbs(want))
		}
		for i := 0; i < n; i++ {
			rs, cs := 0.0, 0.0
			for j := 0; j < n; j++ {
				rs += got[i*n+j]
				cs += float64(m[k*nn+j*n+i])
			}
			if !(math.Abs(rs) <= tol*scale) {
				t.Errorf("n=%d matrix %d: row %d of dX sums to %.3g", n, k, i, rs)
			}
			if !(math.Abs(cs-1) <= tol) {
				t.Errorf("n=%d matrix %d: column %d of M sums to %v", n, k, i, cs)
			}
		}
	}
}

// TestBackwardParallel checks that the worker count and batch position do not change dX.
func TestBackwardParallel(t *testing.T) {
	rnd := rand.New(rand.NewPCG(14, 14))
	const b, n, iters, tau = 9, 6, 3, 0.1
	x := randSlice(rnd, b*n*n, 2)
	dm := randSlice(rnd, b*n*n, 1)
	saved := make([]float64, SavedLen(b, n, iters))
	Forward(make([]float64, len(x)), x, b, n, tau, iters, saved)
	want := make([]float64, len(x))
	Backward(want, dm, saved, b, n, tau, iters)
	withProcs(t, 1, func() {
		per := SavedLen(1, n, iters)
		for k := 0; k < b; k++ {
			dx := make([]float64, n*n)
			Backward(dx, dm[k*n*n:(k+1)*n*n], saved[k*per:(k+1)*per], 1, n, tau, iters)
			if d := maxAbsDiff(dx, want[k*n*n:(k+1)*n*n]); d != 0 {
				t.Errorf("matrix %d alone on one worker differs by %.3g", k, d)
			}
		}
	})
}

// TestBackwardMixedSteps checks Backward on saved buffers that mix fully stored column steps
// (exact steps) with scale-only ones (shortcut steps), forced by small growth budgets.
func TestBackwardMixedSteps(t *testing.T) {
	rnd := rand.New(rand.NewPCG(15, 15))
	const iters, tau = 10, 0.05
	for _, n := range []int{1, 2, 3, 5} {
		for trial := 0; trial < 5; trial++ {
			x := randSlice(rnd, n*n, 5)
			dm := randSlice(rnd, n*n, 1)
			want := naiveLogVJP(x, dm, n, tau, iters)
			for _, budget := range []float64{-1, 0.1, 1, 10} {
				saved := make([]float64, SavedLen(1, n, iters))
				forwardOne(make([]float64, n*n), x, saved, n, 1/tau, iters, budget, make([]float64, 9*n))
				dx := make([]float64, n*n)
				backwardOne(dx, dm, saved, n, 1/tau, iters, make([]float64, 3*n))
				if d := maxAbsDiff(dx, want); !(d <= 1e-9*math.Max(1, maxAbs(want))) {
					t.Errorf("n=%d budget %g: max |dX - ref| = %.3g (max |ref| %.3g)", n, budget, d, maxAbs(want))
				}
			}
		}
	}
}
