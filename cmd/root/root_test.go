package root_test

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"spg-tui/cmd/cmdutil"
	"spg-tui/cmd/root"
	"spg-tui/internal/clitest"
)

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
			cmd := clitest.Command(tc.args...)
			var out, errOut bytes.Buffer
			cmd.Stdout, cmd.Stderr = &out, &errOut
			err := cmd.Run()
			var exit *exec.ExitError
			if !errors.As(err, &exit) || exit.ExitCode() != cmdutil.ExitUsage {
				t.Fatalf("want exit status %d, got %v (stderr %q)", cmdutil.ExitUsage, err, errOut.String())
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
		out, _ := clitest.Command(tc.args...).CombinedOutput()
		for _, w := range tc.want {
			if !strings.Contains(string(out), w) {
				t.Errorf("%v says no %q", tc.args, w)
			}
		}
	}
}

func TestHelp(t *testing.T) {
	for _, args := range [][]string{{"help"}, {"--help"}, {"tui", "--help"}, {"gen", "--help"}, {"solve", "-h"}, {"train", "--help"}, {"eval", "--help"}, {"bench", "-h"}} {
		out, err := clitest.Command(args...).Output()
		if err != nil || !strings.Contains(string(out), "spg-tui") {
			t.Errorf("%v: err %v, output %q", args, err, out)
		}
	}
}

func TestTrainAndBenchRefuseBadInput(t *testing.T) {
	dir := t.TempDir()
	run := filepath.Join(dir, "run")
	if err := clitest.Command(clitest.TinyTrain(run)...).Run(); err != nil {
		t.Fatal(err)
	}
	tsp := filepath.Join(dir, "tsp.json")
	gen, _ := clitest.Command("gen", "--task", "tsp", "--n", "4", "--count", "2").Output()
	sort5 := filepath.Join(dir, "sort5.json")
	gen5, _ := clitest.Command("gen", "--task", "sort", "--n", "5", "--count", "2").Output()
	sort4 := filepath.Join(dir, "sort4.json")
	gen4, _ := clitest.Command("gen", "--task", "sort", "--n", "4", "--count", "2").Output()
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
		{clitest.TinyTrain(run, "--tau", "0.5"), "tau"}, // another configuration in the run directory
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
		cmd := clitest.Command(tc.args...)
		var out, errOut bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &errOut
		err := cmd.Run()
		var exit *exec.ExitError
		if !errors.As(err, &exit) || exit.ExitCode() != cmdutil.ExitUsage {
			t.Errorf("%v: want exit status %d, got %v (stderr %q)", tc.args, cmdutil.ExitUsage, err, errOut.String())
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

// TestUsageNamesConsoleModel: --help used to say the console trains SPG+Matching while it
// trains the best recipe's model, SPG+Pairwise on MWM-10.
func TestUsageNamesConsoleModel(t *testing.T) {
	var b strings.Builder
	root.Dispatch([]string{"--help"}, cmdutil.Streams{Out: &b, Err: &b})
	if !strings.Contains(b.String(), "console training SPG+Pairwise · MWM-10 (recipe best)") {
		t.Errorf("usage:\n%s", b.String())
	}
}

// TestNonFiniteErrorsNameTheInstance: values near the float64 limits made an objective +Inf
// (solve said "json: unsupported value: +Inf") or the policy's M NaN (eval said "actor:
// non-finite M (NaN)"); they are refused as they are read, naming the instance.
func TestNonFiniteErrorsNameTheInstance(t *testing.T) {
	dir := t.TempDir()
	mwm := `{"task":"mwm","n":2,"instances":[{"a":[[0,0],[1,1]],"b":[[0,1],[1,0]]},{"a":[[0,0],[1e308,1]],"b":[[-1e308,1],[1,0]]}]}`
	status, out, msg := clitest.Run(t, []byte(mwm), "solve", "--solver", "greedy", "--in", "-")
	if status != cmdutil.ExitUsage || out != "" || !strings.Contains(msg, "instance 1: a[1][0] = 1e+308 is outside [-1e+30, 1e+30]") {
		t.Errorf("solve: exit %d, stdout %q, stderr %q", status, out, msg)
	}
	run := filepath.Join(dir, "run")
	if o, err := clitest.Command(clitest.TinyTrain(run)...).CombinedOutput(); err != nil {
		t.Fatalf("%v\n%s", err, o)
	}
	sort := `{"task":"sort","n":4,"instances":[{"values":[1,2,3,4]},{"values":[1e308,-1e308,3,1e300]}]}`
	status, out, msg = clitest.Run(t, []byte(sort), "eval", "--checkpoint", run, "--in", "-")
	if status != cmdutil.ExitUsage || out != "" || !strings.HasPrefix(msg, "spg-tui eval: instance 1: ") {
		t.Errorf("eval: exit %d, stdout %q, stderr %q", status, out, msg)
	}
}
