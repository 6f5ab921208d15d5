package nets

import (
	"slices"
	"strconv"

	G "gorgonia.org/gorgonia"

	"spg-tui/agent/ops"
	"spg-tui/agent/ops/layers"
	"spg-tui/agent/ops/pairops"
	"spg-tui/envs"
	"spg-tui/run"
)

// gmRounds is the number of message-passing rounds of the graph-matching actor: each node's
// embedding sees its gmRounds-hop neighbourhood.
const gmRounds = 3

// gmWalkLen is the longest closed walk counted in a node's input features: lengths up to 8
// give every node of random 4-regular graphs at N = 20 and 50 its own counts.
const gmWalkLen = 8

// gmConsensusRounds is the number of consensus rounds that refine the actor's scores;
// gmConsensusTau and gmConsensusIters are the temperature and iterations of the soft correspondence
// each round reads, fixed here (the run's tau and iterations set only the learner's Sinkhorn layer
// over the actor's final scores). Colder and more rounds matched better up to 8 rounds at 0.01
// (docs/results.md).
const (
	gmConsensusRounds = 8
	gmConsensusTau    = 0.01
	gmConsensusIters  = 10
)

// gmLogStepScale is how spg-gm-logstep reads its consensus steps: alpha_r = exp(gmLogStepScale
// theta_r), theta_r starting at 0, so that its untrained actor is spg-gm's (every step 1).
// Adam moves a parameter by about its learning rate a step, so spg-gm's steps, read as they
// are, move by under 0.03 in 300 steps at best's 1e-4, while on regular graphs at N = 50 the
// untrained actor keeps 0.37 of G1's edges at step 1 and 0.53 at step 4 (docs/results.md); on
// this scale a step can double in about 140 steps.
const gmLogStepScale = 50

// graphMatching is the SPG network for graph matching. A state is the two adjacency matrices,
// (B, 2N, N): G1's N rows, then G2's. The action is read as MWM's is, with G2 in the role of
// the permuted set B: row i of M is node i of G2, column j node j of G1, so that the rounded
// action's inverse (ActionToPerm) is the correspondence perm[j] = the G2 node of G1's node j.
//
// The actor embeds both graphs' nodes by one message-passing network from their degrees and
// closed-walk counts (degrees alone leave a regular graph's nodes alike), scores pairs by one
// head for both graphs, so that equal embeddings score highest from the start, and refines the
// scores by gmConsensusRounds learned steps of graduated assignment. The critic is quadratic in
// the action, a learned weight per preserved pair of G1, zero on the diagonal that no
// permutation reaches. The equations and why each part is there: docs/commands.md, "SPG+GM".
//
// spg-gm-logstep is the same network with its consensus steps learned on a log scale
// (gmLogStepScale); its parameters have spg-gm's names and shapes, so only the model name
// stored in a run's config says how its steps read.
type graphMatching struct {
	n, h int
	// logStep reads consensus round r's step as exp(gmLogStepScale theta_r) (spg-gm-logstep,
	// spg-gm-spectral).
	logStep bool
	// spectral adds Umeyama's spectral similarity to the scores before the consensus
	// (spg-gm-spectral, graph_matching_spectral.go).
	spectral bool
}

func init() {
	for name, v := range map[string]graphMatching{
		run.ModelGM:         {},
		run.ModelGMLogStep:  {logStep: true},
		run.ModelGMSpectral: {logStep: true, spectral: true},
	} {
		registerArch(name, func(n, h int, f *envs.Facts) (Arch, error) {
			if !f.GraphPairs() {
				return nil, errStates
			}
			v.n, v.h = n, h
			return v, nil
		})
	}
}

func (a graphMatching) StateShape(b int) []int { return []int{b, 2 * a.n, a.n} }

func (a graphMatching) ActorSpecs() []ParamSpec {
	s := linearSpecs("mp1", 2*gmWalkLen, a.h, true)
	for r := 2; r <= gmRounds; r++ {
		s = append(s, linearSpecs(gmRound(r), 2*a.h, a.h, true)...)
	}
	// A step of 1 (theta 0 on spg-gm-logstep's log scale): the consensus is a gradient step from
	// the start.
	fill := 1.0
	if a.logStep {
		fill = 0
	}
	for r := 1; r <= gmConsensusRounds; r++ {
		s = append(s, ParamSpec{Name: gmConsensus(r), Shape: []int{1, 1}, Fill: fill})
	}
	if a.spectral {
		s = append(s, gmSpectralSpec)
	}
	return append(s, linearSpecs("f", a.h, a.h, true)...)
}

