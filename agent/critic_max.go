package agent

import (
	"fmt"

	"spg-tui/agent/nets"
	"spg-tui/envs"
	"spg-tui/linalg/assign"
	"spg-tui/run"
)

// CriticMaxAccepts reports why the policy's critic has no permutation maximum SolveCriticMax
// can find, or nil: the critic must be linear in the action, Q(s, A) = <A, G(s)>, which the
// bilinear critics are on mwm and sort (on tsp it is quadratic, the paper's critic is neither).
func (p *Policy) CriticMaxAccepts() error {
	c := p.cfg
	if run.ModelOf(c).Kind != run.KindSPG || c.Critic != run.CriticBilinear || (c.Task != envs.TaskMWM && c.Task != envs.TaskSort) {
		return fmt.Errorf("critic-max: %s on %s has no critic linear in the action (only the bilinear critics on mwm and sort are)", run.ModelTitle(c), c.Task)
	}
	return nil
}

// SolveCriticMax decodes every instance by the permutation its critic rates highest, the
// Hungarian maximum of G(s) where Q(s, A) = <A, G(s)>: a diagnostic of what the critic has
// learned, beside the actor's decode. G_ij is read as Q(s, E_ij), E_ij the matrix with a single
// one at (i, j), N^2 critic rows per instance.
func (p *Policy) SolveCriticMax(env envs.Env, insts []envs.Instance) ([]envs.Solution, error) {
	if err := p.CriticMaxAccepts(); err != nil {
		return nil, err
	}
	if err := p.Accepts(env.Task(), env.N()); err != nil {
		return nil, err
	}
	l, err := p.learnerAt(env.N())
	if err != nil {
		return nil, err
	}
	n := env.N()
	buf := newCriticMaxBuffers(p.cfg.Task, n)
	rowToCol := make([]int, n)
	out := make([]envs.Solution, len(insts))
	for i, inst := range insts {
		if err := criticMaxRows(l, p.cfg.Task, n, inst, buf, rowToCol); err != nil {
			return nil, fmt.Errorf("instance %d: %w", i, err)
		}
		perm := make([]int, n)
		nets.ActionToPerm(rowToCol, perm)
		out[i] = envs.Solution{Index: i, Perm: perm, Objective: env.Objective(inst, perm)}
	}
	return out, nil
}

// criticMaxBuffers are criticMaxRows' inputs and outputs for N^2 critic rows.
type criticMaxBuffers struct {
	states, units, qHard, g []float32
}

func newCriticMaxBuffers(task envs.Task, n int) *criticMaxBuffers {
	nn := n * n
	b := &criticMaxBuffers{states: make([]float32, nn*nets.StateLen(task, n)), units: make([]float32, nn*nn),
		qHard: make([]float32, nn), g: make([]float32, nn)}
	for k := range nn {
		b.units[k*nn+k] = 1
	}
	return b
}

// criticMaxRows writes into rowToCol the action (row i to column rowToCol[i]) that maximises the
// linear critic of l on inst: G_ij = Q(s, E_ij), then the Hungarian maximum of G.
func criticMaxRows(l Learner, task envs.Task, n int, inst envs.Instance, b *criticMaxBuffers, rowToCol []int) error {
	nn, sl := n*n, nets.StateLen(task, n)
	nets.Featurize(task, inst, b.states[:sl])
	for k := 1; k < nn; k++ {
		copy(b.states[k*sl:(k+1)*sl], b.states[:sl])
	}
	if err := l.Q(b.states, b.units, b.units, nn, b.qHard, b.g); err != nil {
		return fmt.Errorf("critic: %w", err)
	}
	return assign.RoundBatch(b.g, 1, n, rowToCol)
}
