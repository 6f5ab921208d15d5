package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"spg-tui/envs"
	"spg-tui/linalg/cuda/cudastub"
	"spg-tui/run"
)

// The test binary doubles as spg-tui: with SPG_TUI_AS_MAIN=1 it runs main, so the tests below
// drive the real command line through real pipes.
func TestMain(m *testing.M) {
	if os.Getenv("SPG_TUI_AS_MAIN") == "1" {
		cudastub.FromEnv()
		main()
		return
	}
	// The shared cache of exact references goes to a directory of this test binary's own, for
	// its commands and the commands it runs.
	cache, err := os.MkdirTemp("", "spg-tui-cache-")
	if err != nil {
		panic(err)
	}
	os.Setenv("XDG_CACHE_HOME", cache)
	code := m.Run()
	os.RemoveAll(cache)
	cudastub.Remove()
	os.Exit(code)
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
			// Check every line against the instance regenerated independently, on the data
			// gen draws when none is named.
			env, err := envs.NewData(envs.Task(tc.task), tc.n, envs.DefaultData(envs.Task(tc.task)))
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
	// What a run stopped while it solved its references holds: no checkpoints/best.
	stopped := filepath.Join(dir, "stopped")
	if os.MkdirAll(filepath.Join(stopped, "checkpoints"), 0o755) != nil {
		t.Fatal("mkdir")
	}
	write(filepath.Join("stopped", "config.json"), "{}")
	write(filepath.Join("stopped", "checkpoints", "last"), "")
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
		{"bad flag", []string{"gen", "--task", "mwm", "--n", "3", "--bogus"}, "unknown flag --bogus (see spg-tui gen --help)"},
		{"mistyped flag", []string{"train", "--step", "5"}, "spg-tui train: unknown flag --step; did you mean --steps? (see spg-tui train --help)"},
		{"mistyped command", []string{"trian", "--task", "mwm"}, `spg-tui: unknown command "trian"; did you mean train? (run spg-tui --help)`},
		{"task and size run together", []string{"train", "--task", "tsp20"}, "spg-tui train: --task tsp20: not a task (want mwm, tsp, sort or gm); for TSP-20 give --task tsp --n 20"},
		{"misspelt task", []string{"gen", "--task", "tps", "--n", "5"}, "--task tps: not a task (want mwm, tsp, sort or gm); did you mean tsp?"},
		{"gen without n", []string{"gen", "--task", "mwm"}, "spg-tui gen: --n is required"},
		{"bench without n", []string{"bench", "--task", "mwm"}, "spg-tui bench: --n is required"},
		{"resume of nothing", []string{"train", "--resume", filepath.Join(dir, "nope")}, "--resume " + filepath.Join(dir, "nope") + ": not a run directory (there is no such directory)"},
		{"resume of no run", []string{"train", "--resume", dir}, "--resume " + dir + ": not a run directory (it has no config.json)"},
		{"checkpoint of nothing", []string{"eval", "--checkpoint", filepath.Join(dir, "nope"), "--in", write("e.json", `{"task":"sort","n":2,"instances":[{"values":[2,1]}]}`)}, "--checkpoint " + filepath.Join(dir, "nope") + ": no such checkpoint file or run directory"},
		{"init from a run stopped before its first validation", []string{"train", "--task", "sort", "--n", "2", "--out", filepath.Join(dir, "run2"), "--init", stopped},
			"--init " + stopped + ": the run has no checkpoints/best yet (no validation has finished); its latest parameters are --init " + filepath.Join(stopped, "checkpoints", "last")},
		{"init of nothing", []string{"train", "--task", "mwm", "--n", "5", "--out", filepath.Join(dir, "run"), "--init", filepath.Join(dir, "nope")}, "--init " + filepath.Join(dir, "nope") + ": no such checkpoint file or run directory"},
		{"bad n", []string{"gen", "--task", "mwm", "--n", "0"}, "--n"},
		{"bad task", []string{"gen", "--task", "foo", "--n", "3"}, "--task foo: not a task"},
		{"n above mwm's bound", []string{"gen", "--task", "mwm", "--n", "4097"}, "size n = 4097: mwm instances have at most n = 4096"},
		{"n of tsp at max int", []string{"gen", "--task", "tsp", "--n", "9223372036854775807"}, "tsp instances have at most n = 4096"},
		{"n above sort's bound", []string{"gen", "--task", "sort", "--n", "2000000000"}, "sort instances have at most n = 65536"},
		{"n above gm's bound", []string{"gen", "--task", "gm", "--n", "1025"}, "gm instances have at most n = 1024"},
		{"count above the bound", []string{"gen", "--task", "sort", "--n", "3", "--count", "1000000001"}, "--count 1000000001: must be in [1, 1000000000]"},
		{"regular degree 1 at n 1", []string{"gen", "--task", "gm", "--n", "1", "--data", "regular:d=1"}, "degree d = 1, need 0 <= d < n = 1"},
		{"jobs above the bound", []string{"experiment", "penalty", "--jobs", "257", "--out", filepath.Join(dir, "exp")}, "--jobs 257: must be in [1, 256]"},
		{"bad sort data", []string{"gen", "--task", "sort", "--n", "3", "--data", "range:k=0"}, `k = "0" must be an integer in [1, 1000]`},
		{"bad train data", []string{"train", "--task", "sort", "--n", "3", "--data", "permutation", "--out", filepath.Join(dir, "run")}, `unknown sort data "permutation"`},
		{"anneal interval alone", []string{"train", "--task", "sort", "--n", "3", "--lr-anneal-every", "5", "--out", filepath.Join(dir, "run")}, "lr-anneal-every 5: needs --lr-anneal-from"},
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

// Every size and count a command takes says its bound in --help.
func TestHelpSaysBounds(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want []string
	}{
		{[]string{"gen", "--help"}, []string{"1 to the task's largest (mwm 4096, tsp 4096, sort 65536, gm 1024)", "1 to 1000000000"}},
		{[]string{"train", "--help"}, []string{"problem size, 2 to 255", "minibatch size, 1 to 65536", "a batch to 2147483648", "a batch to 10000000",
			"validation instances (model selection), 1 to 1000000", "1 to 1000000 (default 1000)", "0 to 1000000000", "L, 1 to 1000", "networks, 1 to 4096", "1 to 64", "samples; 0 to 4096"}},
		{[]string{"eval", "--help"}, []string{"K from 1 to 4096"}},
		{[]string{"solve", "--help"}, []string{"the best kept, 0 to 100"}},
		{[]string{"bench", "--help"}, []string{"problem size, 2 to 255", "batch size, 1 to 65536", "at most 1000000"}},
		{[]string{"import", "--help"}, []string{"2 to 255"}},
		{[]string{"experiment", "penalty", "--help"}, []string{"N from 1 to 1000", "1 to 256", "K from 1 to 4096"}},
	} {
		out, _ := spgTUI(tc.args...).CombinedOutput()
		for _, w := range tc.want {
			if !strings.Contains(string(out), w) {
				t.Errorf("%v says no %q", tc.args, w)
			}
		}
	}
}

