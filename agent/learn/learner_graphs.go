package learn

import (
	G "gorgonia.org/gorgonia"
	"gorgonia.org/tensor"

	"spg-tui/agent/nets"
	"spg-tui/agent/ops"
	"spg-tui/agent/ops/layers"
	"spg-tui/run"
)

// The learner's four static graphs. They share the parameter tensors (bound as input values,
// updated in place by Adam); each has its own TapeMachine.

// inputNode adds a float32 input node of the given shape bound to a new tensor, returned too.
func inputNode(g *G.ExprGraph, name string, shape ...int) (*G.Node, *tensor.Dense) {
	t := tensor.New(tensor.WithShape(shape...), tensor.Of(tensor.Float32))
	return G.NewTensor(g, tensor.Float32, len(shape), G.WithShape(shape...), G.WithName(name), G.WithValue(t)), t
}

// readInto makes each run copy n's value into a buffer of n's shape that stays valid after the
// run (a node's own value may be overwritten in place later in the run).
func readInto(n *G.Node) *G.Value {
	var v G.Value
	if n.IsScalar() {
		v = G.NewF32(0)
	} else {
		v = tensor.New(tensor.WithShape(n.Shape().Clone()...), tensor.Of(tensor.Float32))
	}
	G.Read(n, &v)
	return &v
}

// actGraph is the actor's forward pass for acting.
type actGraph struct {
	vm G.VM
	x  *tensor.Dense
	m  *G.Value
	sk *layers.SinkhornLayer
}

func newActGraph(l *spgLearner) (*actGraph, error) {
	g := G.NewGraph()
	xn, x := inputNode(g, "x", l.arch.StateShape(l.b)...)
	an, _ := l.actor.Nodes(g, "actor.")
	m, sk, err := addPolicy(l.arch, xn, an)
	if err != nil {
		return nil, err
	}
	ag := &actGraph{x: x, m: readInto(m), sk: sk}
	ag.vm = G.NewTapeMachine(g, G.WithEngine(ops.Engine()))
	return ag, nil
}

// criticGraph is the critic's loss over a minibatch with its gradient.
type criticGraph struct {
	vm                           G.VM
	x, p, m, r                   *tensor.Dense
	w                            *G.F32 // penalty weight, 0 or 1
	loss                         *criticLoss
	wrt                          []*G.Node
	lossV, hardV, penV, qHV, qSV *G.Value
}

func newCriticGraph(l *spgLearner) (*criticGraph, error) {
	g := G.NewGraph()
	n := l.cfg.N
	cg := &criticGraph{w: G.NewF32(1)}
	var xn, pn, mn, rn *G.Node
	xn, cg.x = inputNode(g, "x", l.arch.StateShape(l.b)...)
	pn, cg.p = inputNode(g, "P", l.b, n, n)
	mn, cg.m = inputNode(g, "M", l.b, n, n)
	rn, cg.r = inputNode(g, "r", l.b)
	wn := G.NewScalar(g, tensor.Float32, G.WithName("penalty_weight"), G.WithValue(cg.w))
	var cn nets.NodeSet
	cn, cg.wrt = l.critic.Nodes(g, "critic.")
	var err error
	if cg.loss, err = addCriticLoss(l.arch, cn, xn, pn, mn, rn, wn); err != nil {
		return nil, err
	}
	if len(cg.wrt) > 0 { // the exact critic has nothing to learn, but its losses are still read
		if _, err := G.Grad(cg.loss.loss, cg.wrt...); err != nil {
			return nil, err
		}
	}
	cg.lossV, cg.hardV, cg.penV = readInto(cg.loss.loss), readInto(cg.loss.hard), readInto(cg.loss.penalty)
	cg.qHV, cg.qSV = readInto(cg.loss.qHard), readInto(cg.loss.qSoft)
	cg.vm = G.NewTapeMachine(g, G.BindDualValues(cg.wrt...), G.WithEngine(ops.Engine()))
	return cg, nil
}

// actorGraph is the actor's loss through the critic with its gradient; it reads the critic
// graph's state tensor.
type actorGraph struct {
	vm    G.VM
	loss  *actorLoss
	wrt   []*G.Node
	lossV *G.Value
}

func newActorGraph(l *spgLearner) (*actorGraph, error) {
	g := G.NewGraph()
	s := l.arch.StateShape(l.b)
	xn := G.NewTensor(g, tensor.Float32, len(s), G.WithShape(s...), G.WithName("x"), G.WithValue(l.crit.x))
	ag := &actorGraph{}
	var an nets.NodeSet
	an, ag.wrt = l.actor.Nodes(g, "actor.")
	critic := l.critic
	if l.target != nil {
		critic = l.target
	}
	cn, _ := critic.Nodes(g, "critic.")
	var err error
	if ag.loss, err = addActorLoss(l.arch, an, cn, xn, l.cfg.ActorAt == run.ActorAtHard, l.cfg.Rounding == run.RoundingLog); err != nil {
		return nil, err
	}
	if _, err := G.Grad(ag.loss.loss, ag.wrt...); err != nil {
		return nil, err
	}
	ag.lossV = readInto(ag.loss.loss)
	ag.vm = G.NewTapeMachine(g, G.BindDualValues(ag.wrt...), G.WithEngine(ops.Engine()))
	return ag, nil
}

// qGraph is the critic's Q(s,P) and Q(s,M) with batch norm in inference mode.
type qGraph struct {
	vm       G.VM
	x, p, m  *tensor.Dense
	qHV, qSV *G.Value
}

func newQGraph(l *spgLearner) (*qGraph, error) {
	g := G.NewGraph()
	n := l.cfg.N
	qg := &qGraph{}
	var xn, pn, mn *G.Node
	xn, qg.x = inputNode(g, "x", l.arch.StateShape(l.b)...)
	pn, qg.p = inputNode(g, "P", l.b, n, n)
	mn, qg.m = inputNode(g, "M", l.b, n, n)
	cn, _ := l.critic.Nodes(g, "critic.")
	rn, _ := l.running.Nodes(g, "running.")
	qs, err := l.arch.Critic(&nets.CriticCtx{P: cn, Running: rn}, xn, []*G.Node{pn, mn})
	if err != nil {
		return nil, err
	}
	qg.qHV, qg.qSV = readInto(qs[0]), readInto(qs[1])
	qg.vm = G.NewTapeMachine(g, G.WithEngine(ops.Engine()))
	return qg, nil
}
