package sinkhorn

import (
	"fmt"
	"math"
	"math/rand/v2"
	"runtime"
	"testing"
)

// forwardBatch64 runs the per-matrix reference ref on each of the b matrices of x.
func forwardBatch64(ref func([]float64, int, float64, int) []float64, x []float64, b, n int, tau float64, iters int) []float64 {
	out := make([]float64, 0, len(x))
	for k := 0; k < b; k++ {
		out = append(out, ref(x[k*n*n:(k+1)*n*n], n, tau, iters)...)
	}
	return out
}

func TestForwardMatchesExpReference(t *testing.T) {
	rnd := rand.New(rand.NewPCG(1, 1))
	for _, n := range []int{1, 2, 3, 5, 8} {
		for _, tau := range []float64{0.3, 1, 2} {
			for _, iters := range []int{1, 3, 10} {
				const b = 3
				x := randSlice(rnd, b*n*n, 3)
				want := forwardBatch64(naiveExp, x, b, n, tau, iters)

				m := make([]float64, len(x))
				Forward(m, x, b, n, tau, iters, make([]float64, SavedLen(b, n, iters)))
				if d := maxAbsDiff(m, want); !(d <= 1e-13) {
					t.Errorf("f64 n=%d tau=%g L=%d: max |M - ref| = %.3g", n, tau, iters, d)
				}

				// float32 against the float64 reference on the same rounded inputs.
				x32 := to32(x)
				want = forwardBatch64(naiveExp, to64(x32), b, n, tau, iters)
				m32 := make([]float32, len(x))
				Forward(m32, x32, b, n, float32(tau), iters, nil)
				if d := maxAbsDiff(to64(m32), want); !(d <= 1e-6) {
					t.Errorf("f32 n=%d tau=%g L=%d: max |M - ref| = %.3g", n, tau, iters, d)
				}
			}
		}
	}
}

// TestForwardMatchesLogReference compares with the plain log-domain operator where the exp-domain
// one overflows: |X| up to 1e3 and tau down to 0.01, so X/tau spans 2e5. This is where the
// shortcut of forward.go would go wrong without its exact fallback (see TestGrowthBudgetMatters).
func TestForwardMatchesLogReference(t *testing.T) {
	rnd := rand.New(rand.NewPCG(2, 2))
	for _, n := range []int{1, 2, 3, 5, 12} {
		for _, scale := range []float64{10, 100, 1000} {
			for _, tau := range []float64{0.01, 0.05, 1} {
				for _, iters := range []int{1, 2, 50} {
					const b = 2
					x := randSlice(rnd, b*n*n, scale)
					want := forwardBatch64(naiveLog, x, b, n, tau, iters)
					m := make([]float64, len(x))
					for _, saved := range [][]float64{nil, make([]float64, SavedLen(b, n, iters))} {
						Forward(m, x, b, n, tau, iters, saved)
						if d := maxAbsDiff(m, want); !(d <= 1e-9) {
							t.Errorf("f64 n=%d |X|<=%g tau=%g L=%d saved=%t: max |M - ref| = %.3g", n, scale, tau, iters, saved != nil, d)
						}
					}

					x32 := to32(x)
					want = forwardBatch64(naiveLog, to64(x32), b, n, tau, iters)
					m32 := make([]float32, len(x))
					for _, saved := range [][]float32{nil, make([]float32, SavedLen(b, n, iters))} {
						Forward(m32, x32, b, n, float32(tau), iters, saved)
						if d := maxAbsDiff(to64(m32), want); !(d <= 2e-6) {
							t.Errorf("f32 n=%d |X|<=%g tau=%g L=%d saved=%t: max |M - ref| = %.3g", n, scale, tau, iters, saved != nil, d)
						}
					}
				}
			}
		}
	}
}

