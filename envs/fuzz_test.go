package envs

import (
	"bytes"
	"encoding/binary"
	"math"
	"testing"
)

// maxFuzzSolveN bounds the size at which the fuzz targets run every solver, so that one input
// takes microseconds.
const maxFuzzSolveN = 9

// checkSolutions fails t unless every solver of e solves insts: a permutation of 0..n-1 for each
// instance, with a finite objective. A panic fails the fuzz input by itself.
func checkSolutions(t *testing.T, e Env, insts []Instance, solvers []string) {
	t.Helper()
	for _, s := range solvers {
		sols, err := SolveAll(e, s, insts, 1)
		if err != nil {
			t.Fatalf("solver %s: %v", s, err)
		}
		if err := CheckObjectives(sols); err != nil {
			t.Fatalf("solver %s: %v", s, err)
		}
		for _, sol := range sols {
			seen := make([]bool, e.N())
			for _, v := range sol.Perm {
				if v < 0 || v >= e.N() || seen[v] {
					t.Fatalf("solver %s, instance %d: %v is not a permutation of 0..%d", s, sol.Index, sol.Perm, e.N()-1)
				}
				seen[v] = true
			}
			if len(sol.Perm) != e.N() {
				t.Fatalf("solver %s, instance %d: permutation %v, want length %d", s, sol.Index, sol.Perm, e.N())
			}
		}
	}
}

// FuzzReadFileSolve: every solver solves whatever ReadFile accepts (FuzzReadFile checks the
// reader itself). Its seeds include coordinates whose squared distances overflow float64, which
// made Christofides index -1, and coordinates at the bound.
func FuzzReadFileSolve(f *testing.F) {
	for _, s := range []string{
		`{"task":"tsp","n":4,"instances":[{"points":[[1e155,0],[-1e155,0],[0,1e155],[0,-1e155]]}]}`,
		`{"task":"tsp","n":4,"instances":[{"points":[[1e30,1e30],[-1e30,-1e30],[1e30,-1e30],[-1e30,1e30]]}]}`,
		`{"task":"mwm","n":2,"instances":[{"a":[[1e155,0],[-1e155,0]],"b":[[0,1e155],[0,-1e155]]}]}`,
		`{"task":"mwm","n":2,"instances":[{"a":[[1e30,0],[-1e30,0]],"b":[[0,1e30],[0,-1e30]]}]}`,
		`{"task":"sort","n":3,"instances":[{"values":[1.7e308,-1.7e308,0]}]}`,
		`{"task":"tsp","n":5,"instances":[{"points":[[0,0],[1,0],[1,1],[0,1],[0.5,0.5]]}]}`,
		`{"task":"tsp","n":2,"instances":[{"points":[[0,0],[1,1],[2,2]]}]}`,
		`{"task":"tsp","n":2,"instances":[{"points":[[0,0,0],{"x":1}]}]}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		file, env, err := ReadFile(bytes.NewReader(data))
		if err != nil || env.N() > maxFuzzSolveN {
			return
		}
		checkSolutions(t, env, file.Instances, env.Solvers())
	})
}

// fuzzInstance builds an instance of task at size n with its numbers read from raw, eight bytes
// each as a float64's bits (zeros once raw runs out), so that the fuzzer reaches every float64.
func fuzzInstance(task Task, n int, raw []byte) Instance {
	next := func() float64 {
		if len(raw) < 8 {
			return 0
		}
		x := math.Float64frombits(binary.LittleEndian.Uint64(raw))
		raw = raw[8:]
		return x
	}
	points := func() []Point {
		pts := make([]Point, n)
		for i := range pts {
			pts[i] = Point{next(), next()}
		}
		return pts
	}
	switch task {
	case TaskMWM:
		a := points()
		return Instance{A: a, B: points()}
	case TaskTSP:
		return Instance{Points: points()}
	}
	vals := make([]float64, n)
	for i := range vals {
		vals[i] = next()
	}
	return Instance{Values: vals}
}

// floatBits writes xs as fuzzInstance reads them.
func floatBits(xs ...float64) []byte {
	b := make([]byte, 0, 8*len(xs))
	for _, x := range xs {
		b = binary.LittleEndian.AppendUint64(b, math.Float64bits(x))
	}
	return b
}

// FuzzSolve: every solver of every task either refuses an instance that does not validate or
// returns a permutation with a finite objective; none panics. The seeds hold the numbers that
// overflowed squared distances (Christofides indexed -1) and numbers at the bound.
func FuzzSolve(f *testing.F) {
	big := floatBits(1e155, 0, -1e155, 0, 0, 1e155, 0, -1e155)
	edge := floatBits(MaxCoordinate, MaxCoordinate, -MaxCoordinate, -MaxCoordinate, MaxCoordinate, -MaxCoordinate, -MaxCoordinate, MaxCoordinate)
	for task := range byte(3) {
		for solver := range byte(6) {
			f.Add(task, byte(4), solver, big)
			f.Add(task, byte(4), solver, edge)
		}
	}
	f.Add(byte(2), byte(3), byte(0), floatBits(math.MaxFloat64, -math.MaxFloat64, math.SmallestNonzeroFloat64))
	f.Add(byte(1), byte(5), byte(3), floatBits(0.5, 0.5, 0.5, 0.5, 1e-300, 0, 0, 1e-300, 0.25, 0.75))
	f.Fuzz(func(t *testing.T, task, n, solver byte, raw []byte) {
		tk := Tasks[int(task)%len(Tasks)]
		size := 1 + int(n)%maxFuzzSolveN
		env, err := New(tk, size)
		if err != nil {
			t.Fatal(err)
		}
		inst := fuzzInstance(tk, size, raw)
		name := env.Solvers()[int(solver)%len(env.Solvers())]
		if env.Validate(inst) != nil {
			if _, err := SolveAll(env, name, []Instance{inst}, 1); err == nil {
				t.Fatalf("solver %s accepted an instance that does not validate", name)
			}
			return
		}
		checkSolutions(t, env, []Instance{inst}, []string{name})
	})
}
