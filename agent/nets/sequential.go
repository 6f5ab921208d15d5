package nets

import (
	"slices"

	G "gorgonia.org/gorgonia"

	"spg-tui/agent/ops/layers"
	"spg-tui/agent/ops/seq"
	"spg-tui/envs"
	"spg-tui/run"
)

// sequential is SPG+Sequential (sort and tsp): states are N items of K features.
//
// Actor: h = BiGRU(σ(X We + be)) (2H per item), Ya = h Wa + ba (2H -> N), M = Sinkhorn(Ya).
//
// Critic: E1 = σ(BN(X Wj + bj)), E2 = σ(BN(P Wk + bk)), E = σ(BN((E1 + E2) Wl + bl)),
// h = BiGRU(E), Ym = σ(h Wm + bm) (2H -> H), Q = (Ym Wn1)^T Wn2. σ is LeakyReLU(0.01), the
// paper's definition of σ for its architectures. The paper gives Wn2 as 128 x 1, which cannot
// multiply (Ym Wn1)^T (1 x N): Wn2 must be N x 1, as Wg2 of SPG+Matching.
type sequential struct{ n, h, k int }

func init() {
	registerArch(run.ModelSequential, func(n, h int, f *envs.Facts) (Arch, error) {
		if f.State.Pairs {
			return nil, errStates
		}
		return sequential{n: n, h: h, k: f.State.Features(n)}, nil
	})
}

func (a sequential) StateShape(b int) []int { return []int{b, a.n, a.k} }

func (a sequential) ActorSpecs() []ParamSpec {
	return slices.Concat(linearSpecs("emb", a.k, a.h, true), gruSpecs("gru.f", a.h, a.h), gruSpecs("gru.r", a.h, a.h),
		linearSpecs("out", 2*a.h, a.n, true))
}

func (a sequential) CriticSpecs() []ParamSpec {
	return slices.Concat(
		linearSpecs("j", a.k, a.h, true), bnSpecs("j", a.n),
		linearSpecs("k", a.n, a.h, true), bnSpecs("k", a.n),
		linearSpecs("l", a.h, a.h, true), bnSpecs("l", a.n),
		gruSpecs("gru.f", a.h, a.h), gruSpecs("gru.r", a.h, a.h),
		linearSpecs("m", 2*a.h, a.h, true),
		linearSpecs("n1", a.h, 1, false), linearSpecs("n2", a.n, 1, false))
}

func (a sequential) BNLayers() []string { return []string{"j", "k", "l"} }

func (a sequential) Actor(x *G.Node, p NodeSet) (*G.Node, error) {
	e, err := layers.Dense(x, p.Get("emb.W"), p.Get("emb.b"), layers.DenseOptions{Act: layers.LeakyReLU, NoInputGrad: true})
	if err != nil {
		return nil, err
	}
	h, err := seq.BiGRU(e, p.GRU("gru.f"), p.GRU("gru.r"), seq.GRUOptions{})
	if err != nil {
		return nil, err
	}
	y, err := layers.Dense(h, p.Get("out.W"), p.Get("out.b"), layers.DenseOptions{})
	if err != nil {
		return nil, err
	}
	return y, nil
}

func (a sequential) Critic(c *CriticCtx, x *G.Node, acts []*G.Node) ([]*G.Node, error) {
	first := len(c.Uses)
	e1, err := c.denseNorm(x, "j", true)
	if err != nil {
		return nil, err
	}
	return c.perAction(first, acts, func(act *G.Node) (*G.Node, error) {
		e2, err := c.denseNorm(act, "k", !c.ActionGrad)
		if err != nil {
			return nil, err
		}
		s, err := G.Add(e1, e2)
		if err != nil {
			return nil, err
		}
		e, err := c.denseNorm(s, "l", false)
		if err != nil {
			return nil, err
		}
		h, err := seq.BiGRU(e, c.P.GRU("gru.f"), c.P.GRU("gru.r"), seq.GRUOptions{Frozen: c.Frozen})
		if err != nil {
			return nil, err
		}
		ym, err := c.dense(h, "m", layers.LeakyReLU, false)
		if err != nil {
			return nil, err
		}
		return c.head(ym, "n1.W", "n2.W")
	})
}
