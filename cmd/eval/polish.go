package evalcmd

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"spg-tui/envs"
)

// polishUsage is eval's --polish help.
var polishUsage = "improve every decoded solution by a local search started from it (" + envs.PolishUsage() +
	"); the lines written are the polished ones, and the summary gives the policy's own mean beside the policy + polish mean"

// checkPolish refuses a --polish that is not one of the task's polishes (Facts.Polishes).
func checkPolish(polish string, task envs.Task) error {
	if polish == "" {
		return nil
	}
	polishes := envs.MustFacts(task).Polishes
	if len(polishes) == 0 {
		return fmt.Errorf("--polish %s: %s's solutions take no polish", polish, task)
	}
	if !slices.Contains(polishes, polish) {
		return fmt.Errorf("--polish %q: must be one of %s", polish, strings.Join(polishes, ", "))
	}
	return nil
}

// polishSolutions returns sols each improved by the local search polish from its permutation,
// rescored on env, and the time the searches took.
func polishSolutions(env envs.Env, insts []envs.Instance, sols []envs.Solution, polish string) ([]envs.Solution, time.Duration, error) {
	start := time.Now()
	out := make([]envs.Solution, len(sols))
	for i, s := range sols {
		p, err := envs.MustFacts(env.Task()).Polish(polish, insts[s.Index], s.Perm)
		if err != nil {
			return nil, 0, fmt.Errorf("instance %d: %v", s.Index, err)
		}
		out[i] = envs.Solution{Index: s.Index, Perm: p, Objective: env.Objective(insts[s.Index], p)}
	}
	return out, time.Since(start), nil
}
