package envs

import (
	"math"
	"reflect"
	"testing"

	"spg-tui/envs/internal/envstest"
)

func TestEverySolverValid(t *testing.T) {
	rng := envstest.RNG(50)
	for _, task := range Tasks {
		for _, n := range []int{1, 2, 3, 7, 20} {
			env, err := New(task, n)
			if err != nil {
				t.Fatal(err)
			}
			inst := env.Generate(9, n)
			if err := env.Validate(inst); err != nil {
				t.Fatalf("%s-%d: generated instance invalid: %v", task, n, err)
			}
			scores := map[string]float64{}
			for _, name := range env.Solvers() {
				if CheckSolver(env, name) != nil {
					continue // an exact solver beyond its reach
				}
				p, err := env.Solve(name, inst, rng)
				if err != nil {
					t.Fatalf("%s-%d %s: %v", task, n, name, err)
				}
				envstest.MustPerm(t, p, n, string(task)+" "+name)
				scores[name] = env.Objective(inst, p)
				if r := env.Reward(inst, p); math.IsNaN(r) || math.IsInf(r, 0) {
					t.Errorf("%s-%d %s: reward %v", task, n, name, r)
				}
			}
			// The first solver is exact: no other does better.
			exact, ok := scores[env.Solvers()[0]]
			for name, s := range scores {
				if !ok {
					break
				}
				if env.Maximize() && s > exact+1e-9 || !env.Maximize() && s < exact-1e-9 {
					t.Errorf("%s-%d: %s scores %v, better than exact %v", task, n, name, s, exact)
				}
			}
		}
	}
}

func TestTinyInstances(t *testing.T) {
	two := Instance{Points: []Point{{0, 0}, {0.6, 0.8}}}
	env := MustFacts(TaskTSP).New(2)
	for _, name := range env.Solvers() {
		p, err := env.Solve(name, two, envstest.RNG(1))
		if err != nil {
			t.Fatal(err)
		}
		if got := env.Objective(two, p); !envstest.Near(got, 2) {
			t.Errorf("%s: n=2 tour %v, want 2", name, got)
		}
	}
}

func TestValidate(t *testing.T) {
	nan, inf := math.NaN(), math.Inf(1)
	for _, c := range []struct {
		task Task
		n    int
		inst Instance
		want string
	}{
		{TaskMWM, 2, Instance{A: []Point{{0, 0}, {1, 1}}, B: []Point{{0, 0}, {1, 1}}}, ""},
		{TaskMWM, 5, Instance{A: make([]Point, 5), B: []Point{{}, {}, {}, {0, nan}, {}}}, "b[3][1] is NaN"},
		{TaskMWM, 2, Instance{B: make([]Point, 2)}, "a has 0 points, want 2"},
		{TaskMWM, 2, Instance{A: []Point{{-inf, 0}, {}}, B: make([]Point, 2)}, "a[0][0] is -Inf"},
		{TaskTSP, 5, Instance{Points: make([]Point, 4)}, "points has 4 points, want 5"},
		{TaskTSP, 2, Instance{Points: []Point{{0, 0}, {inf, 0}}}, "points[1][0] is +Inf"},
		{TaskTSP, 2, Instance{A: make([]Point, 2)}, "points has 0 points, want 2"},
		{TaskSort, 3, Instance{Values: []float64{0, 1, nan}}, "values[2] is NaN"},
		{TaskSort, 3, Instance{Values: []float64{0, 1}}, "values has 2 values, want 3"},
		{TaskSort, 1, Instance{Values: []float64{-4}}, ""},
	} {
		env, _ := New(c.task, c.n)
		err := env.Validate(c.inst)
		got := ""
		if err != nil {
			got = err.Error()
		}
		if got != c.want {
			t.Errorf("%s-%d: Validate = %q, want %q", c.task, c.n, got, c.want)
		}
		if c.want != "" {
			if _, err := env.Solve(env.Solvers()[0], c.inst, nil); err == nil || err.Error() != c.want {
				t.Errorf("%s-%d: Solve error %v, want %q", c.task, c.n, err, c.want)
			}
		}
	}
}

func TestGenerate(t *testing.T) {
	for _, task := range Tasks {
		env, _ := New(task, 12)
		a, b := env.Generate(4, 17), env.Generate(4, 17)
		if !sameInstance(a, b) {
			t.Errorf("%s: Generate(4, 17) differs between calls", task)
		}
		if sameInstance(a, env.Generate(4, 18)) || sameInstance(a, env.Generate(5, 17)) {
			t.Errorf("%s: other index or seed gives the same instance", task)
		}
		for _, pts := range [][]Point{a.A, a.B, a.Points} {
			for _, p := range pts {
				if p[0] < 0 || p[0] >= 1 || p[1] < 0 || p[1] >= 1 {
					t.Fatalf("%s: point %v outside the unit square", task, p)
				}
			}
		}
	}
}

// sameInstance reports whether a and b hold equal fields.
func sameInstance(a, b Instance) bool {
	return reflect.DeepEqual(a, b)
}

func TestSolversListIsACopy(t *testing.T) {
	env := MustFacts(TaskTSP).New(3)
	env.Solvers()[0] = "changed"
	if env.Solvers()[0] != "exact" {
		t.Error("Solvers exposes the package's list")
	}
}

// TestSquareSymmetriesAreDistinctIsometries checks that the 8 symmetries map the unit square
// onto itself, are pairwise distinct, and keep every tour length and matching weight.
func TestSquareSymmetriesAreDistinctIsometries(t *testing.T) {
	env := MustFacts(TaskTSP).New(9)
	inst := env.Generate(3, 0)
	p := Point{0.1, 0.3}
	seen := map[Point]int{}
	tour := []int{4, 0, 8, 2, 6, 1, 7, 3, 5}
	for k := range SquareSymmetries {
		q := SquareSymmetry(k, p)
		if q[0] < 0 || q[0] > 1 || q[1] < 0 || q[1] > 1 {
			t.Fatalf("symmetry %d maps %v outside the square: %v", k, p, q)
		}
		if j, dup := seen[q]; dup {
			t.Fatalf("symmetries %d and %d both map %v to %v", j, k, p, q)
		}
		seen[q] = k
		img := inst.MapPoints(func(p Point) Point { return SquareSymmetry(k, p) })
		if got, want := TourLength(img.Points, tour), TourLength(inst.Points, tour); math.Abs(got-want) > 1e-12 {
			t.Fatalf("symmetry %d: tour length %v, want %v", k, got, want)
		}
	}
	m := MustFacts(TaskMWM).New(5)
	mi := m.Generate(3, 1)
	perm := []int{2, 0, 4, 1, 3}
	for k := range SquareSymmetries {
		img := mi.MapPoints(func(p Point) Point { return SquareSymmetry(k, p) })
		if got, want := m.Objective(img, perm), m.Objective(mi, perm); math.Abs(got-want) > 1e-12 {
			t.Fatalf("symmetry %d: matching weight %v, want %v", k, got, want)
		}
	}
}
