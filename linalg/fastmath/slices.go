package fastmath

import "fmt"

// Sigmoid sets dst[i] = Sigmoid32(x[i]) (to within the same accuracy). dst and x must have the
// same length; they may be the same slice but must not otherwise overlap.
func Sigmoid(dst, x []float32) {
	checkLen("Sigmoid", dst, x)
	i := sigmoidVec(dst, x)
	for ; i < len(x); i++ {
		dst[i] = Sigmoid32(x[i])
	}
}

// Tanh sets dst[i] = Tanh32(x[i]) (to within the same accuracy). dst and x must have the same
// length; they may be the same slice but must not otherwise overlap.
func Tanh(dst, x []float32) {
	checkLen("Tanh", dst, x)
	i := tanhVec(dst, x)
	for ; i < len(x); i++ {
		dst[i] = Tanh32(x[i])
	}
}

// LeakyReLU sets dst[i] = x[i] where x[i] > 0 and slope*x[i] elsewhere (so -0 stays -0), exactly
// as the scalar expressions would. dst and x must have the same length; they may be the same
// slice but must not otherwise overlap.
func LeakyReLU(dst, x []float32, slope float32) {
	checkLen("LeakyReLU", dst, x)
	i := leakyVec(dst, x, slope)
	for ; i < len(x); i++ {
		if v := x[i]; v > 0 {
			dst[i] = v
		} else {
			dst[i] = slope * v
		}
	}
}

// LeakyReLUGrad sets dst[i] to the gradient with respect to LeakyReLU's input given dy, the
// gradient with respect to its output y: dy[i] where y[i] > 0 and slope*dy[i] elsewhere (at
// y = 0 the slope is taken, as PyTorch does). y tells the branch since LeakyReLU keeps the sign
// for slope > 0. All three must have the same length; dst may be dy.
func LeakyReLUGrad(dst, dy, y []float32, slope float32) {
	checkLen("LeakyReLUGrad", dst, dy)
	checkLen("LeakyReLUGrad", dst, y)
	i := leakyGradVec(dst, dy, y, slope)
	for ; i < len(y); i++ {
		if y[i] > 0 {
			dst[i] = dy[i]
		} else {
			dst[i] = slope * dy[i]
		}
	}
}

// checkLen panics unless dst and x have the same length.
func checkLen(fn string, dst, x []float32) {
	if len(dst) != len(x) {
		panic(fmt.Sprintf("fastmath: %s: len(dst) = %d, len(x) = %d", fn, len(dst), len(x)))
	}
}

// BiasLeakyRows adds b to every row of y (len(y) a multiple of len(b) > 0) and applies
// LeakyReLU with the given slope: y = LeakyReLU(y + b), the sum rounded once; slope 1 leaves
// y + b. It runs only as a vector kernel: it panics where HasBiasLeakyRows is false (the
// callers keep their own way there, a GEMM onto copies of b, whose sums round the same).
func BiasLeakyRows(y, b []float32, slope float32) {
	if len(b) == 0 || len(y)%len(b) != 0 {
		panic(fmt.Sprintf("fastmath: BiasLeakyRows: len(y) = %d is not a multiple of len(b) = %d > 0", len(y), len(b)))
	}
	if !biasLeakyRowsVec(y, b, slope) {
		panic("fastmath: BiasLeakyRows without its vector kernel")
	}
}

// HasBiasLeakyRows reports whether BiasLeakyRows has its kernel (AVX-512 or AVX2) here.
func HasBiasLeakyRows() bool { return biasLeakyRowsVec(nil, nil, 0) }
