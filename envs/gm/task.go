package gm

import (
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"strconv"
	"strings"

	"spg-tui/envs"
)

// gmEnv is graph matching on n nodes (Nowak et al.'s setting): G1 is drawn as data says
// (by default an Erdos-Renyi graph with edge probability 0.2) and G2 is a uniformly random
// relabelling of G1 with noise (Params; new runs: Nowak et al. 2018's model, noise 0.05).
// perm[i] is the node of G2 matched to node i of G1; the objective and the reward are the
// fraction of G1's edges that perm maps onto edges of G2 (Objective), maximised.
type gmEnv struct {
	n    int
	data Params
}

// gmSolvers lists the graph-matching solvers, the exact one first: branch and bound (n <=
// ExactMaxN), Umeyama's spectral matching, 2-swap local search from it, Vogelstein et al.'s
// FAQ (FAQ), the planted correspondence, and random.
var gmSolvers = []string{"exact", "spectral", "2swap", "faq", "planted", "random"}

func init() {
	envs.Register(&envs.Facts{
		Task: envs.TaskGM, Name: "GM", Order: 3, MaxN: 1024,
		New: func(n int) envs.Env { return &gmEnv{n: n, data: gmDefaultData} },
		NewData: func(n int, spec string) (envs.Env, error) {
			data, err := parseData(n, spec)
			if err != nil {
				return nil, err
			}
			return &gmEnv{n: n, data: data}, nil
		},
		DataUsage:   gmDataUsage,
		DefaultData: gmDefaultSpec,
		Fields: []envs.Field{
			adjacencyField("g1", func(inst *envs.Instance) *[][]int8 { return &inst.G1 }),
			adjacencyField("g2", func(inst *envs.Instance) *[][]int8 { return &inst.G2 }),
			{Name: "planted", Optional: true, Parse: func(inst *envs.Instance, v any) (err error) {
				inst.Planted, err = parseIndices("planted", v)
				return err
			}},
		},
		Metric: envs.Metric{Name: "edges_preserved", Short: "edges", Label: "edges preserved", Maximize: true},
		Also: []envs.Measure{{Name: "recovery", Of: func(inst envs.Instance, perm []int) (float64, bool) {
			if inst.Planted == nil {
				return 0, false
			}
			return Recovery(perm, inst.Planted), true
		}}},
		DefaultEpochs: 20,
		Exact: func(n int) string {
			if n > ExactMaxN {
				return ""
			}
			return "exact"
		},
		Baselines: []string{"spectral", "2swap", "planted", "random"},
		Plotted:   []string{"random", "spectral", "optimal"},
		Typical: func(int) map[string]float64 {
			return map[string]float64{"random": gmDefaultData.P, "spectral": 0.5, "optimal": 0.9}
		},
		SolverLimit: func(solver string, n int) error {
			if solver == "exact" && n > ExactMaxN {
				return fmt.Errorf("exact graph-matching solver (branch and bound) supports n <= %d, got n = %d", ExactMaxN, n)
			}
			return nil
		},
		// Spectral matching's eigendecompositions and its assignment's n x n matrices.
		SolverBytes: func(_ string, n float64) float64 { return 64 * n * n },
		Polishes:    polishes,
		PolishUsage: "gm: 2swap, spectral's 2-swap search from the policy's matching",
		Polish:      polishMatching,
		// G1's n adjacency rows, then G2's.
		State: envs.State{Features: func(n int) int { return n }, Pairs: true, Graph: true},
		Featurize: func(inst envs.Instance, dst []float32) {
			n := len(inst.G1)
			for i, row := range append(inst.G1[:n:n], inst.G2...) {
				for j, x := range row {
					dst[i*n+j] = float32(x)
				}
			}
		},
	})
}

func (e *gmEnv) Task() envs.Task { return envs.TaskGM }
func (e *gmEnv) N() int          { return e.n }
func (e *gmEnv) Maximize() bool  { return true }

func (e *gmEnv) Solvers() []string { return append([]string(nil), gmSolvers...) }

// Generate draws G1, the relabelling and the flips (Generate).
func (e *gmEnv) Generate(seed uint64, index int) envs.Instance {
	rng := envs.InstanceRNG(seed, index)
	if e.n < 2 {
		return envs.Instance{G1: NewAdjacency(e.n), G2: NewAdjacency(e.n), Planted: make([]int, e.n)}
	}
	data := e.data
	data.N = e.n
	g1, g2, planted := Generate(rng, data)
	return envs.Instance{G1: g1, G2: g2, Planted: planted}
}

// Validate checks both graphs (n x n, symmetric, 0/1, no self-loops) and the planted
// correspondence, when there is one.
func (e *gmEnv) Validate(inst envs.Instance) error {
	if err := CheckAdjacency("g1", inst.G1, e.n); err != nil {
		return err
	}
	if err := CheckAdjacency("g2", inst.G2, e.n); err != nil {
		return err
	}
	if inst.Planted != nil {
		return envs.CheckPermutation("planted", inst.Planted, e.n)
	}
	return nil
}

