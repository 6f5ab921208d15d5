//go:build !openblas

package backend

import (
	"strings"
	"testing"

	"gonum.org/v1/gonum/blas/blas32"
	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/blas/gonum"

	"spg-tui/linalg/gemm"
)

// TestPureGoBuild checks the default build's wiring: blas32 and gorgonia's BLAS are goBLAS
// (gemm's Sgemm), blas64 stays gonum's, and GemmParallel splits in Go.
func TestPureGoBuild(t *testing.T) {
	if got := Name(); !strings.HasPrefix(got, "pure Go (gemm ") || !strings.Contains(got, gemm.KernelName()) {
		t.Errorf("Name() = %q", got)
	}
	if _, ok := Implementation().(goBLAS); !ok {
		t.Errorf("Implementation() is %T, want goBLAS", Implementation())
	}
	if _, ok := blas32.Implementation().(goBLAS); !ok {
		t.Errorf("blas32 uses %T, want goBLAS", blas32.Implementation())
	}
	if _, ok := blas64.Implementation().(gonum.Implementation); !ok {
		t.Errorf("blas64 uses %T, want gonum.Implementation", blas64.Implementation())
	}
	if !splitInGo || Threads() != 1 {
		t.Errorf("splitInGo = %v, Threads() = %d; want true, 1", splitInGo, Threads())
	}
}
