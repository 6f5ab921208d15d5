package evalcmd

import (
	"fmt"
	"strings"
	"time"

	"spg-tui/envs"
)

// polishUsage is eval's --polish help.
var polishUsage = "gm: improve every decoded matching by a local search started from it (" + strings.Join(envs.GMPolishes, ", ") +
	": spectral's 2-swap search from the policy's matching instead); the lines written are the polished ones, and the summary gives the policy's own mean beside the policy + polish mean"

// checkPolish refuses a --polish other than gm's searches, and any on another task.
func checkPolish(polish string, task envs.Task) error {
	if polish == "" {
		return nil
	}
	if task != envs.TaskGM {
		return fmt.Errorf("--polish %s: only gm's matchings take a polish, not %s's", polish, task)
	}
	for _, p := range envs.GMPolishes {
		if p == polish {
			return nil
		}
	}
	return fmt.Errorf("--polish %q: must be one of %s", polish, strings.Join(envs.GMPolishes, ", "))
}

// polishSolutions returns sols each improved by the local search polish from its permutation,
// rescored on env, and the time the searches took.
func polishSolutions(env envs.Env, insts []envs.Instance, sols []envs.Solution, polish string) ([]envs.Solution, time.Duration, error) {
	start := time.Now()
	out := make([]envs.Solution, len(sols))
	for i, s := range sols {
		p, err := envs.GMPolish(polish, insts[s.Index], s.Perm)
		if err != nil {
			return nil, 0, fmt.Errorf("instance %d: %v", s.Index, err)
		}
		out[i] = envs.Solution{Index: s.Index, Perm: p, Objective: env.Objective(insts[s.Index], p)}
	}
	return out, time.Since(start), nil
}
