package experimentcmd_test

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"spg-tui/cmd/cmdutil"
	experimentcmd "spg-tui/cmd/experiment"
	"spg-tui/experiments"
	"spg-tui/internal/clitest"
	"spg-tui/sysmem"
)

// One real preset end to end: trained, scored by the selected checkpoint, reported; run again,
// it trains nothing.
func TestExperimentCLI(t *testing.T) {
	out := filepath.Join(t.TempDir(), "exp")
	var errOut bytes.Buffer
	cmd := clitest.Command(clitest.TinyExperiment("sort", out, "--model", "spg-sequential")...)
	cmd.Stderr = &errOut
	if err := cmd.Run(); err != nil {
		t.Fatalf("%v: %s", err, errOut.String())
	}
	report, err := os.ReadFile(filepath.Join(out, experiments.ReportFile))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(report), "| SPG+Sequential | **") || !strings.Contains(string(report), "(n 1) · paper 0.998 ± 0.002 |") {
		t.Errorf("report.md lacks the SPG+Sequential row:\n%s", report)
	}
	errOut.Reset()
	again := clitest.Command(clitest.TinyExperiment("sort", out, "--model", "spg-sequential")...)
	again.Stderr = &errOut
	if err := again.Run(); err != nil {
		t.Fatalf("%v: %s", err, errOut.String())
	}
	if strings.Contains(errOut.String(), "test kendall_tau") {
		t.Errorf("a re-run scored its finished runs again:\n%s", errOut.String())
	}
}

func TestExperimentRefusesBadInput(t *testing.T) {
	dir := t.TempDir()
	fresh := filepath.Join(dir, "fresh")
	shardA, shardB := filepath.Join(dir, "a"), filepath.Join(dir, "b")
	// Two shards of different presets, made without training (a shard of a plan with no runs
	// for it: the seventh shard of a plan of 2 or 5 runs).
	for _, s := range []struct{ out, preset string }{{shardA, "penalty"}, {shardB, "tau"}} {
		args := append(clitest.TinyExperiment(s.preset, s.out), "--shard", "6/7")
		if out, err := clitest.Command(args...).CombinedOutput(); err != nil {
			t.Fatalf("%v: %v: %s", args, err, out)
		}
	}
	for _, tc := range []struct {
		args []string
		want string
	}{
		{clitest.TinyExperiment("fig9", fresh), `unknown preset "fig9"`},
		{clitest.TinyExperiment("mwm", fresh, "--model", "pn-ac"), "not in preset mwm, whose models are pn-ac-matching, ac-matching, spg-random, spg-matching (pn-ac learns tsp, sort)"},
		{clitest.TinyExperiment("sort", fresh, "--model", "spg-matching"), "spg-matching learns mwm"},
		{clitest.TinyExperiment("tau", fresh, "--model", "nope"), "--model nope: not in preset tau"},
		{clitest.TinyExperiment("tau", fresh, "--scale", "0"), "--scale 0: must be in (0, 1]"},
		{clitest.TinyExperiment("tau", fresh, "--scale", "1.01"), "--scale 1.01: must be in (0, 1]"},
		{[]string{"experiment", "penalty", "--scale", "1e-300", "--seeds", "1", "--out", fresh}, "--scale 1e-300: must be at least 0.000256 for preset penalty"},
		{clitest.TinyExperiment("penalty", fresh, "--scale", "1e-5"), "--scale 1e-05: must be at least 0.0002 for preset penalty"},
		{clitest.TinyExperiment("tau", fresh, "--shard", "2/2"), `--shard "2/2"`},
		{clitest.TinyExperiment("tau", fresh, "--shard", "x"), `--shard "x"`},
		{clitest.TinyExperiment("tau", fresh, "--tau", "0.3"), "--tau: preset tau varies it itself"},
		{clitest.TinyExperiment("tau", fresh, "--steps", "10"), "unknown flag --steps"},
		{clitest.TinyExperiment("tau", fresh, "--jobs", "0"), "--jobs 0"},
		{clitest.TinyExperiment("sort", fresh, "--samples", "8", "--augment"), "preset sort: augment: sort instances are not points in the unit square"},
		{clitest.TinyExperiment("tau", fresh, "--samples", "0"), "samples 0: must be in [1, 4096]"},
		{clitest.TinyExperiment("tau", fresh, "--samples", "4", "--gumbel-noise", "abs"), `gumbel-noise "abs": must be relative`},
		{clitest.TinyExperiment("tau", fresh, "--gumbel-noise", "abs"), `gumbel-noise "abs": must be relative`},
		{clitest.TinyExperiment("tau", fresh, "--gumbel-scale", "NaN"), "gumbel-scale NaN: must be"},
		{clitest.TinyExperiment("tau", fresh, "--samples", "4", "--gumbel-scale", "1e308"), "gumbel-scale 1e+308: must be"},
		{clitest.TinyExperiment("tau", fresh, "--samples", "4", "--gumbel-noise="), `--gumbel-noise "": must be relative`},
		{clitest.TinyExperiment("tau", fresh, "--gumbel-noise", "absolute"), "--gumbel-noise: the single decode adds no noise"},
		{clitest.TinyExperiment("tau", shardA), "holds another experiment"},
		{clitest.TinyExperiment("tau", filepath.Join(dir, ".experiment-12")), "is a new experiment directory's temporary name"},
		// Every run is checked as train checks it, before the directory is made.
		{clitest.TinyExperiment("penalty", fresh, "--buffer", "2000000000", "--buffer-mem", "1048575G"), "needs about"},
		{clitest.TinyExperiment("penalty", fresh, "--init", filepath.Join(dir, "nonexist")), "init: open " + filepath.Join(dir, "nonexist")},
		{[]string{"experiment", "merge", "--out", fresh, shardA, shardB}, "not shards of one experiment: preset penalty vs tau"},
		{[]string{"experiment", "merge", "--out", fresh, dir}, "is not an experiment directory"},
		{[]string{"experiment", "merge", "--out", fresh, shardA}, "the shards hold 0 of the plan's 2 runs (shards 0/7, 1/7 are missing); merge every shard, or give --partial"},
		{[]string{"experiment", "merge", "--out", fresh}, "no shard directories"},
		// Two runs, each within the machine, together beyond it.
		{jobsBeyondMemory(fresh), "--jobs 2: training 2 runs at once needs about"},
	} {
		if tc.args == nil {
			continue // no memory limit readable here
		}
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
			t.Errorf("%v: want one line containing %q, got %q", tc.args, tc.want, msg)
		}
	}
	if _, err := os.Stat(fresh); err == nil {
		t.Error("refused input created its directory")
	}
}

