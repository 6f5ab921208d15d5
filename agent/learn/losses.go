package learn

import (
	G "gorgonia.org/gorgonia"

	"spg-tui/agent/nets"
	"spg-tui/agent/ops"
	"spg-tui/agent/ops/layers"
)

// criticLoss are the nodes of the critic's training loss (Algorithm 1).
type criticLoss struct {
	// loss = hard + w penalty is what the critic descends.
	loss, hard, penalty *G.Node
	qHard, qSoft        *G.Node // Q(s,P) and Q(s,M), shape (B)
	uses                []nets.BNUse
}

// addCriticLoss adds the critic loss over a minibatch to x's graph:
//
//	hard = MSE(r, Q(s,P)), penalty = MSE(stop_grad(Q(s,P)), Q(s,M)), loss = hard + w penalty,
//
// with w a scalar input: the penalty switch (1 or 0) changes between runs without rebuilding,
// and the penalty is computed either way. x are the states, p and m the stored hard and soft
// actions (B, N, N), r the rewards (B); c are the critic's parameters, the only nodes with
// gradients. Batch norm uses batch statistics.
func addCriticLoss(a nets.Arch, c nets.NodeSet, x, p, m, r, w *G.Node) (*criticLoss, error) {
	ctx := &nets.CriticCtx{P: c}
	qs, err := a.Critic(ctx, x, []*G.Node{p, m})
	if err != nil {
		return nil, err
	}
	l := &criticLoss{qHard: qs[0], qSoft: qs[1], uses: ctx.Uses}
	if l.hard, err = mse(l.qHard, r); err != nil {
		return nil, err
	}
	target, err := ops.StopGradient(l.qHard)
	if err != nil {
		return nil, err
	}
	if l.penalty, err = mse(l.qSoft, target); err != nil {
		return nil, err
	}
	wp, err := G.Mul(w, l.penalty)
	if err != nil {
		return nil, err
	}
	if l.loss, err = G.Add(l.hard, wp); err != nil {
		return nil, err
	}
	return l, nil
}

// mse adds mean((a - b)^2).
func mse(a, b *G.Node) (*G.Node, error) {
	d, err := G.Sub(a, b)
	if err != nil {
		return nil, err
	}
	if d, err = G.Square(d); err != nil {
		return nil, err
	}
	return G.Mean(d)
}

// addPolicy adds the policy M = Sinkhorn(X / tau) over the actor's scores X for states x: the
// one Sinkhorn layer of every SPG model's policy. Its tau and L are the live ones, set from the
// step's Hyper before every run (setSinkhorn), never at graph build.
func addPolicy(a nets.Arch, x *G.Node, an nets.NodeSet) (*G.Node, *layers.SinkhornLayer, error) {
	scores, err := a.Actor(x, an)
	if err != nil {
		return nil, nil, err
	}
	return layers.Sinkhorn(scores)
}

// actorLoss are the nodes of the actor's training loss.
type actorLoss struct {
	loss *G.Node // -mean Q(s, M'), or -mean Q(s, Hungarian(M')) when the actor acts hard
	m    *G.Node // M' = actor(s)
	q    *G.Node // Q(s, M'), shape (B)
	sk   *layers.SinkhornLayer
}

// addActorLoss adds -mean Q(s, M') with M' = actor(s) fresh, to x's graph: its gradient with
// respect to the actor's parameters an is the sampled policy gradient of Algorithm 1, taken
// through the critic with respect to M' (the critic's parameters cn are constants here; batch
// norm uses batch statistics, as the critic in PyTorch's training mode). With hard, the critic
// scores Hungarian(M') instead (of log M' with byLog, the policy's rounding) and its gradient
// reaches M' straight through the rounding.
func addActorLoss(a nets.Arch, an, cn nets.NodeSet, x *G.Node, hard, byLog bool) (*actorLoss, error) {
	m, sk, err := addPolicy(a, x, an)
	if err != nil {
		return nil, err
	}
	act := m
	if hard {
		if act, err = ops.RoundStraightThrough(m, byLog); err != nil {
			return nil, err
		}
	}
	qs, err := a.Critic(&nets.CriticCtx{P: cn, Frozen: true, ActionGrad: true}, x, []*G.Node{act})
	if err != nil {
		return nil, err
	}
	mean, err := G.Mean(qs[0])
	if err != nil {
		return nil, err
	}
	loss, err := G.Neg(mean)
	if err != nil {
		return nil, err
	}
	return &actorLoss{loss: loss, m: m, q: qs[0], sk: sk}, nil
}
