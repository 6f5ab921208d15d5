package emu

import (
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"spg-tui/linalg/backend"
	"spg-tui/linalg/cuda"
)

// randoms returns n values in [-1, 1).
func randoms(rng *rand.Rand, n int) []float32 {
	v := make([]float32, n)
	for i := range v {
		v[i] = 2*rng.Float32() - 1
	}
	return v
}

// TestSgemmStrided checks every transpose combination of a batched product with padded
// leading dimensions against backend.Gemm on each matrix, bit for bit.
func TestSgemmStrided(t *testing.T) {
	d := openTest(t, testDir)
	rng := rand.New(rand.NewPCG(1, 2))
	const m, n, k, count = 5, 7, 3, 3
	for _, ta := range []bool{false, true} {
		for _, tb := range []bool{false, true} {
			ar, ac, br, bc := m, k, k, n
			if ta {
				ar, ac = k, m
			}
			if tb {
				br, bc = n, k
			}
			lda, ldb, ldc := ac+2, bc+1, n+3
			sa, sb, sc := ar*lda+4, br*ldb, m*ldc+1
			a, b, c := randoms(rng, count*sa), randoms(rng, count*sb), randoms(rng, count*sc)
			ab, bb, cb := upload(t, d, a), upload(t, d, b), upload(t, d, c)
			if err := d.SgemmStrided(ta, tb, m, n, k, 0.5, ab, lda, sa, bb, ldb, sb, 0.25, cb, ldc, sc, count); err != nil {
				t.Fatal(err)
			}
			for i := range count {
				backend.Gemm(trans(ta), trans(tb), m, n, k, 0.5, a[i*sa:], lda, b[i*sb:], ldb, 0.25, c[i*sc:], ldc)
			}
			got := download(t, d, cb, len(c))
			for i := range c {
				if math.Float32bits(got[i]) != math.Float32bits(c[i]) {
					t.Fatalf("transA %v transB %v: c[%d] = %v, want %v", ta, tb, i, got[i], c[i])
				}
			}
		}
	}
}

func TestSgemmChecked(t *testing.T) {
	d := openTest(t, testDir)
	a, b, c := upload(t, d, make([]float32, 6)), upload(t, d, make([]float32, 6)), upload(t, d, make([]float32, 4))
	if err := d.Sgemm(false, false, 2, 2, 3, 1, a, 3, b, 2, 0, c, 2); err != nil {
		t.Errorf("a product that fits: %v", err)
	}
	for _, e := range []struct {
		err  error
		want string
	}{
		{d.Sgemm(false, false, 2, 2, 3, 1, a, 2, b, 2, 0, c, 2), "a is 2 x 3 with leading dimension 2"},
		{d.Sgemm(false, false, 3, 2, 3, 1, a, 3, b, 2, 0, c, 2), "Sgemm a needs 9 elements, the buffer has 6"},
		{d.SgemmStrided(false, false, 2, 2, 3, 1, a, 3, 0, b, 2, 0, 0, c, 2, 4, 2), "Sgemm c needs 8 elements, the buffer has 4"},
		{d.Sgemm(false, false, 1, 1, 1, 1, cuda.Buf{Ptr: 8, N: 1}, 1, b, 1, 0, c, 1), "not in any allocation"},
	} {
		if e.err == nil || !strings.Contains(e.err.Error(), e.want) {
			t.Errorf("err = %v, want %q", e.err, e.want)
		}
	}
	// k = 0: c = beta c, and beta = 0 clears NaN as BLAS does.
	if err := d.Upload(c, []float32{float32(math.NaN()), 2, 3, 4}); err != nil {
		t.Fatal(err)
	}
	if err := d.Sgemm(false, false, 2, 2, 0, 1, a, 1, b, 2, 0, c, 2); err != nil {
		t.Fatal(err)
	}
	for i, v := range download(t, d, c, 4) {
		if v != 0 {
			t.Fatalf("c[%d] = %v after k = 0, beta = 0, want 0", i, v)
		}
	}
}