// Objective is the fraction of G1's edges that perm preserves.
func (e *gmEnv) Objective(inst envs.Instance, perm []int) float64 {
	return Objective(inst.G1, inst.G2, perm)
}

// Reward equals Objective.
func (e *gmEnv) Reward(inst envs.Instance, perm []int) float64 { return e.Objective(inst, perm) }

// Solve runs exact, spectral, 2swap (spectral then 2-swap local search), faq (from the
// barycentre alone), planted or random.
func (e *gmEnv) Solve(solver string, inst envs.Instance, rng *rand.Rand) ([]int, error) {
	return e.SolveRestarts(solver, inst, rng, 0)
}

// Restartable reports whether solver takes random restarts: faq.
func (e *gmEnv) Restartable(solver string) bool { return solver == "faq" }

// SolveRestarts is Solve with restarts random starts of faq beside its barycentre start
// (FAQ); the other solvers take none.
func (e *gmEnv) SolveRestarts(solver string, inst envs.Instance, rng *rand.Rand, restarts int) ([]int, error) {
	if err := e.Validate(inst); err != nil {
		return nil, err
	}
	if restarts != 0 && !e.Restartable(solver) {
		return nil, fmt.Errorf("solver %q takes no restarts (only faq does)", solver)
	}
	switch solver {
	case "faq":
		return FAQ(inst.G1, inst.G2, restarts, rng)
	case "exact":
		return Exact(inst.G1, inst.G2)
	case "spectral":
		return Spectral(inst.G1, inst.G2)
	case "2swap":
		p, err := Spectral(inst.G1, inst.G2)
		if err != nil {
			return nil, err
		}
		return LocalSearch(inst.G1, inst.G2, p), nil
	case "planted":
		if inst.Planted == nil {
			return nil, errors.New(`solver "planted": the instance has no planted correspondence`)
		}
		return append([]int(nil), inst.Planted...), nil
	case "random":
		return envs.RandomPerm(e.n, rng)
	}
	return nil, envs.UnknownSolver(solver, envs.TaskGM, gmSolvers)
}

// adjacencyField is an instance field holding a 0/1 adjacency matrix, read into *at(inst).
func adjacencyField(name string, at func(*envs.Instance) *[][]int8) envs.Field {
	return envs.Field{Name: name, Width: func(n int) int { return n }, Parse: func(inst *envs.Instance, v any) error {
		rows, ok := v.([]any)
		if !ok {
			return fmt.Errorf("%s: want an adjacency matrix, an array of rows of 0 and 1", name)
		}
		a := make([][]int8, len(rows))
		for i, r := range rows {
			row, ok := r.([]any)
			if !ok {
				return fmt.Errorf("%s[%d]: want a row of 0 and 1", name, i)
			}
			a[i] = make([]int8, len(row))
			for j, x := range row {
				where := fmt.Sprintf("%s[%d][%d]", name, i, j)
				f, err := envs.ParseNumber(where, x)
				if err != nil {
					return err
				}
				if f != 0 && f != 1 {
					return fmt.Errorf("%s = %s, want 0 or 1", where, envs.Clip(x.(json.Number).String()))
				}
				a[i][j] = int8(f)
			}
		}
		*at(inst) = a
		return nil
	}}
}

// parseIndices reads an array of non-negative integers.
func parseIndices(name string, v any) ([]int, error) {
	nums, err := envs.ParseNumbers(name, v)
	if err != nil {
		return nil, err
	}
	out := make([]int, len(nums))
	for i, f := range nums {
		if f != float64(int(f)) || f < 0 {
			return nil, fmt.Errorf("%s[%d] = %s, want a node index", name, i, strconv.FormatFloat(f, 'g', -1, 64))
		}
		out[i] = int(f)
	}
	return out, nil
}

// polishes lists the local searches that polishMatching can start from a given correspondence.
var polishes = []string{"2swap"}

// polishMatching improves the correspondence perm of the gm instance inst by the local search named
// polish (2swap: LocalSearch from perm) and returns the result, which keeps at least as many
// of G1's edges as perm. It is the "policy + polish" of eval --polish: a classical search
// started where the policy ended, scored apart from the policy's own matching.
func polishMatching(polish string, inst envs.Instance, perm []int) ([]int, error) {
	if polish != "2swap" {
		return nil, fmt.Errorf("polish %q: must be one of %s", polish, strings.Join(polishes, ", "))
	}
	n := len(inst.G1)
	if len(inst.G2) != n {
		return nil, fmt.Errorf("polish %s: graphs of %d and %d nodes", polish, n, len(inst.G2))
	}
	if err := envs.CheckPermutation("perm", perm, n); err != nil {
		return nil, err
	}
	return LocalSearch(inst.G1, inst.G2, perm), nil
}
