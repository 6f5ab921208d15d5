package eval

import (
	"fmt"
	"math/rand/v2"
	"sync"
	"sync/atomic"
	"time"

	"spg-tui/envs"
	"spg-tui/linalg/parallel"
)

// referenceSolve is one set's reference solve in progress: the solutions found so far, some
// perhaps restored from an earlier attempt's partial file.
type referenceSolve struct {
	env envs.Env
	// facts are env's task's, looked up once where the solve is prepared.
	facts   *envs.Facts
	seed    uint64
	insts   []envs.Instance
	exact   string
	solvers []string
	// baselines says whether the references carry the baselines' means.
	baselines bool
	// sols holds the solutions by solver, then instance; each worker writes only its own
	// instances' entries.
	sols   [][]envs.Solution
	solved []bool
	// width, if set, is how many instances may be solved at a time, asked before each: a solve
	// beside training leaves it cores. Nil is one per core.
	width func() int
}

// widthPoll is how often a solver held back by width looks again.
const widthPoll = 50 * time.Millisecond

// newReferenceSolve prepares the solve of insts: the exact solver first, then the baselines
// when asked (or when there is no exact solver).
func newReferenceSolve(env envs.Env, seed uint64, insts []envs.Instance, baselines bool) *referenceSolve {
	facts := envs.MustFacts(env.Task())
	s := &referenceSolve{env: env, facts: facts, seed: seed, insts: insts, exact: facts.Exact(env.N()), baselines: baselines,
		solved: make([]bool, len(insts))}
	if s.exact != "" {
		s.solvers = append(s.solvers, s.exact)
	}
	if baselines || s.exact == "" {
		s.solvers = append(s.solvers, facts.Baselines...)
	}
	s.sols = make([][]envs.Solution, len(s.solvers))
	for k := range s.sols {
		s.sols[k] = make([]envs.Solution, len(insts))
	}
	return s
}

// computeReference solves every instance with the exact solver and, when baselines is set (or
// no exact solver exists), the baselines, in parallel over the cores. Instance i's randomised
// solvers draw from a generator seeded by (dataset seed, i). It counts the instances solved in
// done and returns ErrStopped as soon as stop is set.
func computeReference(env envs.Env, seed uint64, insts []envs.Instance, baselines bool, stop *atomic.Bool, done *atomic.Int64) (*Reference, error) {
	return newReferenceSolve(env, seed, insts, baselines).run(stop, done, nil)
}

// run solves the instances not solved yet as computeReference does, handing each instance's
// solutions to keep, if set, as soon as they are found.
func (s *referenceSolve) run(stop *atomic.Bool, done *atomic.Int64, keep func(i int, sols []envs.Solution)) (*Reference, error) {
	referenceComputations.Add(1)
	var todo []int
	for i, ok := range s.solved {
		if !ok {
			todo = append(todo, i)
		}
	}
	errs := make([]error, len(s.insts))
	// One solver per core, each taking the next instance: solve times vary by instance (Held-Karp
	// less than the classical solvers), so no solver waits on another's chunk.
	var next atomic.Int64
	var wg sync.WaitGroup
	for k := range parallel.Workers(len(todo)) {
		wg.Go(func() {
			for !stop.Load() && int(next.Load()) < len(todo) {
				if s.width != nil && k >= s.width() {
					time.Sleep(widthPoll)
					continue
				}
				i := int(next.Add(1) - 1)
				if i >= len(todo) {
					return
				}
				errs[todo[i]] = s.solve(todo[i], keep)
				done.Add(1)
			}
		})
	}
	wg.Wait()
	if stop.Load() {
		return nil, ErrStopped
	}
	for _, err := range errs {
		if err != nil {
			return nil, err
		}
	}
	return s.reference(), nil
}

// solve runs every solver on instance i, records its solutions and hands them to keep.
func (s *referenceSolve) solve(i int, keep func(i int, sols []envs.Solution)) error {
	rng := rand.New(rand.NewPCG(s.seed, uint64(i)))
	sols := make([]envs.Solution, len(s.solvers))
	for k, name := range s.solvers {
		p, err := s.env.Solve(name, s.insts[i], rng)
		if err != nil {
			return fmt.Errorf("instance %d: %s: %w", i, name, err)
		}
		sols[k] = envs.Solution{Index: i, Perm: p, Objective: s.env.Objective(s.insts[i], p)}
	}
	for k := range sols {
		s.sols[k][i] = sols[k]
	}
	s.solved[i] = true
	if keep != nil {
		keep(i, sols)
	}
	return nil
}

// each calls fn with every solved instance's solutions.
func (s *referenceSolve) each(fn func(i int, sols []envs.Solution)) {
	for i, ok := range s.solved {
		if !ok {
			continue
		}
		sols := make([]envs.Solution, len(s.solvers))
		for k := range sols {
			sols[k] = s.sols[k][i]
		}
		fn(i, sols)
	}
}

// reference assembles the references from the solutions of every instance: the best solution
// of each (the exact solver's where there is one, else the best classical one) and, with the
// baselines, each solver's mean.
func (s *referenceSolve) reference() *Reference {
	env, insts, exact, facts := s.env, s.insts, s.exact, s.facts
	ref := &Reference{Task: env.Task(), N: env.N(), Seed: s.seed, Size: len(insts), Exact: exact != ""}
	ref.Best = make([]envs.Solution, len(insts))
	ref.BestSolver = make([]string, len(insts))
	for i := range insts {
		for k, name := range s.solvers {
			if name == "random" || (exact != "" && name != exact) {
				continue
			}
			if ref.BestSolver[i] == "" || Better(env, s.sols[k][i].Objective, ref.Best[i].Objective) {
				ref.Best[i], ref.BestSolver[i] = s.sols[k][i], name
			}
		}
	}
	if s.baselines {
		ref.References = map[string]float64{}
		for k, name := range s.solvers {
			if name == exact {
				name = "optimal"
			}
			ref.References[name] = metricMean(facts.Metric, s.sols[k], ref)
		}
		if facts.Metric.UnitOptimum {
			ref.References["optimal"] = 1
		}
	}
	return ref
}
