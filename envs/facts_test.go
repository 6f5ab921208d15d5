package envs

import (
	"slices"
	"strings"
	"testing"
)

// Every task has facts, and they agree with its Env: the exact solver and the baselines are
// solvers it accepts, the metric goes the objective's way, and a featurised state holds the
// instance's numbers.
func TestFacts(t *testing.T) {
	for _, task := range Tasks {
		f, err := FactsOf(task)
		if err != nil {
			t.Fatal(err)
		}
		n := 6
		env, _ := New(task, n)
		solvers := env.Solvers()
		if ex := f.Exact(n); ex != solvers[0] {
			t.Errorf("%s: exact solver %q, the Env's reference is %q", task, ex, solvers[0])
		}
		for _, b := range f.Baselines {
			if !slices.Contains(solvers, b) {
				t.Errorf("%s: baseline %q is no solver of the task", task, b)
			}
		}
		if f.Metric.Maximize != env.Maximize() || f.DefaultEpochs < 1 || f.Name == "" {
			t.Errorf("%s: facts %+v", task, f)
		}
		if m, ok := MetricNamed(f.Metric.Name); !ok || m != f.Metric {
			t.Errorf("%s: MetricNamed(%q) = %+v", task, f.Metric.Name, m)
		}
		inst := env.Generate(1, 0)
		state := make([]float32, f.StateLen(n))
		f.Featurize(inst, state)
		var want []float32
		for _, pts := range [][]Point{inst.A, inst.B, inst.Points} {
			for _, p := range pts {
				want = append(want, float32(p[0]), float32(p[1]))
			}
		}
		for _, v := range inst.Values {
			want = append(want, float32(v))
		}
		for _, row := range append(inst.G1, inst.G2...) {
			for _, x := range row {
				want = append(want, float32(x))
			}
		}
		if !slices.Equal(state, want) {
			t.Errorf("%s: state %v, want %v", task, state, want)
		}
	}
	if _, err := FactsOf("nope"); err == nil {
		t.Error("an unknown task has facts")
	}
}

// The task lists of messages and flags are the registry's, in its order, and a task cannot be
// registered twice.
func TestRegistry(t *testing.T) {
	if got := TaskList(); got != "mwm, tsp, sort or gm" {
		t.Errorf("TaskList() = %q", got)
	}
	if got := TaskUsage(); got != "mwm|tsp|sort|gm" {
		t.Errorf("TaskUsage() = %q", got)
	}
	if _, err := New("nope", 3); err == nil || !strings.Contains(err.Error(), TaskList()) {
		t.Errorf("New of an unknown task: %v", err)
	}
	defer func() {
		if recover() == nil {
			t.Error("registering mwm twice did not panic")
		}
	}()
	Register(MustFacts(TaskMWM))
}

// Score is the objective, or its ratio to the optimum instance by instance for a metric
// measured against the optimum.
func TestMetricScore(t *testing.T) {
	obj, opt := []float64{1, 3}, []float64{2, 4}
	if got := MustFacts(TaskMWM).Metric.Score(obj, opt); !slices.Equal(got, []float64{0.5, 0.75}) {
		t.Errorf("mwm: %v", got)
	}
	if got := MustFacts(TaskTSP).Metric.Score(obj, nil); !slices.Equal(got, obj) {
		t.Errorf("tsp: %v", got)
	}
}

// TestParseTask: a --task that is no task names the tasks and, where it looks like one, says
// which: a task and a size run together ("tsp20", which train refused with "--n is required")
// or a misspelling.
func TestParseTask(t *testing.T) {
	if task, err := ParseTask("tsp"); err != nil || task != TaskTSP {
		t.Errorf("ParseTask(tsp) = %q, %v", task, err)
	}
	for s, want := range map[string]string{
		"tsp20":  "not a task (want mwm, tsp, sort or gm); for TSP-20 give --task tsp --n 20",
		"MWM-15": "for MWM-15 give --task mwm --n 15",
		"TSP":    "did you mean tsp?",
		"tps":    "did you mean tsp?",
		"srot":   "did you mean sort?",
		"knap":   "not a task (want mwm, tsp, sort or gm)",
	} {
		_, err := ParseTask(s)
		if err == nil || !strings.Contains(err.Error(), want) || (s == "knap" && strings.Contains(err.Error(), ";")) {
			t.Errorf("ParseTask(%q): %v, want %q", s, err, want)
		}
	}
}

// A task with one kind of data refuses a --data spec in one line.
func TestNewDataOneKind(t *testing.T) {
	_, err := NewData(TaskMWM, 9, "er")
	if err == nil || !strings.Contains(err.Error(), "one kind of data") || strings.Contains(err.Error(), "\n") {
		t.Errorf("mwm --data er: error %v, want one line saying mwm has one kind of data", err)
	}
}
