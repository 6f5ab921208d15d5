package pairops

import (
	"fmt"
	"math"

	G "gorgonia.org/gorgonia"
	"gorgonia.org/tensor"

	"spg-tui/agent/ops"
	"spg-tui/linalg/parallel"
)

// ClosedWalks adds, for adjacency matrices a (B, N, N), each node's closed-walk counts
// diag(A^k) for k = 2..maxLen, (B, N, maxLen-1), each length standardised over its graph's
// nodes (mean 0, standard deviation 1; 0 where all nodes count the same). They tell apart nodes
// that message passing from degrees cannot: every node of a regular graph has the same degree
// and the same neighbour means, but not the same cycles through it. The standardising is per
// graph, so relabelling a graph's nodes permutes its rows and nothing else. a is data: no
// gradient flows back into it.
func ClosedWalks(a *G.Node, maxLen int) (*G.Node, error) {
	if maxLen < 2 {
		return nil, fmt.Errorf("ClosedWalks: walk length %d, want at least 2", maxLen)
	}
	if a != nil && a.Dtype() == tensor.Float32 {
		return ops.Apply(&closedWalks[float32]{maxLen: maxLen}, a)
	}
	return ops.Apply(&closedWalks[float64]{maxLen: maxLen}, a)
}

// closedWalks is the ops.Kernel of a ClosedWalks node; work holds each worker's scratch, kept from
// pass to pass.
type closedWalks[T ops.Float] struct {
	maxLen int
	work   []walkScratch
}

// walkScratch is one worker's buffers for one graph: the walk counts of the current and next
// length, the neighbour lists, one length's counts and halfPowers' powers of A.
type walkScratch struct {
	walks, next, counts []float64
	nbrs                [][]int
	powers              [][]float64 // A, A^2, ... for halfPowers
}

func (k *closedWalks[T]) Name() string { return fmt.Sprintf("ClosedWalks(%d)", k.maxLen) }

func (k *closedWalks[T]) OutShape(in []tensor.Shape) (tensor.Shape, error) {
	if len(in) != 1 || in[0].Dims() != 3 || in[0][1] != in[0][2] {
		return nil, fmt.Errorf("input shape %v, want (B, N, N)", in)
	}
	return tensor.Shape{in[0][0], in[0][1], k.maxLen - 1}, nil
}

func (k *closedWalks[T]) Differentiable(int) bool { return false }

// Forward counts walks in float64, exactly while they stay below 2^53, multiplying by A
// through neighbour lists: the graphs are sparse and the work is N^2 times the degree per
// length. The graphs are split over the cores; the counts are exact integers, so they do not
// depend on the split.
func (k *closedWalks[T]) Forward(in []*tensor.Dense, out *tensor.Dense) error {
	s := in[0].Shape()
	b, n := s[0], s[1]
	x, y := ops.Data[T](in[0]), ops.Data[T](out)
	workers := parallel.Workers(b)
	for len(k.work) < workers {
		k.work = append(k.work, walkScratch{
			walks: make([]float64, n*n), next: make([]float64, n*n), counts: make([]float64, n), nbrs: make([][]int, n),
		})
	}
	parallel.For(b, func(worker, lo, hi int) {
		for g := lo; g < hi; g++ {
			k.graph(&k.work[worker], x[g*n*n:][:n*n], y[g*n*(k.maxLen-1):][:n*(k.maxLen-1)], n)
		}
	})
	return nil
}

// graph writes the standardised counts of adjacency matrix a (n x n) into dst (n x maxLen-1).
func (k *closedWalks[T]) graph(ws *walkScratch, a, dst []T, n int) {
	listNeighbours(ws.nbrs, a, n)
	if !k.halfPowers(ws, a, dst, n) {
		k.allPowers(ws, a, dst, n)
	}
}

// listNeighbours lists the nonzero columns of each row of a (n x n) in nbrs.
func listNeighbours[T ops.Float](nbrs [][]int, a []T, n int) {
	for i := range n {
		nbrs[i] = nbrs[i][:0]
		for j, v := range a[i*n : (i+1)*n] {
			if v != 0 {
				nbrs[i] = append(nbrs[i], j)
			}
		}
	}
}