func TestHelp(t *testing.T) {
	for _, args := range [][]string{{"help"}, {"--help"}, {"tui", "--help"}, {"gen", "--help"}, {"solve", "-h"}, {"train", "--help"}, {"eval", "--help"}, {"bench", "-h"}} {
		out, err := spgTUI(args...).Output()
		if err != nil || !strings.Contains(string(out), "spg-tui") {
			t.Errorf("%v: err %v, output %q", args, err, out)
		}
	}
}

// TestConsoleNeedsTerminal checks that the default command, the console, refuses a pipe with one
// line before it creates a run directory, bare or given the console's flags without the word tui
// (which was an unknown command "--steps").
func TestConsoleNeedsTerminal(t *testing.T) {
	for _, args := range [][]string{nil, {"--steps", "40", "--out", "run"}} {
		dir := t.TempDir()
		cmd := spgTUI(args...)
		cmd.Dir = dir
		var errOut bytes.Buffer
		cmd.Stdin, cmd.Stderr = strings.NewReader(""), &errOut
		if err := cmd.Run(); err == nil {
			t.Fatalf("%q: the console started without a terminal", args)
		}
		if msg := errOut.String(); strings.Count(msg, "\n") != 1 || !strings.Contains(msg, "spg-tui tui: the console needs a terminal") {
			t.Errorf("%q: want one line saying the console needs a terminal, got %q", args, msg)
		}
		if entries, _ := os.ReadDir(dir); len(entries) != 0 {
			t.Errorf("%q: the refused console left %d entries in its working directory", args, len(entries))
		}
	}
}

