package nets

import "spg-tui/run"

// pn-ac: the pointer network of Bello et al. (2016) trained by REINFORCE against a moving-average
// baseline, for sort and tsp (see pointerNet, and agent's REINFORCE learner; its hyperparameters are
// run.Models' entry).
func init() {
	registerPolicyNet(run.ModelPNAC, func(n, h, k int) PolicyNet[float32] {
		return newPointerNet[float32](n, h, k, false)
	})
}
