//go:build openblas

package backend

/*
#cgo LDFLAGS: -lopenblas
char *openblas_get_corename(void);
*/
import "C"

import (
	"gonum.org/v1/gonum/blas/blas32"
	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/netlib/blas/netlib"
)

// init switches gonum's BLAS before any kernel runs, so importing this package is enough.
func init() {
	blas32.Use(netlib.Implementation{})
	blas64.Use(netlib.Implementation{})
}

// Name describes the BLAS in use, including the OpenBLAS kernel family it picked at load
// time (for example "OpenBLAS (SkylakeX)"); "Prescott" or similar here means the slow
// fallback, i.e. EnsureCoreType was not called or found no suitable core.
func Name() string {
	return "OpenBLAS (" + C.GoString(C.openblas_get_corename()) + ")"
}

// Implementation returns the BLAS to hand to gorgonia (gorgonia.Use): OpenBLAS via gonum's
// netlib wrapper, the same implementation blas32 and blas64 use.
func Implementation() BLAS { return netlib.Implementation{} }
