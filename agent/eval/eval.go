package eval

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sync/atomic"

	"spg-tui/agent/checkpoint"
	"spg-tui/agent/device"
	"spg-tui/agent/learn"
	"spg-tui/envs"
	"spg-tui/linalg/assign"
	"spg-tui/linalg/perm"
	"spg-tui/run"
	"spg-tui/run/stats"
)

// Evaluation sizes: the fixed validation states of the Q scatter (the paper's Figure 2), the
// sample instances sent with each validation, and the chunk the policy acts on at a time.
const (
	scatterStates = 100
	SampleCount   = 8
	evalChunk     = 256
)

// chunkAt is the number of instances of size n of size in all the policy acts on at a time:
// evalChunk, fewer above run.MaxN so that the chunk's n x n matrices take what evalChunk's
// take at MaxN (66 MB of M) at any decoding size.
func chunkAt(size, n int) int {
	return min(size, evalChunk, max(1, evalChunk*run.MaxN*run.MaxN/(n*n)))
}

// ErrStopped ends a long computation that a Stop interrupted.
var ErrStopped = errors.New("stopped")

// errNoReference refuses to score, before its references are solved, a set whose metric is
// scored against the optimum per instance.
var errNoReference = errors.New("the metric needs the references, which are not solved yet")

// Reference holds the reference solutions of an evaluation set and, for validation, the
// task's baselines. It is cached in the run directory: the Held-Karp optima of TSP-20 take
// minutes.
type Reference struct {
	Task envs.Task `json:"task"`
	N    int       `json:"n"`
	Seed uint64    `json:"seed"`
	Size int       `json:"size"`
	// Exact reports whether Best is optimal; otherwise (tsp beyond Held-Karp's reach) Best is the
	// shortest tour of the classical solvers, and there is no optimality gap.
	Exact      bool               `json:"exact"`
	Best       []envs.Solution    `json:"best"`
	BestSolver []string           `json:"best_solver"`
	References map[string]float64 `json:"references,omitempty"`
	// InstancesSHA256 is instancesHash of the instances solved, which a shared cache entry must
	// match; files written before it existed have none.
	InstancesSHA256 string `json:"instances_sha256,omitempty"`
	// Checksum binds the whole entry to the instances and envs.SolverVersion (checksum): the
	// values that cannot be re-derived cheaply (a classical solver's mean) are trusted only
	// through it. Files written before it existed have none and are solved again.
	Checksum string `json:"checksum,omitempty"`
}

// Better reports whether objective a beats b under env's direction.
func Better(env envs.Env, a, b float64) bool {
	if env.Maximize() {
		return a > b
	}
	return a < b
}

// metricMean is the task metric of a set of solutions, averaged over the instances.
func metricMean(metric envs.Metric, sols []envs.Solution, ref *Reference) float64 {
	return stats.Mean(metric.Score(solutionObjectives(sols), solutionObjectives(ref.Best)))
}

// solutionObjectives lists the solutions' objectives.
func solutionObjectives(sols []envs.Solution) []float64 {
	out := make([]float64, len(sols))
	for i, s := range sols {
		out[i] = s.Objective
	}
	return out
}

// LoadReference returns the cached reference of a dataset from path, or computes and caches it.
func LoadReference(path string, env envs.Env, ds envs.Dataset, insts []envs.Instance, baselines bool, stop *atomic.Bool) (*Reference, error) {
	var ref Reference
	hash := instancesHash(insts)
	if readReference(path, ds, &ref) == nil && ref.fits(env, ds, baselines) && ref.check(env, insts, hash) == nil {
		return &ref, nil
	}
	r, err := computeReference(env, ds.Seed, insts, baselines, stop, new(atomic.Int64))
	if err != nil {
		return nil, err
	}
	r.InstancesSHA256 = hash
	return r, writeReference(path, r)
}

// Set is a dataset prepared for evaluation: instances, featurised states and references.
type Set struct {
	Split envs.Split
	// Facts are the facts of the instances' task, which featurised and scores them.
	Facts  *envs.Facts
	Insts  []envs.Instance
	States []float32
	Ref    *Reference
}

// NewSet generates the whole dataset ds, of the task whose facts are f, and featurises it.
func NewSet(split envs.Split, ds envs.Dataset, f *envs.Facts) *Set {
	sl := f.StateLen(ds.Env.N())
	set := &Set{Split: split, Facts: f, Insts: make([]envs.Instance, ds.Size), States: make([]float32, ds.Size*sl)}
	for i := range set.Insts {
		set.Insts[i] = ds.At(i)
		f.Featurize(set.Insts[i], set.States[i*sl:(i+1)*sl])
	}
	return set
}

