package nets

import (
	"math"
	"math/rand/v2"

	"spg-tui/linalg/lstm"
	"spg-tui/linalg/pointer"
	"spg-tui/run"
)

// The pointer network's two registrations: pn-ac, Bello et al. (2016)'s pointer network trained by
// REINFORCE against a moving-average baseline, for sort and tsp (agent's REINFORCE learner; its
// hyperparameters are run.Models' entry), and pn-ac-matching, PN-AC over SPG+Matching's shared
// dual embedding, for mwm (the appendix's PN-AC+Matching).
func init() {
	registerPolicyNet(run.ModelPNAC, func(n, h, k int) PolicyNet[float32] {
		return newPointerNet[float32](n, h, k, false)
	})
	registerPolicyNet(run.ModelPNACMatching, func(n, h, k int) PolicyNet[float32] {
		return newPointerNet[float32](n, h, k, true)
	})
}

// Parameter indices of a pointerNet, in specs order.
const (
	pnEmbW = iota
	pnEmbB
	pnEncWih
	pnEncWhh
	pnEncBih
	pnEncBhh
	pnDecWih
	pnDecWhh
	pnDecBih
	pnDecBhh
	pnStart
	pnRef
	pnQuery
	pnV
)

// pointerNet is the pointer network of Bello et al. (2016), "Neural combinatorial optimization
// with reinforcement learning", section 3 (after Vinyals et al. 2015), as the SPG paper's
// appendix describes PN-AC: an LSTM encoder over the embedded input elements, an LSTM decoder
// started from the encoder's final state whose input at step t is the embedding of the element
// chosen at step t-1 (a trained vector g at step 0), and additive attention that points at the
// encoder outputs, u_j = v . tanh(Wref enc_j + Wq dec_t), clipped to 10 tanh(u) and masked so
// that nothing is chosen twice. No glimpse (Bello et al.'s optional glimpse is not used), no
// biases in the attention, hidden width h throughout.
//
// With matching set it is PN-AC+Matching (the appendix): SPG+Matching's shared dual embedding
// (matchEmbed), the encoder runs over the N rows of E = E2 E1^T (one per point of B), step t
// chooses the point of B matched to A[t], and the decoder input at step t >= 1 is the
// concatenation (2h wide) of E1[t-1] and the E2 row of the B point chosen at step t-1 (the
// appendix: "the i-th element of E2 is concatenated with the t-th element of E1 to use as the
// input to the decoder at the next time step"); at step 0 it is a trained g, 2h wide.
type pointerNet[F lstm.Float] struct {
	n, h, k  int
	matching bool

	me      matchEmbed[F] // PN-AC+Matching's embedding
	b       int
	x, emb  []F // PN-AC's states and embedding (b, n, h)
	encIn   []F // the encoder's input: emb, or E for matching
	enc     []F // (b, n, h)
	encSave []F
	hT, cT  []F // the encoder's final state (b, h)
	ref     []F // enc Wref (b, n, h)
	actions []int
	din     []F // decoder inputs (b, n, decIn)
	dec     []F // (b, n, h)
	decSave []F
	q, u    []F // dec Wq (b, n, h); scores (b, n, n)
	lp      []F // per-step log-probabilities (b, n)
	probs   []F // (b, n, n)
}

// newPointerNet returns PN-AC (or with matching, PN-AC+Matching) for n elements of k features,
// hidden width h.
func newPointerNet[F lstm.Float](n, h, k int, matching bool) *pointerNet[F] {
	p := &pointerNet[F]{n: n, h: h, k: k, matching: matching}
	p.me = matchEmbed[F]{n: n, h: h, k: k}
	return p
}

// encWidth and decWidth are the encoder's and the decoder's input widths.
func (p *pointerNet[F]) encWidth() int {
	if p.matching {
		return p.n
	}
	return p.h
}

func (p *pointerNet[F]) decWidth() int {
	if p.matching {
		return 2 * p.h
	}
	return p.h
}

func (p *pointerNet[F]) Specs() []ParamSpec {
	bound := 1 / math.Sqrt(float64(p.h))
	s := linearSpecs("emb", p.k, p.h, true)
	s = append(s, lstmSpecs("enc", p.encWidth(), p.h)...)
	s = append(s, lstmSpecs("dec", p.decWidth(), p.h)...)
	return append(s,
		ParamSpec{Name: "start", Shape: []int{p.decWidth()}, Bound: bound},
		ParamSpec{Name: "ptr.Wref", Shape: []int{p.h, p.h}, Bound: bound},
		ParamSpec{Name: "ptr.Wq", Shape: []int{p.h, p.h}, Bound: bound},
		ParamSpec{Name: "ptr.v", Shape: []int{p.h}, Bound: bound})
}

