package assign

import (
	"math"
	"math/rand/v2"
	"runtime"
	"slices"
	"strings"
	"testing"

	"spg-tui/linalg/perm"
)

// bruteForce returns the minimal and maximal sum_i c[i*n+p[i]] over all n! permutations.
func bruteForce(c []float64, n int) (lo, hi float64) {
	p := make([]int, n)
	used := make([]bool, n)
	lo, hi = math.Inf(1), math.Inf(-1)
	var rec func(i int, sum float64)
	rec = func(i int, sum float64) {
		if i == n {
			lo, hi = min(lo, sum), max(hi, sum)
			return
		}
		for j := range n {
			if !used[j] {
				used[j], p[i] = true, j
				rec(i+1, sum+c[i*n+j])
				used[j] = false
			}
		}
	}
	rec(0, 0)
	return lo, hi
}

// checkPerm fails unless p is a permutation of 0..n-1 whose cost in c is want.
func checkPerm(t *testing.T, c []float64, n int, p []int, want float64, tol float64) {
	t.Helper()
	seen := make([]bool, n)
	var sum float64
	for i, j := range p {
		if j < 0 || j >= n || seen[j] {
			t.Fatalf("not a permutation: %v", p)
		}
		seen[j] = true
		sum += c[i*n+j]
	}
	if math.Abs(sum-want) > tol {
		t.Fatalf("assignment %v costs %v, returned value is %v", p, sum, want)
	}
}

// matrixKinds generates test matrices with and without ties.
var matrixKinds = []struct {
	name  string
	exact bool // integer entries, so sums are exact
	gen   func(rng *rand.Rand, n int) []float64
}{
	{"uniform", false, func(rng *rand.Rand, n int) []float64 {
		c := make([]float64, n*n)
		for k := range c {
			c[k] = rng.Float64()*200 - 100
		}
		return c
	}},
	{"fewInts", true, func(rng *rand.Rand, n int) []float64 {
		c := make([]float64, n*n)
		for k := range c {
			c[k] = float64(rng.IntN(3))
		}
		return c
	}},
	{"allEqual", true, func(rng *rand.Rand, n int) []float64 {
		c := make([]float64, n*n)
		x := float64(rng.IntN(7) - 3)
		for k := range c {
			c[k] = x
		}
		return c
	}},
	{"duplicateRows", true, func(rng *rand.Rand, n int) []float64 {
		c := make([]float64, n*n)
		for k := range c {
			c[k] = float64(rng.IntN(10) - 5)
		}
		// Copy a few rows over others, so several rows compete for the same columns.
		for i := 1; i < n; i++ {
			if rng.IntN(2) == 0 {
				src := rng.IntN(i)
				copy(c[i*n:(i+1)*n], c[src*n:(src+1)*n])
			}
		}
		return c
	}},
	{"duplicateCols", true, func(rng *rand.Rand, n int) []float64 {
		c := make([]float64, n*n)
		for k := range c {
			c[k] = float64(rng.IntN(4))
		}
		for j := 1; j < n; j++ {
			if rng.IntN(2) == 0 {
				src := rng.IntN(j)
				for i := range n {
					c[i*n+j] = c[i*n+src]
				}
			}
		}
		return c
	}},
}

func TestAgainstBruteForce(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	var s Solver
	for _, kind := range matrixKinds {
		for n := 1; n <= 8; n++ {
			trials := 400
			if n >= 7 {
				trials = 4
			}
			for trial := range trials {
				c := kind.gen(rng, n)
				lo, hi := bruteForce(c, n)
				tol := 1e-9 * float64(n) * 100
				if kind.exact {
					tol = 0
				}
				p := make([]int, n)
				got, err := s.Minimize(c, n, p)
				if err != nil {
					t.Fatal(err)
				}
				if math.Abs(got-lo) > tol {
					t.Fatalf("%s n=%d trial %d: Minimize = %v, brute force %v\n%v", kind.name, n, trial, got, lo, c)
				}
				checkPerm(t, c, n, p, got, tol)
				got, err = s.Maximize(c, n, p)
				if err != nil {
					t.Fatal(err)
				}
				if math.Abs(got-hi) > tol {
					t.Fatalf("%s n=%d trial %d: Maximize = %v, brute force %v\n%v", kind.name, n, trial, got, hi, c)
				}
				checkPerm(t, c, n, p, got, tol)
			}
		}
	}
}

