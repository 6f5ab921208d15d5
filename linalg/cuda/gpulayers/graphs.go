package gpulayers

import (
	"fmt"

	"spg-tui/linalg/cuda"
)

// Inputs computed from the states alone: ops.PairDistances (the exact critic), ops.RowMean and
// ops.GraphPairFeatures (SPG+GM). They have no backward pass.

// PairDistances sets d (b x n x n) to the distances |b_i - a_j| of b MWM states x (b x 2n x 2).
func PairDistances(dev cuda.Device, d, x cuda.Buf, b, n int) error {
	const op = "PairDistances"
	if b <= 0 || n <= 0 {
		return fmt.Errorf("%s: b = %d, n = %d, want both > 0", op, b, n)
	}
	bs, err := bufs(op, "d", d, b*n*n, "x", x, b*4*n)
	if err != nil {
		return err
	}
	return dev.Launch("pair_distances", grid1(b*n*n, elementBlock), cuda.D1(elementBlock), bs[0], bs[1], i32(b), i32(n))
}

// RowMean sets y to x (rows x n) with each row divided by its sum, rows summing to 0 left 0.
// y may be x.
func RowMean(dev cuda.Device, y, x cuda.Buf, rows, n int) error {
	const op = "RowMean"
	if rows <= 0 || n <= 0 {
		return fmt.Errorf("%s: rows = %d, n = %d, want both > 0", op, rows, n)
	}
	bs, err := bufs(op, "y", y, rows*n, "x", x, rows*n)
	if err != nil {
		return err
	}
	return dev.Launch("row_mean", grid1(rows, elementBlock), cuda.D1(elementBlock), bs[0], bs[1], i32(rows), i32(n))
}

// GraphPairWidth is ops.GraphPairWidth, the features of a node pair, without importing ops
// (and gorgonia) here; the tests check that the two agree.
const GraphPairWidth = 4

// MaxGraphN is the largest n GraphPairFeatures takes (its degrees are a static shared array).
const MaxGraphN = 256

// GraphPairFeatures writes the pair features of b graph-matching states x (b x 2n x n) into
// dst (b x n x n x GraphPairWidth).
func GraphPairFeatures(dev cuda.Device, dst, x cuda.Buf, b, n int) error {
	const op = "GraphPairFeatures"
	if b <= 0 || n < 2 || n > MaxGraphN {
		return fmt.Errorf("%s: b = %d, n = %d, want b > 0 and n in 2..%d", op, b, n, MaxGraphN)
	}
	bs, err := bufs(op, "dst", dst, b*n*n*GraphPairWidth, "x", x, b*2*n*n)
	if err != nil {
		return err
	}
	return dev.Launch("graph_pair_features", cuda.D1(b), cuda.D1(256), bs[0], bs[1], i32(n))
}
