package tsp

import (
	"fmt"
	"math"
	"math/rand/v2"

	"spg-tui/envs"
)

// tspEnv is the Euclidean travelling salesman problem on n points uniform in the unit square.
// The objective is the closed tour length (minimised); the reward is its negative.
type tspEnv struct{ n int }

func init() {
	envs.Register(&envs.Facts{
		Task: envs.TaskTSP, Name: "TSP", Order: 1, MaxN: 4096,
		New:            func(n int) envs.Env { return newTSP(n) },
		Fields:         []envs.Field{envs.PointsField("points", func(inst *envs.Instance) *[]envs.Point { return &inst.Points })},
		Metric:         envs.Metric{Name: "tour_length", Short: "tour", Label: "tour length", Gap: true},
		DistanceReward: true,
		DefaultEpochs:  40,
		Exact: func(n int) string {
			if n > MaxHeldKarp {
				return ""
			}
			return "exact"
		},
		Baselines: []string{"nn", "2opt", "christofides", "random"},
		Plotted:   []string{"random", "nn", "optimal"},
		Table:     []string{"exact", "christofides", "2opt", "2opt-oropt", "farthest", "nn"},
		Typical: func(n int) map[string]float64 {
			opt := 0.7124 * math.Sqrt(float64(n))
			return map[string]float64{"random": 0.52 * float64(n), "nn": 1.25 * opt, "2opt": 1.05 * opt, "optimal": opt}
		},
		// Held-Karp above n = 12 would make a scripted run slow; 2-opt stands in for the optimum.
		Quick: func(n int) string {
			if n > 12 {
				return "2opt"
			}
			return "exact"
		},
		SolverLimit: func(solver string, n int) error {
			switch {
			case solver == "exact" && n > MaxHeldKarp:
				return fmt.Errorf("exact TSP solver (Held-Karp) supports n <= %d, got n = %d", MaxHeldKarp, n)
			case solver == "2opt-oropt-all" && n > maxAllStartsN:
				return fmt.Errorf("2opt-oropt-all runs n + 1 local searches: it supports n <= %d (seconds per instance there), got n = %d; 2opt-oropt runs 9", maxAllStartsN, n)
			}
			return nil
		},
		// The n x n distance matrix and a solver's copy of the same size; Held-Karp's table.
		SolverBytes: func(solver string, n float64) float64 {
			b := 16 * n * n
			if solver == "exact" {
				b += math.Exp2(n) * n * 8
			}
			return b
		},
		Planar: true, State: envs.State{Features: envs.PointFeatures, Tour: true},
		Featurize: func(inst envs.Instance, dst []float32) { envs.PutPoints(inst.Points, dst) },
	})
}

func newTSP(n int) *tspEnv { return &tspEnv{n: n} }

// maxAllStartsN bounds the 2opt-oropt-all solver: its n + 1 local searches take about 0.2 s per
// instance at n = 100 on one core and grow as n^3 or faster.
const maxAllStartsN = 200

// tspSolvers lists the TSP solvers, the exact one first.
var tspSolvers = []string{"exact", "nn", "farthest", "2opt", "2opt-oropt", "2opt-oropt-all", "farthest-2opt-oropt", "christofides", "ap-patch", "random"}

func (e *tspEnv) Task() envs.Task { return envs.TaskTSP }
func (e *tspEnv) N() int          { return e.n }
func (e *tspEnv) Maximize() bool  { return false }

func (e *tspEnv) Solvers() []string { return append([]string(nil), tspSolvers...) }

// Generate draws n points uniform in the unit square.
func (e *tspEnv) Generate(seed uint64, index int) envs.Instance {
	rng := envs.InstanceRNG(seed, index)
	return envs.Instance{Points: envs.UniformPoints(rng, e.n)}
}

func (e *tspEnv) Validate(inst envs.Instance) error {
	return envs.CheckPoints("points", inst.Points, e.n)
}

// Objective is the closed tour length of visiting inst.Points in the order perm.
func (e *tspEnv) Objective(inst envs.Instance, perm []int) float64 {
	return envs.TourLength(inst.Points, perm)
}

// Reward is minus the tour length.
func (e *tspEnv) Reward(inst envs.Instance, perm []int) float64 { return -e.Objective(inst, perm) }

// Solve runs exact (Held-Karp, n <= 20), nn (nearest neighbour from vertex 0), farthest
// (farthest insertion), 2opt (nearest neighbour then 2-opt), 2opt-oropt (the best of 2-opt and
// or-opt from 9 starts, TwoOptOrOpt), 2opt-oropt-all (the same from every vertex's
// nearest-neighbour tour and farthest insertion, n + 1 starts), farthest-2opt-oropt (the
// farthest-insertion tour improved by 2-opt and or-opt, LocalSearch: one start, as eval
// --tour-repair 2opt-oropt improves one decoded tour), christofides, ap-patch (the assignment
// with Karp's patching, PatchedAssignment) or random.
func (e *tspEnv) Solve(solver string, inst envs.Instance, rng *rand.Rand) ([]int, error) {
	if err := e.Validate(inst); err != nil {
		return nil, err
	}
	n := e.n
	d := make([]float64, n*n)
	envs.DistanceMatrix(d, inst.Points, inst.Points)
	tour := make([]int, n)
	switch solver {
	case "exact":
		opt, _, err := HeldKarp(d, n)
		return opt, err
	case "nn":
		NearestNeighbour(d, n, tour)
	case "farthest":
		FarthestInsertion(d, n, tour)
	case "2opt":
		NearestNeighbour(d, n, tour)
		TwoOpt(d, n, tour)
	case "2opt-oropt":
		TwoOptOrOpt(d, n, tour)
	case "2opt-oropt-all":
		MultiStartLocalSearch(d, n, n, tour)
	case "farthest-2opt-oropt":
		FarthestInsertion(d, n, tour)
		LocalSearch(d, n, tour)
	case "christofides":
		Christofides(d, n, tour)
	case "ap-patch":
		if err := PatchedAssignment(d, n, tour); err != nil {
			return nil, err
		}
	case "random":
		return envs.RandomPerm(n, rng)
	default:
		return nil, envs.UnknownSolver(solver, envs.TaskTSP, tspSolvers)
	}
	return tour, nil
}
