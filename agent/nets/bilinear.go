package nets

import (
	"slices"

	G "gorgonia.org/gorgonia"

	"spg-tui/agent/ops/layers"
	"spg-tui/run"
)

// New returns the networks of cfg's model for its task, size and hidden width, with the
// bilinear critic in place of SPG+Matching's when cfg asks for it, or the exact critic.
func New(cfg run.Spec) (Arch, error) {
	a, err := newArch(cfg.Model, cfg.Facts, cfg.N, cfg.Hidden)
	if err != nil {
		return nil, err
	}
	if cfg.Critic == run.CriticExact {
		return withExactCritic(a, cfg)
	}
	if m, ok := a.(matching); ok && cfg.Critic == run.CriticBilinear {
		return bilinearMatching{m}, nil
	}
	return a, nil
}

// bilinearMatching is SPG+Matching with a bilinear critic in place of the paper's:
//
//	Q(s, A) = sum_ij A_ij G(s)_ij,  G(s) = h Wq + bq,  h = GRU(E) of the critic's own trunk,
//
// the actor's architecture without Sinkhorn. The MWM reward of a permutation matrix P is exactly
// <P, C(s)> / N (C_ij the distance between b_i and a_j), linear in the action, so this critic
// can represent it and its action gradient dQ/dA = G(s) can point where the reward grows. The
// paper's critic adds a state embedding to an action embedding before its nonlinearities and
// cannot represent that product well: its action gradient carries little signal, and SPG
// updates through it walk even the authors' trained actor downhill (docs/fidelity.md). No constant term
// is needed: the actions' entries sum to N, so a constant is a shift of G.
type bilinearMatching struct{ matching }

func (a bilinearMatching) CriticSpecs() []ParamSpec {
	return slices.Concat(linearSpecs("emb", a.k, a.h, true), gruSpecs("gru", a.n, a.h), linearSpecs("q", a.h, a.n, true))
}

func (a bilinearMatching) BNLayers() []string { return nil }

func (a bilinearMatching) Critic(c *CriticCtx, x *G.Node, acts []*G.Node) ([]*G.Node, error) {
	h, err := a.trunk(x, c.P, c.Frozen)
	if err != nil {
		return nil, err
	}
	g, err := c.dense(h, "q", layers.Identity, false)
	if err != nil {
		return nil, err
	}
	return bilinearQ(g, acts)
}

// bilinearQ is Q(s, A) = sum_ij A_ij G(s)_ij for each action A of acts, G given as g (B, N, N).
func bilinearQ(g *G.Node, acts []*G.Node) ([]*G.Node, error) {
	qs := make([]*G.Node, len(acts))
	for i, act := range acts {
		var err error
		if qs[i], err = layers.Inner(act, g); err != nil {
			return nil, err
		}
	}
	return qs, nil
}