func (a graphMatching) CriticSpecs() []ParamSpec {
	return slices.Concat(linearSpecs("q1", pairops.GraphPairWidth, a.h, true), linearSpecs("q2", a.h, a.h, true), linearSpecs("q3", a.h, 1, true))
}

func (a graphMatching) BNLayers() []string { return nil }

// gmRound is the name of round r's layer.
func gmRound(r int) string { return "mp" + strconv.Itoa(r) }

// gmConsensus is the name of consensus round r's step.
func gmConsensus(r int) string { return "cons" + strconv.Itoa(r) + ".W" }

// embed adds the node embeddings of x's 2B graphs, (B, 2N, h), and the graphs' row-mean
// adjacencies (pairops.RowMean), (B, 2N, N): G1's nodes, then G2's.
func (a graphMatching) embed(x *G.Node, p NodeSet) (h, means *G.Node, err error) {
	b, n, dt := x.Shape()[0], a.n, x.Dtype()
	adj, err := G.Reshape(x, []int{2 * b, n, n})
	if err != nil {
		return nil, nil, err
	}
	mean, err := pairops.RowMean(adj)
	if err != nil {
		return nil, nil, err
	}
	deg, err := G.Sum(adj, 2)
	if err != nil {
		return nil, nil, err
	}
	if deg, err = G.Reshape(deg, []int{2 * b, n, 1}); err != nil {
		return nil, nil, err
	}
	inv := G.NewScalar(x.Graph(), dt, G.WithName("gm.invdeg"), G.WithValue(constScalar(dt, 1/float64(n-1))))
	degN, err := G.Mul(deg, inv)
	if err != nil {
		return nil, nil, err
	}
	walks, err := pairops.ClosedWalks(adj, gmWalkLen)
	if err != nil {
		return nil, nil, err
	}
	if h, err = G.Concat(2, degN, walks); err != nil {
		return nil, nil, err
	}
	for r := 1; r <= gmRounds; r++ {
		in, err := pairops.WithNeighbourMeans(mean, h)
		if err != nil {
			return nil, nil, err
		}
		name := gmRound(r)
		// Round 1 reads only the data, so it needs no input gradient.
		if h, err = layers.Dense(in, p.Get(name+".W"), p.Get(name+".b"), layers.DenseOptions{Act: layers.LeakyReLU, NoInputGrad: r == 1}); err != nil {
			return nil, nil, err
		}
	}
	if h, err = G.Reshape(h, []int{b, 2 * n, a.h}); err != nil {
		return nil, nil, err
	}
	means, err = G.Reshape(mean, []int{b, 2 * n, n})
	return h, means, err
}

func (a graphMatching) Actor(x *G.Node, p NodeSet) (*G.Node, error) {
	h, means, err := a.embed(x, p)
	if err != nil {
		return nil, err
	}
	n := a.n
	h1, err := ops.Rows(h, 0, n, false)
	if err != nil {
		return nil, err
	}
	h2, err := ops.Rows(h, n, 2*n, false)
	if err != nil {
		return nil, err
	}
	rows, err := layers.Dense(h2, p.Get("f.W"), p.Get("f.b"), layers.DenseOptions{})
	if err != nil {
		return nil, err
	}
	cols, err := layers.Dense(h1, p.Get("f.W"), p.Get("f.b"), layers.DenseOptions{})
	if err != nil {
		return nil, err
	}
	y, err := layers.BatchedProduct(rows, cols, layers.ProductOptions{TransB: true}) // (B, N, N): G2's nodes by G1's
	if err != nil {
		return nil, err
	}
	if a.spectral {
		if y, err = addSpectral(x, y, p); err != nil {
			return nil, err
		}
	}
	if y, err = a.consensus(y, means, p); err != nil {
		return nil, err
	}
	return y, nil
}

// consensus adds the consensus rounds to the scores y (B, N, N), given the graphs' row-mean
// adjacencies means (B, 2N, N).
func (a graphMatching) consensus(y, means *G.Node, p NodeSet) (*G.Node, error) {
	n := a.n
	mean1, err := ops.Rows(means, 0, n, true)
	if err != nil {
		return nil, err
	}
	mean2, err := ops.Rows(means, n, 2*n, true)
	if err != nil {
		return nil, err
	}
	for r := 1; r <= gmConsensusRounds; r++ {
		s, sk, err := layers.Sinkhorn(y)
		if err != nil {
			return nil, err
		}
		sk.Set(gmConsensusTau, gmConsensusIters)
		if s, err = layers.BatchedProduct(mean2, s, layers.ProductOptions{DataA: true}); err != nil {
			return nil, err
		}
		if s, err = layers.BatchedProduct(s, mean1, layers.ProductOptions{TransB: true, DataB: true}); err != nil {
			return nil, err
		}
		step, err := a.step(p.Get(gmConsensus(r)))
		if err != nil {
			return nil, err
		}
		if y, err = layers.AddScaled(y, s, step); err != nil {
			return nil, err
		}
	}
	return y, nil
}

