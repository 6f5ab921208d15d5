package eval

import (
	"fmt"

	"spg-tui/agent/learn"
	"spg-tui/agent/nets"
	"spg-tui/envs"
	"spg-tui/linalg/assign"
	"spg-tui/run"
)

// CriticMaxAccepts reports why the policy's critic has no permutation maximum SolveCriticMax
// can find, or nil: the critic must be linear in the action, Q(s, A) = <A, G(s)>, which the
// bilinear critics are on two point sets and on values (mwm, sort; on a tour and on two graphs
// they are quadratic, the paper's critic is neither).
func (p *Policy) CriticMaxAccepts() error {
	c := p.cfg
	if c.Entry.Kind != run.KindSPG || c.Critic != run.CriticBilinear || !(c.Facts.PointSets() || c.Facts.Values()) {
		return fmt.Errorf("critic-max: %s on %s has no critic linear in the action (only the bilinear critics on mwm and sort are)", c.Entry.Title, c.Task)
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
	buf := newCriticMaxBuffers(p.cfg.Facts, n)
	rowToCol := make([]int, n)
	out := make([]envs.Solution, len(insts))
	for i, inst := range insts {
		if err := criticMaxRows(l, p.cfg.Facts, n, inst, buf, rowToCol); err != nil {
			return nil, fmt.Errorf("instance %d: %w", i, err)
		}
		perm := make([]int, n)
		nets.ActionToPerm(rowToCol, perm)
		out[i] = envs.Solution{Index: i, Perm: perm, Objective: env.Objective(inst, perm)}
	}
	return out, nil
}

// criticMaxChunk is how many unit actions E_ij criticMaxRows scores per call of the critic:
// N^2 at once would take N^4 floats of actions (400 MB at N = 100).
const criticMaxChunk = 128

// criticMaxBuffers are criticMaxRows' inputs and outputs for criticMaxChunk critic rows and the
// N^2 values of G.
type criticMaxBuffers struct {
	states, units, qHard, qSoft, g []float32
}

func newCriticMaxBuffers(f *envs.Facts, n int) *criticMaxBuffers {
	nn := n * n
	c := min(nn, criticMaxChunk)
	return &criticMaxBuffers{states: make([]float32, c*f.StateLen(n)), units: make([]float32, c*nn),
		qHard: make([]float32, c), qSoft: make([]float32, c), g: make([]float32, nn)}
}

// criticMaxRows writes into rowToCol the action (row i to column rowToCol[i]) that maximises the
// linear critic of l on inst: G_ij = Q(s, E_ij), then the Hungarian maximum of G.
func criticMaxRows(l learn.Learner, f *envs.Facts, n int, inst envs.Instance, b *criticMaxBuffers, rowToCol []int) error {
	nn, sl := n*n, f.StateLen(n)
	c := len(b.qHard)
	f.Featurize(inst, b.states[:sl])
	for k := 1; k < c; k++ {
		copy(b.states[k*sl:(k+1)*sl], b.states[:sl])
	}
	for lo := 0; lo < nn; lo += c {
		rows := min(c, nn-lo)
		clear(b.units)
		for r := range rows {
			b.units[r*nn+lo+r] = 1
		}
		if err := l.Q(b.states, b.units, b.units, rows, b.qHard, b.qSoft); err != nil {
			return fmt.Errorf("critic: %w", err)
		}
		copy(b.g[lo:lo+rows], b.qSoft[:rows])
	}
	return assign.RoundBatch(b.g, 1, n, rowToCol)
}