// tinyTrain is a training run of the real learner that takes about a second.
func tinyTrain(dir string, extra ...string) []string {
	return append([]string{"train", "--task", "sort", "--n", "4", "--steps", "6", "--batch", "4",
		"--train-size", "16", "--val-size", "8", "--test-size", "8", "--buffer", "64",
		"--eval-every", "3", "--log-every", "2", "--seed", "3", "--out", dir}, extra...)
}

// A model that runs at any N solves a file of another N from the command line, and says at
// which N it was trained.
func TestEvalAtAnotherSizeCLI(t *testing.T) {
	dir := t.TempDir()
	run := filepath.Join(dir, "run")
	if out, err := spgTUI(tinyTrain(run, "--model", "spg-pairwise")...).CombinedOutput(); err != nil {
		t.Fatalf("train: %v: %s", err, out)
	}
	inst := filepath.Join(dir, "sort7.json")
	gen, err := spgTUI("gen", "--task", "sort", "--n", "7", "--count", "3").Output()
	if err != nil || os.WriteFile(inst, gen, 0o644) != nil {
		t.Fatal("writing the instance file")
	}
	cmd := spgTUI("eval", "--checkpoint", run, "--in", inst)
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	if err := cmd.Run(); err != nil {
		t.Fatalf("eval: %v: %s", err, errOut.String())
	}
	if strings.Count(out.String(), "\n") != 3 || !strings.Contains(errOut.String(), "3 sort-7 instances") || !strings.Contains(errOut.String(), "trained at n = 4") {
		t.Errorf("eval at n = 7: stdout %q, stderr %q", out.String(), errOut.String())
	}

	// The critic's own maximum decodes the same file; it takes no sampling.
	cmd = spgTUI("eval", "--checkpoint", run, "--in", inst, "--critic-max")
	out.Reset()
	errOut.Reset()
	cmd.Stdout, cmd.Stderr = &out, &errOut
	if err := cmd.Run(); err != nil || strings.Count(out.String(), "\n") != 3 || !strings.Contains(errOut.String(), "the critic's maximum") || !strings.Contains(errOut.String(), "(step 6, trained at n = 4)") {
		t.Errorf("eval --critic-max: %v: stdout %q, stderr %q", err, out.String(), errOut.String())
	}
	msg, err := spgTUI("eval", "--checkpoint", run, "--in", inst, "--critic-max", "--samples", "4").CombinedOutput()
	var exit *exec.ExitError
	if !errors.As(err, &exit) || exit.ExitCode() != exitUsage || !strings.Contains(string(msg), "--critic-max decodes by the critic alone") {
		t.Errorf("eval --critic-max --samples 4: %v, %q", err, msg)
	}
}

