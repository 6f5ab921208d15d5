//go:build !noasm

package fastmath

import (
	"os"

	"golang.org/x/sys/cpu"
)

// haveAVX512 selects the AVX-512 kernels (vec512_amd64.s) for the 16-lane part of a slice. They
// round exactly as the AVX2 kernels, so results do not depend on which ran. SPG_TUI_GEMM=avx2
// (or go), which times the narrower GEMM kernels on an AVX-512 CPU (linalg/gemm's KernelEnv),
// turns them off as well so that such a run is the AVX2 machine's whole step.
var haveAVX512 = haveAVX2 && cpu.X86.HasAVX512F && allowsAVX512(os.Getenv("SPG_TUI_GEMM"))

// allowsAVX512 reports whether the GEMM kernel variable v leaves AVX-512 allowed: all but the
// narrower kernels' names (a name gemm refuses keeps the widest kernel there too).
func allowsAVX512(v string) bool { return v != "avx2" && v != "go" }

// The AVX-512 kernels are their AVX2 namesakes for n a positive multiple of 16.

//go:noescape
func gruGatesAVX512(gi, gh, bi, bh, hn, hp, hNew *float32, n, h int)

//go:noescape
func gruGatesBackwardAVX512(grad, carry, dout, gates, hn, hp *float32, n, h int)

//go:noescape
func leakyAVX512(dst, x *float32, n int, slope float32)

//go:noescape
func leakyGradAVX512(dst, dy, y *float32, n int, slope float32)

// wide returns how many of the first n (a multiple of 8) elements the AVX-512 kernels take.
func wide(n int) int {
	if !haveAVX512 {
		return 0
	}
	return n &^ 15
}

//go:noescape
func biasLeakyRowsAVX512(y *float32, rows int, b *float32, n int, slope float32, tail int)

// biasLeakyRowsVec runs biasLeakyRowsAVX512, or biasLeakyRowsAVX2 without AVX-512, over all of
// y (nothing when y is empty) and reports true, or reports false without AVX2. Both round the
// same (one add, then the activation), so the result does not depend on which ran.
func biasLeakyRowsVec(y, b []float32, slope float32) bool {
	switch {
	case haveAVX512:
		if len(y) > 0 {
			biasLeakyRowsAVX512(&y[0], len(y)/len(b), &b[0], len(b), slope, 1<<(len(b)%16)-1)
		}
	case haveAVX2:
		if len(y) > 0 {
			biasLeakyRowsAVX2(&y[0], len(y)/len(b), &b[0], len(b), slope, &tailMasks[len(b)%8][0])
		}
	default:
		return false
	}
	return true
}
