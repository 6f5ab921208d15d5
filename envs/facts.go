package envs

import (
	"fmt"
	"slices"
	"strings"

	"spg-tui/internal/suggest"
)

// Facts is one task as the whole program knows it: its environment, its instance file fields,
// how a learner sees an instance, what the evaluation metric is called and which way it goes,
// which solvers are its references and how much memory they take, how long the authors trained
// on it and what titles call it. A task is a folder below envs whose init fills in Facts and
// calls Register.
type Facts struct {
	Task Task
	// Name is the task in titles: "MWM", "TSP", "Sort".
	Name string
	// Order places the task in the lists shown to people (flags, help, errors): lowest first.
	Order int
	// MaxN is the largest size n of the task's instances (gen, instance files): far above what
	// a policy is trained at (run.MaxN), low enough that one instance, its file line and the
	// classical solvers' work on it stay within a machine's memory.
	MaxN int
	// New returns the environment at size n in [1, MaxN], on the data of spec "".
	New func(n int) Env
	// NewData, when set, returns the environment at size n on the data that spec describes
	// (--data; "" is the data of New), or a one-line error; DataUsage says what spec may be.
	// Tasks without it have one kind of data.
	NewData   func(n int, spec string) (Env, error)
	DataUsage string
	// DefaultData, when set, is the spec that new runs and files use when none is given, where
	// "" must keep meaning the data of runs and files written before it (sort: "" is a
	// permutation of 0..n-1, the default is a wider range).
	DefaultData string
	// Fields are the instance fields of a file of the task, in the order they are written.
	Fields []Field
	// Metric is the evaluation metric.
	Metric Metric
	// Also are the task's other measures of a solution, reported beside the metric (gm: the
	// recovery rate of the planted correspondence).
	Also []Measure
	// SumReward: the reward is a mean over the n items, so training may scale it by n to the
	// plain sum (the authors' MWM reward).
	SumReward bool
	// DistanceReward: the reward is the Euclidean distances between the points the action puts
	// together, matched pairs (mean or, SumReward, sum) or neighbours on a tour (minus the
	// length), so the exact critic can write it as a function of the action (mwm, tsp).
	DistanceReward bool
	// DefaultEpochs is the length of the authors' runs on the task, in epochs.
	DefaultEpochs int
	// Exact names the exact solver at size n, "" where there is none.
	Exact func(n int) string
	// Baselines are the classical solvers reported as references, in the metric's units.
	Baselines []string
	// Plotted are the references the console draws as lines on the metric's curve; the other
	// baselines stay in the event log.
	Plotted []string
	// Table are the exact and classical solvers experiment tables set beside the learned models,
	// whose mean objectives a test set keeps.
	Table []string
	// Typical are made-up reference values near those real runs find at size n, in the metric's
	// units, keyed as Plotted ("optimal" for the exact solver): scripted runs and demos show them.
	Typical func(n int) map[string]float64
	// Quick names the solver that stands in for the exact one where a run must be fast
	// (scripted runs) at size n; nil when the exact solver is fast at every size.
	Quick func(n int) string
	// SolverLimit, if set, refuses a solver at size n that cannot run there (an exact solver
	// beyond its reach) with a one-line reason.
	SolverLimit func(solver string, n int) error
	// SolverBytes estimates the bytes one solve at size n takes beyond a few n-vectors; nil is
	// none. It may return +Inf.
	SolverBytes func(solver string, n float64) float64
	// Planar: instances are points in the unit square, so the square's symmetries map an
	// instance to one with the same objective for every permutation (inference augmentation).
	Planar bool
	// State is what the rows of a featurised state are, which is what the networks need to
	// know of the task: each network says which states it reads.
	State State
	// Featurize writes inst's state into dst (length StateLen(n)).
	Featurize func(inst Instance, dst []float32)
	// Polishes are the local searches that eval --polish may start from a policy's solution
	// (gm: 2swap); none where the task takes no polish. PolishUsage says what they are, for the
	// flag's help.
	Polishes    []string
	PolishUsage string
	// Polish improves perm, a solution of inst, by the local search polish (one of Polishes) and
	// returns the result, at least as good as perm, or says what is wrong with the input.
	Polish func(polish string, inst Instance, perm []int) ([]int, error)
	// PNACActorLR is the actor's learning rate of the paper's PN-AC baseline on the task where
	// it is not Bello et al.'s 1e-3 (sort: "we needed to lower the learning rate to 1e-4"); 0
	// keeps Bello's.
	PNACActorLR float64
}

