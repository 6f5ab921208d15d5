package ui

import (
	"bytes"
	"cmp"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/exp/teatest/v2"

	"spg-tui/agent"
	"spg-tui/agent/eval"
	"spg-tui/envs"
	"spg-tui/run"
	"spg-tui/ui/samples"
)

// This file is the whole of a task added to the program: "toy", order n weights so that the
// heavier come later. It proves that a task lives in its own files: everything below goes
// through the registries (envs.Register, samples.Register) and the ordinary paths (agent's
// trainer, the console, instance files, agent/eval's policy), with no edit anywhere else.

// taskToy is the toy task.
const taskToy envs.Task = "toy"

// toyInstance is the toy task's own instance data (envs.Instance.Data): the items' weights.
type toyInstance struct {
	Weights []float64 `json:"weights"`
}

// toyEnv is the toy task at size n. perm lists the items in output order; the objective is
// sum_k k w[perm[k]] / sum_k k, maximised by the ascending order (the rearrangement inequality),
// which gives the weights' mean weighted towards the heavy ones.
type toyEnv struct{ n int }

func (e toyEnv) Task() envs.Task   { return taskToy }
func (e toyEnv) N() int            { return e.n }
func (e toyEnv) Maximize() bool    { return true }
func (e toyEnv) Solvers() []string { return []string{"exact", "random"} }
func (e toyEnv) weights(inst envs.Instance) []float64 {
	return inst.Data.(toyInstance).Weights
}

// Generate draws n weights uniform in [0, 1).
func (e toyEnv) Generate(seed uint64, index int) envs.Instance {
	rng := envs.InstanceRNG(seed, index)
	w := make([]float64, e.n)
	for i := range w {
		w[i] = rng.Float64()
	}
	return envs.Instance{Data: toyInstance{w}}
}

func (e toyEnv) Validate(inst envs.Instance) error {
	d, ok := inst.Data.(toyInstance)
	switch {
	case !ok:
		return errors.New("missing field \"weights\"")
	case len(d.Weights) != e.n:
		return fmt.Errorf("weights: %d entries, want n = %d", len(d.Weights), e.n)
	}
	return nil
}

func (e toyEnv) Objective(inst envs.Instance, perm []int) float64 {
	w := e.weights(inst)
	var sum, norm float64
	for k, i := range perm {
		sum += float64(k) * w[i]
		norm += float64(k)
	}
	return sum / math.Max(norm, 1)
}

func (e toyEnv) Reward(inst envs.Instance, perm []int) float64 { return e.Objective(inst, perm) }

func (e toyEnv) Solve(solver string, inst envs.Instance, rng *rand.Rand) ([]int, error) {
	switch solver {
	case "exact":
		w := e.weights(inst)
		perm := make([]int, e.n)
		for i := range perm {
			perm[i] = i
		}
		slices.SortStableFunc(perm, func(a, b int) int { return cmp.Compare(w[a], w[b]) })
		return perm, nil
	case "random":
		return rng.Perm(e.n), nil
	}
	return nil, fmt.Errorf("unknown solver %q for toy", solver)
}

// toyLegend is the toy drawer's legend, which the console shows only if the drawer registered.
const toyLegend = "heavier later"

