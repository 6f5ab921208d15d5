package gpunet

import (
	"spg-tui/linalg/cuda"
	"spg-tui/linalg/cuda/layers"
)

// slope is LeakyReLU's negative slope in every SPG network; 1 makes the activation the identity.
const slope = 0.01

// denseForward computes y = act(x w + b) for x (rows x in), w (in x out) and b (out, or a
// zero-length Buf for none), as ops.Dense (layers.DenseForward).
func denseForward(dev cuda.Device, y, x, w, b cuda.Buf, rows, in, out int, leaky bool) error {
	s := float32(1)
	if leaky {
		s = slope
	}
	return layers.DenseForward(dev, y, x, w, b, rows, in, out, s)
}

// denseGrads says which gradients denseBackward computes and whether they add to what the
// buffers hold (a layer applied twice, as the critic's action branch is).
type denseGrads struct {
	dx, dw, db cuda.Buf // zero-length: not wanted
	accumulate bool
}

// denseBackward takes dy (rows x out) back through denseForward, given its output y (for the
// activation) and input x: dw = x^T g, db = ones^T g (the column sums as one product: a
// column-sums kernel has too little parallelism for tall layers), dx = g w^T with g = dy
// through the activation. g is scratch of rows*out (it may be dy itself: dy is then
// overwritten); ones holds at least rows ones.
func denseBackward(dev cuda.Device, gr denseGrads, dy, y, x, w, g, ones cuda.Buf, rows, in, out int, leaky bool) error {
	if leaky {
		if err := launch1(dev, "leaky_relu_grad", rows*out, g, dy, y, rows*out, float32(slope)); err != nil {
			return err
		}
	} else {
		g = dy
	}
	beta := float32(0)
	if gr.accumulate {
		beta = 1
	}
	if gr.dw.N > 0 {
		if err := dev.Sgemm(true, false, in, out, rows, 1, x, in, g, out, beta, gr.dw, out); err != nil {
			return err
		}
	}
	if gr.db.N > 0 {
		if err := dev.Sgemm(false, false, 1, out, rows, 1, ones, rows, g, out, beta, gr.db, out); err != nil {
			return err
		}
	}
	if gr.dx.N > 0 {
		return dev.Sgemm(false, true, rows, in, out, 1, g, out, w, out, 0, gr.dx, in)
	}
	return nil
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
