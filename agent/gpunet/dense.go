package gpunet

import (
	"spg-tui/linalg/cuda"
	"spg-tui/linalg/cuda/gpulayers"
)

// slope is LeakyReLU's negative slope in every SPG network; 1 makes the activation the identity.
const slope = 0.01

// denseForward computes y = act(x w + b) for x (rows x in), w (in x out) and b (out, or a
// zero-length Buf for none), as ops.Dense (gpulayers.DenseForward).
func denseForward(dev cuda.Device, y, x, w, b cuda.Buf, rows, in, out int, leaky bool) error {
	return gpulayers.DenseForward(dev, y, x, w, b, rows, in, out, slopeOf(leaky))
}

// slopeOf is the LeakyReLU slope of a layer: slope where leaky, 1 (the identity) where not.
func slopeOf(leaky bool) float32 {
	if leaky {
		return slope
	}
	return 1
}

// denseBackward is gpulayers.DenseBackward with gpunet's activation: LeakyReLU where leaky, else
// none (g and y may then be empty).
func denseBackward(dev cuda.Device, gr gpulayers.DenseGrads, g, dy, x, w, y, ones cuda.Buf, rows, in, out int, leaky bool) error {
	return gpulayers.DenseBackward(dev, gr, g, dy, x, w, y, ones, rows, in, out, slopeOf(leaky))
}

// newOnes returns a buffer of n ones.
func newOnes(a *allocator, n int) cuda.Buf {
	b := a.get(n)
	if a.err == nil {
		ones := make([]float32, n)
		for i := range ones {
			ones[i] = 1
		}
		a.err = a.dev.Upload(b, ones)
	}
	return b
}

// addTo sets y += a x over x's length.
func addTo(dev cuda.Device, y, x cuda.Buf, a float32) error {
	return launch1(dev, "add_scaled", x.N, y, x, a, x.N)
}

// launch1 launches an elementwise (grid-stride) kernel over n elements.
func launch1(dev cuda.Device, name string, n int, args ...any) error {
	const block, maxBlocks = 256, 4096
	return launch(dev, name, cuda.D1(max(1, min((n+block-1)/block, maxBlocks))), cuda.D1(block), args...)
}

// launch is dev.Launch with Go ints passed as the kernels' 32-bit ints (every size here is
// far below 2^31: buffers are bounded by the batch and N).
func launch(dev cuda.Device, name string, grid, block cuda.Dim3, args ...any) error {
	for i, a := range args {
		if v, ok := a.(int); ok {
			args[i] = int32(v)
		}
	}
	return dev.Launch(name, grid, block, args...)
}

// from returns b from element off on.
func from(b cuda.Buf, off int) cuda.Buf { return b.At(off, b.N-off) }
