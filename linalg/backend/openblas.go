//go:build openblas

package backend

/*
#cgo LDFLAGS: -lopenblas
char *openblas_get_corename(void);
void openblas_set_num_threads(int);
int openblas_get_num_threads(void);
*/
import "C"

import (
	"os"

	"gonum.org/v1/gonum/blas/blas32"
	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/netlib/blas/netlib"
)

// threadEnvs are the variables OpenBLAS takes its thread count from, in its order of precedence.
var threadEnvs = []string{"OPENBLAS_NUM_THREADS", "GOTO_NUM_THREADS", "OMP_NUM_THREADS"}

// init switches gonum's BLAS before any kernel runs, so importing this package is enough.
//
// It also makes OpenBLAS run each call on the calling thread unless the user chose a thread
// count: the kernels split their large products over goroutines themselves (GemmParallel, and
// the GRU's recurrence by batch rows). OpenBLAS's own worker threads busy-wait between calls,
// so that beside Go's goroutines on a 2-core machine they doubled the CPU time of a training
// step and, under load, its wall time too.
func init() {
	blas32.Use(netlib.Implementation{})
	blas64.Use(netlib.Implementation{})
	chosen := false
	for _, e := range threadEnvs {
		if _, set := os.LookupEnv(e); set {
			chosen = true
		}
	}
	if !chosen {
		C.openblas_set_num_threads(1)
	}
	splitInGo = Threads() == 1
}

// ExactSplits is false: OpenBLAS picks its kernel path by shape and by OPENBLAS_CORETYPE (the
// Haswell kernels round a split product differently from one call), so a product split into
// blocks matches one call only to rounding.
const ExactSplits = false

// AddsOnce reports false: how OpenBLAS's kernels add c is not pinned down here, so callers
// keep c in the product.
func AddsOnce(k int) bool { return false }

// Name describes the BLAS in use, including the OpenBLAS kernel family it picked at load
// time (for example "OpenBLAS (SkylakeX)"); "Prescott" or similar here means the slow
// fallback, i.e. EnsureCoreType was not called or found no suitable core.
func Name() string {
	return "OpenBLAS (" + C.GoString(C.openblas_get_corename()) + ")"
}

// Implementation returns the BLAS to hand to gorgonia (gorgonia.Use): OpenBLAS via gonum's
// netlib wrapper, the same implementation blas32 and blas64 use.
func Implementation() BLAS { return netlib.Implementation{} }

// Check reports a BLAS set-up that cannot run as asked; OpenBLAS chooses its own kernels
// (EnsureCoreType), so there is nothing to refuse.
func Check() error { return nil }

// Threads returns how many threads OpenBLAS uses for one call: 1 unless OPENBLAS_NUM_THREADS
// (or GOTO_NUM_THREADS, OMP_NUM_THREADS) says otherwise.
func Threads() int { return int(C.openblas_get_num_threads()) }