// TestGrowthBudgetMatters checks the exact fallback in both directions: forcing every half-step
// to be exact (budget -1), or mixing exact and shortcut steps (small budgets), agrees with the
// log-domain reference, while a budget beyond what the
// type's subnormals allow (growth past ~744 for float64, ~103 for float32) does not, on the same
// inputs that the real budget gets right. The inputs are random; X/tau spanning a few thousand
// makes a few percent of them amplify an underflowed entry.
func TestGrowthBudgetMatters(t *testing.T) {
	t.Run("f64", func(t *testing.T) { checkBudget[float64](t, 900, 1e-9, 20, 0.01, 150) })
	t.Run("f32", func(t *testing.T) { checkBudget[float32](t, 150, 2e-6, 10, 0.05, 100) })
}

func checkBudget[T Float](t *testing.T, tooBig, tol, scale, tau float64, trials int) {
	rnd := rand.New(rand.NewPCG(3, 3))
	const iters = 50
	worst := map[string]float64{}
	for _, n := range []int{3, 4, 8} {
		for trial := 0; trial < trials; trial++ {
			x := make([]T, n*n)
			x64 := make([]float64, n*n)
			for i, v := range randSlice(rnd, n*n, scale) {
				x[i] = T(v)
				x64[i] = float64(x[i])
			}
			want := naiveLog(x64, n, tau, iters)
			budgets := map[string]float64{"exact": -1, "real": growthBudget[T](), "tooBig": tooBig}
			for _, b := range []float64{0.1, 1, 10} { // mix exact and shortcut steps
				budgets[fmt.Sprint(b)] = b
			}
			for name, budget := range budgets {
				m := make([]T, n*n)
				forwardOne(m, x, nil, n, 1/tau, iters, budget, make([]float64, 9*n))
				d := 0.0
				for i, v := range m {
					d = math.Max(d, math.Abs(float64(v)-want[i])) // NaN propagates
				}
				if math.IsNaN(d) {
					d = math.Inf(1)
				}
				worst[name] = math.Max(worst[name], d)
			}
		}
	}
	for name, w := range worst {
		if name != "tooBig" && !(w <= tol) {
			t.Errorf("budget %s: max |M - ref| = %.3g, want <= %g", name, w, tol)
		}
	}
	if worst["tooBig"] < 1e-3 {
		t.Errorf("budget %g: max |M - ref| = %.3g; expected these inputs to expose the underflow", tooBig, worst["tooBig"])
	}
}

func TestForwardSums(t *testing.T) {
	rnd := rand.New(rand.NewPCG(4, 4))
	const b, n = 3, 6
	x := randSlice(rnd, b*n*n, 1)
	prevRowErr := math.Inf(1)
	for _, iters := range []int{1, 2, 4, 8, 16, 32} {
		m := make([]float64, len(x))
		Forward(m, x, b, n, 1, iters, nil)
		rowErr := 0.0
		for k := 0; k < b; k++ {
			for i := 0; i < n; i++ {
				rs, cs := 0.0, 0.0
				for j := 0; j < n; j++ {
					rs += m[k*n*n+i*n+j]
					cs += m[k*n*n+j*n+i]
				}
				if math.Abs(cs-1) > 1e-12 {
					t.Errorf("L=%d: matrix %d column %d sums to %v", iters, k, i, cs)
				}
				rowErr = math.Max(rowErr, math.Abs(rs-1))
			}
		}
		if rowErr > prevRowErr {
			t.Errorf("L=%d: row sums max error %.3g grew from %.3g", iters, rowErr, prevRowErr)
		}
		prevRowErr = rowErr
	}
	if prevRowErr > 1e-10 {
		t.Errorf("L=32: row sums still off by %.3g", prevRowErr)
	}
}

// TestForwardSavedAndParallel checks that keeping the iterates, the worker count and the batch
// position do not change M: results must be bitwise identical.
func TestForwardSavedAndParallel(t *testing.T) {
	rnd := rand.New(rand.NewPCG(5, 5))
	const b, n, iters, tau = 9, 7, 4, 0.05
	x := randSlice(rnd, b*n*n, 5)
	parallelM := make([]float64, len(x))
	Forward(parallelM, x, b, n, tau, iters, make([]float64, SavedLen(b, n, iters)))
	withProcs(t, 3, func() {
		m := make([]float64, len(x))
		Forward(m, x, b, n, tau, iters, nil)
		if d := maxAbsDiff(m, parallelM); d != 0 {
			t.Errorf("nil saved differs from saved by %.3g", d)
		}
	})
	withProcs(t, 1, func() {
		for k := 0; k < b; k++ {
			m := make([]float64, n*n)
			Forward(m, x[k*n*n:(k+1)*n*n], 1, n, tau, iters, make([]float64, SavedLen(1, n, iters)))
			if d := maxAbsDiff(m, parallelM[k*n*n:(k+1)*n*n]); d != 0 {
				t.Errorf("matrix %d alone on one worker differs by %.3g", k, d)
			}
		}
	})
}

