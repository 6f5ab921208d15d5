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
	if err := CheckSolver(e, solver); err != nil {
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
			p, err := e.Solve(solver, insts[i], rng)
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
