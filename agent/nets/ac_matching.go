package nets

import (
	"math/rand/v2"

	"spg-tui/linalg/lstm"
	"spg-tui/linalg/pointer"
	"spg-tui/run"
)

// Parameter indices of acMatching, in specs order.
const (
	acEmbW = iota
	acEmbB
	acWih
	acWhh
	acBih
	acBhh
	acOutW
	acOutB
)

// acMatching is the appendix's AC+Matching: SPG+Matching's shared dual embedding (matchEmbed),
// an LSTM over the N rows of E = E2 E1^T (one per point of B), and per row t the logits
// l_t = C tanh(h_t W_p + b_p) with C = 10 over the N points of A, masked so that no point of A is
// taken twice; row t's choice is the point of A matched to B[t]. Trained, like PN-AC, by
// REINFORCE against an exponential-moving-average baseline (agent's REINFORCE learner). The logits do not
// depend on earlier choices, only the mask does.
type acMatching[F lstm.Float] struct {
	n, h, k int
	me      matchEmbed[F]
	b       int
	hs      []F // the LSTM's outputs (b, n, h)
	saved   []F
	u       []F // h W_p + b_p, (b, n, n)
	actions []int
	lp      []F
	probs   []F
}

func newACMatching[F lstm.Float](n, h, k int) *acMatching[F] {
	return &acMatching[F]{n: n, h: h, k: k, me: matchEmbed[F]{n: n, h: h, k: k}}
}

func (a *acMatching[F]) Specs() []ParamSpec {
	s := linearSpecs("emb", a.k, a.h, true)
	s = append(s, lstmSpecs("lstm", a.n, a.h)...)
	return append(s, linearSpecs("out", a.h, a.n, true)...)
}

// scores runs the network on b states up to u = h W_p + b_p.
func (a *acMatching[F]) scores(w [][]F, states []F, b int) {
	n, h := a.n, a.h
	a.b = b
	a.me.forward(w[acEmbW], w[acEmbB], states, b)
	d := lstm.Dims{B: b, T: n, I: n, H: h}
	a.hs, a.saved = grow(a.hs, b*n*h), grow(a.saved, lstm.SavedLen(d))
	lstm.Forward(d, a.hs, nil, a.me.e, nil, nil, w[acWih], w[acWhh], w[acBih], w[acBhh], a.saved)
	a.u = grow(a.u, b*n*n)
	linear(b*n, h, n, a.hs, w[acOutW], w[acOutB], a.u)
}

func (a *acMatching[F]) Decode(w [][]F, states []F, b int, rng *rand.Rand, actions []int) {
	a.scores(w, states, b)
	n := a.n
	ut, probs, used := make([]F, b*n), make([]F, n), make([]bool, b*n)
	for t := range n {
		for r := range b {
			copy(ut[r*n:(r+1)*n], a.u[(r*n+t)*n:])
		}
		decodeRows(ut, used, b, n, t, rng, actions, probs)
	}
}

func (a *acMatching[F]) LogProbs(w [][]F, states []F, b int, actions []int, logp []F) {
	a.scores(w, states, b)
	n := a.n
	a.actions = append(a.actions[:0], actions[:b*n]...)
	a.lp, a.probs = grow(a.lp, b*n), grow(a.probs, b*n*n)
	pointer.LogProbs(pointer.Dims{B: b, T: n, N: n}, a.u, logitClip, a.actions, a.lp, a.probs)
	sumRows(a.lp, b, n, logp)
}

func (a *acMatching[F]) Backward(w [][]F, dlogp []F, grads [][]F) {
	b, n, h := a.b, a.n, a.h
	du := make([]F, b*n*n)
	pointer.LogProbsBackward(pointer.Dims{B: b, T: n, N: n}, spreadRows(dlogp, b, n), a.u, logitClip, a.actions, a.probs, du)
	dhs := make([]F, b*n*h)
	linearBackward(b*n, h, n, a.hs, w[acOutW], du, dhs, grads[acOutW], grads[acOutB])
	d := lstm.Dims{B: b, T: n, I: n, H: h}
	de := make([]F, b*n*n)
	lstm.Backward(d, dhs, nil, a.me.e, w[acWih], w[acWhh], a.saved, de, nil, nil,
		grads[acWih], grads[acWhh], grads[acBih], grads[acBhh], make([]F, lstm.WorkLen(d)))
	a.me.gradBuffer()
	a.me.backward(w[acEmbW], de, grads[acEmbW], grads[acEmbB])
}

// ToPerm implements PolicyNet: row t (B[t]) chose a point of A, so the actions are the rounded
// action's rowToCol and the matching is its inverse, as for SPG+Matching.
func (a *acMatching[F]) ToPerm(actions, perm []int) { ActionToPerm(actions, perm) }

func init() {
	registerPolicyNet(run.ModelACMatching, func(n, h, k int) PolicyNet[float32] {
		return newACMatching[float32](n, h, k)
	})
}