// TestDualCertificate checks optimality for sizes beyond brute force: the final potentials
// must be dual feasible (c - u - v >= 0), tight on the assignment, and by strong duality
// sum(u) + sum(v) must equal the assignment's cost.
func TestDualCertificate(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	var s Solver
	for _, kind := range matrixKinds {
		for _, n := range []int{9, 17, 40, 100} {
			c := kind.gen(rng, n)
			p := make([]int, n)
			got, err := s.Minimize(c, n, p)
			if err != nil {
				t.Fatal(err)
			}
			checkPerm(t, c, n, p, got, 1e-9*float64(n))
			const tol = 1e-9
			var dual float64
			for i := range n {
				dual += s.u[i] + s.v[i]
				for j := range n {
					r := c[i*n+j] - s.u[i] - s.v[j]
					if r < -tol || (p[i] == j && math.Abs(r) > tol) {
						t.Fatalf("%s n=%d: reduced cost (%d,%d) = %v, assigned %v", kind.name, n, i, j, r, p[i] == j)
					}
				}
			}
			if math.Abs(dual-got) > tol*float64(n) {
				t.Fatalf("%s n=%d: dual %v != primal %v", kind.name, n, dual, got)
			}
		}
	}
}

func TestZeroSize(t *testing.T) {
	var s Solver
	got, err := s.Minimize(nil, 0, nil)
	if err != nil || got != 0 {
		t.Fatalf("n=0: got %v, %v", got, err)
	}
}

// TestWorkspaceReuse runs sizes up and down on one Solver; stale workspace must not leak.
func TestWorkspaceReuse(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	var s Solver
	for _, n := range []int{6, 2, 8, 1, 5, 8, 3} {
		c := matrixKinds[1].gen(rng, n)
		lo, _ := bruteForce(c, n)
		p := make([]int, n)
		if got, _ := s.Minimize(c, n, p); got != lo {
			t.Fatalf("n=%d: got %v want %v", n, got, lo)
		}
	}
}

func TestNonFinite(t *testing.T) {
	var s Solver
	for _, bad := range []float64{math.NaN(), math.Inf(1), math.Inf(-1)} {
		c := []float64{1, 2, 3, 4, 5, 6, 7, 8, 9}
		c[5] = bad // row 1, column 2
		p := make([]int, 3)
		for name, f := range map[string]func() error{
			"Minimize": func() error { _, err := s.Minimize(c, 3, p); return err },
			"Maximize": func() error { _, err := s.Maximize(c, 3, p); return err },
			"Round64":  func() error { return Round(&s, c, 3, p) },
			"Round32": func() error {
				c32 := make([]float32, 9)
				for k, x := range c {
					c32[k] = float32(x)
				}
				return Round(&s, c32, 3, p)
			},
		} {
			err := f()
			if err == nil || !strings.Contains(err.Error(), "(1, 2)") {
				t.Errorf("%s with %v: error %v, want one naming (1, 2)", name, bad, err)
			}
		}
	}
	m := make([]float64, 4*9)
	m[2*9+5] = math.NaN()
	m[3*9+0] = math.Inf(1)
	err := RoundBatch(m, 4, 3, make([]int, 4*3))
	if err == nil || !strings.Contains(err.Error(), "matrix 2") || !strings.Contains(err.Error(), "(1, 2)") {
		t.Errorf("RoundBatch: error %v, want one naming matrix 2 and (1, 2)", err)
	}
}

func TestRoundMaximizes(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	var s Solver
	for n := 1; n <= 7; n++ {
		m32 := make([]float32, n*n)
		m64 := make([]float64, n*n)
		for k := range m32 {
			m32[k] = float32(rng.IntN(5))
			m64[k] = float64(m32[k])
		}
		_, hi := bruteForce(m64, n)
		p := make([]int, n)
		if err := Round(&s, m32, n, p); err != nil {
			t.Fatal(err)
		}
		checkPerm(t, m64, n, p, hi, 0)
		if err := Round(&s, m64, n, p); err != nil {
			t.Fatal(err)
		}
		checkPerm(t, m64, n, p, hi, 0)
	}
}