// Field is one instance field of a task's files: its JSON name and how to read it.
type Field struct {
	Name string
	// Optional: an instance may leave the field out.
	Optional bool
	// Width is the most numbers one entry of the field's array holds at size n (2 for a point);
	// nil is 2. Longer entries are refused as they are read.
	Width func(n int) int
	// Parse reads the field's decoded JSON value v (numbers as json.Number) into inst, or says
	// what is wrong with it.
	Parse func(inst *Instance, v any) error
}

// entryWidth is the most numbers one entry of the field holds at size n.
func (f Field) entryWidth(n int) int {
	if f.Width == nil {
		return 2
	}
	return f.Width(n)
}

// State says what the rows of a task's featurised state are: State.Items(n) rows of
// Features(n) numbers each. The task states it; each network (agent/nets) and each model's entry
// in the catalogue (run.Models) says which states it reads, so a new task whose states an
// existing network reads trains on it without an edit there.
type State struct {
	// Features is the number of numbers per row at size n; it depends on n only where a row
	// is an adjacency row (Graph).
	Features func(n int) int
	// Pairs: the rows are two sets of n items, the first set's then the second's, and the action
	// pairs the second set's items with the first's (mwm, gm). Otherwise the rows are the n
	// items that the action puts in order (sort, tsp).
	Pairs bool
	// Tour: the order is a closed tour, so its places wrap around (tsp).
	Tour bool
	// Graph: a row is a node's adjacency row (gm). Otherwise it is the item's own numbers:
	// its [x, y] in the unit square for a Planar task.
	Graph bool
}

// Items is the number of rows of a state at size n: 2n for two sets, else n.
func (s State) Items(n int) int {
	if s.Pairs {
		return 2 * n
	}
	return n
}

// Values, PointSets, PointTour and GraphPairs are the kinds of states the networks of
// agent/nets are written for, told apart by what the task states; the networks and the model
// catalogue ask them, so that the two agree.

// Values reports whether the rows are n single numbers put in order (sort).
func (f *Facts) Values() bool {
	return !f.State.Pairs && !f.State.Tour && !f.State.Graph && f.State.Features(1) == 1
}

// PointSets reports whether the rows are two sets of n points to pair (mwm).
func (f *Facts) PointSets() bool { return f.State.Pairs && f.Planar && !f.State.Graph }

// PointTour reports whether the rows are n points put in the order of a closed tour (tsp).
func (f *Facts) PointTour() bool { return !f.State.Pairs && f.State.Tour && f.Planar }

// GraphPairs reports whether the rows are two graphs' adjacency rows to pair (gm).
func (f *Facts) GraphPairs() bool { return f.State.Pairs && f.State.Graph }

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

// Score returns the metric of each instance from its objective and, for a metric measured
// against the optimum, the optimal objective (optima is unused otherwise and may be nil). It is
// the one place solutions are scored against references: evaluations, experiment test sets and
// the reference lines all call it.
func (m Metric) Score(objectives, optima []float64) []float64 {
	out := slices.Clone(objectives)
	if m.PerOptimum {
		for i := range out {
			out[i] /= optima[i]
		}
	}
	return out
}

// registry holds every registered task; Tasks lists them in Order.
var registry = map[Task]*Facts{}

// Tasks lists every task, in the order the command line shows them.
var Tasks []Task

// Register adds a task; each task's file calls it once, from init. It panics on a task
// registered twice or missing a part. It returns the function that removes the task again, for a
// test that adds a task for its own duration (the program's tasks stay).
func Register(f *Facts) (unregister func()) {
	if _, dup := registry[f.Task]; dup {
		panic("envs: task " + string(f.Task) + " registered twice")
	}
	if f.Name == "" || f.MaxN < 1 || f.New == nil || len(f.Fields) == 0 || f.Exact == nil || f.Typical == nil || f.State.Features == nil || f.Featurize == nil || f.DefaultEpochs < 1 || (len(f.Polishes) > 0) != (f.Polish != nil) {
		panic("envs: task " + string(f.Task) + " is missing a part")
	}
	registry[f.Task] = f
	Tasks = append(Tasks, f.Task)
	slices.SortStableFunc(Tasks, func(a, b Task) int { return registry[a].Order - registry[b].Order })
	return func() {
		delete(registry, f.Task)
		Tasks = slices.DeleteFunc(slices.Clone(Tasks), func(t Task) bool { return t == f.Task })
	}
}

