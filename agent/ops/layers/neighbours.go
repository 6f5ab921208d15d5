package layers

import (
	"fmt"

	G "gorgonia.org/gorgonia"
	"gorgonia.org/tensor"

	"spg-tui/agent/ops"
)

// NeighbourMeans gives, for pair embeddings h (B, N, N, H) and pair features f (B, N, N, W), each
// node's means over its candidate pairs, (B, N, 2H):
//
//	out[b, i, :H] = mean over j in C_b(i) of h[b, i, j],  out[b, i, H:] = mean over j with i in C_b(j) of h[b, j, i],
//
// where (i, j) is a candidate, j in C_b(i), when j != i and one of the pair's features at the
// columns near is below 1, their cap (BarFar's candidate graph, the same test). It is one round of messages over
// the candidate graph: what a city's outgoing and incoming pairs look like, averaged so that it
// does not grow with N. A node with no candidate pair gets zeros. f is data: no gradient flows
// into it.
func NeighbourMeans(h, f *G.Node, near []int) (*G.Node, error) {
	if h != nil && h.Dtype() == tensor.Float32 {
		return ops.Apply(&neighbourMeans[float32]{near: near}, h, f)
	}
	return ops.Apply(&neighbourMeans[float64]{near: near}, h, f)
}

// neighbourMeans is the ops.Kernel of a NeighbourMeans node.
type neighbourMeans[T ops.Float] struct{ near []int }

func (k *neighbourMeans[T]) Name() string { return "NeighbourMeans" }

func (k *neighbourMeans[T]) OutShape(in []tensor.Shape) (tensor.Shape, error) {
	if len(in) != 2 || in[0].Dims() != 4 || in[0][1] != in[0][2] || in[1].Dims() != 4 ||
		in[1][0] != in[0][0] || in[1][1] != in[0][1] || in[1][2] != in[0][2] {
		return nil, fmt.Errorf("input shapes %v, want (B, N, N, H) and (B, N, N, W)", in)
	}
	for _, c := range k.near {
		if c < 0 || c >= in[1][3] {
			return nil, fmt.Errorf("feature %d of %d", c, in[1][3])
		}
	}
	return tensor.Shape{in[0][0], in[0][1], 2 * in[0][3]}, nil
}

func (k *neighbourMeans[T]) Differentiable(i int) bool { return i == 0 }

func (k *neighbourMeans[T]) Forward(in []*tensor.Dense, out *tensor.Dense) error {
	s := in[0].Shape()
	b, n, w := s[0], s[1], s[3]
	h, o := ops.Data[T](in[0]), ops.Data[T](out)
	cand, rows, cols := k.graph(ops.Data[T](in[1]), b, n)
	rowBlocks(b*n, n*w, func(_, lo, hi int) {
		for r := lo; r < hi; r++ { // r = b n + i
			bi, i := r/n, r%n
			from, to := o[r*2*w:][:w], o[r*2*w+w:][:w] // the means out of i and into i
			clear(from)
			clear(to)
			for j := range n {
				if cand[r*n+j] {
					addTo(from, h[(r*n+j)*w:][:w])
				}
				if p := (bi*n+j)*n + i; cand[p] {
					addTo(to, h[p*w:][:w])
				}
			}
			scaleBy(from, rows[r])
			scaleBy(to, cols[r])
		}
	})
	return nil
}

// Backward spreads each node's mean gradient over the pairs it averaged: pair (i, j) of a
// candidate graph gets dOut[i, :H] / |C(i)| + dOut[j, H:] / |{k: j in C(k)}|.
func (k *neighbourMeans[T]) Backward(in []*tensor.Dense, _, dOut *tensor.Dense, dIn []*tensor.Dense) error {
	s := in[0].Shape()
	b, n, w := s[0], s[1], s[3]
	g, dh := ops.Data[T](dOut), ops.Data[T](dIn[0])
	cand, rows, cols := k.graph(ops.Data[T](in[1]), b, n)
	rowBlocks(b*n, n*w, func(_, lo, hi int) {
		for r := lo; r < hi; r++ {
			bi := r / n
			gOut := g[r*2*w:][:w]
			for j := range n {
				d := dh[(r*n+j)*w:][:w]
				if !cand[r*n+j] {
					clear(d)
					continue
				}
				c := bi*n + j
				gIn, ro, co := g[c*2*w+w:][:w], rows[r], cols[c]
				for q := range d {
					d[q] = gOut[q]*ro + gIn[q]*co
				}
			}
		}
	})
	return nil
}

