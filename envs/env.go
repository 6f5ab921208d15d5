// Package envs is the framework of the permutation tasks (the SPG paper's sorting, maximum weight
// matching and Euclidean TSP, and graph matching): the Env interface, the registry of each
// task's Facts, instance files, datasets, validation and the dispatch of solvers. The tasks
// themselves (their data, objectives, rewards and exact and classical solvers) live each in a
// folder below (envs/mwm, envs/tsp, envs/sort, envs/gm) that registers its Facts from init
// (envs.Register); this package imports none of them, and envs/tasks imports them all.
package envs

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
)

// Task names a problem family; its Facts are registered under the name.
type Task string

// Point is a location in the plane, written [x, y] in instance files.
type Point [2]float64

// Instance is one problem instance. Which fields are set depends on the task:
// A and B for mwm, Points for tsp, Values for sort, G1, G2 and Planted for gm. A task added
// since holds its instance in Data instead, so that this struct need not grow per task.
type Instance struct {
	A      []Point   `json:"a,omitempty"`
	B      []Point   `json:"b,omitempty"`
	Points []Point   `json:"points,omitempty"`
	Values []float64 `json:"values,omitempty"`
	// G1 and G2 are gm's adjacency matrices, Planted the correspondence G2 was made by.
	G1      [][]int8 `json:"g1,omitempty"`
	G2      [][]int8 `json:"g2,omitempty"`
	Planted []int    `json:"planted,omitempty"`
	// Data is the instance of a task whose instances the fields above do not hold: the task's
	// own value, which its Generate makes, its Fields' Parse read into and only its own code
	// reads. It must marshal to a JSON object, whose members an instance file writes beside the
	// fields above (MarshalJSON), as the task's Fields read them back. Records read back
	// without their task (run.Sample) leave it nil.
	Data any `json:"-"`
}

// plainInstance is Instance without its MarshalJSON: the shared fields as encoding/json writes
// them.
type plainInstance Instance

// MarshalJSON writes the shared fields as they always were and, after them, the members of
// Data's object: a task with its own data writes its fields where the Fields read them.
func (inst Instance) MarshalJSON() ([]byte, error) {
	shared, err := json.Marshal(plainInstance(inst))
	if err != nil || inst.Data == nil {
		return shared, err
	}
	own, err := json.Marshal(inst.Data)
	if err != nil {
		return nil, err
	}
	if len(own) < 2 || own[0] != '{' {
		return nil, fmt.Errorf("envs: instance data %T does not marshal to a JSON object", inst.Data)
	}
	switch {
	case len(own) == 2: // {}
		return shared, nil
	case len(shared) == 2:
		return own, nil
	}
	return append(append(shared[:len(shared)-1], ','), own[1:]...), nil
}

// Env is one task at one size n. Permutation conventions (perm has length n):
//   - mwm: perm[i] is the index in B matched to A[i]; objective = sum_i |A[i] - B[perm[i]]|, maximised.
//   - tsp: perm is the visiting order; objective = closed tour length, minimised.
//   - sort: perm lists indices in output order; objective = Kendall tau (tau-b) of Values[perm]
//     against ascending order, maximised (1 when sorted).
type Env interface {
	// Task returns the task this environment poses.
	Task() Task
	// N returns the size of every instance.
	N() int
	// Generate returns instance index of the dataset drawn with seed. It is deterministic and
	// uses O(1) memory: any index can be produced without producing the others.
	Generate(seed uint64, index int) Instance
	// Validate reports the first thing wrong with inst: a missing field, a size other than N,
	// or a non-finite number.
	Validate(inst Instance) error
	// Objective scores perm on inst by the task's objective (see the conventions above).
	Objective(inst Instance, perm []int) float64
	// Maximize reports whether a larger objective is better.
	Maximize() bool
	// Reward is the reinforcement-learning reward of perm on inst; see each task for its
	// normalisation.
	Reward(inst Instance, perm []int) float64
	// Solvers lists the solver names this task accepts; the first is the exact reference.
	Solvers() []string
	// Solve runs the named solver on inst. rng drives randomised solvers.
	Solve(solver string, inst Instance, rng *rand.Rand) ([]int, error)
}

// New returns the environment for task at size n (n >= 1) on the task's default data.
func New(task Task, n int) (Env, error) { return NewData(task, n, "") }

// NewData returns the environment for task at size n (n >= 1) on the data spec describes (see
// Facts.NewData; "" is the task's default data).
func NewData(task Task, n int, spec string) (Env, error) {
	if n < 1 {
		return nil, fmt.Errorf("size n = %d: must be at least 1", n)
	}
	f, err := FactsOf(task)
	if err != nil {
		return nil, err
	}
	if n > f.MaxN {
		return nil, fmt.Errorf("size n = %d: %s instances have at most n = %d", n, task, f.MaxN)
	}
	switch {
	case spec == "":
		return f.New(n), nil
	case f.NewData == nil:
		return nil, fmt.Errorf("data %s: %s has one kind of data, so no --data", QuoteClip(spec), task)
	}
	return f.NewData(n, spec)
}