// taskNames lists the registered tasks' names, in Order.
func taskNames() []string {
	names := make([]string, len(Tasks))
	for i, t := range Tasks {
		names[i] = string(t)
	}
	return names
}

// TaskList words the registered tasks for a message: "mwm, tsp or sort".
func TaskList() string { return suggest.Phrase("", taskNames()) }

// TaskUsage words the registered tasks for a usage line: "mwm|tsp|sort".
func TaskUsage() string { return strings.Join(taskNames(), "|") }

// FactsOf returns the facts of task.
func FactsOf(task Task) (*Facts, error) {
	if f, ok := registry[task]; ok {
		return f, nil
	}
	return nil, fmt.Errorf("unknown task %q (want %s)", string(task), TaskList())
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
		if m := registry[t].Metric; m.Name == name {
			return m, true
		}
	}
	return Metric{}, false
}

// QuickSolver is the solver that stands in for the exact one at size n where a run must be fast.
func (f *Facts) QuickSolver(n int) string {
	if f.Quick != nil {
		return f.Quick(n)
	}
	return f.Exact(n)
}

// StateLen is the length of one featurised state of task at size n.
func (f *Facts) StateLen(n int) int { return f.State.Items(n) * f.State.Features(n) }

// Plots reports whether the console draws the reference called name.
func (f *Facts) Plots(name string) bool { return slices.Contains(f.Plotted, name) }

// PointFeatures is the State.Features of a planar task's points: [x, y].
func PointFeatures(int) int { return 2 }

// PutPoints writes pts into dst as x, y pairs: a planar task's Featurize.
func PutPoints(pts []Point, dst []float32) {
	for i, p := range pts {
		dst[2*i], dst[2*i+1] = float32(p[0]), float32(p[1])
	}
}

// DefaultData is the data spec that new runs and files of task use when none is given: the
// task's Facts.DefaultData, "" for tasks without one or an unknown task.
func DefaultData(task Task) string {
	if f, err := FactsOf(task); err == nil {
		return f.DefaultData
	}
	return ""
}

// MaxNUsage words every task's largest n for a flag's help: "mwm 4096, tsp 4096, ...".
func MaxNUsage() string {
	parts := make([]string, len(Tasks))
	for i, t := range Tasks {
		parts[i] = fmt.Sprintf("%s %d", t, registry[t].MaxN)
	}
	return strings.Join(parts, ", ")
}

// SolverUsage lists every task's solvers, as its environment names them: "mwm: hungarian,
// greedy, random; tsp: exact, ...".
func SolverUsage() string {
	parts := make([]string, len(Tasks))
	for i, t := range Tasks {
		parts[i] = string(t) + ": " + strings.Join(registry[t].New(1).Solvers(), ", ")
	}
	return strings.Join(parts, "; ")
}

// DataUsage lists, for every task with several kinds of data, what its --data may be; the other
// tasks take none.
func DataUsage() string { return usages(func(f *Facts) string { return f.DataUsage }) }

// PolishUsage lists, for every task that takes a polish, what eval --polish may be; the other
// tasks take none.
func PolishUsage() string { return usages(func(f *Facts) string { return f.PolishUsage }) }

// usages joins the tasks' non-empty usages of one flag, in Order.
func usages(of func(*Facts) string) string {
	var parts []string
	for _, t := range Tasks {
		if u := of(registry[t]); u != "" {
			parts = append(parts, u)
		}
	}
	return strings.Join(parts, "; ") + "; other tasks take none"
}

// Measure is a measure of a solution other than the task's metric.
type Measure struct {
	// Name is the measure as records name it: "recovery".
	Name string
	// Of is the measure of perm on inst; false where it does not apply (an instance without
	// what the measure needs).
	Of func(inst Instance, perm []int) (float64, bool)
}