// actDeterministic runs the deterministic policy (Sinkhorn at h's tau and L, Hungarian rounding,
// no exploration) on insts, featurised as states, chunkAt(len(insts), n) at a time, and writes each instance's
// task permutation into perms (len(insts) x n). visit, if not nil, sees each instance's M and
// rowToCol (the rounded action: for a successor action the cover, before its patching).
func actDeterministic(l learn.Learner, f *envs.Facts, n int, insts []envs.Instance, states []float32, h learn.Hyper,
	perms []int, visit func(i int, m []float32, rowToCol []int)) error {
	sl, size := f.StateLen(n), len(insts)
	var dec learn.ActionDecoder
	chunk := chunkAt(size, n)
	m := make([]float32, chunk*n*n)
	rowToCol := make([]int, chunk*n)
	for lo := 0; lo < size; lo += chunk {
		k := min(chunk, size-lo)
		if err := l.Act(states[lo*sl:(lo+k)*sl], k, h, m[:k*n*n]); err != nil {
			return fmt.Errorf("actor: %w", err)
		}
		if err := learn.CheckFinite(m[:k*n*n], "M", n*n); err != nil {
			return fmt.Errorf("%w (+%d)", err, lo)
		}
		if err := assign.RoundBatchBy(m[:k*n*n], k, n, rowToCol[:k*n], h.RoundLog); err != nil {
			return err
		}
		for i := range k {
			rc := rowToCol[i*n : (i+1)*n]
			dec.SetInstance(h, insts[lo+i])
			dec.ToPerm(h, rc, perms[(lo+i)*n:(lo+i+1)*n])
			if visit != nil {
				visit(lo+i, m[i*n*n:(i+1)*n*n], rc)
			}
		}
	}
	return nil
}

// Evaluate scores the deterministic policy on set. With extras (validation) it adds the Q
// scatter of the first scatterStates states (for learners with a critic) and the first
// SampleCount samples. A set whose references are not solved yet (Ref nil) is scored without
// them: no gap and no reference solutions of the samples; a metric scored against the optimum
// per instance cannot be, and is refused.
func Evaluate(l learn.Learner, env envs.Env, set *Set, h learn.Hyper, extras bool) (*run.Eval, error) {
	if set.Ref == nil && set.Facts.Metric.PerOptimum {
		return nil, errNoReference
	}
	n, size := env.N(), len(set.Insts)
	perms := make([]int, size*n)
	k := 0
	var sm, sp []float32
	if extras {
		k = min(scatterStates, size)
		sm, sp = make([]float32, k*n*n), make([]float32, k*n*n)
	}
	err := actDeterministic(l, set.Facts, n, set.Insts, set.States, h, perms, func(i int, m []float32, rc []int) {
		if i < k {
			copy(sm[i*n*n:], m)
			perm.ToMatrix(sp[i*n*n:(i+1)*n*n], rc)
		}
	})
	if err != nil {
		return nil, err
	}
	ev := score(env, set, perms)
	if !extras {
		return ev, nil
	}
	qh, qs := make([]float32, k), make([]float32, k)
	switch err := l.Q(set.States[:k*set.Facts.StateLen(n)], sp, sm, k, qh, qs); {
	case errors.Is(err, learn.ErrNoCritic):
	case err != nil:
		return nil, fmt.Errorf("critic: %w", err)
	default:
		if err := learn.CheckFinite(qh, "Q(s,P)", 1); err != nil {
			return nil, err
		}
		if err := learn.CheckFinite(qs, "Q(s,M)", 1); err != nil {
			return nil, err
		}
		ev.QHardScatter, ev.QSoftScatter = float64s(qh), float64s(qs)
	}
	for i := range min(SampleCount, size) {
		p := perms[i*n : (i+1)*n]
		m := sm[i*n*n : (i+1)*n*n]
		entropy, birkhoff := softPermStats(m, sp[i*n*n:(i+1)*n*n], n)
		sample := run.Sample{
			Index: i, Instance: set.Insts[i],
			Perm: append([]int(nil), p...), Objective: env.Objective(set.Insts[i], p),
			M: append([]float32(nil), m...), Entropy: entropy, Birkhoff: birkhoff,
		}
		if set.Ref != nil {
			sampleRef(set.Ref, i).Put(&sample)
		}
		ev.Samples = append(ev.Samples, sample)
	}
	return ev, nil
}