// eval samples each model at its own default noise scale unless --gumbel-scale is given:
// SPG+Successor at 96, measured for its off-diagonal spread; it solves a file of another N too.
func TestEvalSuccessorNoiseCLI(t *testing.T) {
	run, inst := tinySuccessorRun(t)
	for _, c := range []struct {
		extra []string
		want  string
	}{
		{nil, "gumbel-scale 96 relative"},
		{[]string{"--gumbel-scale", "12"}, "gumbel-scale 12 relative"},
		{[]string{"--gumbel-noise", "absolute"}, "gumbel-scale 12 absolute"},
	} {
		cmd := spgTUI(append([]string{"eval", "--checkpoint", run, "--in", inst, "--samples", "4"}, c.extra...)...)
		var out, errOut bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &errOut
		if err := cmd.Run(); err != nil || strings.Count(out.String(), "\n") != 3 || !strings.Contains(errOut.String(), c.want) {
			t.Errorf("eval %v: %v: stdout %q, stderr %q; want %q", c.extra, err, out.String(), errOut.String(), c.want)
		}
	}
}

func TestTrainEvalResumeCLI(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "run")
	cmd := spgTUI(tinyTrain(dir, "--json")...)
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	if err := cmd.Run(); err != nil {
		t.Fatalf("train: %v: %s", err, errOut.String())
	}
	for _, want := range []string{"replay buffer capacity 64", "step 2/6", "val at step 3", "test at step 6", "done"} {
		if !strings.Contains(errOut.String(), want) {
			t.Errorf("progress lacks %q:\n%s", want, errOut.String())
		}
	}
	// --json prints exactly the lines of metrics.jsonl.
	file, err := os.ReadFile(filepath.Join(dir, run.MetricsFile))
	if err != nil {
		t.Fatal(err)
	}
	if out.String() != string(file) {
		t.Errorf("--json output differs from metrics.jsonl:\n%s\nvs\n%s", out.String(), file)
	}
	recs, err := run.DecodeRecords(&out)
	if err != nil || len(recs) < 8 {
		t.Fatalf("%d records, %v", len(recs), err)
	}

	// eval: the trained policy on a gen file, in solve's format.
	inst := filepath.Join(t.TempDir(), "sort4.json")
	gen, err := spgTUI("gen", "--task", "sort", "--n", "4", "--count", "5", "--seed", "9").Output()
	if err != nil || os.WriteFile(inst, gen, 0o644) != nil {
		t.Fatal(err)
	}
	for _, ckpt := range []string{filepath.Join(dir, "checkpoints", "best"), dir} {
		cmd = spgTUI("eval", "--checkpoint", ckpt, "--in", inst)
		out.Reset()
		errOut.Reset()
		cmd.Stdout, cmd.Stderr = &out, &errOut
		if err := cmd.Run(); err != nil {
			t.Fatalf("eval: %v: %s", err, errOut.String())
		}
		env, _ := envs.NewData(envs.TaskSort, 4, envs.DefaultData(envs.TaskSort)) // gen's data
		sc := bufio.NewScanner(&out)
		i := 0
		for ; sc.Scan(); i++ {
			var sol envs.Solution
			if err := json.Unmarshal(sc.Bytes(), &sol); err != nil || sol.Index != i {
				t.Fatalf("line %d: %v %+v", i, err, sol)
			}
			if got := env.Objective(env.Generate(9, i), sol.Perm); got != sol.Objective {
				t.Errorf("line %d: objective %v, recomputed %v", i, sol.Objective, got)
			}
		}
		if i != 5 || strings.Count(errOut.String(), "\n") != 1 || !strings.Contains(errOut.String(), "5 sort-4 instances") {
			t.Errorf("%d lines; summary %q", i, errOut.String())
		}
	}

	// A resume to a larger total appends to the same run.
	cmd = spgTUI("train", "--resume", dir, "--steps", "8")
	errOut.Reset()
	cmd.Stderr = &errOut
	if err := cmd.Run(); err != nil {
		t.Fatalf("resume: %v: %s", err, errOut.String())
	}
	recs, err = run.ReadRecords(filepath.Join(dir, run.MetricsFile))
	if err != nil || recs[len(recs)-1].Step != 8 || recs[len(recs)-1].Event.Event != run.EventDone {
		t.Errorf("after the resume: last record %+v, %v", recs[len(recs)-1], err)
	}
}

