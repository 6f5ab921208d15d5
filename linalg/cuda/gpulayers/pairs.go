package gpulayers

import (
	"fmt"

	"spg-tui/linalg/cuda"
	"spg-tui/linalg/pairs"
)

// The pairwise networks' own layers: their input features (ops.PairFeatures), the successor
// model's barred diagonal (ops.BarDiagonal) and the bilinear critic (agent/nets' bilinearQ).

// PairLayout is what the rows of a PairFeatures input are, as ops.PairRows (for sorting states
// see PairFeaturesSort).
type PairLayout int

// The layouts PairFeatures reads.
const (
	// TwoPointSets: (B, 2N, 2), the N points of A then the N points of B (pairs.Matching).
	TwoPointSets PairLayout = iota
	// OnePointSet: (B, N, 2), the cities of a tour (pairs.Tour).
	OnePointSet
)

// PairFeatures writes the per-pair features of b states x into dst (b x n x n x 6) as
// pairs.Matching (TwoPointSets) or pairs.Tour (OnePointSet) do.
func PairFeatures(dev cuda.Device, dst, x cuda.Buf, b, n int, layout PairLayout) error {
	const op = "PairFeatures"
	if b <= 0 || n <= 0 {
		return fmt.Errorf("%s: b = %d, n = %d, want both > 0", op, b, n)
	}
	kernel, points := "pair_features_matching", 2*n
	switch layout {
	case TwoPointSets:
	case OnePointSet:
		kernel, points = "pair_features_tour", n
	default:
		return fmt.Errorf("%s: layout %d, want TwoPointSets or OnePointSet", op, layout)
	}
	const w = pairs.MatchingWidth // = pairs.TourWidth
	bs, err := bufs(op, "dst", dst, b*n*n*w, "x", x, b*points*2)
	if err != nil {
		return err
	}
	return dev.Launch(kernel, grid1(b*n*n, elementBlock), cuda.D1(elementBlock), bs[0], bs[1], i32(b), i32(n))
}

// PairFeaturesSort writes pairs.Sort's features (b x n x n x 2) from the sorting states'
// values as SortValues leaves them (b x n).
func PairFeaturesSort(dev cuda.Device, dst, values cuda.Buf, b, n int) error {
	const op = "PairFeaturesSort"
	if b <= 0 || n <= 0 {
		return fmt.Errorf("%s: b = %d, n = %d, want both > 0", op, b, n)
	}
	bs, err := bufs(op, "dst", dst, b*n*n*pairs.SortWidth, "values", values, b*n)
	if err != nil {
		return err
	}
	return dev.Launch("pair_features_sort", grid1(b*n*n, elementBlock), cuda.D1(elementBlock), bs[0], bs[1], i32(b), i32(n))
}

// BarDiagonal sets y (b x n x n) to x with every diagonal entry bar: ops.BarDiagonal's
// forward pass. With bar 0 and x the output gradient it is the backward pass. y may be x.
func BarDiagonal(dev cuda.Device, y, x cuda.Buf, b, n int, bar float32) error {
	const op = "BarDiagonal"
	if b <= 0 || n <= 0 {
		return fmt.Errorf("%s: b = %d, n = %d, want both > 0", op, b, n)
	}
	bs, err := bufs(op, "y", y, b*n*n, "x", x, b*n*n)
	if err != nil {
		return err
	}
	if bs[0].Ptr != bs[1].Ptr {
		if err := Copy(dev, bs[0], bs[1]); err != nil {
			return err
		}
	}
	return dev.Launch("set_diagonal", grid1(b*n, elementBlock), cuda.D1(elementBlock), bs[0], i32(b), i32(n), bar)
}

// BilinearQ sets q (b) to sum(a * g) per instance of nn entries.
func BilinearQ(dev cuda.Device, q, a, g cuda.Buf, b, nn int) error {
	const op = "BilinearQ"
	if b <= 0 || nn <= 0 {
		return fmt.Errorf("%s: b = %d, nn = %d, want both > 0", op, b, nn)
	}
	bs, err := bufs(op, "q", q, b, "a", a, b*nn, "g", g, b*nn)
	if err != nil {
		return err
	}
	return dev.Launch("bilinear_q", cuda.D1(b), cuda.D1(256), bs[0], bs[1], bs[2], i32(nn))
}

// ScaleRowsAdd sets y = beta y + c x, c (b) scaling each of x's b rows of nn: BilinearQ's
// backward pass, dG = dq a (beta 1 to add a second action's share) and dA = dq g.
func ScaleRowsAdd(dev cuda.Device, y, c, x cuda.Buf, b, nn int, beta float32) error {
	const op = "ScaleRowsAdd"
	if b <= 0 || nn <= 0 {
		return fmt.Errorf("%s: b = %d, nn = %d, want both > 0", op, b, nn)
	}
	bs, err := bufs(op, "y", y, b*nn, "c", c, b, "x", x, b*nn)
	if err != nil {
		return err
	}
	return dev.Launch("scale_rows_add", grid1(b*nn, elementBlock), cuda.D1(elementBlock), bs[0], bs[1], bs[2], i32(b), i32(nn), beta)
}
