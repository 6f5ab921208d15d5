// Package batchnorm implements batch normalisation over (B, C, F) tensors with statistics per
// channel c over the B*F values of that channel: PyTorch's BatchNorm1d(C) on a (B, C, F)
// input, with affine gamma and beta of length C. Training mode (Forward, Backward) uses the
// batch statistics with the biased variance; UpdateRunning keeps PyTorch's running estimates
// (unbiased variance); Inference uses them.
//
// Tensors are dense row-major slices: element (b, c, f) is at (b*C+c)*F+f. Per-channel sums
// are accumulated in float64 whatever the element type, so float32 statistics over large
// batches keep their precision. For float32 the row loops run in AVX2 assembly where the CPU
// has it (rows_amd64.s): the sums in float64 as in Go, the elementwise maps rounding exactly as
// the Go expressions do.
package batchnorm

// Float is the element type: float32 for training, float64 for gradient checks.
type Float interface{ float32 | float64 }

// PyTorch's defaults for BatchNorm1d.
const (
	DefaultEps      = 1e-5
	DefaultMomentum = 0.1
)

// minParallel is the tensor size above which channels are split over goroutines.
const minParallel = 1 << 14
