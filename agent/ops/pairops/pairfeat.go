package pairops

import (
	"fmt"

	G "gorgonia.org/gorgonia"
	"gorgonia.org/tensor"

	"spg-tui/agent/ops"
	"spg-tui/agent/ops/internal/kern"
	"spg-tui/linalg/pairs"
)

// PairRows says what the rows of a PairFeatures input are; the caller knows it from the task's
// layout, and the shape is checked against it, never read for it.
type PairRows int

// The row layouts PairFeatures reads.
const (
	// TwoPointSets: (B, 2N, 2), the N points of A then the N points of B (pairs.Matching).
	TwoPointSets PairRows = iota
	// Values: (B, N, 1), one number per item (pairs.Sort).
	Values
	// OnePointSet: (B, N, 2), the cities of a tour (pairs.Tour).
	OnePointSet
	// LocalPointSet: (B, N, 2), the cities of a tour, featured by their neighbourhoods
	// (pairs.TourLocal).
	LocalPointSet
)

// PairFeatures adds the per-pair input features of the pairwise networks as one node: for
// TwoPointSets states x (B, 2N, 2) it gives (B, N, N, pairs.MatchingWidth) (pairs.Matching), for
// Values states x (B, N, 1) it gives (B, N, N, pairs.SortWidth) (pairs.Sort), for OnePointSet
// states x (B, N, 2) it gives (B, N, N, pairs.TourWidth) (pairs.Tour), for LocalPointSet states
// x (B, N, 2) it gives (B, N, N, pairs.TourLocalWidth) (pairs.TourLocal). x is data: no gradient
// flows back into it.
func PairFeatures(x *G.Node, rows PairRows) (*G.Node, error) {
	if x != nil && x.Dtype() == tensor.Float32 {
		return ops.Apply(&pairFeatures[float32]{rows: rows}, x)
	}
	return ops.Apply(&pairFeatures[float64]{rows: rows}, x)
}

// pairFeatures is the ops.Kernel of a PairFeatures node.
type pairFeatures[T ops.Float] struct{ rows PairRows }

func (k *pairFeatures[T]) Name() string { return "PairFeatures" }

func (k *pairFeatures[T]) OutShape(in []tensor.Shape) (tensor.Shape, error) {
	if len(in) == 1 && in[0].Dims() == 3 {
		s := in[0]
		switch {
		case k.rows == TwoPointSets && s[2] == 2 && s[1]%2 == 0:
			return tensor.Shape{s[0], s[1] / 2, s[1] / 2, pairs.MatchingWidth}, nil
		case k.rows == Values && s[2] == 1:
			return tensor.Shape{s[0], s[1], s[1], pairs.SortWidth}, nil
		case k.rows == OnePointSet && s[2] == 2:
			return tensor.Shape{s[0], s[1], s[1], pairs.TourWidth}, nil
		case k.rows == LocalPointSet && s[2] == 2:
			return tensor.Shape{s[0], s[1], s[1], pairs.TourLocalWidth}, nil
		}
	}
	switch k.rows {
	case TwoPointSets:
		return nil, fmt.Errorf("input shape %v, want (B, 2N, 2): two point sets", in)
	case OnePointSet, LocalPointSet:
		return nil, fmt.Errorf("input shape %v, want (B, N, 2): one point set", in)
	}
	return nil, fmt.Errorf("input shape %v, want (B, N, 1): one value per item", in)
}

func (k *pairFeatures[T]) Differentiable(int) bool { return false }

// Forward writes each state's features, the states split over the cores: each is written
// alone, so the split changes no bits.
func (k *pairFeatures[T]) Forward(in []*tensor.Dense, out *tensor.Dense) error {
	s := in[0].Shape()
	x, o := ops.Data[T](in[0]), ops.Data[T](out)
	b, rows := s[0], s[1]
	xs, fs := len(x)/b, len(o)/b // one state's inputs and features
	kern.BatchBlocks(b, kern.ElemCost*fs, func(lo, hi int) {
		x, o := x[lo*xs:hi*xs], o[lo*fs:hi*fs]
		switch k.rows {
		case TwoPointSets:
			pairs.Matching(o, x, hi-lo, rows/2)
		case OnePointSet:
			pairs.Tour(o, x, hi-lo, rows)
		case LocalPointSet:
			pairs.TourLocal(o, x, hi-lo, rows)
		default:
			pairs.Sort(o, x, hi-lo, rows)
		}
	})
	return nil
}

func (k *pairFeatures[T]) Backward([]*tensor.Dense, *tensor.Dense, *tensor.Dense, []*tensor.Dense) error {
	return nil // x is data: Differentiable is false, so there is no gradient to write
}

// SortValues adds the values of the sorting states x (B, N, 1), each state scaled by its own
// span as pairs.SortValues scales them, as one node of x's shape. x is data: no gradient flows
// back into it.
func SortValues(x *G.Node) (*G.Node, error) {
	if x != nil && x.Dtype() == tensor.Float32 {
		return ops.Apply(&sortValues[float32]{}, x)
	}
	return ops.Apply(&sortValues[float64]{}, x)
}

// sortValues is the ops.Kernel of a SortValues node.
type sortValues[T ops.Float] struct{}

func (k *sortValues[T]) Name() string { return "SortValues" }

func (k *sortValues[T]) OutShape(in []tensor.Shape) (tensor.Shape, error) {
	if len(in) != 1 || in[0].Dims() != 3 || in[0][2] != 1 {
		return nil, fmt.Errorf("input shape %v, want (B, N, 1): one value per item", in)
	}
	return in[0].Clone(), nil
}

func (k *sortValues[T]) Differentiable(int) bool { return false }

func (k *sortValues[T]) Forward(in []*tensor.Dense, out *tensor.Dense) error {
	s := in[0].Shape()
	pairs.SortValues(ops.Data[T](out), ops.Data[T](in[0]), s[0], s[1])
	return nil
}

func (k *sortValues[T]) Backward([]*tensor.Dense, *tensor.Dense, *tensor.Dense, []*tensor.Dense) error {
	return nil // x is data: Differentiable is false, so there is no gradient to write
}
