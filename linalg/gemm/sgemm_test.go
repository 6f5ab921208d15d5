package gemm

import (
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"testing"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/gonum"
)

// problem is one Sgemm call: shapes, transposes, scalars and leading dimensions.
type problem struct {
	tA, tB        bool
	m, n, k       int
	alpha, beta   float32
	lda, ldb, ldc int
}

func (p problem) String() string {
	return fmt.Sprintf("tA=%v tB=%v m=%d n=%d k=%d alpha=%v beta=%v lda=%d ldb=%d ldc=%d",
		p.tA, p.tB, p.m, p.n, p.k, p.alpha, p.beta, p.lda, p.ldb, p.ldc)
}

func trans(t bool) blas.Transpose {
	if t {
		return blas.Trans
	}
	return blas.NoTrans
}

// withPads returns p with leading dimensions padA, padB, padC beyond the widths.
func (p problem) withPads(padA, padB, padC int) problem {
	p.lda, p.ldb, p.ldc = p.k+padA, p.n+padB, p.n+padC
	if p.tA {
		p.lda = p.m + padA
	}
	if p.tB {
		p.ldb = p.k + padB
	}
	return p
}

// operands returns random a, b and c for p, each exactly as long as the checks allow; c holds
// NaN when beta is zero (it must not be read) and random values otherwise.
func (p problem) operands(rng *rand.Rand) (a, b, c []float32) {
	rowsA, rowsB := p.m, p.k
	if p.tA {
		rowsA = p.k
	}
	if p.tB {
		rowsB = p.n
	}
	a = random(rng, max(0, p.lda*(rowsA-1)+p.lda))
	b = random(rng, max(0, p.ldb*(rowsB-1)+p.ldb))
	c = random(rng, max(0, p.ldc*(p.m-1)+p.n))
	if p.beta == 0 {
		for i := range c {
			c[i] = float32(math.NaN())
		}
	}
	return a, b, c
}

func random(rng *rand.Rand, n int) []float32 {
	s := make([]float32, n)
	for i := range s {
		s[i] = float32(rng.NormFloat64())
	}
	return s
}

// check runs p with kernel kn on copies of a, b, c and compares every element of c with the
// float64 product alpha op(a) op(b) + beta c, to within the float32 rounding error bound of a
// k-term sum, and the padding of c with its old value.
func check(t *testing.T, kn *microKernel, p problem, a, b, c0 []float32) {
	t.Helper()
	c := append([]float32(nil), c0...)
	sgemm(kn, trans(p.tA), trans(p.tB), p.m, p.n, p.k, p.alpha, a, p.lda, b, p.ldb, p.beta, c, p.ldc)
	for i := range p.m {
		for j := range p.ldc {
			idx := i*p.ldc + j
			if idx >= len(c) {
				break
			}
			if j >= p.n {
				if math.Float32bits(c[idx]) != math.Float32bits(c0[idx]) {
					t.Fatalf("%s: %v: padding c[%d,%d] changed to %v", kn.name, p, i, j, c[idx])
				}
				continue
			}
			var sum, abs float64
			if p.alpha != 0 {
				for l := range p.k {
					ai, bi := i*p.lda+l, l*p.ldb+j
					if p.tA {
						ai = l*p.lda + i
					}
					if p.tB {
						bi = j*p.ldb + l
					}
					av, bv := a[ai], b[bi]
					sum += float64(av) * float64(bv)
					abs += math.Abs(float64(av) * float64(bv))
				}
			}
			want := float64(p.alpha) * sum
			bound := math.Abs(float64(p.alpha)) * abs
			if p.beta != 0 {
				want += float64(p.beta) * float64(c0[idx])
				bound += math.Abs(float64(p.beta) * float64(c0[idx]))
			}
			tol := float64(p.k+3)*2*0x1p-24*bound + 1e-30
			if got := float64(c[idx]); !(math.Abs(got-want) <= tol) {
				t.Fatalf("%s: %v: c[%d,%d] = %v, want %v (tolerance %g)", kn.name, p, i, j, got, want, tol)
			}
		}
	}
}

// odd are sizes around the kernels' tile widths (4, 6, 8, 12, 16, 32) and the blocks (192, 256).
var odd = []int{1, 2, 3, 5, 7, 8, 12, 13, 17, 25, 31, 33, 65, 129, 193, 255, 257}

// scalars are the (alpha, beta) pairs every shape runs with: beta = 0 (c holds NaN), 1 and
// other; alpha = 0 (only beta c).
var scalars = [][2]float32{{1, 0}, {0.5, 1}, {-1.25, 0.75}, {0, 2}, {0, 0}, {2, -0.0}}