// A run written by the version before the run contract moved to package run resumes from the
// command line; --json prints only the records of this session, as before.
func TestResumeRunOfThePreviousVersionCLI(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "mwm5")
	if err := os.CopyFS(dir, os.DirFS(filepath.Join("testdata", "prev-run", "mwm5"))); err != nil {
		t.Fatal(err)
	}
	cmd := spgTUI("train", "--resume", dir, "--steps", "30", "--model", "spg-matching", "--json")
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	if err := cmd.Run(); err != nil {
		t.Fatalf("resume: %v: %s", err, errOut.String())
	}
	recs, err := run.DecodeRecords(&out)
	want, _ := run.ReadRecords(filepath.Join("testdata", "prev-run", "mwm5.resumed-to-30.jsonl"))
	if err != nil || len(recs) != len(want) || recs[0].Event == nil || recs[0].Event.Event != run.EventStart {
		t.Errorf("--json printed %d records (want %d, from the start event), %v", len(recs), len(want), err)
	}
	if strings.Count(errOut.String(), "start:") != 1 || !strings.Contains(errOut.String(), "resumed at step 20") {
		t.Errorf("progress:\n%s", errOut.String())
	}
	cmd = spgTUI("train", "--resume", dir, "--steps", "40", "--model", "spg-sequential")
	errOut.Reset()
	cmd.Stderr = &errOut
	if err := cmd.Run(); err == nil || !strings.Contains(errOut.String(), "--model spg-sequential: the run in") {
		t.Errorf("a resume with another model: %v: %s", err, errOut.String())
	}
}

