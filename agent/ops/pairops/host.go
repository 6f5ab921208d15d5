package pairops

import (
	"fmt"

	"gorgonia.org/tensor"
)

// The graph-matching inputs that depend on the states alone, on plain slices: a GPU learner
// computes them on the host with the kernels of the ClosedWalks and SpectralSimilarity nodes,
// so that its features are the CPU learner's bit for bit.

// ClosedWalksOf writes ClosedWalks of the g adjacency matrices a (g x n x n) into dst
// (g x n x maxLen-1).
func ClosedWalksOf(dst, a []float32, g, n, maxLen int) error {
	if g < 1 || n < 1 || maxLen < 2 || len(a) != g*n*n || len(dst) != g*n*(maxLen-1) {
		return fmt.Errorf("ClosedWalksOf: %d and %d floats for %d graphs of %d nodes and walks up to %d", len(a), len(dst), g, n, maxLen)
	}
	k := &closedWalks[float32]{maxLen: maxLen}
	in := tensor.New(tensor.WithShape(g, n, n), tensor.WithBacking(a))
	return k.Forward([]*tensor.Dense{in}, tensor.New(tensor.WithShape(g, n, maxLen-1), tensor.WithBacking(dst)))
}

// SpectralSimilarityOf writes SpectralSimilarity of the b graph pairs x (b x 2n x n) into dst
// (b x n x n).
func SpectralSimilarityOf(dst, x []float32, b, n int) error {
	if b < 1 || n < 1 || len(x) != b*2*n*n || len(dst) != b*n*n {
		return fmt.Errorf("SpectralSimilarityOf: %d and %d floats for %d graph pairs of %d nodes", len(x), len(dst), b, n)
	}
	var k spectralSimilarity[float32]
	in := tensor.New(tensor.WithShape(b, 2*n, n), tensor.WithBacking(x))
	return k.Forward([]*tensor.Dense{in}, tensor.New(tensor.WithShape(b, n, n), tensor.WithBacking(dst)))
}
