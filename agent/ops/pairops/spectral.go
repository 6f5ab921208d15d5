package pairops

import (
	"fmt"
	"math"
	"slices"

	"gonum.org/v1/gonum/mat"
	G "gorgonia.org/gorgonia"
	"gorgonia.org/tensor"

	"spg-tui/agent/ops"
	"spg-tui/linalg/parallel"
)

// SpectralSimilarity gives, for graph pairs x (B, 2N, N) (G1's N adjacency rows, then G2's),
// Umeyama's (1988) node similarity |U2| |U1|^T, (B, N, N): row i is G2's node i, column j G1's
// node j, and U1, U2 hold each graph's unit eigenvectors by decreasing eigenvalue. Absolute
// values make it independent of the eigenvectors' signs, so relabelling a graph's nodes permutes
// its rows of U and so the rows or columns of the similarity. It breaks the symmetry that local
// counts leave on regular graphs: every node of a random regular graph has the same degree and
// nearly the same short cycles, but its own entries in the eigenvectors, which carry the whole
// graph. x is data: no gradient flows back into it.
func SpectralSimilarity(x *G.Node) (*G.Node, error) {
	if x != nil && x.Dtype() == tensor.Float32 {
		return ops.Apply(&spectralSimilarity[float32]{}, x)
	}
	return ops.Apply(&spectralSimilarity[float64]{}, x)
}

// spectralQuantum is the inverse of the grid SpectralSimilarity's entries are rounded to,
// 2^-30 (about 1e-9). Relabelling a graph changes the eigensolver's rounding errors (about
// 1e-15 here), and where two nodes tie exactly (an automorphism swaps them) a consensus at
// tau 0.01 turns such differences into different correspondences; on the grid the ties stay
// exact and relabelling permutes the output bit for bit.
const spectralQuantum = 1 << 30

// spectralSimilarity is the Kernel of a SpectralSimilarity node.
type spectralSimilarity[T ops.Float] struct{}

func (k *spectralSimilarity[T]) Name() string { return "SpectralSimilarity" }

func (k *spectralSimilarity[T]) OutShape(in []tensor.Shape) (tensor.Shape, error) {
	if len(in) != 1 || in[0].Dims() != 3 || in[0][1] != 2*in[0][2] {
		return nil, fmt.Errorf("input shape %v, want (B, 2N, N)", in)
	}
	return tensor.Shape{in[0][0], in[0][2], in[0][2]}, nil
}

func (k *spectralSimilarity[T]) Differentiable(int) bool { return false }

// Forward decomposes each graph in float64 (gonum's symmetric eigensolver, deterministic for a
// given matrix); the pairs are split over the cores, each written by one worker alone, so the
// output does not depend on the split. A pair met recently takes its similarity from
// spectralCache: the same bits, since the computation depends on the pair alone.
func (k *spectralSimilarity[T]) Forward(in []*tensor.Dense, out *tensor.Dense) error {
	s := in[0].Shape()
	b, n := s[0], s[2]
	x, y := ops.Data[T](in[0]), ops.Data[T](out)
	errs := make([]error, b)
	parallel.For(b, func(_, lo, hi int) {
		for g := lo; g < hi; g++ {
			pair, dst := x[g*2*n*n:][:2*n*n], y[g*n*n:][:n*n]
			key := spectralKey(pair)
			if spectralCache.get(key, bytesOf(dst)) {
				continue
			}
			if errs[g] = spectralPair(pair, dst, n); errs[g] == nil {
				spectralCache.put(key, bytesOf(dst))
			}
		}
	})
	for g, err := range errs {
		if err != nil {
			return fmt.Errorf("SpectralSimilarity: graph pair %d: %w", g, err)
		}
	}
	return nil
}

// spectralPair writes the similarity of one graph pair (2n x n: G1's rows, then G2's) to dst
// (n x n).
func spectralPair[T ops.Float](pair, dst []T, n int) error {
	u1, err := absEigenvectors(pair[:n*n], n)
	if err != nil {
		return err
	}
	u2, err := absEigenvectors(pair[n*n:], n)
	if err != nil {
		return err
	}
	for i := range n {
		for j := range n {
			var v float64
			for c := range n {
				v += u2[i*n+c] * u1[j*n+c]
			}
			dst[i*n+j] = T(math.Round(v*spectralQuantum) / spectralQuantum)
		}
	}
	return nil
}

// absEigenvectors returns |U| (n x n, row-major) for the symmetric matrix a: column c is the
// unit eigenvector of the c-th largest eigenvalue, in absolute values.
func absEigenvectors[T ops.Float](a []T, n int) ([]float64, error) {
	sym := mat.NewSymDense(n, nil)
	for i := range n {
		for j := i; j < n; j++ {
			sym.SetSym(i, j, float64(a[i*n+j]))
		}
	}
	var es mat.EigenSym
	if !es.Factorize(sym, true) {
		return nil, fmt.Errorf("eigendecomposition did not converge")
	}
	vals := es.Values(nil)
	var vecs mat.Dense
	es.VectorsTo(&vecs)
	order := make([]int, n)
	for i := range order {
		order[i] = i
	}
	// Stable, so that equal eigenvalues keep the solver's order.
	slices.SortStableFunc(order, func(p, q int) int {
		switch {
		case vals[p] > vals[q]:
			return -1
		case vals[p] < vals[q]:
			return 1
		}
		return 0
	})
	u := make([]float64, n*n)
	for i := range n {
		for c, col := range order {
			u[i*n+c] = math.Abs(vecs.At(i, col))
		}
	}
	return u, nil
}

func (k *spectralSimilarity[T]) Backward([]*tensor.Dense, *tensor.Dense, *tensor.Dense, []*tensor.Dense) error {
	return nil // x is data: Differentiable is false, so there is no gradient to write
}