func TestTrainAndBenchRefuseBadInput(t *testing.T) {
	dir := t.TempDir()
	run := filepath.Join(dir, "run")
	if err := spgTUI(tinyTrain(run)...).Run(); err != nil {
		t.Fatal(err)
	}
	tsp := filepath.Join(dir, "tsp.json")
	gen, _ := spgTUI("gen", "--task", "tsp", "--n", "4", "--count", "2").Output()
	sort5 := filepath.Join(dir, "sort5.json")
	gen5, _ := spgTUI("gen", "--task", "sort", "--n", "5", "--count", "2").Output()
	sort4 := filepath.Join(dir, "sort4.json")
	gen4, _ := spgTUI("gen", "--task", "sort", "--n", "4", "--count", "2").Output()
	if os.WriteFile(tsp, gen, 0o644) != nil || os.WriteFile(sort5, gen5, 0o644) != nil || os.WriteFile(sort4, gen4, 0o644) != nil {
		t.Fatal("writing instance files")
	}
	fresh := filepath.Join(dir, "fresh")
	base := []string{"train", "--task", "mwm", "--n", "5", "--steps", "3", "--out", fresh}
	for _, tc := range []struct {
		args []string
		want string
	}{
		{append(base, "--tau", "0"), "tau 0"},
		{append(base, "--tau", "-0.5"), "tau -0.5"},
		{append(base, "--sinkhorn-iters", "0"), "sinkhorn-iters 0"},
		{append(base, "--batch", "0"), "batch 0"},
		{append(base, "--actor-lr", "0"), "actor-lr 0"},
		{append(base, "--critic-lr", "-1"), "critic-lr -1"},
		{append(base, "--eps-start", "1.5"), "eps-start 1.5"},
		{append(base, "--eps-end", "-0.1"), "eps-end -0.1"},
		{append(base, "--buffer-mem", "1K"), "buffer-mem"},
		{append(base, "--model", "pn-ac"), "model pn-ac does not learn mwm"},
		{[]string{"train", "--task", "sort", "--n", "5", "--model", "ac-matching", "--out", fresh}, "model ac-matching does not learn sort"},
		{[]string{"tui", "--task", "tsp", "--n", "5", "--model", "pn-ac-matching", "--out", fresh}, "model pn-ac-matching does not learn tsp"},
		{append(base, "--model", "pn-ac-nope"), `unknown model "pn-ac-nope"`},
		{[]string{"train", "--task", "mwm", "--n", "1", "--out", fresh}, "n 1"},
		{[]string{"train", "--task", "knapsack", "--n", "5", "--out", fresh}, "--task knapsack: not a task"},
		{[]string{"train", "--n", "5", "--out", fresh}, "--task is required"},
		{[]string{"train", "--task", "mwm", "--n", "5"}, "--out is required"},
		{tinyTrain(run, "--tau", "0.5"), "tau"}, // another configuration in the run directory
		{[]string{"train", "--resume", run, "--tau", "0.5"}, "--tau cannot change"},
		{[]string{"train", "--resume", run, "--n", "5"}, "sort n = 4"},
		{[]string{"train", "--resume", run}, "complete at step 6"},
		{[]string{"train", "--resume", dir}, "config.json"},
		{[]string{"train", "--resume", ""}, "--resume: the path is empty"},
		{[]string{"train", "--resume", tsp}, "--resume " + tsp + ": not a run directory (it is a file)"},
		{[]string{"eval", "--checkpoint", run, "--in", tsp}, "the checkpoint is for sort n = 4"},
		{[]string{"eval", "--checkpoint", run, "--in", sort5}, "the instances are sort n = 5: its model spg-sequential has layers sized by n"},
		{[]string{"eval", "--checkpoint", filepath.Join(run, "config.json"), "--in", sort5}, "not an spg-tui checkpoint"},
		{[]string{"eval", "--in", sort5}, "--checkpoint is required"},
		{[]string{"eval", "--checkpoint", run, "--in", sort5, "--samples", "4", "--gumbel-noise", "spread"}, `gumbel-noise "spread": must be relative`},
		{[]string{"eval", "--checkpoint", run, "--in", sort4, "--samples", "4", "--gumbel-scale", "1e308"}, "gumbel-scale 1e+308: must be"},
		{[]string{"eval", "--checkpoint", run, "--in", sort4, "--samples", "4", "--gumbel-noise="}, `--gumbel-noise "": must be relative`},
		{[]string{"eval", "--checkpoint", run, "--in", sort4, "--gumbel-noise", "absolute"}, "--gumbel-noise: the single decode adds no noise"},
		{[]string{"eval", "--checkpoint", run, "--in", sort4, "--gumbel-scale", "0.5"}, "--gumbel-scale: the single decode adds no noise"},
		{[]string{"bench", "--task", "tsp", "--n", "1"}, "n 1"},
		{[]string{"bench", "--task", "tsp", "--n", "5", "--batch", "0"}, "batch 0"},
		{[]string{"bench", "--task", "foo", "--n", "5"}, "--task foo: not a task"},
		{[]string{"bench", "--task", "tsp", "--n", "5", "--steps", "0"}, "steps 0"},
		{[]string{"bench", "--task", "tsp", "--n", "5", "--cpuprofile", filepath.Join(fresh, "no", "cpu.prof")}, "--cpuprofile: open"},
	} {
		cmd := spgTUI(tc.args...)
		var out, errOut bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &errOut
		err := cmd.Run()
		var exit *exec.ExitError
		if !errors.As(err, &exit) || exit.ExitCode() != exitUsage {
			t.Errorf("%v: want exit status %d, got %v (stderr %q)", tc.args, exitUsage, err, errOut.String())
			continue
		}
		if msg := errOut.String(); out.Len() != 0 || strings.Count(msg, "\n") != 1 || !strings.Contains(msg, tc.want) {
			t.Errorf("%v: want one line containing %q, got %q (stdout %q)", tc.args, tc.want, msg, out.String())
		}
	}
	if _, err := os.Stat(fresh); err == nil {
		t.Error("a refused configuration created its run directory")
	}
}

