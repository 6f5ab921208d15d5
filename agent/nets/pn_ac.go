package nets

// pn-ac: the pointer network of Bello et al. (2016) trained by REINFORCE against a moving-average
// baseline, for sort and tsp (see pointerNet, and agent's REINFORCE learner; its hyperparameters are
// run.Models' entry).
func init() {
	registerPolicyNet("pn-ac", func(n, h, k int) PolicyNet[float32] {
		return newPointerNet[float32](n, h, k, false)
	})
}
