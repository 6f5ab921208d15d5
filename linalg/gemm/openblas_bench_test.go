//go:build openblas

package gemm

import (
	"testing"

	"gonum.org/v1/gonum/blas/blas32"

	"spg-tui/linalg/backend"
)

// BenchmarkSgemmOpenBLAS times OpenBLAS (installed by backend under the openblas tag) on the
// step's shapes, beside BenchmarkSgemm. Set OPENBLAS_CORETYPE (SkylakeX on AVX-512 CPUs): the
// test binary does not re-execute itself as spg-tui does.
func BenchmarkSgemmOpenBLAS(b *testing.B) {
	b.Logf("backend: %s", backend.Name())
	impl := blas32.Implementation()
	benchGemm(b, func(p problem, a, bm, c []float32) {
		impl.Sgemm(trans(p.tA), trans(p.tB), p.m, p.n, p.k, p.alpha, a, p.lda, bm, p.ldb, p.beta, c, p.ldc)
	})
}