// encode embeds b states, runs the encoder and projects its outputs for the attention.
func (p *pointerNet[F]) encode(w [][]F, states []F, b int) {
	n, h, k := p.n, p.h, p.k
	p.b = b
	if p.matching {
		p.me.forward(w[pnEmbW], w[pnEmbB], states, b)
		p.encIn = p.me.e
	} else {
		p.x, p.emb = states[:b*n*k], grow(p.emb, b*n*h)
		linear(b*n, k, h, p.x, w[pnEmbW], w[pnEmbB], p.emb)
		p.encIn = p.emb
	}
	d := lstm.Dims{B: b, T: n, I: p.encWidth(), H: h}
	p.enc, p.encSave = grow(p.enc, b*n*h), grow(p.encSave, lstm.SavedLen(d))
	p.hT, p.cT = grow(p.hT, b*h), grow(p.cT, b*h)
	lstm.Forward(d, p.enc, p.cT, p.encIn, nil, nil, w[pnEncWih], w[pnEncWhh], w[pnEncBih], w[pnEncBhh], p.encSave)
	for bi := range b {
		copy(p.hT[bi*h:(bi+1)*h], p.enc[(bi*n+n-1)*h:])
	}
	p.ref = grow(p.ref, b*n*h)
	linear(b*n, h, h, p.enc, w[pnRef], nil, p.ref)
}

// decInput writes state bi's decoder input at step t into dst, given the element chosen at step
// t-1 (prev, -1 at step 0).
func (p *pointerNet[F]) decInput(w [][]F, bi, t, prev int, dst []F) {
	h := p.h
	switch {
	case prev < 0:
		copy(dst, w[pnStart])
	case p.matching:
		copy(dst[:h], p.me.e1(bi)[(t-1)*h:t*h])
		copy(dst[h:], p.me.e2(bi)[prev*h:(prev+1)*h])
	default:
		copy(dst, p.emb[(bi*p.n+prev)*h:(bi*p.n+prev+1)*h])
	}
}

func (p *pointerNet[F]) Decode(w [][]F, states []F, b int, rng *rand.Rand, actions []int) {
	p.encode(w, states, b)
	n, h, di := p.n, p.h, p.decWidth()
	d := lstm.Dims{B: b, T: 1, I: di, H: h}
	in, saved := make([]F, b*di), make([]F, lstm.SavedLen(d))
	hs, cs := append([]F(nil), p.hT...), append([]F(nil), p.cT...)
	hn, cn := make([]F, b*h), make([]F, b*h)
	q, u, probs, used := make([]F, b*h), make([]F, b*n), make([]F, n), make([]bool, b*n)
	for t := range n {
		for bi := range b {
			prev := -1
			if t > 0 {
				prev = actions[bi*n+t-1]
			}
			p.decInput(w, bi, t, prev, in[bi*di:(bi+1)*di])
		}
		lstm.Forward(d, hn, cn, in, hs, cs, w[pnDecWih], w[pnDecWhh], w[pnDecBih], w[pnDecBhh], saved)
		linear(b, h, h, hn, w[pnQuery], nil, q)
		pointer.Scores(pointer.Dims{B: b, T: 1, N: n, H: h}, p.ref, q, w[pnV], u)
		decodeRows(u, used, b, n, t, rng, actions, probs)
		hs, hn, cs, cn = hn, hs, cn, cs
	}
}

func (p *pointerNet[F]) LogProbs(w [][]F, states []F, b int, actions []int, logp []F) {
	p.encode(w, states, b)
	n, h, di := p.n, p.h, p.decWidth()
	p.actions = append(p.actions[:0], actions[:b*n]...)
	p.din = grow(p.din, b*n*di)
	for bi := range b {
		for t := range n {
			prev := -1
			if t > 0 {
				prev = actions[bi*n+t-1]
			}
			p.decInput(w, bi, t, prev, p.din[(bi*n+t)*di:(bi*n+t+1)*di])
		}
	}
	d := lstm.Dims{B: b, T: n, I: di, H: h}
	p.dec, p.decSave = grow(p.dec, b*n*h), grow(p.decSave, lstm.SavedLen(d))
	lstm.Forward(d, p.dec, nil, p.din, p.hT, p.cT, w[pnDecWih], w[pnDecWhh], w[pnDecBih], w[pnDecBhh], p.decSave)
	p.q, p.u = grow(p.q, b*n*h), grow(p.u, b*n*n)
	linear(b*n, h, h, p.dec, w[pnQuery], nil, p.q)
	pointer.Scores(pointer.Dims{B: b, T: n, N: n, H: h}, p.ref, p.q, w[pnV], p.u)
	p.lp, p.probs = grow(p.lp, b*n), grow(p.probs, b*n*n)
	pointer.LogProbs(pointer.Dims{B: b, T: n, N: n}, p.u, logitClip, p.actions, p.lp, p.probs)
	sumRows(p.lp, b, n, logp)
}

