package eval

import (
	"cmp"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"sync"

	"spg-tui/agent/learn"
	"spg-tui/agent/nets"
	"spg-tui/envs"
	"spg-tui/envs/tsp"
	"spg-tui/linalg/assign"
	"spg-tui/linalg/parallel"
	"spg-tui/linalg/sinkhorn"
	"spg-tui/run"
)

// DefaultGumbelScale is --gumbel-scale's default, in relative units (ScoreSpread(X)/N^2 per
// entry). On TSP the best scale of a grid was 12 in these units at N = 10, 20, 50 and 100, for
// every checkpoint tried (actor rates 1e-5 and 1e-4, whose spreads differ by 20x; K = 16 and
// 128) and on MWM-20 and 25: docs/results.md, "Sampling noise relative to the score spread".
const DefaultGumbelScale = 12

// SuccessorGumbelScale is DefaultGumbelScale for the successor models (run.Model.Successor),
// whose spread is taken off the diagonal: a grid on 200 validation instances (seed 777) put
// their best scale at 48-96 at TSP-20 (K = 16 and 128, x8, three checkpoints), where 12 scored
// 0.01-0.02 longer (docs/results.md, "The successor action").
const SuccessorGumbelScale = 96

// DefaultGumbelScaleOf is the relative --gumbel-scale measured best for model m on instances of
// n items: m.SampleSpread n^2 where the model gives its noise in units of the spread itself,
// else SuccessorGumbelScale for a successor action and DefaultGumbelScale for another.
func DefaultGumbelScaleOf(m run.Model, n int) float64 {
	switch {
	case m.SampleSpread > 0:
		return m.SampleSpread * float64(n*n)
	case m.Successor:
		return SuccessorGumbelScale
	}
	return DefaultGumbelScale
}

// SingleDecode is the decoding of training's evaluations.
var SingleDecode = run.Decoding{Samples: 1, GumbelScale: DefaultGumbelScale}

// Scorer is a learner whose actor ends in a Sinkhorn layer: it can report the scores X that the
// layer normalises.
type Scorer interface {
	// Scores writes X and M = S^L(X/tau) (b x N x N each) for b featurised states.
	Scores(states []float32, b int, h learn.Hyper, x, m []float32) error
}

// ErrNoScores is the error for sampling from a policy without Sinkhorn scores.
var ErrNoScores = errors.New("this model has no Sinkhorn layer to sample from: use --samples 1 without --augment")

// SampledEval scores the sampled decode of k candidates per instance on set (model m's default
// noise scale, no augmentation, noise seeded by seed), as a validation reports it beside the
// single decode.
func SampledEval(l learn.Learner, m run.Model, env envs.Env, set *Set, h learn.Hyper, k int, seed uint64) (*run.SampledEval, error) {
	perms := make([]int, len(set.Insts)*env.N())
	dec := run.Decoding{Samples: k, GumbelScale: DefaultGumbelScaleOf(m, env.N()), Noise: run.NoiseRelative, Seed: seed}
	if err := actSampled(l, set.Facts, env, set.Insts, h, dec, perms); err != nil {
		return nil, err
	}
	return &run.SampledEval{Samples: k, Metric: score(env, set, perms).Metric}, nil
}

// actSampled decodes insts of env, the task whose facts are f, by dec (see run.Decoding) and
// writes each instance's task permutation into perms (len(insts) x n).
func actSampled(l learn.Learner, f *envs.Facts, env envs.Env, insts []envs.Instance, h learn.Hyper, dec run.Decoding, perms []int) error {
	sc, ok := l.(Scorer)
	if !ok {
		return ErrNoScores
	}
	n := env.N()
	sl, nn := f.StateLen(n), n*n
	size := len(insts)
	best := make([]float64, size)
	chunk := chunkAt(size, n)
	states := make([]float32, chunk*sl)
	x, m := make([]float32, chunk*nn), make([]float32, chunk*nn)
	for v := range dec.Views() {
		for lo := 0; lo < size; lo += chunk {
			k := min(chunk, size-lo)
			for i := range k {
				inst := insts[lo+i]
				if v > 0 {
					inst = inst.MapPoints(func(p envs.Point) envs.Point { return envs.SquareSymmetry(v, p) })
				}
				f.Featurize(inst, states[i*sl:(i+1)*sl])
			}
			if err := sc.Scores(states[:k*sl], k, h, x[:k*nn], m[:k*nn]); err != nil {
				return fmt.Errorf("actor: %w", err)
			}
			if err := learn.CheckFinite(m[:k*nn], "M", nn); err != nil {
				return fmt.Errorf("%w (+%d)", err, lo)
			}
			var (
				mu       sync.Mutex
				firstErr error
				errAt    = size
			)
			parallel.For(k, func(_, a, b int) {
				c := newCandidates(n)
				for i := a; i < b; i++ {
					idx := lo + i
					rng := rand.New(rand.NewPCG(dec.Seed, uint64(envs.SquareSymmetries*idx+v)))
					first := v == 0
					err := c.decode(env, insts[idx], x[i*nn:(i+1)*nn], m[i*nn:(i+1)*nn], h, dec, rng,
						perms[idx*n:(idx+1)*n], &best[idx], first)
					if err != nil {
						mu.Lock()
						if idx < errAt {
							errAt, firstErr = idx, err
						}
						mu.Unlock()
					}
				}
			})
			if firstErr != nil {
				return fmt.Errorf("instance %d: %w", errAt, firstErr)
			}
		}
	}
	return nil
}