func TestPanics(t *testing.T) {
	const b, n, iters = 2, 3, 2
	ok := func() ([]float64, []float64, []float64) {
		return make([]float64, b*n*n), make([]float64, b*n*n), make([]float64, SavedLen(b, n, iters))
	}
	cases := map[string]func(){
		"short m": func() { m, x, s := ok(); Forward(m[1:], x, b, n, 1, iters, s) },
		"short x": func() { m, x, s := ok(); Forward(m, x[1:], b, n, 1, iters, s) },
		"saved":   func() { m, x, s := ok(); Forward(m, x, b, n, 1, iters, s[1:]) },
		"tau 0":   func() { m, x, s := ok(); Forward(m, x, b, n, 0, iters, s) },
		"tau NaN": func() { m, x, s := ok(); Forward(m, x, b, n, math.NaN(), iters, s) },
		"iters 0": func() { m, x, _ := ok(); Forward(m, x, b, n, 1, 0, nil) },
		"neg n":   func() { Forward[float64](nil, nil, b, -1, 1, iters, nil) },
		"bw dx":   func() { dx, dm, s := ok(); Backward(dx[1:], dm, s, b, n, 1, iters) },
		"bw dm":   func() { dx, dm, s := ok(); Backward(dx, dm[1:], s, b, n, 1, iters) },
		"bw nil":  func() { dx, dm, _ := ok(); Backward(dx, dm, nil, b, n, 1, iters) },
		"bw tau":  func() { dx, dm, s := ok(); Backward(dx, dm, s, b, n, -1, iters) },
		"bw iter": func() { dx, dm, s := ok(); Backward(dx, dm, s, b, n, 1, 0) },
	}
	for name, f := range cases {
		t.Run(name, func(t *testing.T) {
			defer func() {
				if recover() == nil {
					t.Error("no panic")
				}
			}()
			f()
		})
	}
}

// TestEmpty checks that empty batches and 0 x 0 matrices are accepted.
func TestEmpty(t *testing.T) {
	for _, d := range []struct{ b, n int }{{0, 3}, {2, 0}} {
		Forward[float64](nil, nil, d.b, d.n, 1, 2, nil)
		Forward[float64](nil, nil, d.b, d.n, 1, 2, []float64{})
		Backward[float64](nil, nil, []float64{}, d.b, d.n, 1, 2)
	}
}

// TestNoAllocs checks that the kernels' scratch comes from the pool: with one worker the only
// allocation left is the closure handed to parallel.For.
func TestNoAllocs(t *testing.T) {
	const b, n, iters = 4, 6, 3
	x := randSlice(rand.New(rand.NewPCG(6, 6)), b*n*n, 2)
	m, dx := make([]float64, len(x)), make([]float64, len(x))
	saved := make([]float64, SavedLen(b, n, iters))
	withProcs(t, 1, func() {
		for name, f := range map[string]func(){
			"forward":       func() { Forward(m, x, b, n, 0.1, iters, nil) },
			"forward+saved": func() { Forward(m, x, b, n, 0.1, iters, saved) },
			"backward":      func() { Backward(dx, m, saved, b, n, 0.1, iters) },
		} {
			if a := testing.AllocsPerRun(20, f); a > 1 {
				t.Errorf("%s: %v allocs per call, want <= 1", name, a)
			}
		}
	})
}

// withProcs runs f with GOMAXPROCS set to procs.
func withProcs(t *testing.T, procs int, f func()) {
	t.Helper()
	old := runtime.GOMAXPROCS(procs)
	defer runtime.GOMAXPROCS(old)
	f()
}
