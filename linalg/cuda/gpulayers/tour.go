package gpulayers

import (
	"fmt"

	"spg-tui/linalg/cuda"
)

// TourWeights sets w (b x n x n) to the tour critic's weights of the pair weights g (nets'
// tourQ): g off the diagonal, each diagonal entry its row's mean off the diagonal. w must not
// overlap g.
func TourWeights(dev cuda.Device, w, g cuda.Buf, b, n int) error {
	return tourWeights("TourWeights", "tour_weights", dev, w, g, b, n)
}

// TourWeightsBackward sets dg (b x n x n) to TourWeights' gradient from dw: dw plus its row's
// diagonal entry over n-1 off the diagonal, 0 on it. dg must not overlap dw.
func TourWeightsBackward(dev cuda.Device, dg, dw cuda.Buf, b, n int) error {
	return tourWeights("TourWeightsBackward", "tour_weights_backward", dev, dg, dw, b, n)
}

func tourWeights(op, kernel string, dev cuda.Device, y, x cuda.Buf, b, n int) error {
	if b <= 0 || n < 2 {
		return fmt.Errorf("%s: b = %d, n = %d, want b > 0 and n >= 2", op, b, n)
	}
	bs, err := bufs(op, "y", y, b*n*n, "x", x, b*n*n)
	if err != nil {
		return err
	}
	return dev.Launch(kernel, grid1(b*n, elementBlock), cuda.D1(elementBlock), bs[0], bs[1], i32(b*n), i32(n))
}
