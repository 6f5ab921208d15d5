package experimentcmd

import (
	"cmp"
	"fmt"
	"math"
	"slices"

	"spg-tui/agent"
	"spg-tui/experiments"
	"spg-tui/sysmem"
)

// checkExperimentRuns refuses, in one line and before the experiment writes anything, a run
// that train would refuse up front (its fields, its memory, its --init actor) and --jobs runs
// whose memory together exceeds the machine's: else the directory was made and every run
// failed, or jobs runs each within the machine started together beyond it.
func checkExperimentRuns(runs []experiments.Planned, jobs int) error {
	checked := map[string]bool{}
	need := make([]int64, 0, len(runs))
	for _, r := range runs {
		// The seeds of an arm share everything CheckStart looks at: check one per arm.
		cfg := r.Config
		cfg.Seed = 0
		if key := fmt.Sprintf("%+v", cfg); !checked[key] {
			if err := agent.CheckStart(r.Config); err != nil {
				return fmt.Errorf("run %s: %v", r.ID, err)
			}
			checked[key] = true
		}
		need = append(need, agent.MemoryEstimate(r.Config))
	}
	slices.SortFunc(need, func(a, b int64) int { return cmp.Compare(b, a) }) // the largest run together
	at := min(jobs, len(need))
	total := int64(0)
	for _, b := range need[:at] {
		if total > math.MaxInt64-b {
			total = -1 // sysmem.Bytes reads it as more than 8 EiB
			break
		}
		total += b
	}
	return sysmem.Check(fmt.Sprintf("--jobs %d: training %d runs at once", jobs, at), total)
}
