package nets

import (
	"fmt"
	"math"
	"slices"

	G "gorgonia.org/gorgonia"

	"spg-tui/agent/ops/layers"
	"spg-tui/agent/ops/pairops"
	"spg-tui/agent/ops/seq"
	"spg-tui/envs"
	"spg-tui/linalg/pairs"
	"spg-tui/run"
)

// attention is SPG+Attention, SPG+Factored with context for tsp: the item embedding F of a
// city is the output of a transformer encoder over all the instance's cities (Kool et al.
// 2019's, without its batch norm), so that a city's score for a place depends on where the
// other cities are, not only on its own offset from the centroid:
//
//	e_i = W_in (c_i - centroid) + b_in
//	e <- e + SelfAttention(e),  e <- e + W_2 LeakyReLU(W_1 e + b_1) + b_2   (attnLayers times)
//	X_ij = <W_out e_i + b_out, P(place j)>,  M = Sinkhorn(X / tau),
//
// with P SPG+Factored's place MLP over points on a circle, and SPG+Factored's tour critic.
// Self-attention and the centring are equivariant in the cities, so relabelling them relabels
// the rows of X; nothing depends on other instances of the batch (hence no batch norm, whose
// statistics would make an instance's tour depend on its batch-mates and need running
// estimates at inference).
type attention struct {
	f factored // the place embedding and the critic
}

// attnLayers and attnHeads are the encoder's depth and heads (Kool et al.: 3 and 8 at width
// 128; 4 heads keep 8 channels per head at the best recipe's width 32); attnFF is the
// feed-forward layer's width as a multiple of the model's.
const attnLayers, attnHeads, attnFF = 3, 4, 4

func init() {
	registerArch(run.ModelAttention, func(n, h int, f *envs.Facts) (Arch, error) {
		if !f.PointTour() {
			return nil, errStates
		}
		if h%attnHeads != 0 {
			return nil, fmt.Errorf("hidden width %d: must be a multiple of its %d attention heads", h, attnHeads)
		}
		return attention{f: factored{n: n, h: h, tsp: true, q: pairwise{n: n, h: h, width: pairs.MatchingWidth, rows: pairops.TwoPointSets}}}, nil
	})
}

func (a attention) StateShape(b int) []int   { return a.f.StateShape(b) }
func (a attention) CriticSpecs() []ParamSpec { return a.f.CriticSpecs() }
func (a attention) BNLayers() []string       { return nil }

func (a attention) ActorSpecs() []ParamSpec {
	h := a.f.h
	bound := 1 / math.Sqrt(float64(h))
	s := linearSpecs("enc.in", 2, h, true)
	for l := range attnLayers {
		name := fmt.Sprintf("enc%d.", l)
		s = append(s, ParamSpec{Name: name + "qkv", Shape: []int{h, 3 * h}, Bound: bound}, ParamSpec{Name: name + "o", Shape: []int{h, h}, Bound: bound})
		s = slices.Concat(s, linearSpecs(name+"ff1", h, attnFF*h, true), linearSpecs(name+"ff2", attnFF*h, h, true))
	}
	s = slices.Concat(s, linearSpecs("enc.out", h, h, true))
	place := func(name string, in int) []ParamSpec { return linearSpecs("place"+name, in, h, true) }
	return slices.Concat(s, place("1", 2), place("2", h), place("3", h))
}

// encode adds the encoder over the centred cities items (B, N, 2): (B, N, h).
func (a attention) encode(items *G.Node, p NodeSet) (*G.Node, error) {
	e, err := layers.Dense(items, p.Get("enc.in.W"), p.Get("enc.in.b"), layers.DenseOptions{NoInputGrad: true})
	if err != nil {
		return nil, err
	}
	for l := range attnLayers {
		name := fmt.Sprintf("enc%d.", l)
		att, err := seq.SelfAttention(e, p.Get(name+"qkv"), p.Get(name+"o"), seq.AttentionOptions{Heads: attnHeads})
		if err != nil {
			return nil, err
		}
		if e, err = G.Add(e, att); err != nil {
			return nil, err
		}
		ff, err := layers.Dense(e, p.Get(name+"ff1.W"), p.Get(name+"ff1.b"), layers.DenseOptions{Act: layers.LeakyReLU})
		if err != nil {
			return nil, err
		}
		if ff, err = layers.Dense(ff, p.Get(name+"ff2.W"), p.Get(name+"ff2.b"), layers.DenseOptions{}); err != nil {
			return nil, err
		}
		if e, err = G.Add(e, ff); err != nil {
			return nil, err
		}
	}
	return layers.Dense(e, p.Get("enc.out.W"), p.Get("enc.out.b"), layers.DenseOptions{})
}

func (a attention) Actor(x *G.Node, p NodeSet) (*G.Node, error) {
	items, places, err := a.f.inputs(x)
	if err != nil {
		return nil, err
	}
	f, err := a.encode(items, p) // (B, N, h)
	if err != nil {
		return nil, err
	}
	pl, err := a.f.embed(places, p, "place") // (N, h)
	if err != nil {
		return nil, err
	}
	return a.f.scores(f, pl)
}

func (a attention) Critic(c *CriticCtx, x *G.Node, acts []*G.Node) ([]*G.Node, error) {
	return a.f.Critic(c, x, acts)
}

// countStep counts one training step of SPG+Attention: SPG+Factored's, with the item MLP
// replaced by the encoder (its projections, and each head's scores and weighted sum).
func (a attention) countStep(c *flopCounter) {
	b, n, h := c.b, c.n, c.h
	actor := func(bwd bool) {
		rows := b * n
		c.dense(rows, 2, h, true, false, bwd)
		for range attnLayers {
			c.dense(rows, h, 3*h, true, bwd, bwd)
			c.dense(rows*attnHeads, h/attnHeads, n, true, bwd, bwd) // Q K^T
			c.dense(rows*attnHeads, n, h/attnHeads, true, bwd, bwd) // A V
			c.dense(rows, h, h, true, bwd, bwd)
			c.dense(rows, h, attnFF*h, true, bwd, bwd)
			c.dense(rows, attnFF*h, h, true, bwd, bwd)
		}
		c.dense(rows, h, h, true, bwd, bwd)
		c.dense(n, 2, h, true, false, bwd) // the place MLP
		c.dense(n, h, h, true, bwd, bwd)
		c.dense(n, h, h, true, bwd, bwd)
		c.dense(rows, h, n, true, bwd, bwd) // the scores
	}
	actor(false)
	a.f.countCritic(c, actor)
}
