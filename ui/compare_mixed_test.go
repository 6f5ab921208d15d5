package ui

import (
	"path/filepath"
	"strings"
	"testing"

	"spg-tui/envs"
	"spg-tui/experiments"
	"spg-tui/experiments/enginetest"
	"spg-tui/run"
)

// tableHead is the runs table's head line on the screen.
func tableHead(t *testing.T, sc string) string {
	t.Helper()
	for _, l := range strings.Split(sc, "\n") {
		if strings.Contains(l, " run ") && strings.Contains(l, "last") {
			return l
		}
	}
	t.Fatalf("no runs table on the screen:\n%s", sc)
	return ""
}

// TestCompareMixedRecipes: with two paper runs and one best run, differs lists many fields; the
// table used to stop at the first column that did not fit, losing differs and every column
// after it even at 200 columns. Now differs is shortened, the chosen settings first, and the
// rest kept.
func TestCompareMixedRecipes(t *testing.T) {
	t.Chdir(t.TempDir())
	var dirs []string
	for i, recipe := range []string{run.RecipePaper, run.RecipePaper, run.RecipeBest} {
		cfg, err := run.WithRecipe(run.DefaultConfig(envs.TaskMWM, 10), recipe)
		if err != nil {
			t.Fatal(err)
		}
		cfg.Steps, cfg.Seed = 1000, uint64(i+1)
		if recipe == run.RecipeBest {
			cfg.Tau = 0.1
		}
		dir := filepath.Join("runs", []string{"a", "b", "c"}[i])
		writeCompareRun(t, dir, cfg, 0.3-0.05*float64(i), 40, 1000)
		dirs = append(dirs, dir)
	}
	// What was chosen (seed, tau) comes before what the recipes set, which a narrow cell cuts.
	if d := compareModel(t, dirs, 120, 36).compare.diff; !strings.HasPrefix(strings.Join(d[2], " "), "seed=3 tau=0.1 ") || !strings.HasPrefix(strings.Join(d[0], " "), "seed=1 tau=0.05 ") {
		t.Errorf("differs: %q", d)
	}
	for _, size := range [][2]int{{200, 60}, {120, 36}, {80, 24}} {
		m := compareModel(t, dirs, size[0], size[1])
		sc := screen(m)
		head := tableHead(t, sc)
		want := []string{"run", "last ratio", "min ratio", "max ratio", "steps", "differs"}
		if size[0] >= 120 {
			want = append(want, "steps/s", "wall", "model", "recipe")
		}
		for _, col := range want {
			if !strings.Contains(head, col) {
				t.Errorf("%dx%d: the table lost its %q column: %q", size[0], size[1], col, head)
			}
		}
		if size[0] <= 120 {
			golden(t, "screen_compare_mixed_"+itoa(size[0])+"x"+itoa(size[1]), sc)
		}
	}
}

// TestCompareAcrossTasks: runs of different tasks measure different metrics; the charts draw the
// selected run's task only, saying how many are left out, and the table names each score's metric.
func TestCompareAcrossTasks(t *testing.T) {
	t.Chdir(t.TempDir())
	var dirs []string
	for _, task := range []envs.Task{envs.TaskMWM, envs.TaskTSP, envs.TaskGM, envs.TaskMWM} {
		cfg := run.DefaultConfig(task, 10)
		cfg.Steps = 1000
		dir := filepath.Join("runs", string(task)+itoa(len(dirs)))
		writeCompareRun(t, dir, cfg, 0.2, 40, 1000)
		dirs = append(dirs, dir)
	}
	m := compareModel(t, dirs, 120, 36)
	drawn, others := m.compare.drawn(m.compare.ordered())
	if len(drawn) != 2 || others != 2 {
		t.Errorf("drawn %d runs, left out %d; want the 2 mwm runs and 2 others", len(drawn), others)
	}
	sc := screen(m)
	for _, want := range []string{"val optimality ratio · mwm runs only (2 of another task", " ratio ", " tour ", " edges "} {
		if !strings.Contains(sc, want) {
			t.Errorf("screen lacks %q:\n%s", want, sc)
		}
	}
	press(m, "down")
	if sc := screen(m); !strings.Contains(sc, "val tour length · tsp runs only (3 of another task") {
		t.Errorf("selecting the tsp run did not draw its task:\n%s", sc)
	}
}

// TestCompareOpensARunOnce: one run named three ways is one run, and an experiment with a glob of
// its own runs counts each run once.
func TestCompareOpensARunOnce(t *testing.T) {
	dirs := compareFixture(t)
	got, err := ExpandViewDirs([]string{dirs[0], "./" + dirs[0], dirs[0] + "/"})
	if err != nil || len(got) != 1 {
		t.Errorf("ExpandViewDirs of one run named three ways: %q, %v", got, err)
	}

	dir := filepath.Join(t.TempDir(), "exp")
	pr, err := experiments.Prepare(experiments.Options{Preset: "tau", Seeds: 1, Scale: 0.001,
		Overrides: tinySets()}, dir)
	if err != nil {
		t.Fatal(err)
	}
	start := func(c run.Config, d string) (run.Engine, error) {
		if _, err := run.PrepareDir(d, c); err != nil {
			return nil, err
		}
		return enginetest.Start(c, d)
	}
	if err := pr.Run(experiments.Machine{Start: start, Score: identityScore, Jobs: 2}); err != nil {
		t.Fatal(err)
	}
	alone, err := openCompareRuns([]string{dir})
	if err != nil {
		t.Fatal(err)
	}
	runDirs, err := ExpandViewDirs([]string{filepath.Join(dir, "runs", "*")})
	if err != nil {
		t.Fatal(err)
	}
	both, err := openCompareRuns(append([]string{dir}, runDirs...))
	if err != nil {
		t.Fatal(err)
	}
	if len(alone) < 2 || len(both) != len(alone) {
		t.Errorf("the experiment alone opens %d runs, with its runs' glob %d", len(alone), len(both))
	}
	for _, r := range append(alone, both...) {
		r.eng.Stop()
	}
}