// sampleRef is the reference solution of instance i.
func sampleRef(ref *Reference, i int) run.SampleRef {
	return run.SampleRef{Index: i, Perm: ref.Best[i].Perm, Objective: ref.Best[i].Objective, Solver: ref.BestSolver[i]}
}

// FillOf is what ref gives the validations of set made before it was solved: the optimum's
// mean objective where the task reports a gap against an exact one, and the reference solutions
// of the sample instances (those Evaluate sends).
func FillOf(set *Set, ref *Reference) *run.ReferenceFill {
	f := &run.ReferenceFill{}
	if set.Facts.Metric.Gap && ref.Exact {
		f.Optimum = optimumMean(ref)
	}
	for i := range min(SampleCount, len(ref.Best)) {
		f.Samples = append(f.Samples, sampleRef(ref, i))
	}
	return f
}

// optimumMean is the mean objective of ref's best solutions, summed in instance order.
func optimumMean(ref *Reference) float64 {
	opt := 0.0
	for _, s := range ref.Best {
		opt += s.Objective
	}
	return opt / float64(len(ref.Best))
}

// score computes the metrics of the policy's permutations (size x n) on set.
func score(env envs.Env, set *Set, perms []int) *run.Eval {
	n, size := env.N(), len(set.Insts)
	obj, rew := make([]float64, size), make([]float64, size)
	for i, inst := range set.Insts {
		p := perms[i*n : (i+1)*n]
		obj[i], rew[i] = env.Objective(inst, p), env.Reward(inst, p)
	}
	metric := set.Facts.Metric
	var optima []float64
	if metric.PerOptimum {
		optima = solutionObjectives(set.Ref.Best)
	}
	ratios := metric.Score(obj, optima)
	ev := &run.Eval{Split: SplitName(set.Split), EvalReward: stats.Mean(rew), MetricName: metric.Name, Metric: stats.Mean(ratios)}
	if metric.PerOptimum {
		sum, opt := 0.0, 0.0
		for i := range obj {
			sum += obj[i]
			opt += optima[i]
		}
		ev.RatioMedian, ev.RatioOfMeans = stats.Median(ratios), sum/opt
	}
	ev.Also = alsoMeasures(set.Facts.Also, set.Insts, perms, n)
	if metric.Gap && set.Ref != nil && set.Ref.Exact {
		gap := run.GapOf(ev.Metric, optimumMean(set.Ref))
		ev.Gap = &gap
	}
	return ev
}

// alsoMeasures is each measure's mean over the instances where it applies (perms is len(insts) x
// n); nil when no measure applies anywhere.
func alsoMeasures(measures []envs.Measure, insts []envs.Instance, perms []int, n int) map[string]float64 {
	var out map[string]float64
	for _, m := range measures {
		var vals []float64
		for i, inst := range insts {
			if v, ok := m.Of(inst, perms[i*n:(i+1)*n]); ok {
				vals = append(vals, v)
			}
		}
		if len(vals) == 0 {
			continue
		}
		if out == nil {
			out = map[string]float64{}
		}
		out[m.Name] = stats.Mean(vals)
	}
	return out
}

// SplitName is the Eval.Split of a dataset split.
func SplitName(s envs.Split) string {
	if s == envs.Test {
		return "test"
	}
	return "val"
}

func float64s(x []float32) []float64 {
	out := make([]float64, len(x))
	for i, v := range x {
		out[i] = float64(v)
	}
	return out
}

// Policy is a trained actor loaded from a checkpoint, used deterministically: Sinkhorn at the
// checkpoint's tau and L, then Hungarian rounding, no exploration. Like its learner, it must
// not be used concurrently.
type Policy struct {
	// cfg is the checkpoint's configuration, its task and model resolved once on loading.
	cfg run.Spec
	// dev is where its learners compute.
	dev     *device.Device
	step    int
	learner learn.Learner
	// state is the learner's checkpoint bytes, from which sized builds the same networks at
	// another N for a model that runs at any (run.Model.AnyN).
	state  []byte
	sized  learn.Learner
	sizedN int
	// note says which checkpoint stands in for a run directory's missing best one.
	note string
}