// candidates holds one worker's buffers for decoding one instance at a time.
type candidates struct {
	n        int
	solver   assign.Solver
	y, ms    []float32
	rowToCol []int
	perm     []int
	action   learn.ActionDecoder
	logM     []float64 // the candidate's log M, for the tour decodes that read it
	near     []int     // run.Repair2OptScores's candidates: the policy's best-scored cities from each city
	pos      []int     // the repair's scratch
}

func newCandidates(n int) *candidates {
	return &candidates{n: n, y: make([]float32, n*n), ms: make([]float32, n*n), rowToCol: make([]int, n), perm: make([]int, n)}
}

// decode runs one view's candidates of one instance (scores x, soft action m) and keeps in
// bestPerm and bestObj the best on inst so far; first says bestPerm holds nothing yet.
func (c *candidates) decode(env envs.Env, inst envs.Instance, x, m []float32, h learn.Hyper, dec run.Decoding,
	rng *rand.Rand, bestPerm []int, bestObj *float64, first bool) error {
	n := c.n
	scale := float32(dec.GumbelScale)
	if dec.Units() == run.NoiseRelative {
		scale *= float32(ScoreSpread(x, n, h.Successor) / float64(n*n))
	}
	c.action.SetInstance(h, inst)
	if dec.Repair == run.Repair2OptScores {
		c.scoreCandidates(h, x)
	}
	for s := range dec.Samples {
		soft, scores := m, x
		if s > 0 {
			for j, xj := range x {
				c.y[j] = xj + scale*float32(gumbel(rng))
			}
			scores = c.y
			if dec.Tour != run.DecodeGreedy {
				sinkhorn.Forward(c.ms, c.y, 1, n, float32(h.Tau), h.SinkhornIters, nil)
				soft = c.ms
			}
		}
		if err := c.toTour(h, dec, soft, scores); err != nil {
			return err
		}
		c.repair(dec)
		obj := env.Objective(inst, c.perm)
		if first || Better(env, obj, *bestObj) {
			copy(bestPerm, c.perm)
			*bestObj, first = obj, false
		}
	}
	return nil
}

// toTour writes into c.perm the tour of one candidate, whose Sinkhorn output is soft and whose
// scores (the actor's, perturbed or not) are scores, by dec.Tour.
func (c *candidates) toTour(h learn.Hyper, dec run.Decoding, soft, scores []float32) error {
	n := c.n
	if dec.PolicyTour() {
		if len(c.logM) != n*n {
			c.logM = make([]float64, n*n)
		}
		sinkhorn.LogM(c.logM, scores, n, h.Tau, h.SinkhornIters)
	}
	if dec.Tour == run.DecodeGreedy {
		tsp.GreedyEdges(c.logM, n, c.perm)
		return nil
	}
	round := assign.Round[float32]
	if h.RoundLog {
		round = assign.RoundLog[float32]
	}
	if err := round(&c.solver, soft, n, c.rowToCol); err != nil {
		return err
	}
	if dec.Tour == run.DecodePatchScores {
		c.action.PatchByScores(c.rowToCol, c.logM, dec.PatchWeight, c.perm)
	} else {
		c.action.ToPerm(h, c.rowToCol, c.perm)
	}
	return nil
}