func TestBenchPrintsOneJSONLine(t *testing.T) {
	prof := filepath.Join(t.TempDir(), "cpu.prof")
	out, err := spgTUI("bench", "--task", "tsp", "--n", "5", "--batch", "8", "--steps", "3", "--cpuprofile", prof).Output()
	if err != nil {
		t.Fatal(err)
	}
	// pprof's format is a gzipped protocol buffer
	if b, err := os.ReadFile(prof); err != nil || len(b) < 2 || b[0] != 0x1f || b[1] != 0x8b {
		t.Errorf("--cpuprofile wrote no profile: %v, % x", err, b[:min(len(b), 2)])
	}
	var res map[string]any
	if strings.Count(string(out), "\n") != 1 || json.Unmarshal(out, &res) != nil {
		t.Fatalf("output %q", out)
	}
	for _, k := range []string{"median_ms_per_step", "min_ms", "max_ms", "backend", "task", "n", "batch", "steps", "gflops", "serial_share"} {
		if _, ok := res[k]; !ok {
			t.Errorf("no %q in %s", k, out)
		}
	}
	if res["task"] != "tsp" || res["n"] != 5.0 || res["steps"] != 3.0 || !(res["min_ms"].(float64) > 0) ||
		!(res["min_ms"].(float64) <= res["median_ms_per_step"].(float64)) || !(res["gflops"].(float64) > 0) ||
		!(res["serial_share"].(float64) > 0 && res["serial_share"].(float64) <= 1) {
		t.Errorf("result %s", out)
	}
}

// TestTrainStopsOnSignal sends SIGINT and SIGTERM to long training runs: each must checkpoint
// and exit cleanly within 5 s, and the run must resume from there.
func TestTrainStopsOnSignal(t *testing.T) {
	for _, sig := range []os.Signal{os.Interrupt, syscall.SIGTERM} {
		dir := filepath.Join(t.TempDir(), "run")
		args := tinyTrain(dir)
		args[6] = "1000000" // --steps
		cmd := spgTUI(args...)
		stderr, err := cmd.StderrPipe()
		if err != nil {
			t.Fatal(err)
		}
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		sc := bufio.NewScanner(stderr)
		var log strings.Builder
		for sc.Scan() {
			log.WriteString(sc.Text() + "\n")
			if strings.Contains(sc.Text(), "step 4/") {
				break
			}
		}
		began := time.Now()
		if err := cmd.Process.Signal(sig); err != nil {
			t.Fatal(err)
		}
		for sc.Scan() {
			log.WriteString(sc.Text() + "\n")
		}
		err = cmd.Wait()
		if d := time.Since(began); d > 5*time.Second {
			t.Errorf("%v: exit took %s", sig, d)
		}
		if err != nil || !strings.Contains(log.String(), "stopped at step") {
			t.Fatalf("%v: %v\n%s", sig, err, log.String())
		}
		m := regexp.MustCompile(`stopped at step (\d+) of`).FindStringSubmatch(log.String())
		stopped, _ := strconv.Atoi(m[1])
		if out, err := spgTUI("train", "--resume", dir, "--steps", strconv.Itoa(stopped+2)).CombinedOutput(); err != nil {
			t.Fatalf("%v: resume: %v\n%s", sig, err, out)
		}
	}
}

// TestUsageNamesConsoleModel: --help used to say the console trains SPG+Matching while it
// trains the best recipe's model, SPG+Pairwise on MWM-10.
func TestUsageNamesConsoleModel(t *testing.T) {
	var b strings.Builder
	usage(&b)
	if !strings.Contains(b.String(), "console training SPG+Pairwise · MWM-10 (recipe best)") {
		t.Errorf("usage:\n%s", b.String())
	}
}

