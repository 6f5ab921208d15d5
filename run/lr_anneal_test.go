package run

import (
	"math"
	"strings"
	"testing"
)

// The rates decay every LRDecayEvery steps up to LRAnnealFrom and every LRAnnealEvery after
// it; without LRAnnealFrom the schedule is the plain one.
func TestLRScaleAnneal(t *testing.T) {
	c := Config{LRDecay: 0.5, LRDecayEvery: 1000}
	plain := c
	c.LRAnnealFrom, c.LRAnnealEvery = 2000, 250
	for _, tc := range []struct {
		step   int
		decays int
	}{{0, 0}, {999, 0}, {1000, 1}, {1999, 1}, {2000, 2}, {2249, 2}, {2250, 3}, {2500, 4}, {3000, 6}, {10000, 34}} {
		if got, want := c.LRScale(tc.step), math.Pow(0.5, float64(tc.decays)); got != want {
			t.Errorf("step %d: scale %g, want %g (%d decays)", tc.step, got, want, tc.decays)
		}
		if tc.step <= 2000 && plain.LRScale(tc.step) != c.LRScale(tc.step) {
			t.Errorf("step %d: annealed %g differs from plain %g before the anneal", tc.step, c.LRScale(tc.step), plain.LRScale(tc.step))
		}
	}
	if got, want := plain.LRScale(10000), math.Pow(0.5, 10); got != want {
		t.Errorf("plain step 10000: %g, want %g", got, want)
	}
}

// best anneals past its measured length where its rates halve less often than every 250
// steps (tsp, gm), not where they already do (mwm, sort); flags still win, and --lr-anneal-from 0
// turns the anneal off whole; bad values, and an interval without a start, are refused by name.
func TestBestAnneal(t *testing.T) {
	for _, tc := range []struct {
		args        []string
		from, every int
	}{
		{[]string{"--task", "tsp", "--n", "20", "--recipe", "best"}, 2000, 50},
		{[]string{"--task", "tsp", "--n", "50", "--recipe", "best", "--steps", "10000"}, 2000, 50},
		{[]string{"--task", "gm", "--n", "20", "--recipe", "best"}, 1000, 50},
		{[]string{"--task", "mwm", "--n", "20", "--recipe", "best"}, 0, 0},
		{[]string{"--task", "sort", "--n", "20", "--recipe", "best"}, 0, 0},
		{[]string{"--task", "tsp", "--n", "20", "--recipe", "paper"}, 0, 0},
		{[]string{"--task", "tsp", "--n", "20", "--recipe", "best", "--lr-anneal-from", "0"}, 0, 0},
		{[]string{"--task", "tsp", "--n", "20", "--recipe", "best", "--lr-anneal-every", "100"}, 2000, 100},
		{[]string{"--task", "mwm", "--n", "20", "--lr-anneal-from", "300", "--lr-anneal-every", "10"}, 300, 10},
	} {
		c, err := parseTrainFlags(tc.args...)
		if err != nil || c.LRAnnealFrom != tc.from || c.LRAnnealEvery != tc.every {
			t.Errorf("%v: anneal from %d every %d, %v; want %d, %d", tc.args, c.LRAnnealFrom, c.LRAnnealEvery, err, tc.from, tc.every)
		}
	}
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--task", "mwm", "--n", "20", "--lr-anneal-from", "-1"}, "lr-anneal-from"},
		{[]string{"--task", "mwm", "--n", "20", "--lr-anneal-from", "100"}, "lr-anneal-every"},
		// Alone, the interval would do nothing (it was accepted and recorded in config.json).
		{[]string{"--task", "mwm", "--n", "20", "--lr-anneal-every", "5"}, "lr-anneal-every 5: needs --lr-anneal-from S > 0"},
		{[]string{"--task", "tsp", "--n", "20", "--recipe", "best", "--lr-anneal-from", "0", "--lr-anneal-every", "5"}, "lr-anneal-every 5: needs --lr-anneal-from"},
	} {
		if _, err := parseTrainFlags(tc.args...); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%v: %v, want an error naming %s", tc.args, err, tc.want)
		}
	}
}

// Every recipe entry that anneals its rates starts the anneal at its own measured length
// (steps), for every task: one number, so a new length cannot leave the anneal behind.
func TestRecipeAnnealStartsAtSteps(t *testing.T) {
	annealing := 0
	for _, r := range recipes {
		for task, tr := range r.tasks {
			c := DefaultConfig(task, 20)
			r.set(&c)
			if c.LRAnnealFrom == 0 && c.LRAnnealEvery == 0 {
				continue
			}
			annealing++
			if tr.steps == 0 || c.LRAnnealFrom != tr.steps || c.LRAnnealEvery <= 0 {
				t.Errorf("%s on %s: anneal from %d every %d, measured length %d steps", r.name, task, c.LRAnnealFrom, c.LRAnnealEvery, tr.steps)
			}
		}
	}
	if annealing == 0 {
		t.Fatal("no recipe anneals any task: nothing was checked")
	}
}