// policyCheckpoint is the checkpoint path names: the file itself or, for a run directory, its
// best checkpoint. A run stopped before its first validation has none (best holds the policy
// that scored best on the validation set, and nothing was scored): its last checkpoint stands
// in, with a note saying so, rather than a best written from it that would claim a validation.
func policyCheckpoint(path string) (file, note string) {
	fi, err := os.Stat(path)
	if err != nil || !fi.IsDir() {
		return path, ""
	}
	best, last := filepath.Join(path, run.BestCheckpoint), filepath.Join(path, run.LastCheckpoint)
	if _, err := os.Stat(best); errors.Is(err, os.ErrNotExist) {
		if _, err := os.Stat(last); err == nil {
			return last, fmt.Sprintf("%s has no %s (the run stopped before its first validation): using %s", path, run.BestCheckpoint, run.LastCheckpoint)
		}
	}
	return best, ""
}

// LoadPolicy loads the trained actor of a checkpoint file, or of a run directory's best
// checkpoint (its last, told by Note, when a stop came before its first validation), its
// learner on dev (the command's --device; nil for the CPU).
func LoadPolicy(path string, dev *device.Device) (*Policy, error) {
	path, note := policyCheckpoint(path)
	ck, err := checkpoint.Open(path)
	if err != nil {
		return nil, err
	}
	defer ck.Close()
	spec, err := run.Resolve(ck.Header.Config)
	if err != nil {
		return nil, fmt.Errorf("checkpoint %s: %v", path, err)
	}
	l, err := learn.NewLearner(spec, dev)
	if err != nil {
		return nil, err
	}
	if err := l.UnmarshalBinary(ck.Learner); err != nil {
		return nil, fmt.Errorf("checkpoint %s: %v", path, err)
	}
	return &Policy{cfg: spec, dev: dev, step: ck.Header.Step, learner: l, state: ck.Learner, note: note}, nil
}

// Note says which checkpoint stands in for a run directory's best one when the run has none
// (its last, at Step), "" otherwise.
func (p *Policy) Note() string { return p.note }

// Config is the configuration the policy was trained with (live changes included).
func (p *Policy) Config() run.Config { return p.cfg.Config }

// Model is the catalogue entry of the model the policy was trained as, resolved on loading.
func (p *Policy) Model() run.Model { return p.cfg.Entry }

// Step is the number of training steps behind the policy.
func (p *Policy) Step() int { return p.step }

// Solve runs the policy on insts, which must be instances of env, the task it was trained on,
// at its size unless its model runs at any N (run.Model.AnyN), with the single decode; it
// returns the solutions in the same form as envs.SolveAll.
func (p *Policy) Solve(env envs.Env, insts []envs.Instance) ([]envs.Solution, error) {
	return p.SolveWith(env, insts, SingleDecode)
}

// SolveWith is Solve with the decoding dec (see run.Decoding).
func (p *Policy) SolveWith(env envs.Env, insts []envs.Instance, dec run.Decoding) ([]envs.Solution, error) {
	if err := p.Accepts(env.Task(), env.N()); err != nil {
		return nil, err
	}
	if err := dec.Validate(p.cfg.Task); err != nil {
		return nil, err
	}
	if err := run.RoundingRefused(p.cfg.Entry, dec.Rounding); err != nil {
		return nil, err
	}
	if err := run.TourRefused(p.cfg.Entry, dec); err != nil {
		return nil, err
	}
	l, err := p.learnerAt(env.N())
	if err != nil {
		return nil, err
	}
	n, sl := env.N(), p.cfg.Facts.StateLen(env.N())
	perms := make([]int, len(insts)*n)
	h := learn.HyperAt(&p.cfg, p.step)
	if dec.Rounding != "" {
		h.RoundLog = dec.Rounding == run.RoundingLog
	}
	if dec.Single() && !dec.PolicyTour() && !dec.Repaired() { // the tour decodes and repairs are actSampled's
		states := make([]float32, len(insts)*sl)
		for i, inst := range insts {
			p.cfg.Facts.Featurize(inst, states[i*sl:(i+1)*sl])
		}
		if err := actDeterministic(l, p.cfg.Facts, n, insts, states, h, perms, nil); err != nil {
			return nil, p.nameFailing(l, n, insts, states, h, err)
		}
	} else if err := actSampled(l, p.cfg.Facts, env, insts, h, dec, perms); err != nil {
		return nil, err
	}
	out := make([]envs.Solution, len(insts))
	for i, inst := range insts {
		pm := perms[i*n : (i+1)*n]
		out[i] = envs.Solution{Index: i, Perm: pm, Objective: env.Objective(inst, pm)}
	}
	return out, nil
}
