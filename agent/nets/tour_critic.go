package nets

import (
	G "gorgonia.org/gorgonia"
	"gorgonia.org/tensor"

	"spg-tui/agent/ops/layers"
)

// tourQ is the tsp critic of SPG+Factored, Q(s, A) = sum_ik W(s)_ik (A S A^T)_ik for each
// action A of acts (B, N, N: city i at place j), with S the cyclic shift (S_j,j+1 = 1) and W
// the pair weights g (B, N, N) with the diagonal replaced: W_ii = mean_{k != i} g_ik. For a
// permutation, (A S A^T)_ik is 1 exactly when city k follows city i on the tour, so Q is a
// learned weight per directed edge summed over the tour's edges: the form of every
// tour-length reward, as the bilinear critic is the form of MWM's. The reward itself stays a
// black box: g is learned from rewards alone.
//
// No tour has a city follow itself, so no reward ever fits g_ii, and a soft M that spreads a
// city over neighbouring places puts adjacency mass there: with g_ii free (near the zero
// length of a self-pair) the actor learns to blur M and the critic scores the blur as a short
// tour. Scoring a self-pair as the city's average edge instead prices blur as random edges.
func tourQ(g *G.Node, acts []*G.Node, n int) ([]*G.Node, error) {
	gr, dt, b := g.Graph(), g.Dtype(), g.Shape()[0]
	shift := G.NewMatrix(gr, dt, G.WithShape(n, n), G.WithName("tour.shift"), G.WithValue(constTensor(dt, []int{n, n}, cyclicShift(n))))
	eye, off := diagMasks(b, n)
	eyeN := G.NewTensor(gr, dt, 3, G.WithShape(b, n, n), G.WithName("tour.eye"), G.WithValue(constTensor(dt, []int{b, n, n}, eye)))
	offN := G.NewTensor(gr, dt, 3, G.WithShape(b, n, n), G.WithName("tour.off"), G.WithValue(constTensor(dt, []int{b, n, n}, off)))
	inv := G.NewScalar(gr, dt, G.WithName("tour.inv"), G.WithValue(constScalar(dt, 1/float64(n-1))))
	offG, err := G.HadamardProd(g, offN)
	if err != nil {
		return nil, err
	}
	rowSum, err := G.Sum(offG, 2)
	if err != nil {
		return nil, err
	}
	rowMean, err := G.Mul(rowSum, inv) // (B, N): each city's mean weight over the others
	if err != nil {
		return nil, err
	}
	qs := make([]*G.Node, len(acts))
	for i, act := range acts {
		flat, err := G.Reshape(act, []int{b * n, n})
		if err != nil {
			return nil, err
		}
		next, err := G.Mul(flat, shift) // (A S)_ij = A_i,j-1: the city before place j
		if err != nil {
			return nil, err
		}
		if next, err = G.Reshape(next, []int{b, n, n}); err != nil {
			return nil, err
		}
		adj, err := G.BatchedMatMul(next, act, false, true) // (A S A^T)_ik
		if err != nil {
			return nil, err
		}
		self, err := G.HadamardProd(adj, eyeN)
		if err != nil {
			return nil, err
		}
		selfMass, err := G.Sum(self, 2) // (B, N): (A S A^T)_ii
		if err != nil {
			return nil, err
		}
		selfQ, err := G.HadamardProd(selfMass, rowMean)
		if err != nil {
			return nil, err
		}
		edgeQ, err := layers.Inner(adj, offG)
		if err != nil {
			return nil, err
		}
		selfSum, err := G.Sum(selfQ, 1)
		if err != nil {
			return nil, err
		}
		if qs[i], err = G.Add(edgeQ, selfSum); err != nil {
			return nil, err
		}
	}
	return qs, nil
}

// diagMasks are b copies of the n x n identity and of its complement, row-major.
func diagMasks(b, n int) (eye, off []float64) {
	eye, off = make([]float64, b*n*n), make([]float64, b*n*n)
	for s := range b {
		for i := range n {
			for k := range n {
				if i == k {
					eye[(s*n+i)*n+k] = 1
				} else {
					off[(s*n+i)*n+k] = 1
				}
			}
		}
	}
	return eye, off
}

// cyclicShift is S (n x n, row-major) with S_j,(j+1) mod n = 1.
func cyclicShift(n int) []float64 {
	s := make([]float64, n*n)
	for j := range n {
		s[j*n+(j+1)%n] = 1
	}
	return s
}

// constTensor is a tensor of dtype dt (float32 or float64) holding v, for constant inputs.
func constTensor(dt tensor.Dtype, shape []int, v []float64) *tensor.Dense {
	if dt == tensor.Float32 {
		v32 := make([]float32, len(v))
		for i, x := range v {
			v32[i] = float32(x)
		}
		return tensor.New(tensor.WithShape(shape...), tensor.WithBacking(v32))
	}
	return tensor.New(tensor.WithShape(shape...), tensor.WithBacking(v))
}

// constScalar is v as a scalar of dtype dt (float32 or float64).
func constScalar(dt tensor.Dtype, v float64) any {
	if dt == tensor.Float32 {
		return float32(v)
	}
	return v
}
