package run

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"spg-tui/envs"
)

// The models learn the tasks whose states their networks read: for the four tasks that is the
// table the catalogue listed by name before the tasks stated their states, and each task's
// default is the paper's architecture for it.
func TestModelsLearnTheTasksTheyRead(t *testing.T) {
	want := map[string][]envs.Task{
		ModelMatching:       {envs.TaskMWM},
		ModelSequential:     {envs.TaskTSP, envs.TaskSort},
		ModelPairwise:       {envs.TaskMWM, envs.TaskSort},
		ModelFactored:       {envs.TaskTSP, envs.TaskSort},
		ModelAttention:      {envs.TaskTSP},
		ModelSuccessor:      {envs.TaskTSP},
		ModelSuccessorLocal: {envs.TaskTSP},
		ModelSuccessorGraph: {envs.TaskTSP},
		ModelGM:             {envs.TaskGM},
		ModelGMLogStep:      {envs.TaskGM},
		ModelGMSpectral:     {envs.TaskGM},
		ModelPNAC:           {envs.TaskTSP, envs.TaskSort},
		ModelPNACMatching:   {envs.TaskMWM},
		ModelACMatching:     {envs.TaskMWM},
		ModelRandom:         {envs.TaskMWM, envs.TaskTSP, envs.TaskSort},
	}
	for _, m := range Models {
		if got := m.Tasks(); !slices.Equal(got, want[m.Name]) {
			t.Errorf("%s learns %v, want %v", m.Name, got, want[m.Name])
		}
	}
	for task, model := range map[envs.Task]string{envs.TaskMWM: ModelMatching, envs.TaskTSP: ModelSequential,
		envs.TaskSort: ModelSequential, envs.TaskGM: ModelGM} {
		if got := DefaultModel(task); got != model {
			t.Errorf("default model of %s: %s, want %s", task, got, model)
		}
	}
}

// A model name outside the catalogue learns nothing and is refused in one line, not a panic.
func TestUnknownModelLearnsNothing(t *testing.T) {
	if m := ModelOf(Config{Model: "nope"}); m.Supports(envs.TaskMWM) || len(m.Tasks()) != 0 {
		t.Errorf("an unknown model learns %v", m.Tasks())
	}
	if _, err := parseTrainFlags("--task", "mwm", "--n", "5", "--model", "nope"); err == nil || !strings.Contains(err.Error(), `unknown model "nope"`) {
		t.Errorf("--model nope: %v", err)
	}
}

// PN-AC takes the actor's learning rate a task states (Facts.PNACActorLR), else Bello et al.'s
// 1e-3: sort's 1e-4, and a task's own for a task added with one.
func TestPNACActorLRIsTheTasks(t *testing.T) {
	f := *envs.MustFacts(envs.TaskSort)
	f.Task, f.Order, f.PNACActorLR = "sort-slow", 98, 3e-4
	t.Cleanup(envs.Register(&f))
	for task, want := range map[string]float64{"sort": 1e-4, "tsp": 1e-3, "sort-slow": 3e-4} {
		c, err := parseTrainFlags("--task", task, "--n", "5", "--model", ModelPNAC)
		if err != nil || c.ActorLR != want {
			t.Errorf("%s %s: actor LR %g, %v; want %g", ModelPNAC, task, c.ActorLR, err, want)
		}
	}
}

// The gm models' old names read as their new ones, on the command line and in a run's config;
// the new names and the other models' stay as they are.
func TestRenamedModelsReadAsTheirNewNames(t *testing.T) {
	for old, now := range map[string]string{"spg-gm2": ModelGMLogStep, "spg-gm3": ModelGMSpectral, ModelGM: ModelGM, ModelGMSpectral: ModelGMSpectral} {
		if c, err := parseTrainFlags("--task", "gm", "--n", "10", "--model", old); err != nil || c.Model != now {
			t.Errorf("--model %s: model %q, %v; want %s", old, c.Model, err, now)
		}
		c := DefaultConfig(envs.TaskGM, 10)
		c.Model = old
		data, err := json.Marshal(c)
		if err != nil {
			t.Fatal(err)
		}
		var back Config
		if err := json.Unmarshal(data, &back); err != nil || back.Model != now {
			t.Errorf("a config.json naming %s: model %q, %v; want %s", old, back.Model, err, now)
		}
	}
}
