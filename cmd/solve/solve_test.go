package solvecmd_test

import (
	"bufio"
	"bytes"
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"spg-tui/cmd/cmdutil"
	"spg-tui/envs"
	"spg-tui/internal/clitest"
)

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
			gen := clitest.Command("gen", "--task", tc.task, "--n", strconv.Itoa(tc.n), "--count", "5", "--seed", "7")
			solve := clitest.Command("solve", "--solver", tc.solver, "--in", "-")
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

// TestSolveHelpListsEverySolver: solve --help names every solver of every task, from the tasks'
// own lists (it left out 2opt-oropt-all and farthest-2opt-oropt), in at most maxHelpChars.
func TestSolveHelpListsEverySolver(t *testing.T) {
	const maxHelpChars = 300
	out, err := clitest.Command("solve", "--help").Output()
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

// TestSolveRefusesWhatCannotFit: the Hungarian solver on one MWM-100000 instance needs two
// 80 GB matrices; solve must say so in one line (it died in the runtime). Such a file is now
// refused by its size, above mwm's bound, before any solver is named.
func TestSolveRefusesWhatCannotFit(t *testing.T) {
	in := filepath.Join(t.TempDir(), "mwm100000.json")
	if os.WriteFile(in, []byte(`{"task":"mwm","n":100000,"instances":[]}`), 0o644) != nil {
		t.Fatal("writing the file")
	}
	status, out, msg := clitest.Run(t, nil, "solve", "--solver", "hungarian", "--in", in)
	if status != cmdutil.ExitUsage || out != "" || strings.Count(msg, "\n") != 1 || !strings.Contains(msg, "size n = 100000: mwm instances have at most n = 4096") {
		t.Errorf("exit %d, stderr %q", status, msg)
	}
}

// TestSolveRestarts: --restarts reaches gm's faq (more starts keep at least as many edges) and
// is refused in one line, exit 2, for a solver without random starts and above its bound (2^63-1
// used to run for ever).
func TestSolveRestarts(t *testing.T) {
	in := filepath.Join(t.TempDir(), "gm12.json")
	status, out, msg := clitest.Run(t, nil, "gen", "--task", "gm", "--n", "12", "--count", "4")
	if status != 0 || os.WriteFile(in, []byte(out), 0o644) != nil {
		t.Fatalf("gen: %d %s", status, msg)
	}
	mean := func(msg string) float64 {
		_, after, _ := strings.Cut(msg, "mean objective ")
		v, _, _ := strings.Cut(after, ",")
		f, err := strconv.ParseFloat(v, 64)
		if err != nil {
			return math.NaN()
		}
		return f
	}
	status, _, one := clitest.Run(t, nil, "solve", "--solver", "faq", "--in", in)
	status2, _, more := clitest.Run(t, nil, "solve", "--solver", "faq", "--in", in, "--restarts", "5")
	if status != 0 || status2 != 0 || !(mean(more) >= mean(one)) || !strings.Contains(more, "solver faq with 5 random restarts") {
		t.Errorf("faq: exit %d %q; --restarts 5: exit %d %q", status, one, status2, more)
	}
	for _, c := range []struct{ solver, restarts, want string }{
		{"spectral", "2", `solver "spectral" takes no restarts`},
		{"faq", "101", "restarts 101: must be in [0, 100]"},
		{"faq", "9223372036854775807", "restarts 9223372036854775807: must be in [0, 100]"},
	} {
		status, out, msg = clitest.Run(t, nil, "solve", "--solver", c.solver, "--in", in, "--restarts", c.restarts)
		if status != cmdutil.ExitUsage || out != "" || strings.Count(msg, "\n") != 1 || !strings.Contains(msg, c.want) {
			t.Errorf("%s --restarts %s: exit %d, stderr %q; want exit 2 and one line with %q", c.solver, c.restarts, status, msg, c.want)
		}
	}
}