// TestSgemmMatchesNaive checks every supported kernel on odd sizes, all four transpose
// combinations, the scalar pairs above and leading dimensions larger than the widths.
func TestSgemmMatchesNaive(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, kn := range supported {
		for trial := range 40 {
			pick := func() int { return odd[rng.IntN(len(odd))] }
			m, n, k := pick(), pick(), pick()
			if trial < 3 { // the smallest and some exact tile multiples too
				m, n, k = []int{1, 24, 192}[trial], []int{1, 64, 32}[trial], []int{1, 8, 512}[trial]
			}
			for _, tA := range []bool{false, true} {
				for _, tB := range []bool{false, true} {
					s := scalars[(trial+btoi(tA)+2*btoi(tB))%len(scalars)]
					p := problem{tA: tA, tB: tB, m: m, n: n, k: k, alpha: s[0], beta: s[1]}
					p = p.withPads(rng.IntN(3)*rng.IntN(5), rng.IntN(3)*rng.IntN(5), rng.IntN(3)*rng.IntN(5))
					a, b, c := p.operands(rng)
					check(t, kn, p, a, b, c)
				}
			}
		}
	}
}

// TestSgemmScalars checks each scalar pair on one shape with edges in both directions.
func TestSgemmScalars(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	for _, kn := range supported {
		for _, s := range scalars {
			p := problem{tA: true, tB: false, m: 29, n: 37, k: 300, alpha: s[0], beta: s[1]}.withPads(1, 2, 3)
			a, b, c := p.operands(rng)
			check(t, kn, p, a, b, c)
		}
	}
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}

// TestSgemmMatchesGonum compares Sgemm with gonum's on random shapes up to 300; both round in
// float32, so they agree to a tolerance, not bit for bit.
func TestSgemmMatchesGonum(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for range 30 {
		p := problem{tA: rng.IntN(2) == 1, tB: rng.IntN(2) == 1, m: 1 + rng.IntN(300), n: 1 + rng.IntN(300), k: 1 + rng.IntN(300),
			alpha: float32(rng.NormFloat64()), beta: float32(rng.IntN(3)) / 2}
		p = p.withPads(rng.IntN(4), rng.IntN(4), rng.IntN(4))
		a, b, c := p.operands(rng)
		if p.beta == 0 {
			clear(c) // gonum does not promise to leave NaN unread
		}
		got, want := append([]float32(nil), c...), append([]float32(nil), c...)
		Sgemm(trans(p.tA), trans(p.tB), p.m, p.n, p.k, p.alpha, a, p.lda, b, p.ldb, p.beta, got, p.ldc)
		gonum.Implementation{}.Sgemm(trans(p.tA), trans(p.tB), p.m, p.n, p.k, p.alpha, a, p.lda, b, p.ldb, p.beta, want, p.ldc)
		for i := range got {
			if d := math.Abs(float64(got[i] - want[i])); d > 1e-5*float64(p.k)*(1+math.Abs(float64(want[i]))) {
				t.Fatalf("%v: c[%d] = %v, gonum %v", p, i, got[i], want[i])
			}
		}
	}
}

// TestSgemmPanics checks that invalid arguments panic as gonum's Sgemm does.
func TestSgemmPanics(t *testing.T) {
	s := make([]float32, 16)
	for _, c := range []struct {
		name string
		call func()
	}{
		{"bad transpose", func() { Sgemm('x', blas.NoTrans, 2, 2, 2, 1, s, 2, s, 2, 0, s, 2) }},
		{"m < 0", func() { Sgemm(blas.NoTrans, blas.NoTrans, -1, 2, 2, 1, s, 2, s, 2, 0, s, 2) }},
		{"bad lda", func() { Sgemm(blas.NoTrans, blas.NoTrans, 2, 2, 3, 1, s, 2, s, 2, 0, s, 2) }},
		{"bad ldc", func() { Sgemm(blas.NoTrans, blas.NoTrans, 2, 3, 2, 1, s, 2, s, 3, 0, s, 2) }},
		{"short c", func() { Sgemm(blas.NoTrans, blas.NoTrans, 5, 4, 2, 1, s, 2, s, 4, 0, s, 4) }},
	} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("%s: no panic", c.name)
				}
			}()
			c.call()
		}()
	}
}

// TestKernelName checks that the build picked a kernel it supports.
func TestKernelName(t *testing.T) {
	// A kernel named by KernelEnv replaces the widest unless this CPU cannot run it.
	if name := os.Getenv(KernelEnv); name != "" && KernelEnvError() == nil {
		if active.name != name {
			t.Fatalf("%s=%s: active kernel %s", KernelEnv, name, active.name)
		}
		return
	}
	if supported[len(supported)-1] != active {
		t.Fatalf("active kernel %s is not the widest supported", active.name)
	}
	t.Logf("kernel: %s", KernelName())
}