// step is a consensus round's step from its parameter theta (1, 1): theta itself, or
// exp(gmLogStepScale theta) for spg-gm-logstep.
func (a graphMatching) step(theta *G.Node) (*G.Node, error) {
	if !a.logStep {
		return theta, nil
	}
	scale := G.NewScalar(theta.Graph(), theta.Dtype(), G.WithName(theta.Name()+".scale"), G.WithValue(constScalar(theta.Dtype(), gmLogStepScale)))
	scaled, err := G.Mul(theta, scale)
	if err != nil {
		return nil, err
	}
	return G.Exp(scaled)
}

func (a graphMatching) Critic(c *CriticCtx, x *G.Node, acts []*G.Node) ([]*G.Node, error) {
	b, n := x.Shape()[0], a.n
	f, err := pairops.GraphPairFeatures(x)
	if err != nil {
		return nil, err
	}
	y, err := c.dense(f, "q1", layers.LeakyReLU, true)
	if err != nil {
		return nil, err
	}
	if y, err = c.dense(y, "q2", layers.LeakyReLU, false); err != nil {
		return nil, err
	}
	if y, err = c.dense(y, "q3", layers.Identity, false); err != nil {
		return nil, err
	}
	if y, err = G.Reshape(y, []int{b, n, n}); err != nil {
		return nil, err
	}
	_, off := diagMasks(b, n)
	offN := G.NewTensor(x.Graph(), x.Dtype(), 3, G.WithShape(b, n, n), G.WithName("gm.off"), G.WithValue(constTensor(x.Dtype(), []int{b, n, n}, off)))
	w, err := G.HadamardProd(y, offN) // W over G1's pairs, zero diagonal
	if err != nil {
		return nil, err
	}
	a2, err := ops.Rows(x, n, 2*n, true)
	if err != nil {
		return nil, err
	}
	qs := make([]*G.Node, len(acts))
	for i, act := range acts {
		mw, err := layers.BatchedProduct(act, w, layers.ProductOptions{})
		if err != nil {
			return nil, err
		}
		a2m, err := layers.BatchedProduct(a2, act, layers.ProductOptions{DataA: true})
		if err != nil {
			return nil, err
		}
		if qs[i], err = layers.Inner(mw, a2m); err != nil {
			return nil, err
		}
	}
	return qs, nil
}

// countStep counts one training step: the embeddings and scores to act (with spg-gm-spectral's
// spectral similarity of the fresh states), the critic's update, and the actor's update (actor
// forward and backward, the frozen critic's W, and the two products per action).
func (a graphMatching) countStep(c *flopCounter) {
	b, n, h := c.b, c.n, c.h
	actor := func(bwd bool) {
		for r := 1; r <= gmRounds; r++ {
			in := 2 * h
			if r == 1 {
				in = 2 * gmWalkLen
			}
			c.dense(2*b*n, n, in/2, true, bwd && r > 1, false) // the neighbour means
			c.dense(2*b*n, in, h, true, bwd && r > 1, bwd)
		}
		c.dense(b*n, h, h, true, bwd, bwd)
		c.dense(b*n, h, h, true, bwd, bwd)
		c.dense(b*n, h, n, true, bwd, bwd) // the scores
		for range gmConsensusRounds {
			c.dense(2*b*n, n, n, true, bwd, bwd) // mean2 S mean1^T
		}
	}
	critic := func(bwd, dw bool) {
		c.dense(b*n*n, pairops.GraphPairWidth, h, true, false, dw)
		c.dense(b*n*n, h, h, true, bwd, dw)
		c.dense(b*n*n, h, 1, true, bwd, dw)
	}
	// products counts M W and A2 M for acts actions, with their action gradients if dAct and
	// W's gradient if dW.
	products := func(acts float64, dAct, dW bool) {
		c.dense(acts*b*n, n, n, true, dAct, dW)
		c.dense(acts*b*n, n, n, true, dAct, false)
	}
	actor(false)
	if a.spectral {
		c.total += b * spectralPairFLOPs(n)
	}
	critic(true, true)
	products(2, false, true)
	actor(true)
	critic(false, false)
	products(1, true, false)
}
