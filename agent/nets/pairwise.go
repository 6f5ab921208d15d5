package nets

import (
	"slices"

	G "gorgonia.org/gorgonia"

	"spg-tui/agent/ops/layers"
	"spg-tui/agent/ops/pairops"
	"spg-tui/envs"
	"spg-tui/linalg/pairs"
	"spg-tui/run"
)

// pairwise is SPG+Pairwise, the network of the "best" recipe (mwm and sort): a shared MLP over
// the features of each (row, column) pair of the action matrix (pairops.PairFeatures: for mwm the
// coordinates of b_i and a_j and their difference; for sort the value of item i and
// position j),
//
//	X_ij = w3 · σ(W2 σ(W1 f_ij + b1) + b2) + b3,  M = Sinkhorn(X / tau),
//
// and a critic of the same form, Q(s, A) = sum_ij A_ij G(s)_ij with G(s)_ij the same MLP under
// its own weights (the bilinear critic of bilinear.go with a pairwise trunk). σ is
// LeakyReLU(0.01). Both networks are permutation-equivariant: relabelling the rows or the columns
// of the instance relabels X and G the same way, where the paper's GRU reads the rows in an
// arbitrary order. The MWM reward <P, C(s)>/N is linear in the action with C_ij a function of
// the pair (i, j) alone, so G can represent it exactly, and so can X the Hungarian optimum.
type pairwise struct {
	n, h, width int
	rows        pairops.PairRows
	// graph adds one round of messages over the candidate graph between the first two layers
	// (SPG+Successor-Graph): see graphLayer.
	graph bool
}

func init() {
	registerArch(run.ModelPairwise, func(n, h int, f *envs.Facts) (Arch, error) {
		switch {
		case f.PointSets():
			return pairwise{n: n, h: h, width: pairs.MatchingWidth, rows: pairops.TwoPointSets}, nil
		case f.Values():
			return pairwise{n: n, h: h, width: pairs.SortWidth, rows: pairops.Values}, nil
		}
		return nil, errStates
	})
}

func (a pairwise) StateShape(b int) []int {
	switch a.rows {
	case pairops.TwoPointSets:
		return []int{b, 2 * a.n, 2}
	case pairops.OnePointSet, pairops.LocalPointSet:
		return []int{b, a.n, 2}
	}
	return []int{b, a.n, 1}
}

func (a pairwise) specs() []ParamSpec {
	s := slices.Concat(linearSpecs("p1", a.width, a.h, true), linearSpecs("p2", a.h, a.h, true), linearSpecs("p3", a.h, 1, true))
	if a.graph {
		s = append(s, linearSpecs("pn", 2*a.h, 2*a.h, true)...)
	}
	return s
}

func (a pairwise) ActorSpecs() []ParamSpec  { return a.specs() }
func (a pairwise) CriticSpecs() []ParamSpec { return a.specs() }
func (a pairwise) BNLayers() []string       { return nil }

// scores adds the pair MLP over x's pair features: (B, N, N).
func (a pairwise) scores(x *G.Node, p NodeSet, frozen bool) (*G.Node, error) {
	f, err := pairops.PairFeatures(x, a.rows)
	if err != nil {
		return nil, err
	}
	return a.scoresOf(f, p, frozen)
}

// scoresOf adds the pair MLP over the pair features f (B, N, N, width): (B, N, N).
func (a pairwise) scoresOf(f *G.Node, p NodeSet, frozen bool) (*G.Node, error) {
	y, err := layers.Dense(f, p.Get("p1.W"), p.Get("p1.b"), layers.DenseOptions{Act: layers.LeakyReLU, NoInputGrad: true, Frozen: frozen})
	if err != nil {
		return nil, err
	}
	if a.graph {
		y, err = a.graphLayer(y, f, p, frozen)
	} else {
		y, err = layers.Dense(y, p.Get("p2.W"), p.Get("p2.b"), layers.DenseOptions{Act: layers.LeakyReLU, Frozen: frozen})
	}
	if err != nil {
		return nil, err
	}
	if y, err = layers.Dense(y, p.Get("p3.W"), p.Get("p3.b"), layers.DenseOptions{Frozen: frozen}); err != nil {
		return nil, err
	}
	s := y.Shape()
	return G.Reshape(y, []int{s[0], a.n, a.n})
}

// graphLayer is the second layer with one round of messages over the candidate graph: each
// city's means of its first-layer pair embeddings y (B, N, N, H) out of it and into it
// (layers.NeighbourMeans over the pairs f calls near), under a dense layer pn, added to every pair
// it is in:
//
//	h2_ij = σ(W2 y_ij + b2 + t_i[:H] + t_j[H:]),  t = pn(means),
//
// so that a pair's score knows its cities' neighbourhoods, not only its own features.
func (a pairwise) graphLayer(y, f *G.Node, p NodeSet, frozen bool) (*G.Node, error) {
	means, err := layers.NeighbourMeans(y, f, localNear)
	if err != nil {
		return nil, err
	}
	t, err := layers.Dense(means, p.Get("pn.W"), p.Get("pn.b"), layers.DenseOptions{Frozen: frozen})
	if err != nil {
		return nil, err
	}
	z, err := layers.Dense(y, p.Get("p2.W"), p.Get("p2.b"), layers.DenseOptions{Frozen: frozen})
	if err != nil {
		return nil, err
	}
	return layers.AddNodeTerms(z, t, layers.LeakyReLU)
}

func (a pairwise) Actor(x *G.Node, p NodeSet) (*G.Node, error) {
	y, err := a.scores(x, p, false)
	if err != nil {
		return nil, err
	}
	return y, nil
}

func (a pairwise) Critic(c *CriticCtx, x *G.Node, acts []*G.Node) ([]*G.Node, error) {
	g, err := a.scores(x, c.P, c.Frozen)
	if err != nil {
		return nil, err
	}
	return bilinearQ(g, acts)
}

// countStep counts one training step of SPG+Pairwise: the pair MLP over B N^2 rows, forward to
// act, then the critic's update (forward and weight gradients) and the actor's update (actor
// forward and backward, critic forward).
func (a pairwise) countStep(c *flopCounter) {
	rows, w, h := c.b*c.n*c.n, float64(a.width), c.h
	mlp := func(bwd, dw bool) {
		c.dense(rows, w, h, true, false, dw)
		c.dense(rows, h, h, true, bwd, dw)
		if a.graph {
			c.dense(c.b*c.n, 2*h, 2*h, true, bwd, dw)
		}
		c.dense(rows, h, 1, true, bwd, dw)
	}
	mlp(false, false) // acting
	mlp(true, true)   // critic update
	mlp(true, true)   // actor update: the actor
	mlp(false, false) // and the frozen critic's G
}