// graph gives the candidate pairs of features f (B N N of them), and each node's reciprocal
// counts of candidate pairs out of it and into it (0 where it has none).
func (k *neighbourMeans[T]) graph(f []T, b, n int) (cand []bool, rows, cols []T) {
	cand = make([]bool, b*n*n)
	w := len(f) / len(cand)
	rows, cols = make([]T, b*n), make([]T, b*n)
	rowBlocks(b*n, n*w, func(_, lo, hi int) {
		for r := lo; r < hi; r++ {
			outs := 0
			for j := range n {
				if p := r*n + j; j != r%n && candidate(f[p*w:][:w], k.near) {
					cand[p] = true
					outs++
				}
			}
			rows[r] = reciprocal[T](outs)
		}
	})
	rowBlocks(b*n, n, func(_, lo, hi int) {
		for r := lo; r < hi; r++ {
			base, ins := r-r%n, 0
			for j := range n {
				if cand[(base+j)*n+r%n] {
					ins++
				}
			}
			cols[r] = reciprocal[T](ins)
		}
	})
	return cand, rows, cols
}

// reciprocal is 1/c, or 0 for a count of 0.
func reciprocal[T ops.Float](c int) T {
	if c == 0 {
		return 0
	}
	return 1 / T(c)
}

// addTo adds src to dst, element by element.
func addTo[T ops.Float](dst, src []T) {
	src = src[:len(dst)]
	for q := range dst {
		dst[q] += src[q]
	}
}

// scaleBy multiplies dst by a.
func scaleBy[T ops.Float](dst []T, a T) {
	for q := range dst {
		dst[q] *= a
	}
}

// AddNodeTerms gives act(z[b, i, j] + t[b, i, :H] + t[b, j, H:]) for pair pre-activations z
// (B, N, N, H) and node terms t (B, N, 2H): each pair's layer sees both its cities' messages
// (NeighbourMeans under a dense layer) at the cost of a node's, not a pair's, product.
func AddNodeTerms(z, t *G.Node, act Activation) (*G.Node, error) {
	if !act.valid() {
		return nil, fmt.Errorf("layers: activation %v", act)
	}
	if z != nil && z.Dtype() == tensor.Float32 {
		return ops.Apply(&addNodeTerms[float32]{act: act}, z, t)
	}
	return ops.Apply(&addNodeTerms[float64]{act: act}, z, t)
}

// addNodeTerms is the ops.Kernel of an AddNodeTerms node.
type addNodeTerms[T ops.Float] struct{ act Activation }

func (k *addNodeTerms[T]) Name() string { return "AddNodeTerms" }

func (k *addNodeTerms[T]) OutShape(in []tensor.Shape) (tensor.Shape, error) {
	if len(in) != 2 || in[0].Dims() != 4 || in[0][1] != in[0][2] || in[1].Dims() != 3 ||
		in[1][0] != in[0][0] || in[1][1] != in[0][1] || in[1][2] != 2*in[0][3] {
		return nil, fmt.Errorf("input shapes %v, want (B, N, N, H) and (B, N, 2H)", in)
	}
	return in[0].Clone(), nil
}

func (k *addNodeTerms[T]) Differentiable(int) bool { return true }

func (k *addNodeTerms[T]) Forward(in []*tensor.Dense, out *tensor.Dense) error {
	s := in[0].Shape()
	n, w := s[1], s[3]
	z, t, y := ops.Data[T](in[0]), ops.Data[T](in[1]), ops.Data[T](out)
	rowBlocks(s[0]*n, n*w, func(_, lo, hi int) {
		for r := lo; r < hi; r++ {
			ti, base := t[r*2*w:][:w], r-r%n
			for j := range n {
				tj := t[(base+j)*2*w+w:][:w]
				zp, yp := z[(r*n+j)*w:][:w], y[(r*n+j)*w:][:w]
				for q := range yp {
					yp[q] = zp[q] + ti[q] + tj[q]
				}
			}
			activate(k.act, y[r*n*w:][:n*w])
		}
	})
	return nil
}

// Backward writes the pre-activation gradient as z's, then sums it over each node's row into
// t[:, :, :H] and over its column into t[:, :, H:].
func (k *addNodeTerms[T]) Backward(_ []*tensor.Dense, out, dOut *tensor.Dense, dIn []*tensor.Dense) error {
	s := out.Shape()
	b, n, w := s[0], s[1], s[3]
	pre, dt := ops.Data[T](dIn[0]), ops.Data[T](dIn[1])
	dy, y := ops.Data[T](dOut), ops.Data[T](out)
	rowBlocks(b*n, n*w, func(_, lo, hi int) {
		activationGrad(k.act, pre[lo*n*w:hi*n*w], dy[lo*n*w:], y[lo*n*w:])
	})
	rowBlocks(b*n, n*w, func(_, lo, hi int) {
		for r := lo; r < hi; r++ {
			bi, i := r/n, r%n
			row, col := dt[r*2*w:][:w], dt[r*2*w+w:][:w]
			clear(row)
			clear(col)
			for j := range n {
				addTo(row, pre[(r*n+j)*w:][:w])
				addTo(col, pre[((bi*n+j)*n+i)*w:][:w])
			}
		}
	})
	return nil
}
