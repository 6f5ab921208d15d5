package mwm

import (
	"cmp"
	"fmt"
	"math/rand/v2"
	"slices"
	"sync"

	"spg-tui/envs"
	"spg-tui/linalg/assign"
)

// mwmEnv is maximum-weight bipartite matching between two sets A and B of n points each,
// uniform in the unit square, with weights the Euclidean distances. The objective is the
// total matched distance (maximised). The reward is the mean matched distance,
// objective / n, the normalisation of the authors' code (r = sum / N), so that rewards of
// different sizes are on one scale.
type mwmEnv struct{ n int }

func init() {
	envs.Register(&envs.Facts{
		Task: envs.TaskMWM, Name: "MWM", Order: 0, MaxN: 4096,
		New: func(n int) envs.Env { return newMWM(n) },
		Fields: []envs.Field{
			envs.PointsField("a", func(inst *envs.Instance) *[]envs.Point { return &inst.A }),
			envs.PointsField("b", func(inst *envs.Instance) *[]envs.Point { return &inst.B }),
		},
		Metric:         envs.Metric{Name: "optimality_ratio", Short: "ratio", Label: "optimality ratio", Maximize: true, PerOptimum: true, UnitOptimum: true},
		SumReward:      true,
		DistanceReward: true,
		DefaultEpochs:  100,
		Exact:          func(int) string { return "hungarian" },
		Baselines:      []string{"greedy", "random"},
		Plotted:        []string{"random", "greedy", "optimal"},
		Typical: func(int) map[string]float64 {
			return map[string]float64{"random": 0.72, "greedy": 0.97, "optimal": 1}
		},
		// The n x n distance matrix, and the assignment solver's or the greedy edge list's copy.
		SolverBytes: func(_ string, n float64) float64 { return 16 * n * n },
		// The N points of A, then the N points of B.
		Planar: true, State: envs.State{Features: envs.PointFeatures, Pairs: true},
		Featurize: func(inst envs.Instance, dst []float32) {
			envs.PutPoints(inst.A, dst)
			envs.PutPoints(inst.B, dst[2*len(inst.A):])
		},
	})
}

func newMWM(n int) *mwmEnv { return &mwmEnv{n: n} }

// mwmSolvers lists the matching solvers, the exact one first.
var mwmSolvers = []string{"hungarian", "greedy", "random"}

// assignPool holds assignment workspaces, since an assign.Solver is not safe for
// concurrent use and Solve may be called from several goroutines.
var assignPool = sync.Pool{New: func() any { return new(assign.Solver) }}

func (e *mwmEnv) Task() envs.Task { return envs.TaskMWM }
func (e *mwmEnv) N() int          { return e.n }
func (e *mwmEnv) Maximize() bool  { return true }

func (e *mwmEnv) Solvers() []string { return append([]string(nil), mwmSolvers...) }

// Generate draws A, then B: n points each, uniform in the unit square.
func (e *mwmEnv) Generate(seed uint64, index int) envs.Instance {
	rng := envs.InstanceRNG(seed, index)
	a := envs.UniformPoints(rng, e.n)
	return envs.Instance{A: a, B: envs.UniformPoints(rng, e.n)}
}

func (e *mwmEnv) Validate(inst envs.Instance) error {
	if err := envs.CheckPoints("a", inst.A, e.n); err != nil {
		return err
	}
	return envs.CheckPoints("b", inst.B, e.n)
}

// Objective is sum_i |A[i] - B[perm[i]]|. It does not allocate.
func (e *mwmEnv) Objective(inst envs.Instance, perm []int) float64 {
	var sum float64
	for i, j := range perm {
		sum += envs.Distance(inst.A[i], inst.B[j])
	}
	return sum
}

// Reward is the mean matched distance, Objective / n.
func (e *mwmEnv) Reward(inst envs.Instance, perm []int) float64 {
	return e.Objective(inst, perm) / float64(e.n)
}

// Solve runs hungarian (exact assignment on the distance matrix), greedy (largest edge
// first) or random.
func (e *mwmEnv) Solve(solver string, inst envs.Instance, rng *rand.Rand) ([]int, error) {
	if err := e.Validate(inst); err != nil {
		return nil, err
	}
	n := e.n
	w := make([]float64, n*n)
	envs.DistanceMatrix(w, inst.A, inst.B)
	perm := make([]int, n)
	switch solver {
	case "hungarian":
		s := assignPool.Get().(*assign.Solver)
		defer assignPool.Put(s)
		if _, err := s.Maximize(w, n, perm); err != nil {
			return nil, err
		}
	case "greedy":
		GreedyAssignment(w, n, perm)
	case "random":
		return envs.RandomPerm(n, rng)
	default:
		return nil, envs.UnknownSolver(solver, envs.TaskMWM, mwmSolvers)
	}
	return perm, nil
}

// GreedyAssignment writes into rowToCol a bipartite assignment of the row-major n x n weight
// matrix w found by taking edges largest first (ties to the smaller row, then the smaller
// column) whenever both ends are still free, and returns its total weight. It is at least
// half the maximum. It panics if len(w) != n*n or len(rowToCol) != n.
func GreedyAssignment(w []float64, n int, rowToCol []int) float64 {
	if len(w) != n*n || len(rowToCol) != n {
		panic(fmt.Sprintf("mwm: greedy assignment of %d weights into %d rows, want %d x %d", len(w), len(rowToCol), n, n))
	}
	edges := make([]int, n*n)
	for e := range edges {
		edges[e] = e
	}
	// Edge e is (row e/n, column e%n), so comparing ids breaks ties by row, then column.
	slices.SortFunc(edges, func(e, f int) int {
		if c := cmp.Compare(w[f], w[e]); c != 0 {
			return c
		}
		return cmp.Compare(e, f)
	})
	colUsed := make([]bool, n)
	for i := range rowToCol {
		rowToCol[i] = -1
	}
	var total float64
	left := n
	for _, e := range edges {
		i, j := e/n, e%n
		if rowToCol[i] >= 0 || colUsed[j] {
			continue
		}
		rowToCol[i], colUsed[j] = j, true
		total += w[e]
		if left--; left == 0 {
			break
		}
	}
	return total
}