// jobsBeyondMemory is a penalty experiment of two runs whose replay buffers take 0.6 of the
// machine's memory each, trained together; nil where no limit is readable.
func jobsBeyondMemory(out string) []string {
	limit := sysmem.Limit()
	if limit <= 0 {
		return nil
	}
	return clitest.TinyExperiment("penalty", out, "--jobs", "2", "--buffer", "2147483648", "--buffer-mem", strconv.FormatInt(limit/10*6, 10))
}

func TestExperimentList(t *testing.T) {
	out, err := clitest.Command("experiment", "list").Output()
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range experiments.Presets() {
		if !bytes.Contains(out, []byte(p.Name+" ")) || !bytes.Contains(out, []byte(p.Reproduces)) {
			t.Errorf("list lacks preset %s", p.Name)
		}
	}
	// sort: 2 models x 2 sizes x 20 epochs of 3,906 steps x 10 seeds.
	if !bytes.Contains(out, []byte("3,124,800 training steps")) {
		t.Errorf("list lacks sort's cost:\n%s", out)
	}
}

// experiment list --help prints its usage, as every command's --help does (it was refused as an
// unexpected argument, exit 2); another argument is still refused.
func TestExperimentListHelp(t *testing.T) {
	out, err := clitest.Command("experiment", "list", "--help").Output()
	if err != nil || !bytes.Contains(out, []byte("spg-tui experiment list")) {
		t.Errorf("experiment list --help: %v, output %q", err, out)
	}
	var exit *exec.ExitError
	if err := clitest.Command("experiment", "list", "extra").Run(); !errors.As(err, &exit) || exit.ExitCode() != cmdutil.ExitUsage {
		t.Errorf("experiment list extra: %v, want exit status %d", err, cmdutil.ExitUsage)
	}
}

// TestExperimentHelpSwitches: experiment's --help does not say its runs train without the critic
// penalty or exploration ("-no-critic-penalty … (default true)") when they train with them.
func TestExperimentHelpSwitches(t *testing.T) {
	var out, errb strings.Builder
	if status := experimentcmd.Main([]string{"penalty", "--help"}, cmdutil.Streams{Out: &out, Err: &errb}); status != 0 {
		t.Fatalf("status %d: %s", status, errb.String())
	}
	lines := strings.Split(out.String(), "\n")
	for i, l := range lines[:len(lines)-1] {
		if strings.HasPrefix(strings.TrimSpace(l), "-no-") && strings.Contains(lines[i+1], "(default true)") {
			t.Errorf("help: %q %q", l, lines[i+1])
		}
	}
}
