package sort

import (
	"cmp"
	"math/rand/v2"
	"slices"

	"spg-tui/envs"
	"spg-tui/linalg/perm"
)

// sortEnv is sorting n numbers ascending. The objective and the reward are both Kendall's
// tau-b of the output sequence against ascending order (1 when sorted, -1 when reversed).
// rangeK is the data: 0 draws permutations of 0..n-1, K > 0 distinct integers from 0..K n-1.
type sortEnv struct{ n, rangeK int }

func init() {
	envs.Register(&envs.Facts{
		Task: envs.TaskSort, Name: "Sort", Order: 2, MaxN: 65536,
		New: func(n int) envs.Env { return newSort(n) },
		NewData: func(n int, spec string) (envs.Env, error) {
			k, err := parseSortData(spec)
			if err != nil {
				return nil, err
			}
			return &sortEnv{n: n, rangeK: k}, nil
		},
		DataUsage:     sortDataUsage,
		DefaultData:   sortDefaultData,
		Fields:        []envs.Field{envs.NumbersField("values", func(inst *envs.Instance) *[]float64 { return &inst.Values })},
		Metric:        envs.Metric{Name: "kendall_tau", Short: "KT", Label: "kendall tau", Maximize: true, UnitOptimum: true},
		DefaultEpochs: 20,
		Exact:         func(int) string { return "exact" },
		Baselines:     []string{"random"},
		Plotted:       []string{"random", "optimal"},
		Typical:       func(int) map[string]float64 { return map[string]float64{"random": 0, "optimal": 1} },
		// The paper's PN-AC on sorting: "we needed to lower the learning rate to 1e-4".
		PNACActorLR: 1e-4,
		// The raw values, unnormalised, as in the authors' code.
		State: envs.State{Features: func(int) int { return 1 }},
		Featurize: func(inst envs.Instance, dst []float32) {
			for i, v := range inst.Values {
				dst[i] = float32(v)
			}
		},
	})
}

func newSort(n int) *sortEnv { return &sortEnv{n: n} }

// sortSolvers lists the sorting solvers, the exact one first.
var sortSolvers = []string{"exact", "random"}

func (e *sortEnv) Task() envs.Task { return envs.TaskSort }
func (e *sortEnv) N() int          { return e.n }
func (e *sortEnv) Maximize() bool  { return true }

func (e *sortEnv) Solvers() []string { return append([]string(nil), sortSolvers...) }

// Generate draws n distinct integers uniformly from 0..K n-1 in random order, or with no range
// a uniformly random permutation of the integers 0..n-1, as float64.
func (e *sortEnv) Generate(seed uint64, index int) envs.Instance {
	if e.rangeK > 0 {
		return envs.Instance{Values: distinctInts(envs.InstanceRNG(seed, index), e.n, e.rangeK*e.n)}
	}
	p := envs.InstanceRNG(seed, index).Perm(e.n)
	vals := make([]float64, e.n)
	for i, v := range p {
		vals[i] = float64(v)
	}
	return envs.Instance{Values: vals}
}

func (e *sortEnv) Validate(inst envs.Instance) error {
	return envs.CheckValues("values", inst.Values, e.n)
}

// Objective is Kendall's tau-b between Values[perm] and the same values in ascending order.
// For distinct values that is tau-b against the positions 0..n-1; with ties it still gives
// 1 for every sorted output (ties in both sequences), where tau-b against positions would
// not. A sequence with all values tied, or of length 1, is sorted and scores 1 (tau-b is
// undefined there). The ends are exact: a non-decreasing output scores 1 and a
// non-increasing one -1, as tau-b's division could round them.
func (e *sortEnv) Objective(inst envs.Instance, p []int) float64 {
	out := make([]float64, len(p))
	perm.Apply(out, inst.Values, p)
	switch {
	case slices.IsSorted(out):
		return 1
	case isNonIncreasing(out):
		return -1
	}
	asc := slices.Clone(out)
	slices.Sort(asc)
	return max(-1, min(1, kendallTau(out, asc)))
}

// isNonIncreasing reports whether xs never increases.
func isNonIncreasing(xs []float64) bool {
	for i := 1; i < len(xs); i++ {
		if xs[i] > xs[i-1] {
			return false
		}
	}
	return true
}

// Reward equals Objective.
func (e *sortEnv) Reward(inst envs.Instance, p []int) float64 { return e.Objective(inst, p) }

// Solve runs exact (stable argsort ascending) or random.
func (e *sortEnv) Solve(solver string, inst envs.Instance, rng *rand.Rand) ([]int, error) {
	if err := e.Validate(inst); err != nil {
		return nil, err
	}
	switch solver {
	case "exact":
		p := make([]int, e.n)
		perm.Identity(p)
		slices.SortStableFunc(p, func(i, j int) int { return cmp.Compare(inst.Values[i], inst.Values[j]) })
		return p, nil
	case "random":
		return envs.RandomPerm(e.n, rng)
	}
	return nil, envs.UnknownSolver(solver, envs.TaskSort, sortSolvers)
}