// TestSplitViewArgs: the directories after --view DIR, up to the next flag, are the runs to
// compare; the flag package would stop at the first of them.
func TestSplitViewArgs(t *testing.T) {
	rest, more := splitViewArgs([]string{"--view", "a", "b", "c", "--n", "5"})
	if strings.Join(rest, " ") != "--view a --n 5" || strings.Join(more, " ") != "b c" {
		t.Errorf("rest %q, more %q", rest, more)
	}
	rest, more = splitViewArgs([]string{"--task", "tsp", "--view=a", "b"})
	if strings.Join(rest, " ") != "--task tsp --view=a" || strings.Join(more, " ") != "b" {
		t.Errorf("rest %q, more %q", rest, more)
	}
}

// tinySuccessorRun trains a tiny spg-successor run on tsp (n = 4) and writes a file of three
// TSP-6 instances beside it, for the eval tests of the successor's decodes.
func tinySuccessorRun(t *testing.T) (run, inst string) {
	t.Helper()
	dir := t.TempDir()
	run = filepath.Join(dir, "run")
	args := append(tinyTrain(run, "--model", "spg-successor"), "--task", "tsp")
	if out, err := spgTUI(args...).CombinedOutput(); err != nil {
		t.Fatalf("train: %v: %s", err, out)
	}
	inst = filepath.Join(dir, "tsp6.json")
	gen, err := spgTUI("gen", "--task", "tsp", "--n", "6", "--count", "3").Output()
	if err != nil || os.WriteFile(inst, gen, 0o644) != nil {
		t.Fatal("writing the instance file")
	}
	return run, inst
}

// TestSolveHelpListsEverySolver: solve --help names every solver of every task, from the tasks'
// own lists (it left out 2opt-oropt-all and farthest-2opt-oropt), in at most maxHelpChars.
func TestSolveHelpListsEverySolver(t *testing.T) {
	const maxHelpChars = 300
	out, err := spgTUI("solve", "--help").Output()
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(string(out), "\n")
	i := slices.IndexFunc(lines, func(l string) bool { return strings.HasPrefix(l, "  -solver") })
	if i < 0 || i+1 == len(lines) {
		t.Fatalf("no --solver in %s", out)
	}
	help := strings.TrimSpace(lines[i+1])
	if len(help) > maxHelpChars {
		t.Errorf("--solver's help is %d characters, want at most %d: %q", len(help), maxHelpChars, help)
	}
	listed := map[string][]string{} // by task, from "mwm: a, b; tsp: c"
	for _, m := range regexp.MustCompile(`(\w+): ([^;)]+)`).FindAllStringSubmatch(help, -1) {
		listed[m[1]] = strings.Split(m[2], ", ")
	}
	for _, task := range envs.Tasks {
		for _, s := range envs.MustFacts(task).New(1).Solvers() {
			if !slices.Contains(listed[string(task)], s) {
				t.Errorf("--solver's help leaves out %s's %s: %q", task, s, help)
			}
		}
	}
}

// TestConsoleHelpShowsItsRecipe: tui --help gives the defaults of the recipe the console trains
// (best: actor LR 0.0001), where it gave the paper's (1e-05) that train starts from.
func TestConsoleHelpShowsItsRecipe(t *testing.T) {
	for cmd, want := range map[string]string{"tui": "(default 0.0001)", "train": "(default 1e-05)"} {
		out, err := spgTUI(cmd, "--help").Output()
		if err != nil {
			t.Fatal(err)
		}
		_, after, _ := strings.Cut(string(out), "  -actor-lr float\n")
		line, _, _ := strings.Cut(after, "\n")
		if !strings.HasSuffix(line, want) || !strings.Contains(line, "per recipe:") {
			t.Errorf("%s --help: --actor-lr %q, want its recipe's %s and every recipe's", cmd, line, want)
		}
	}
}
