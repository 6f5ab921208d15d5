package envs

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"

	"spg-tui/linalg/parallel"
)

// SolverVersion identifies the results of the solvers. Reference caches and experiment test
// sets bind what they store to it with a checksum: change it whenever a solver's results change,
// and every stored result is solved again, with a warning, instead of being trusted.
const SolverVersion = 1

// Solution is one solved instance, as `spg-tui solve` writes it.
type Solution struct {
	Index     int     `json:"index"`
	Perm      []int   `json:"perm"`
	Objective float64 `json:"objective"`
}

// CheckSolver reports whether solver can run on every instance of e, so that a whole file can be
// refused before any solving starts.
func CheckSolver(e Env, solver string) error {
	names := e.Solvers()
	if !slices.Contains(names, solver) {
		return fmt.Errorf("unknown solver %q for %s (want %s)", solver, e.Task(), strings.Join(names, ", "))
	}
	if limit := MustFacts(e.Task()).SolverLimit; limit != nil {
		return limit(solver, e.N())
	}
	return nil
}

// SolveAll runs solver on every instance, in parallel over the cores, and returns the solutions
// in input order. Instance i's randomised solver draws from a generator seeded by (seed, i), so
// the results do not depend on the number of cores.
func SolveAll(e Env, solver string, insts []Instance, seed uint64) ([]Solution, error) {
	return SolveAllRestarts(e, solver, insts, seed, 0)
}

// restarter is an Env with solvers that take random restarts beside their deterministic start.
type restarter interface {
	// Restartable reports whether solver takes restarts.
	Restartable(solver string) bool
	// SolveRestarts is Solve with restarts random starts, drawn from rng, beside the
	// deterministic one, the best kept.
	SolveRestarts(solver string, inst Instance, rng *rand.Rand, restarts int) ([]int, error)
}

// MaxRestarts bounds the random restarts per instance (solve --restarts). Each is a whole faq
// solve: 0.1 s at gm n = 100, 3 s at 256 and 8 minutes at the largest n, 1024 (a busy 2-core
// Xeon), so 100 is at most about half a day per instance, where 2^63-1 ran for ever.
const MaxRestarts = 100

// CheckRestarts reports whether solver of e takes restarts random restarts: any solver takes
// 0, and only solvers that restart (gm's faq) take more, at most MaxRestarts.
func CheckRestarts(e Env, solver string, restarts int) error {
	if restarts < 0 || restarts > MaxRestarts {
		return fmt.Errorf("restarts %d: must be in [0, %d]", restarts, MaxRestarts)
	}
	if r, ok := e.(restarter); restarts > 0 && !(ok && r.Restartable(solver)) {
		return fmt.Errorf("solver %q takes no restarts (only gm's faq does)", solver)
	}
	return nil
}

// SolveAllRestarts is SolveAll with restarts random restarts per instance (CheckRestarts).
func SolveAllRestarts(e Env, solver string, insts []Instance, seed uint64, restarts int) ([]Solution, error) {
	if err := CheckSolver(e, solver); err != nil {
		return nil, err
	}
	if err := CheckRestarts(e, solver, restarts); err != nil {
		return nil, err
	}
	if err := checkSolveMemory(e, solver, len(insts)); err != nil {
		return nil, err
	}
	out := make([]Solution, len(insts))
	errs := make([]error, len(insts))
	parallel.For(len(insts), func(_, lo, hi int) {
		for i := lo; i < hi; i++ {
			rng := rand.New(rand.NewPCG(seed, uint64(i)))
			var p []int
			var err error
			if restarts > 0 {
				p, err = e.(restarter).SolveRestarts(solver, insts[i], rng, restarts)
			} else {
				p, err = e.Solve(solver, insts[i], rng)
			}
			if err != nil {
				errs[i] = fmt.Errorf("instance %d: %w", i, err)
				continue
			}
			out[i] = Solution{Index: i, Perm: p, Objective: e.Objective(insts[i], p)}
		}
	})
	for _, err := range errs {
		if err != nil {
			return nil, err
		}
	}
	return out, nil
}