// scoreCandidates fills c.near with the run.RepairScoreCandidates cities j != i of highest
// log M_ij + log M_ji for each city i, M the policy's Sinkhorn output of the scores x; ties go
// to the lower index.
func (c *candidates) scoreCandidates(h learn.Hyper, x []float32) {
	n := c.n
	k := min(run.RepairScoreCandidates, n-1)
	if len(c.logM) != n*n {
		c.logM = make([]float64, n*n)
	}
	sinkhorn.LogM(c.logM, x, n, h.Tau, h.SinkhornIters)
	c.near = c.near[:0]
	others := make([]int, 0, n-1)
	for i := range n {
		others = others[:0]
		for j := range n {
			if j != i {
				others = append(others, j)
			}
		}
		sym := func(j int) float64 { return c.logM[i*n+j] + c.logM[j*n+i] }
		slices.SortStableFunc(others, func(a, b int) int { return cmp.Compare(sym(b), sym(a)) })
		c.near = append(c.near, others[:k]...)
	}
}

// repair improves the candidate tour c.perm by dec.Repair's search on the distances.
func (c *candidates) repair(dec run.Decoding) {
	if !dec.Repaired() {
		return
	}
	n, d := c.n, c.action.Distances()
	switch dec.Repair {
	case run.Repair2Opt:
		tsp.TwoOpt(d, n, c.perm)
	case run.Repair2OptScores:
		if len(c.pos) != n {
			c.pos = make([]int, n)
		}
		tsp.TwoOptNear(d, n, c.near, len(c.near)/n, c.perm, c.pos)
	case run.RepairLocalSearch:
		tsp.LocalSearch(d, n, c.perm)
	}
}

// ScoreSpread is the root mean square of the n x n scores x after their row and column means
// are removed: what is left of X once the constants Sinkhorn normalises away are gone, the
// scale against which noise changes the Hungarian maximum. With offDiagonal (a successor
// actor's scores, whose diagonal is the constant nets.SelfLoopScore and whose far pairs, if it
// bars them, nets.FarScore) see offDiagonalSpread.
func ScoreSpread(x []float32, n int, offDiagonal bool) float64 {
	if offDiagonal {
		return offDiagonalSpread(x, n)
	}
	row, col := make([]float64, n), make([]float64, n)
	var all float64
	for i := range n {
		for j := range n {
			v := float64(x[i*n+j])
			row[i] += v
			col[j] += v
			all += v
		}
	}
	inv := 1 / float64(n)
	var ss float64
	for i := range n {
		for j := range n {
			d := float64(x[i*n+j]) - (row[i]+col[j])*inv + all*inv*inv
			ss += d * d
		}
	}
	return math.Sqrt(ss) * inv
}

// offDiagonalRounds is how many times offDiagonalSpread removes the row and then the column
// means: off the diagonal one round no longer removes row and column constants exactly, and
// each round shrinks what is left of them about n - 1 times.
const offDiagonalRounds = 8

// offDiagonalSpread is ScoreSpread over the entries off the diagonal and above nets.FarScore (the
// pairs SPG+Successor-Local bars are at it), whose other values are ignored: the row means and
// then the column means of the kept entries are removed, offDiagonalRounds times, then the root
// mean square is taken.
func offDiagonalSpread(x []float32, n int) float64 {
	y, kept := make([]float64, n*n), make([]bool, n*n)
	var count int
	for k, v := range x {
		y[k] = float64(v)
		if kept[k] = k/n != k%n && v > nets.FarScore; kept[k] {
			count++
		}
	}
	if count == 0 {
		return 0
	}
	for range offDiagonalRounds {
		removeKeptMeans(y, kept, n, n, 1) // rows
		removeKeptMeans(y, kept, n, 1, n) // columns
	}
	var ss float64
	for k, v := range y {
		if kept[k] {
			ss += v * v
		}
	}
	return math.Sqrt(ss / float64(count))
}

// removeKeptMeans subtracts from each of the n lines of the n x n matrix y (line l's k-th entry at
// l*lineStride + k*step: rows with (n, 1), columns with (1, n)) the mean of its kept entries.
func removeKeptMeans(y []float64, kept []bool, n, lineStride, step int) {
	for l := range n {
		line := l * lineStride
		var s float64
		var count int
		for k := range n {
			if kept[line+k*step] {
				s += y[line+k*step]
				count++
			}
		}
		if count == 0 {
			continue
		}
		inv := 1 / float64(count)
		for k := range n {
			y[line+k*step] -= s * inv
		}
	}
}

// gumbel draws from Gumbel(0, 1) by inversion, -log(-log u) with u uniform in (0, 1).
func gumbel(rng *rand.Rand) float64 {
	for {
		if u := rng.Float64(); u > 0 {
			return -math.Log(-math.Log(u))
		}
	}
}