// allPowers writes graph's counts into dst by multiplying by A once per length, for any a.
func (k *closedWalks[T]) allPowers(ws *walkScratch, a, dst []T, n int) {
	w := k.maxLen - 1
	walks, next, nbrs, counts := ws.walks, ws.next, ws.nbrs, ws.counts
	for i := range walks {
		walks[i] = float64(a[i])
	}
	for c := range w {
		// next = walks A: (walks A)_ij sums walks_il over j's neighbours l.
		for i := range n {
			row, nrow := walks[i*n:(i+1)*n], next[i*n:(i+1)*n]
			for j := range n {
				var v float64
				for _, l := range nbrs[j] {
					v += row[l]
				}
				nrow[j] = v
			}
		}
		walks, next = next, walks
		for i := range n {
			counts[i] = walks[i*n+i]
		}
		standardise(counts)
		for i, v := range counts {
			dst[i*w+c] = T(v)
		}
	}
}

// halfPowers writes graph's counts into dst as graph does, and reports whether it could: where
// a is a symmetric 0/1 matrix (every gm state is) whose counts stay exact, it multiplies by A
// only up to A^h, h = ceil(maxLen/2), and reads diag(A^k) as the row dot products of A^p and
// A^(k-p), p = ceil(k/2): three sparse products and seven n² dots at maxLen 8 instead of seven
// products, the largest cost of spg-gm's step at N = 50 after the GEMMs and Sinkhorn. Every
// count is the same integer computed exactly, so the features are the same bits.
func (k *closedWalks[T]) halfPowers(ws *walkScratch, a, dst []T, n int) bool {
	deg := 0
	for i := range n {
		for j := range n {
			v := a[i*n+j]
			if (v != 0 && v != 1) || v != a[j*n+i] || (v == 0 && math.Signbit(float64(v))) {
				return false
			}
		}
		deg = max(deg, len(ws.nbrs[i]))
	}
	// A closed walk of length k counts at most deg^(k-1), so every partial sum below stays
	// under deg^maxLen: below 2^53 it is exact whatever the order of the additions.
	if math.Pow(float64(deg), float64(k.maxLen)) >= 1<<53 {
		return false
	}
	h := (k.maxLen + 1) / 2
	for len(ws.powers) < h {
		ws.powers = append(ws.powers, make([]float64, n*n))
	}
	pw := ws.powers[:h] // pw[p-1] = A^p
	for i, v := range a {
		pw[0][i] = float64(v)
	}
	for p := 1; p < h; p++ {
		prev, cur := pw[p-1], pw[p]
		for i := range n {
			row, crow := prev[i*n:(i+1)*n], cur[i*n:(i+1)*n]
			for j := range n {
				var v float64
				for _, l := range ws.nbrs[j] {
					v += row[l]
				}
				crow[j] = v
			}
		}
	}
	w, counts := k.maxLen-1, ws.counts
	for c := range w {
		kk := c + 2
		p := (kk + 1) / 2
		left, right := pw[p-1], pw[kk-p-1]
		for i := range n {
			var v float64
			for j, x := range left[i*n : (i+1)*n] {
				v += x * right[i*n+j]
			}
			counts[i] = v
		}
		standardise(counts)
		for i, v := range counts {
			dst[i*w+c] = T(v)
		}
	}
	return true
}

// standardise shifts and scales v to mean 0 and standard deviation 1, or sets it to 0 where its
// values are equal.
func standardise(v []float64) {
	var mean, ss float64
	for _, x := range v {
		mean += x
	}
	mean /= float64(len(v))
	for _, x := range v {
		ss += (x - mean) * (x - mean)
	}
	sd := math.Sqrt(ss / float64(len(v)))
	for i, x := range v {
		if sd > 1e-9*math.Abs(mean) {
			v[i] = (x - mean) / sd
		} else {
			v[i] = 0
		}
	}
}

func (k *closedWalks[T]) Backward([]*tensor.Dense, *tensor.Dense, *tensor.Dense, []*tensor.Dense) error {
	return nil // a is data: Differentiable is false, so there is no gradient to write
}
