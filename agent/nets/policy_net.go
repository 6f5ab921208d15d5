package nets

import (
	"math"
	"math/rand/v2"

	"gonum.org/v1/gonum/blas"

	"spg-tui/linalg/backend"
	"spg-tui/linalg/lstm"
	"spg-tui/linalg/pointer"
)

// logitClip is C of Bello et al. (2016)'s logit clipping, C tanh(u), used by every critic-free
// model (the paper's appendix: AC+Matching's l_t = C tanh(h_t W_p + b_p) with C = 10; the
// authors' PN-AC code likewise).
const logitClip = 10

// policyNets builds the networks of each critic-free model of run.Models, by name, for n items of
// k input features with hidden width h. Each model's file registers its own.
var policyNets = map[string]func(n, h, k int) PolicyNet[float32]{}

// registerPolicyNet makes the critic-free model called name buildable; its file calls it once.
func registerPolicyNet(name string, build func(n, h, k int) PolicyNet[float32]) {
	if _, dup := policyNets[name]; dup {
		panic("nets: model " + name + " registered twice")
	}
	policyNets[name] = build
}

// NewPolicyNet returns the policy network of the critic-free model called model, for n items of
// k input features with hidden width h; ok is false for a model without one.
func NewPolicyNet(model string, n, h, k int) (net PolicyNet[float32], ok bool) {
	build, ok := policyNets[model]
	if !ok {
		return nil, false
	}
	return build(n, h, k), true
}

// PolicyNet is a critic-free policy network that builds a permutation one step at a time: step t
// chooses one element among those not chosen before. Its methods take the parameters as flat
// slices in specs order, so that one network type serves float32 training and float64 gradient
// checks. A network keeps the buffers of its last LogProbs call for Backward; it must not be
// used concurrently.
type PolicyNet[F lstm.Float] interface {
	// Specs describes the parameters, in the order of w.
	Specs() []ParamSpec
	// Decode chooses an action sequence (n elements) for each of b featurised states, into
	// actions (b x n): sampled from the policy with rng, or greedy (the most probable free
	// element at each step) when rng is nil.
	Decode(w [][]F, states []F, b int, rng *rand.Rand, actions []int)
	// LogProbs writes, for each of the b states, the log-probability of its action sequence
	// under the policy (teacher forcing), keeping what backward needs.
	LogProbs(w [][]F, states []F, b int, actions []int, logp []F)
	// Backward adds into grads (shaped as w) the gradient of sum_i dlogp[i] logp[i] for the last
	// LogProbs call.
	Backward(w [][]F, dlogp []F, grads [][]F)
	// ToPerm turns one action sequence into the task's permutation convention.
	ToPerm(actions, perm []int)
}

// choose picks an element from one step's policy p: a draw from rng, or the most probable (the
// first of equals) when rng is nil. Used elements have probability 0 and are never chosen.
func choose[F lstm.Float](p []F, rng *rand.Rand) int {
	best := -1
	if rng == nil {
		for j, v := range p {
			if v > 0 && (best < 0 || v > p[best]) {
				best = j
			}
		}
		return best
	}
	r, cum := rng.Float64(), 0.0
	for j, v := range p {
		if v > 0 {
			best = j
			cum += float64(v)
			if r < cum {
				return j
			}
		}
	}
	return best // r beyond the rounded total: the last free element
}

// decodeRows completes one decoding step for every row: the policy over the scores u (b x n)
// with the rows' used elements masked, an element chosen per row into actions[row*n+t], marked
// used. probs is scratch of length n.
func decodeRows[F lstm.Float](u []F, used []bool, b, n, t int, rng *rand.Rand, actions []int, probs []F) {
	for r := range b {
		pointer.RowProbs(u[r*n:(r+1)*n], used[r*n:(r+1)*n], logitClip, probs)
		a := choose(probs, rng)
		actions[r*n+t] = a
		used[r*n+a] = true
	}
}

// linear writes y (rows x out) = x (rows x in) W (in x out) + b; b may be nil.
func linear[F lstm.Float](rows, in, out int, x, w, b, y []F) {
	backend.Gemm(blas.NoTrans, blas.NoTrans, rows, out, in, 1, x, in, w, out, 0, y, out)
	if b != nil {
		for r := range rows {
			yr := y[r*out : (r+1)*out]
			for j := range yr {
				yr[j] += b[j]
			}
		}
	}
}

// linearBackward adds dW += x^T dy and db += the column sums of dy (db may be nil), and, when
// dx is not nil, adds dy W^T into dx.
func linearBackward[F lstm.Float](rows, in, out int, x, w, dy, dx, dw, db []F) {
	backend.Gemm(blas.Trans, blas.NoTrans, in, out, rows, 1, x, in, dy, out, 1, dw, out)
	if db != nil {
		for r := range rows {
			for j, v := range dy[r*out : (r+1)*out] {
				db[j] += v
			}
		}
	}
	if dx != nil {
		backend.Gemm(blas.NoTrans, blas.Trans, rows, in, out, 1, dy, out, w, out, 1, dx, in)
	}
}

// lstmSpecs are nn.LSTM(in, h)'s four tensors in PyTorch's layout and initialisation (uniform
// in +-1/sqrt(h)): weight_ih (4h x in), weight_hh (4h x h), bias_ih and bias_hh (4h).
func lstmSpecs(name string, in, h int) []ParamSpec {
	bound := 1 / math.Sqrt(float64(h))
	return []ParamSpec{
		{Name: name + ".Wih", Shape: []int{4 * h, in}, Bound: bound},
		{Name: name + ".Whh", Shape: []int{4 * h, h}, Bound: bound},
		{Name: name + ".bih", Shape: []int{4 * h}, Bound: bound},
		{Name: name + ".bhh", Shape: []int{4 * h}, Bound: bound},
	}
}

// grow returns s resized to n elements, reusing its storage when large enough. The contents are
// not preserved.
func grow[T any](s []T, n int) []T {
	if cap(s) < n {
		return make([]T, n)
	}
	return s[:n]
}
