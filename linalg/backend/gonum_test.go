//go:build !openblas

package backend

import (
	"testing"

	"gonum.org/v1/gonum/blas/blas32"
	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/blas/gonum"
)

func TestPureGoBuild(t *testing.T) {
	if got := Name(); got != "pure Go (gonum)" {
		t.Errorf("Name() = %q", got)
	}
	if Implementation() != nil {
		t.Error("Implementation() is not nil in the pure-Go build")
	}
	if _, ok := blas32.Implementation().(gonum.Implementation); !ok {
		t.Errorf("blas32 uses %T, want gonum.Implementation", blas32.Implementation())
	}
	if _, ok := blas64.Implementation().(gonum.Implementation); !ok {
		t.Errorf("blas64 uses %T, want gonum.Implementation", blas64.Implementation())
	}
}
