package envs

import (
	"fmt"
	"slices"
)

// Facts are what the rest of the program knows about a task besides its Env: how a learner
// sees an instance, what the evaluation metric is called and which way it goes, which solvers
// are its references, how long the authors trained on it and what titles call it. A new task
// is one Env and one entry in taskFacts.
type Facts struct {
	Task Task
	// Name is the task in titles: "MWM", "TSP", "Sort".
	Name string
	// Metric is the evaluation metric.
	Metric Metric
	// DefaultEpochs is the length of the authors' runs on the task, in epochs.
	DefaultEpochs int
	// Exact names the exact solver at size n, "" where there is none.
	Exact func(n int) string
	// Baselines are the classical solvers reported as references, in the metric's units.
	Baselines []string
	// Plotted are the references the console draws as lines on the metric's curve; the other
	// baselines stay in the event log.
	Plotted []string
	// Features is the number of input features of one item, and Items the number of items of
	// an instance of size n: a featurised state is Items(n) x Features float32.
	Features int
	Items    func(n int) int
	// Featurize writes inst's state into dst (length Items(n) * Features).
	Featurize func(inst Instance, dst []float32)
}

// Metric describes a task's evaluation metric.
type Metric struct {
	// Name is the metric as metrics.jsonl names it ("optimality_ratio"), Short as the console's
	// event list does ("ratio"), Label as its legends do ("optimality ratio").
	Name, Short, Label string
	// Maximize reports whether a larger value is better.
	Maximize bool
	// PerOptimum: the metric is the objective over the optimal objective, instance by instance
	// (mwm); otherwise it is the objective itself.
	PerOptimum bool
	// Gap: evaluations also report the mean objective over the exact optimum's, minus 1, when an
	// exact solver exists (tsp).
	Gap bool
	// UnitOptimum: the optimum scores exactly 1 on every instance (a ratio, Kendall tau).
	UnitOptimum bool
}

// taskFacts holds every task's facts.
var taskFacts = map[Task]*Facts{
	TaskMWM: {
		Task: TaskMWM, Name: "MWM",
		Metric:        Metric{Name: "optimality_ratio", Short: "ratio", Label: "optimality ratio", Maximize: true, PerOptimum: true, UnitOptimum: true},
		DefaultEpochs: 100,
		Exact:         func(int) string { return "hungarian" },
		Baselines:     []string{"greedy", "random"},
		Plotted:       []string{"random", "greedy", "optimal"},
		// The N points of A, then the N points of B.
		Features: 2, Items: func(n int) int { return 2 * n },
		Featurize: func(inst Instance, dst []float32) {
			putPoints(inst.A, dst)
			putPoints(inst.B, dst[2*len(inst.A):])
		},
	},
	TaskTSP: {
		Task: TaskTSP, Name: "TSP",
		Metric:        Metric{Name: "tour_length", Short: "tour", Label: "tour length", Gap: true},
		DefaultEpochs: 40,
		Exact: func(n int) string {
			if n > MaxHeldKarp {
				return ""
			}
			return "exact"
		},
		Baselines: []string{"nn", "2opt", "christofides", "random"},
		Plotted:   []string{"random", "nn", "optimal"},
		Features:  2, Items: func(n int) int { return n },
		Featurize: func(inst Instance, dst []float32) { putPoints(inst.Points, dst) },
	},
	TaskSort: {
		Task: TaskSort, Name: "Sort",
		Metric:        Metric{Name: "kendall_tau", Short: "KT", Label: "kendall tau", Maximize: true, UnitOptimum: true},
		DefaultEpochs: 20,
		Exact:         func(int) string { return "exact" },
		Baselines:     []string{"random"},
		Plotted:       []string{"random", "optimal"},
		// The raw values, unnormalised, as in the authors' code.
		Features: 1, Items: func(n int) int { return n },
		Featurize: func(inst Instance, dst []float32) {
			for i, v := range inst.Values {
				dst[i] = float32(v)
			}
		},
	},
}

// FactsOf returns the facts of task.
func FactsOf(task Task) (*Facts, error) {
	if f, ok := taskFacts[task]; ok {
		return f, nil
	}
	return nil, fmt.Errorf("unknown task %q (want mwm, tsp or sort)", string(task))
}

// MustFacts returns the facts of a task known to be valid (a validated configuration's); it
// panics on an unknown one.
func MustFacts(task Task) *Facts {
	f, err := FactsOf(task)
	if err != nil {
		panic("envs: " + err.Error())
	}
	return f
}

// MetricNamed returns the metric of that name, and whether some task has it.
func MetricNamed(name string) (Metric, bool) {
	for _, t := range Tasks {
		if m := taskFacts[t].Metric; m.Name == name {
			return m, true
		}
	}
	return Metric{}, false
}

// StateLen is the length of one featurised state of task at size n.
func (f *Facts) StateLen(n int) int { return f.Items(n) * f.Features }

// Plots reports whether the console draws the reference called name.
func (f *Facts) Plots(name string) bool { return slices.Contains(f.Plotted, name) }

func putPoints(pts []Point, dst []float32) {
	for i, p := range pts {
		dst[2*i], dst[2*i+1] = float32(p[0]), float32(p[1])
	}
}
