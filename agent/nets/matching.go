package nets

import (
	"slices"

	G "gorgonia.org/gorgonia"

	"spg-tui/agent/ops/layers"
	"spg-tui/agent/ops/pairops"
	"spg-tui/agent/ops/seq"
	"spg-tui/envs"
	"spg-tui/run"
)

// matching is SPG+Matching (the paper's appendix, and the reference code's layout): states are
// the N points of A then the N points of B, K features each.
//
// Actor: E1 = σ(A We + be), E2 = σ(B We + be), E = E2 E1^T (row i of E pairs B[i] with every
// point of A, as torch.bmm(eb, ea.transpose(1,2))), h = GRU(E) over the N rows, Ya = h Wa + ba,
// M = Sinkhorn(Ya). σ is LeakyReLU(0.01).
//
// Critic (its own trunk of the same shapes): Yc = σ(BN(h Wc + bc)), Ed = σ(BN(A Wd + bd)) for the
// action A, Yf = σ(BN((Yc + Ed) Wf + bf)), Q = (Yf Wg1)^T Wg2. BN is BatchNorm1d(N) over the item
// channels.
type matching struct{ n, h, k int }

func init() {
	registerArch(run.ModelMatching, func(n, h int, f *envs.Facts) (Arch, error) {
		if !f.PointSets() {
			return nil, errStates
		}
		return matching{n: n, h: h, k: f.State.Features(n)}, nil
	})
}

func (a matching) StateShape(b int) []int { return []int{b, 2 * a.n, a.k} }

func (a matching) ActorSpecs() []ParamSpec {
	return slices.Concat(linearSpecs("emb", a.k, a.h, true), gruSpecs("gru", a.n, a.h), linearSpecs("out", a.h, a.n, true))
}

func (a matching) CriticSpecs() []ParamSpec {
	return slices.Concat(
		linearSpecs("emb", a.k, a.h, true), gruSpecs("gru", a.n, a.h),
		linearSpecs("c", a.h, a.h, true), bnSpecs("c", a.n),
		linearSpecs("d", a.n, a.h, true), bnSpecs("d", a.n),
		linearSpecs("f", a.h, a.n, true), bnSpecs("f", a.n),
		linearSpecs("g1", a.n, 1, false), linearSpecs("g2", a.n, 1, false))
}

func (a matching) BNLayers() []string { return []string{"c", "d", "f"} }

// trunk adds h = GRU(σ(B We + be) σ(A We + be)^T) (B, N, H); frozen marks the weights constant.
func (a matching) trunk(x *G.Node, p NodeSet, frozen bool) (*G.Node, error) {
	e, err := layers.Dense(x, p.Get("emb.W"), p.Get("emb.b"), layers.DenseOptions{Act: layers.LeakyReLU, NoInputGrad: true, Frozen: frozen})
	if err != nil {
		return nil, err
	}
	if e, err = pairops.PairOuter(e); err != nil {
		return nil, err
	}
	return seq.GRU(e, p.GRU("gru"), seq.GRUOptions{Frozen: frozen})
}

func (a matching) Actor(x *G.Node, p NodeSet) (*G.Node, error) {
	h, err := a.trunk(x, p, false)
	if err != nil {
		return nil, err
	}
	y, err := layers.Dense(h, p.Get("out.W"), p.Get("out.b"), layers.DenseOptions{})
	if err != nil {
		return nil, err
	}
	return y, nil
}

func (a matching) Critic(c *CriticCtx, x *G.Node, acts []*G.Node) ([]*G.Node, error) {
	first := len(c.Uses)
	h, err := a.trunk(x, c.P, c.Frozen)
	if err != nil {
		return nil, err
	}
	yc, err := c.denseNorm(h, "c", false)
	if err != nil {
		return nil, err
	}
	return c.perAction(first, acts, func(act *G.Node) (*G.Node, error) {
		ed, err := c.denseNorm(act, "d", !c.ActionGrad)
		if err != nil {
			return nil, err
		}
		s, err := layers.Add(yc, ed)
		if err != nil {
			return nil, err
		}
		yf, err := c.denseNorm(s, "f", false)
		if err != nil {
			return nil, err
		}
		return c.head(yf, "g1.W", "g2.W")
	})
}
