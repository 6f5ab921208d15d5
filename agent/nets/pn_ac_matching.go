package nets

import "spg-tui/run"

// pn-ac-matching: PN-AC over SPG+Matching's shared dual embedding, for mwm (the appendix's
// PN-AC+Matching; see pointerNet).
func init() {
	registerPolicyNet(run.ModelPNACMatching, func(n, h, k int) PolicyNet[float32] {
		return newPointerNet[float32](n, h, k, true)
	})
}