func (p *pointerNet[F]) Backward(w [][]F, dlogp []F, grads [][]F) {
	b, n, h, di, ei := p.b, p.n, p.h, p.decWidth(), p.encWidth()
	du := make([]F, b*n*n)
	pointer.LogProbsBackward(pointer.Dims{B: b, T: n, N: n}, spreadRows(dlogp, b, n), p.u, logitClip, p.actions, p.probs, du)
	dref, dq := make([]F, b*n*h), make([]F, b*n*h)
	pointer.ScoresBackward(pointer.Dims{B: b, T: n, N: n, H: h}, du, p.ref, p.q, w[pnV], dref, dq, grads[pnV])
	ddec, denc := make([]F, b*n*h), make([]F, b*n*h)
	linearBackward(b*n, h, h, p.dec, w[pnQuery], dq, ddec, grads[pnQuery], nil)
	linearBackward(b*n, h, h, p.enc, w[pnRef], dref, denc, grads[pnRef], nil)

	dd := lstm.Dims{B: b, T: n, I: di, H: h}
	de := lstm.Dims{B: b, T: n, I: ei, H: h}
	work := make([]F, max(lstm.WorkLen(dd), lstm.WorkLen(de)))
	ddin, dh0, dc0 := make([]F, b*n*di), make([]F, b*h), make([]F, b*h)
	lstm.Backward(dd, ddec, nil, p.din, w[pnDecWih], w[pnDecWhh], p.decSave, ddin, dh0, dc0,
		grads[pnDecWih], grads[pnDecWhh], grads[pnDecBih], grads[pnDecBhh], work)
	for bi := range b {
		last := denc[(bi*n+n-1)*h:][:h]
		for j, v := range dh0[bi*h : (bi+1)*h] {
			last[j] += v
		}
	}
	dEncIn := make([]F, b*n*ei)
	lstm.Backward(de, denc, dc0, p.encIn, w[pnEncWih], w[pnEncWhh], p.encSave, dEncIn, nil, nil,
		grads[pnEncWih], grads[pnEncWhh], grads[pnEncBih], grads[pnEncBhh], work)

	// The decoder inputs were copies of embedding rows (and of g): their gradients go back there.
	var demb []F
	if p.matching {
		demb = p.me.gradBuffer()
	} else {
		demb = dEncIn // the encoder's input is the embedding itself
	}
	for bi := range b {
		for t := range n {
			g := ddin[(bi*n+t)*di:][:di]
			switch {
			case t == 0:
				addTo(grads[pnStart], g)
			case p.matching:
				addTo(demb[(bi*2*n+t-1)*h:][:h], g[:h])
				addTo(demb[(bi*2*n+n+p.actions[bi*n+t-1])*h:][:h], g[h:])
			default:
				addTo(demb[(bi*n+p.actions[bi*n+t-1])*h:][:h], g)
			}
		}
	}
	if p.matching {
		p.me.backward(w[pnEmbW], dEncIn, grads[pnEmbW], grads[pnEmbB])
	} else {
		linearBackward(b*n, p.k, h, p.x, w[pnEmbW], demb, nil, grads[pnEmbW], grads[pnEmbB])
	}
}

// ToPerm implements PolicyNet: the elements in the order chosen are the output order (sort),
// the tour (tsp), and for PN-AC+Matching the point of B matched to each A[t] (mwm's perm).
func (p *pointerNet[F]) ToPerm(actions, perm []int) { copy(perm, actions) }

// sumRows writes the sums of the b rows of x (b x n) into dst.
func sumRows[F lstm.Float](x []F, b, n int, dst []F) {
	for r := range b {
		s := F(0)
		for _, v := range x[r*n : (r+1)*n] {
			s += v
		}
		dst[r] = s
	}
}

// spreadRows returns (b x n) with row r filled with g[r]: the gradient of per-step terms whose
// row sums had gradient g.
func spreadRows[F lstm.Float](g []F, b, n int) []F {
	out := make([]F, b*n)
	for r := range b {
		for t := range n {
			out[r*n+t] = g[r]
		}
	}
	return out
}

// addTo adds src into dst element by element.
func addTo[F lstm.Float](dst, src []F) {
	for i, v := range src {
		dst[i] += v
	}
}
