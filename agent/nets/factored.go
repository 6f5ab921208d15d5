package nets

import (
	"math"
	"slices"

	G "gorgonia.org/gorgonia"

	"spg-tui/agent/ops/layers"
	"spg-tui/agent/ops/pairops"
	"spg-tui/envs"
	"spg-tui/linalg/pairs"
	"spg-tui/run"
)

// factored is SPG+Factored, the "best" recipe's network for tsp (it learns sort too): an actor
// whose scores are the dot products of an item embedding and a place embedding,
//
//	X_ij = <F(item i), P(place j)>,  M = Sinkhorn(X / tau),
//
// F and P each a three-layer MLP (LeakyReLU(0.01), hidden width h, output width h). For sort
// item i is its value scaled by the instance's span, (v_i - min v)/(max v - min v + 1), and
// place j is j / N; for tsp item i is city i's coordinates
// less the instance's centroid and place j is the point (cos 2 pi j/N, sin 2 pi j/N) of a
// circle, so that neighbouring places of the tour are neighbours of the embedding. It is
// cross-attention between the items and the places, as in pointer networks, reads only the
// values or coordinates, as the paper's actor does, and is permutation-equivariant in the items.
//
// Where a pair MLP must resolve an item's N places to a fraction 1/N of its input range, a
// rank-one slice of these scores already sorts exactly: for X_ij = f(v_i) g(j) with f and g
// increasing, the Hungarian maximum puts the items in the order of f (the rearrangement
// inequality), whatever the scale. For tsp the same holds of an angle: F(c) = c - centroid
// scores the cities' order around the centroid, a tour of 4.35 at N = 20.
//
// The critic is SPG+Pairwise's pair MLP G(s): for sort Q = sum_ij A_ij G_ij (bilinear.go), for
// tsp Q = sum_ik G_ik (A S A^T)_ik over pairs of cities (tourQ).
type factored struct {
	n, h int
	tsp  bool
	q    pairwise // the critic's pair MLP
}

func init() {
	registerArch(run.ModelFactored, func(n, h int, f *envs.Facts) (Arch, error) {
		switch {
		case f.PointTour():
			return factored{n: n, h: h, tsp: true, q: pairwise{n: n, h: h, width: pairs.MatchingWidth, rows: pairops.TwoPointSets}}, nil
		case f.Values():
			return factored{n: n, h: h, q: pairwise{n: n, h: h, width: pairs.SortWidth, rows: pairops.Values}}, nil
		}
		return nil, errStates
	})
}

// width is the number of input features of an item and of a place.
func (a factored) width() int {
	if a.tsp {
		return 2
	}
	return 1
}

func (a factored) StateShape(b int) []int { return []int{b, a.n, a.width()} }

func (a factored) ActorSpecs() []ParamSpec {
	w := a.width()
	mlp := func(name string) []ParamSpec {
		return slices.Concat(linearSpecs(name+"1", w, a.h, true), linearSpecs(name+"2", a.h, a.h, true), linearSpecs(name+"3", a.h, a.h, true))
	}
	return slices.Concat(mlp("item"), mlp("place"))
}

func (a factored) CriticSpecs() []ParamSpec { return a.q.specs() }
func (a factored) BNLayers() []string       { return nil }

// embed adds the MLP name over the rows of x (..., width).
func (a factored) embed(x *G.Node, p NodeSet, name string) (*G.Node, error) {
	y, err := layers.Dense(x, p.Get(name+"1.W"), p.Get(name+"1.b"), layers.DenseOptions{Act: layers.LeakyReLU, NoInputGrad: true})
	if err != nil {
		return nil, err
	}
	if y, err = layers.Dense(y, p.Get(name+"2.W"), p.Get(name+"2.b"), layers.DenseOptions{Act: layers.LeakyReLU}); err != nil {
		return nil, err
	}
	return layers.Dense(y, p.Get(name+"3.W"), p.Get(name+"3.b"), layers.DenseOptions{})
}

// places returns the inputs of the N places, (N, width) row-major.
func (a factored) places() []float64 {
	if !a.tsp {
		v := make([]float64, a.n)
		for j := range v {
			v[j] = float64(j) / float64(a.n)
		}
		return v
	}
	v := make([]float64, 2*a.n)
	for j := range a.n {
		v[2*j], v[2*j+1] = math.Cos(2*math.Pi*float64(j)/float64(a.n)), math.Sin(2*math.Pi*float64(j)/float64(a.n))
	}
	return v
}