// registerToy adds the toy task and its drawer for the duration of t, so that the other tests see
// the program's tasks only.
func registerToy(t *testing.T) {
	t.Cleanup(envs.Register(&envs.Facts{
		Task: taskToy, Name: "Toy", Order: 99, MaxN: 64,
		New: func(n int) envs.Env { return toyEnv{n} },
		Fields: []envs.Field{{Name: "weights", Parse: func(inst *envs.Instance, v any) error {
			w, err := envs.ParseNumbers("weights", v)
			inst.Data = toyInstance{w}
			return err
		}}},
		Metric:        envs.Metric{Name: "toy_score", Short: "score", Label: "toy score", Maximize: true},
		DefaultEpochs: 1,
		Exact:         func(int) string { return "exact" },
		Baselines:     []string{"random"},
		Plotted:       []string{"random", "optimal"},
		Typical:       func(int) map[string]float64 { return map[string]float64{"random": 0.5, "optimal": 0.67} },
		// One number per item, put in order: the states sort's networks read.
		State: envs.State{Features: func(int) int { return 1 }},
		Featurize: func(inst envs.Instance, dst []float32) {
			for i, w := range inst.Data.(toyInstance).Weights {
				dst[i] = float32(w)
			}
		},
	}))
	t.Cleanup(samples.Register(taskToy, samples.Drawer{
		// The weights in the solution's order, as digits 0-9.
		Draw: func(s run.Sample, perm []int, look samples.Look, w, h int) ([]string, string) {
			d, ok := s.Instance.Data.(toyInstance)
			if !ok {
				return nil, toyLegend
			}
			var b strings.Builder
			for _, i := range perm {
				fmt.Fprintf(&b, "%d", min(int(10*d.Weights[i]), 9))
			}
			return []string{look.Line.Render(b.String())}, toyLegend
		},
		Score: func(s run.Sample) []string {
			return []string{fmt.Sprintf("toy %.3f vs opt %.3f", s.Objective, s.OptObjective)}
		},
	}))
}

// The toy task trains a few steps in the console on its default model, shows its sample with
// its own drawer, scores on its test set, and its policy solves the instances of a toy file.
func TestToyTaskEndToEnd(t *testing.T) {
	if testing.Short() {
		t.Skip("trains a network")
	}
	registerToy(t)
	cfg := tinyConfig(taskToy, 6)
	cfg.Model = run.DefaultModel(taskToy)
	cfg.Hidden, cfg.Steps, cfg.EvalEvery = 8, 20, 10
	if err := cfg.Validate(); err != nil {
		t.Fatalf("config of the toy task: %v", err)
	}
	dir := filepath.Join(t.TempDir(), "run")
	eng, err := agent.StartRun(cfg, dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	tm := teatest.NewTestModel(t, newModel(eng, startOnCPU, false, false), teatest.WithInitialTermSize(120, 36),
		teatest.WithProgramOptions(tea.WithFilter(probeFilter)))
	s := waitScreen(t, tm, "the toy sample drawn", func(s string) bool {
		return strings.Contains(s, toyLegend) && strings.Contains(s, "toy ") && strings.Contains(s, " vs opt ")
	})
	if !strings.Contains(s, "Toy-6") {
		t.Errorf("the title does not name the task:\n%s", s)
	}
	select {
	case <-eng.Done():
	case <-time.After(60 * time.Second):
		t.Fatal("the toy run did not end")
	}
	tm.Type("q")
	tm.WaitFinished(t, teatest.WithFinalTimeout(5*time.Second))
	if st := eng.Status(); st.State != run.StateDone || eng.Err() != nil {
		t.Fatalf("toy run ended in state %v: %v", st.State, eng.Err())
	}

	// An instance file of the toy task: its own data written and read back.
	env, err := envs.New(taskToy, 6)
	if err != nil {
		t.Fatal(err)
	}
	file := &envs.File{Task: taskToy, N: 6, Instances: []envs.Instance{env.Generate(1, 0), env.Generate(1, 1)}}
	var buf bytes.Buffer
	if err := envs.WriteFile(&buf, file); err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(buf.String(), `{"task":"toy","n":6,"instances":[{"weights":[`) {
		t.Errorf("toy file written as %.80s", buf.String())
	}
	back, benv, err := envs.ReadFile(&buf)
	if err != nil {
		t.Fatalf("reading the toy file back: %v", err)
	}
	if !slices.Equal(env.(toyEnv).weights(back.Instances[1]), env.(toyEnv).weights(file.Instances[1])) {
		t.Errorf("weights read back %v, written %v", back.Instances[1].Data, file.Instances[1].Data)
	}
	pol, err := eval.LoadPolicy(dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	sols, err := pol.Solve(benv, back.Instances)
	if err != nil {
		t.Fatalf("the toy policy: %v", err)
	}
	for _, s := range sols {
		if s.Objective <= 0 || s.Objective > 1 {
			t.Errorf("instance %d: objective %g", s.Index, s.Objective)
		}
	}
}
