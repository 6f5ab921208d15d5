package nets

import (
	"math"
	"math/rand/v2"
	"testing"

	"gorgonia.org/tensor"
)

// policyNets64 are the critic-free networks in float64 at a small size, with their state width.
func policyNets64(n, h int) map[string]struct {
	net      PolicyNet[float64]
	stateLen int
} {
	return map[string]struct {
		net      PolicyNet[float64]
		stateLen int
	}{
		"pn-ac sort":     {newPointerNet[float64](n, h, 1, false), n},
		"pn-ac tsp":      {newPointerNet[float64](n, h, 2, false), 2 * n},
		"pn-ac-matching": {newPointerNet[float64](n, h, 2, true), 4 * n},
		"ac-matching":    {newACMatching[float64](n, h, 2), 4 * n},
	}
}

// TestPolicyNetGradients checks every parameter gradient of L = sum_i c_i log pi(actions_i |
// s_i) against central finite differences, for every critic-free network, in float64.
func TestPolicyNetGradients(t *testing.T) {
	const n, h, b = 4, 3, 3
	for name, c := range policyNets64(n, h) {
		rng := rand.New(rand.NewPCG(7, 7))
		w := NewParams(c.net.Specs(), tensor.Float64, rng).Float64s()
		// Larger weights than the initial ones, so that the gates and the clipping are not in
		// their linear regions.
		for _, p := range w {
			for i := range p {
				p[i] *= 3
			}
		}
		states := make([]float64, b*c.stateLen)
		for i := range states {
			states[i] = rng.Float64()
		}
		actions := make([]int, b*n)
		c.net.Decode(w, states, b, rng, actions)
		coef := []float64{0.7, -1.3, 0.4}
		loss := func() float64 {
			lp := make([]float64, b)
			c.net.LogProbs(w, states, b, actions, lp)
			s := 0.0
			for i := range lp {
				s += coef[i] * lp[i]
			}
			return s
		}
		loss()
		grads := make([][]float64, len(w))
		for i, p := range w {
			grads[i] = make([]float64, len(p))
		}
		c.net.Backward(w, coef, grads)
		specs := c.net.Specs()
		for pi, p := range w {
			for i := range p {
				const eps = 1e-6
				orig := p[i]
				p[i] = orig + eps
				lp := loss()
				p[i] = orig - eps
				lm := loss()
				p[i] = orig
				num := (lp - lm) / (2 * eps)
				if math.Abs(num-grads[pi][i]) > 1e-6*math.Max(1, math.Abs(num)) {
					t.Fatalf("%s: d%s[%d] = %.10g, finite differences %.10g", name, specs[pi].Name, i, grads[pi][i], num)
				}
			}
		}
	}
}

// TestPolicyNetDecodeAgreesWithLogProbs: greedy decoding picks, at every step, the most probable
// free element under the teacher-forced policy, and every decoded sequence is a permutation.
func TestPolicyNetDecodeAgreesWithLogProbs(t *testing.T) {
	const n, h, b = 5, 4, 4
	for name, c := range policyNets64(n, h) {
		rng := rand.New(rand.NewPCG(8, 8))
		w := NewParams(c.net.Specs(), tensor.Float64, rng).Float64s()
		states := make([]float64, b*c.stateLen)
		for i := range states {
			states[i] = rng.Float64()
		}
		actions := make([]int, b*n)
		c.net.Decode(w, states, b, nil, actions)
		lp := make([]float64, b)
		c.net.LogProbs(w, states, b, actions, lp)
		var probs []float64
		switch net := c.net.(type) {
		case *pointerNet[float64]:
			probs = net.probs
		case *acMatching[float64]:
			probs = net.probs
		}
		for r := range b {
			seen := make([]bool, n)
			for s := range n {
				a := actions[r*n+s]
				if seen[a] {
					t.Fatalf("%s: row %d chose %d twice: %v", name, r, a, actions[r*n:(r+1)*n])
				}
				seen[a] = true
				p := probs[(r*n+s)*n:][:n]
				for j := range n {
					if p[j] > p[a]+1e-9 {
						t.Fatalf("%s: row %d step %d: greedy chose %d (p %v) over %d (p %v)", name, r, s, a, p[a], j, p[j])
					}
				}
			}
		}
	}
}
