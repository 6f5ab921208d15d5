package eval

import "math"

// softPermStats returns the mean row entropy of the n x n doubly stochastic matrix m, in nats,
// and its Birkhoff number sum(m * p) / n against the permutation matrix p of the same shape.
// Entries at or below 0 add nothing to the entropy (the limit of x ln x at 0).
func softPermStats(m, p []float32, n int) (entropy, birkhoff float64) {
	for i, v := range m {
		x := float64(v)
		if x > 0 {
			entropy -= x * math.Log(x)
		}
		birkhoff += x * float64(p[i])
	}
	return entropy / float64(n), birkhoff / float64(n)
}
