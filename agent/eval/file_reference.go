package eval

import (
	"slices"

	"spg-tui/envs"
	"spg-tui/run"
)

// plantedSolver is the solver that returns the correspondence an instance was made with, where
// its task has one (gm).
const plantedSolver = "planted"

// FileReference solves insts, the instances of a file, for the reference their solutions are
// scored against, where that is cheap: the task's exact solver where it is also the one runs use
// when they must be fast (envs.Facts.Quick: MWM's Hungarian and sort's argsort at any n, TSP's
// Held-Karp to n = 12, graph matching's branch and bound to its n = 11), else the planted
// correspondence where every instance carries one (gm files). It is nil where there is neither.
func FileReference(env envs.Env, insts []envs.Instance) (*Reference, error) {
	f := envs.MustFacts(env.Task())
	solver, exact := f.Exact(env.N()), true
	if solver != "" && f.Quick != nil && f.Quick(env.N()) != solver {
		solver = ""
	}
	if solver == "" && slices.Contains(env.Solvers(), plantedSolver) &&
		!slices.ContainsFunc(insts, func(in envs.Instance) bool { return in.Planted == nil }) {
		solver, exact = plantedSolver, false
	}
	if solver == "" || len(insts) == 0 {
		return nil, nil
	}
	sols, err := envs.SolveAll(env, solver, insts, 0)
	if err != nil {
		return nil, err
	}
	ref := &Reference{Task: env.Task(), N: env.N(), Size: len(insts), Exact: exact, Best: sols,
		BestSolver: make([]string, len(insts))}
	for i := range ref.BestSolver {
		ref.BestSolver[i] = solver
	}
	return ref, nil
}

// ScoreSolutions scores sols, one per instance of insts in order (as solve and eval write them),
// against ref as a validation is scored: the metric (for mwm the mean optimality ratio, with its
// median and ratio of means), the gap to an exact optimum (tsp), the task's other measures.
func ScoreSolutions(env envs.Env, insts []envs.Instance, sols []envs.Solution, ref *Reference) *run.Eval {
	n := env.N()
	perms := make([]int, 0, len(sols)*n)
	for _, s := range sols {
		perms = append(perms, s.Perm...)
	}
	return score(env, &Set{Facts: envs.MustFacts(env.Task()), Insts: insts, Ref: ref}, perms)
}
