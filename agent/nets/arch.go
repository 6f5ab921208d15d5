package nets

import (
	"errors"
	"fmt"
	"slices"

	G "gorgonia.org/gorgonia"

	"spg-tui/agent/ops/layers"
	"spg-tui/envs"
)

// Arch is the actor-critic networks of one SPG model (the paper's two architectures and
// spg-tui's equivariant ones). Its builders add graph nodes over
// parameter nodes of any float dtype: float32 for training, float64 for gradient checks.
type Arch interface {
	// StateShape is the shape of a batch of b featurised states.
	StateShape(b int) []int
	// ActorSpecs and CriticSpecs describe the two networks' parameters.
	ActorSpecs() []ParamSpec
	CriticSpecs() []ParamSpec
	// BNLayers names the critic's batch-norm layers (see CriticCtx.norm).
	BNLayers() []string
	// Actor adds the actor's scores X (B, N, N) for states x. The policy is M = Sinkhorn(X / tau)
	// with the run's live tau and L: the learner adds that layer, once, over every actor's X,
	// and the sampled decode perturbs X before its own Sinkhorn.
	Actor(x *G.Node, p NodeSet) (*G.Node, error)
	// Critic adds Q(x, a) (shape (B)) for each action a (B, N, N), computing the part that
	// depends on the state only once.
	Critic(c *CriticCtx, x *G.Node, acts []*G.Node) ([]*G.Node, error)
	// countStep adds the GEMM FLOPs of one training step to c (see StepFLOPs).
	countStep(c *flopCounter)
}

// archs builds the networks of each model of run.Models, by name: size n, hidden width h, for
// the task's states (envs.State); a model refuses states it cannot read. Each model's file
// registers its own.
var archs = map[string]func(n, h int, f *envs.Facts) (Arch, error){}

// registerArch makes the model called name buildable; each model's file calls it once.
func registerArch(name string, build func(n, h int, f *envs.Facts) (Arch, error)) {
	if _, dup := archs[name]; dup {
		panic("nets: model " + name + " registered twice")
	}
	archs[name] = build
}

// newArch returns model's architecture for the task of facts f at size n with hidden width h.
func newArch(model string, f *envs.Facts, n, h int) (Arch, error) {
	build, ok := archs[model]
	if !ok {
		return nil, fmt.Errorf("model %q: agent has no networks for it", model)
	}
	a, err := build(n, h, f)
	if err != nil {
		return nil, fmt.Errorf("model %q on %s: %v", model, f.Task, err)
	}
	return a, nil
}

// errStates is a model's refusal of a task's states that its networks cannot read.
var errStates = errors.New("its networks cannot read the task's states")

// CriticCtx is how the critic is built into one graph.
type CriticCtx struct {
	// P are the critic's parameter nodes.
	P NodeSet
	// Frozen: the critic's parameters are constants here (the actor's update).
	Frozen bool
	// ActionGrad: gradients flow back into the actions (the actor's update, through M').
	ActionGrad bool
	// Running, when non-nil, selects inference-mode batch norm with these running statistics
	// (named layer.mean and layer.var); otherwise batch norm uses batch statistics.
	Running NodeSet
	// Uses lists the training-mode batch-norm applications in the order PyTorch would run them
	// (the critic on P, then on M), for the running-statistics updates after a run.
	Uses []BNUse
}

// perAction builds the action-dependent rest of the critic for each action and returns their Qs.
// PyTorch runs the whole critic once per action, so the state-only batch-norm layers built since
// first see (and fold into their running statistics) the same batch once per action: their uses
// are repeated for every further action.
func (c *CriticCtx) perAction(first int, acts []*G.Node, rest func(act *G.Node) (*G.Node, error)) ([]*G.Node, error) {
	shared := slices.Clone(c.Uses[first:])
	qs := make([]*G.Node, len(acts))
	for i, act := range acts {
		if i > 0 {
			c.Uses = append(c.Uses, shared...)
		}
		q, err := rest(act)
		if err != nil {
			return nil, err
		}
		qs[i] = q
	}
	return qs, nil
}

// BNUse is one application of batch-norm layer Name.
type BNUse struct {
	Name  string
	Layer *layers.BatchNormLayer
}

// dense adds the critic's linear layer name (weights name.W, bias name.b if it has one).
// data marks x as an input that needs no gradient.
func (c *CriticCtx) dense(x *G.Node, name string, act layers.Activation, data bool) (*G.Node, error) {
	return layers.Dense(x, c.P.Get(name+".W"), c.P[name+".b"], layers.DenseOptions{Act: act, NoInputGrad: data, Frozen: c.Frozen})
}

// norm adds batch-norm layer name over the item channels of x (B, N, F), then LeakyReLU.
func (c *CriticCtx) norm(x *G.Node, name string) (*G.Node, error) {
	gamma, beta := c.P.Get(name+".gamma"), c.P.Get(name+".beta")
	if c.Running != nil {
		return layers.BatchNormInference(x, gamma, beta, c.Running.Get(name+".mean"), c.Running.Get(name+".var"), layers.LeakyReLU)
	}
	y, l, err := layers.BatchNorm(x, gamma, beta, layers.BatchNormOptions{Act: layers.LeakyReLU, Frozen: c.Frozen})
	if err != nil {
		return nil, err
	}
	c.Uses = append(c.Uses, BNUse{Name: name, Layer: l})
	return y, nil
}

// denseNorm adds LeakyReLU(BN(x W + b)) with layer and batch norm both called name.
func (c *CriticCtx) denseNorm(x *G.Node, name string, data bool) (*G.Node, error) {
	y, err := c.dense(x, name, layers.Identity, data)
	if err != nil {
		return nil, err
	}
	return c.norm(y, name)
}

// head adds Q = (Y W1)^T W2 for Y (B, N, F), W1 (F, 1) and W2 (N, 1), no biases: shape (B).
func (c *CriticCtx) head(y *G.Node, w1, w2 string) (*G.Node, error) {
	s := y.Shape()
	o := layers.DenseOptions{Frozen: c.Frozen}
	v, err := layers.Dense(y, c.P.Get(w1), nil, o) // (B, N, 1)
	if err != nil {
		return nil, err
	}
	if v, err = G.Reshape(v, []int{s[0], s[1]}); err != nil {
		return nil, err
	}
	if v, err = layers.Dense(v, c.P.Get(w2), nil, o); err != nil { // (B, 1)
		return nil, err
	}
	return G.Reshape(v, []int{s[0]})
}