func TestRoundBatchMatchesRound(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 10))
	const n = 7
	var s Solver
	for _, procs := range []int{1, 2, 5} {
		old := runtime.GOMAXPROCS(procs)
		for _, b := range []int{0, 1, 3, 128} {
			m := make([]float32, b*n*n)
			for k := range m {
				if k%2 == 0 {
					m[k] = float32(rng.IntN(3)) // ties
				} else {
					m[k] = rng.Float32()
				}
			}
			got := make([]int, b*n)
			if err := RoundBatch(m, b, n, got); err != nil {
				t.Fatal(err)
			}
			want := make([]int, b*n)
			for k := range b {
				if err := Round(&s, m[k*n*n:(k+1)*n*n], n, want[k*n:(k+1)*n]); err != nil {
					t.Fatal(err)
				}
			}
			if !slices.Equal(got, want) {
				t.Fatalf("GOMAXPROCS=%d b=%d: RoundBatch differs from Round", procs, b)
			}
		}
		runtime.GOMAXPROCS(old)
	}
}

func TestNoAllocs(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	const n = 30
	c := matrixKinds[0].gen(rng, n)
	c32 := make([]float32, n*n)
	for k, x := range c {
		c32[k] = float32(x)
	}
	p := make([]int, n)
	var s Solver
	for name, f := range map[string]func(){
		"Minimize": func() { s.Minimize(c, n, p) },
		"Maximize": func() { s.Maximize(c, n, p) },
		"Round32":  func() { Round(&s, c32, n, p) },
	} {
		f() // grow the workspace
		if a := testing.AllocsPerRun(20, f); a != 0 {
			t.Errorf("%s: %v allocations per call", name, a)
		}
	}
}

// TestInitInvariants checks what the path searches rely on after the reductions: the partial
// matching is consistent and counted, and the duals are feasible and tight on it.
func TestInitInvariants(t *testing.T) {
	rng := rand.New(rand.NewPCG(13, 14))
	var s Solver
	for _, kind := range matrixKinds {
		for _, n := range []int{2, 3, 5, 8, 20, 60} {
			for range 20 {
				c := kind.gen(rng, n)
				s.grow(n)
				s.initDuals(c)
				matched := 0
				for i, j := range s.col4row {
					if j >= 0 {
						matched++
						if s.row4col[j] != i {
							t.Fatalf("%s n=%d: row %d has column %d, which has row %d", kind.name, n, i, j, s.row4col[j])
						}
					}
				}
				for j, i := range s.row4col {
					if i >= 0 && s.col4row[i] != j {
						t.Fatalf("%s n=%d: column %d has row %d, which has column %d", kind.name, n, j, i, s.col4row[i])
					}
				}
				if matched != s.assigned {
					t.Fatalf("%s n=%d: %d rows matched, counted %d", kind.name, n, matched, s.assigned)
				}
				for i := range n {
					for j := range n {
						r := c[i*n+j] - s.u[i] - s.v[j]
						if r < -1e-9 || (s.col4row[i] == j && math.Abs(r) > 1e-9) {
							t.Fatalf("%s n=%d: reduced cost (%d,%d) = %v", kind.name, n, i, j, r)
						}
					}
				}
			}
		}
	}
}

// TestRoundLog checks RoundLog against brute force over all permutations of small matrices
// (the maximum product of chosen entries), that it ignores a positive factor per row and per
// column (a Sinkhorn layer's scaling), and that it refuses negative entries.
func TestRoundLog(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	var s Solver
	for n := 1; n <= 6; n++ {
		for range 20 {
			m := make([]float64, n*n)
			for k := range m {
				m[k] = rng.Float64()
			}
			got := make([]int, n)
			if err := RoundLog(&s, m, n, got); err != nil {
				t.Fatal(err)
			}
			best := math.Inf(-1)
			perm.Each(n, func(p []int) { best = max(best, logProd(m, n, p)) })
			if g := logProd(m, n, got); math.Abs(g-best) > 1e-9 {
				t.Fatalf("n %d: log product %g, brute force %g", n, g, best)
			}
			scaled := make([]float64, n*n)
			for i := range n {
				for j := range n {
					scaled[i*n+j] = m[i*n+j] * float64(i+1) * float64(2*j+1)
				}
			}
			again := make([]int, n)
			if err := RoundLog(&s, scaled, n, again); err != nil {
				t.Fatal(err)
			}
			if g := logProd(m, n, again); math.Abs(g-best) > 1e-9 {
				t.Fatalf("n %d: rows and columns scaled, log product %g, want %g", n, g, best)
			}
		}
	}
	if err := RoundLog(&s, []float32{1, -1, 0, 1}, 2, make([]int, 2)); err == nil {
		t.Error("RoundLog accepted a negative entry")
	}
}

func logProd(m []float64, n int, p []int) float64 {
	s := 0.0
	for i, j := range p {
		s += math.Log(m[i*n+j])
	}
	return s
}