// inputs adds the items of the states x (B, N, width) and the places (N, width).
func (a factored) inputs(x *G.Node) (items, places *G.Node, err error) {
	g, dt := x.Graph(), x.Dtype()
	places = G.NewMatrix(g, dt, G.WithShape(a.n, a.width()), G.WithName("factored.places"), G.WithValue(constTensor(dt, []int{a.n, a.width()}, a.places())))
	if a.tsp {
		items, err = pairops.Centre(x)
		return items, places, err
	}
	items, err = pairops.SortValues(x)
	return items, places, err
}

func (a factored) Actor(x *G.Node, p NodeSet) (*G.Node, error) {
	items, places, err := a.inputs(x)
	if err != nil {
		return nil, err
	}
	f, err := a.embed(items, p, "item") // (B, N, h)
	if err != nil {
		return nil, err
	}
	pl, err := a.embed(places, p, "place") // (N, h)
	if err != nil {
		return nil, err
	}
	return a.scores(f, pl)
}

// scores adds the scores X_ij = <f_i, pl_j> (B, N, N) of the items f (B, N, h) and the places
// pl (N, h).
func (a factored) scores(f, pl *G.Node) (*G.Node, error) {
	b := f.Shape()[0]
	f, err := G.Reshape(f, []int{b * a.n, a.h})
	if err != nil {
		return nil, err
	}
	pt, err := G.Transpose(pl)
	if err != nil {
		return nil, err
	}
	// A Dense node, not G.Mul: its products are split over the cores, where gorgonia's run on
	// the caller (1.8% of sort-50's one-core step, all of it in the step's serial part).
	y, err := layers.Dense(f, pt, nil, layers.DenseOptions{}) // (B N, N)
	if err != nil {
		return nil, err
	}
	return G.Reshape(y, []int{b, a.n, a.n})
}

func (a factored) Critic(c *CriticCtx, x *G.Node, acts []*G.Node) ([]*G.Node, error) {
	if !a.tsp {
		return a.q.Critic(c, x, acts)
	}
	xx, err := G.Concat(1, x, x) // the pair features of (city i, city k), as MWM's of (b_i, a_k)
	if err != nil {
		return nil, err
	}
	g, err := a.q.scores(xx, c.P, c.Frozen)
	if err != nil {
		return nil, err
	}
	return tourQ(g, acts, a.n)
}

// countStep counts one training step of SPG+Factored: the two embeddings and the score product
// to act, the critic's update, and the actor's update (the actor forward and backward, the
// frozen critic's G, and for tsp the tour adjacency's products).
func (a factored) countStep(c *flopCounter) {
	b, n, h, w := c.b, c.n, c.h, float64(a.width())
	actor := func(bwd bool) {
		for _, rows := range []float64{b * n, n} {
			c.dense(rows, w, h, true, false, bwd)
			c.dense(rows, h, h, true, bwd, bwd)
			c.dense(rows, h, h, true, bwd, bwd)
		}
		c.dense(b*n, h, n, true, bwd, bwd) // the scores, and both factors' gradients
	}
	actor(false)
	a.countCritic(c, actor)
}

// countCritic counts the critic's update and the actor's update: actor(true), the actor's
// forward and backward pass, with the frozen critic and the tour adjacency around it.
func (a factored) countCritic(c *flopCounter, actor func(bwd bool)) {
	b, n, h := c.b, c.n, c.h
	rows, pw := b*n*n, float64(a.q.width)
	critic := func(bwd, dw bool) {
		c.dense(rows, pw, h, true, false, dw)
		c.dense(rows, h, h, true, bwd, dw)
		c.dense(rows, h, 1, true, bwd, dw)
	}
	// tour counts the adjacency A S A^T of acts actions: two GEMMs forward, and four backward
	// where the action takes a gradient.
	tour := func(acts float64, bwd bool) {
		if a.tsp {
			c.dense(acts*b*n, n, n, true, bwd, bwd)
			c.dense(acts*b*n, n, n, true, bwd, bwd)
		}
	}
	critic(true, true)
	tour(2, false)
	actor(true)
	critic(false, false)
	tour(1, true)
}
