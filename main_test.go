package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"spg-tui/envs"
)

// The test binary doubles as spg-tui: with SPG_TUI_AS_MAIN=1 it runs main, so the tests below
// drive the real command line through real pipes.
func TestMain(m *testing.M) {
	if os.Getenv("SPG_TUI_AS_MAIN") == "1" {
		main()
		return
	}
	os.Exit(m.Run())
}

func spgTUI(args ...string) *exec.Cmd {
	cmd := exec.Command(os.Args[0], args...)
	cmd.Env = append(os.Environ(), "SPG_TUI_AS_MAIN=1")
	return cmd
}

func TestGenPipedIntoSolve(t *testing.T) {
	for _, tc := range []struct {
		task, solver string
		n            int
	}{
		{"mwm", "hungarian", 6}, {"mwm", "greedy", 6}, {"mwm", "random", 6},
		{"tsp", "exact", 7}, {"tsp", "nn", 7}, {"tsp", "farthest", 7}, {"tsp", "2opt", 7},
		{"tsp", "christofides", 7}, {"tsp", "random", 7},
		{"sort", "exact", 9}, {"sort", "random", 9},
		{"tsp", "exact", 1}, {"tsp", "christofides", 2}, {"mwm", "hungarian", 1}, {"sort", "exact", 2},
	} {
		t.Run(tc.task+"/"+tc.solver, func(t *testing.T) {
			gen := spgTUI("gen", "--task", tc.task, "--n", strconv.Itoa(tc.n), "--count", "5", "--seed", "7")
			solve := spgTUI("solve", "--solver", tc.solver, "--in", "-")
			pipe, err := gen.StdoutPipe()
			if err != nil {
				t.Fatal(err)
			}
			solve.Stdin = pipe
			var out, errOut bytes.Buffer
			solve.Stdout, solve.Stderr = &out, &errOut
			if err := solve.Start(); err != nil {
				t.Fatal(err)
			}
			if err := gen.Run(); err != nil {
				t.Fatalf("gen: %v", err)
			}
			if err := solve.Wait(); err != nil {
				t.Fatalf("solve: %v: %s", err, errOut.String())
			}
			if lines := strings.Count(strings.TrimSpace(errOut.String()), "\n"); lines != 0 ||
				!strings.Contains(errOut.String(), "5 "+tc.task) {
				t.Errorf("want a one-line summary naming 5 %s instances, got %q", tc.task, errOut.String())
			}
			// Check every line against the instance regenerated independently.
			env, err := envs.New(envs.Task(tc.task), tc.n)
			if err != nil {
				t.Fatal(err)
			}
			sc := bufio.NewScanner(&out)
			i := 0
			for ; sc.Scan(); i++ {
				var sol envs.Solution
				if err := json.Unmarshal(sc.Bytes(), &sol); err != nil {
					t.Fatalf("line %d: %v", i, err)
				}
				if sol.Index != i || len(sol.Perm) != tc.n {
					t.Fatalf("line %d: index %d, perm %v", i, sol.Index, sol.Perm)
				}
				inst := env.Generate(7, i)
				if got := env.Objective(inst, sol.Perm); got != sol.Objective {
					t.Errorf("line %d: objective %v, recomputed %v", i, sol.Objective, got)
				}
			}
			if i != 5 {
				t.Errorf("got %d lines, want 5", i)
			}
		})
	}
}

func TestBadInputFailsCleanly(t *testing.T) {
	dir := t.TempDir()
	write := func(name, body string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	bigTSP := `{"task":"tsp","n":21,"instances":[{"points":[` + strings.Repeat("[0.5,0.5],", 20) + `[0,0]]}]}`
	for _, tc := range []struct {
		name string
		args []string
		want string // a fragment of the one-line error
	}{
		{"malformed", []string{"solve", "--solver", "hungarian", "--in", write("m.json", `{"task":"mwm","n":1,"instances":[{"a":[[0,0]],"b":[[0,`)}, "instance 0: malformed JSON"},
		{"missing field", []string{"solve", "--solver", "hungarian", "--in", write("f.json", `{"task":"mwm","n":1,"instances":[{"a":[[0,0]]}]}`)}, `instance 0: missing field "b"`},
		{"wrong size", []string{"solve", "--solver", "exact", "--in", write("s.json", `{"task":"sort","n":3,"instances":[{"values":[1,2,3]},{"values":[1,2]}]}`)}, "instance 1:"},
		{"NaN", []string{"solve", "--solver", "exact", "--in", write("nan.json", `{"task":"sort","n":2,"instances":[{"values":[1,NaN]}]}`)}, "instance 0: malformed JSON"},
		{"Inf", []string{"solve", "--solver", "exact", "--in", write("inf.json", `{"task":"sort","n":2,"instances":[{"values":[1,2]},{"values":[1,1e400]}]}`)}, "instance 1: values[1] = 1e400 is not a finite"},
		{"non-numeric", []string{"solve", "--solver", "nn", "--in", write("str.json", `{"task":"tsp","n":2,"instances":[{"points":[[0,0],[0,"x"]]}]}`)}, `instance 0: points[1][1] is not a number`},
		{"unknown task", []string{"solve", "--solver", "exact", "--in", write("task.json", `{"task":"knapsack","n":2,"instances":[{}]}`)}, `unknown task "knapsack"`},
		{"unknown solver", []string{"solve", "--solver", "simplex", "--in", write("ok.json", `{"task":"sort","n":2,"instances":[{"values":[2,1]}]}`)}, `unknown solver "simplex"`},
		{"exact TSP too big", []string{"solve", "--solver", "exact", "--in", write("big.json", bigTSP)}, "n <= 20"},
		{"empty file", []string{"solve", "--solver", "exact", "--in", write("empty.json", "")}, "empty input"},
		{"missing file", []string{"solve", "--solver", "exact", "--in", filepath.Join(dir, "nope.json")}, "no such file"},
		{"bad flag", []string{"gen", "--task", "mwm", "--n", "3", "--bogus"}, "flag provided but not defined"},
		{"bad n", []string{"gen", "--task", "mwm", "--n", "0"}, "--n"},
		{"bad task", []string{"gen", "--task", "foo", "--n", "3"}, `unknown task "foo"`},
		{"unknown command", []string{"frobnicate"}, `unknown command "frobnicate"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cmd := spgTUI(tc.args...)
			var out, errOut bytes.Buffer
			cmd.Stdout, cmd.Stderr = &out, &errOut
			err := cmd.Run()
			var exit *exec.ExitError
			if !errors.As(err, &exit) || exit.ExitCode() != exitUsage {
				t.Fatalf("want exit status %d, got %v (stderr %q)", exitUsage, err, errOut.String())
			}
			if out.Len() != 0 {
				t.Errorf("stdout should be empty, got %q", out.String())
			}
			msg := errOut.String()
			if strings.Count(msg, "\n") != 1 || !strings.Contains(msg, tc.want) {
				t.Errorf("want one line containing %q, got %q", tc.want, msg)
			}
		})
	}
}

func TestHelp(t *testing.T) {
	for _, args := range [][]string{{}, {"--help"}, {"gen", "--help"}, {"solve", "-h"}} {
		out, err := spgTUI(args...).Output()
		if err != nil || !strings.Contains(string(out), "spg-tui") {
			t.Errorf("%v: err %v, output %q", args, err, out)
		}
	}
}
