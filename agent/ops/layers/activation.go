package layers

import (
	"fmt"
	"math"

	"spg-tui/agent/ops"
	"spg-tui/linalg/fastmath"
)

// Activation is an elementwise nonlinearity fused into the output of a Dense or BatchNorm node,
// which saves gorgonia a node, an allocation and a pass over the data per layer and direction.
type Activation int

const (
	// Identity applies no nonlinearity.
	Identity Activation = iota
	// LeakyReLU is max(x, LeakySlope x): the paper's σ.
	LeakyReLU
)

// LeakySlope is the negative slope of LeakyReLU (the paper's 0.01).
const LeakySlope = 0.01

// String names the activation.
func (a Activation) String() string {
	switch a {
	case Identity:
		return "Identity"
	case LeakyReLU:
		return "LeakyReLU"
	}
	return fmt.Sprintf("Activation(%d)", int(a))
}

// valid reports whether a is one of the constants above.
func (a Activation) valid() bool { return a == Identity || a == LeakyReLU }

// leakyScale64 is LeakyReLU's factor indexed by a sign bit: indexing instead of branching on
// the sign avoids a mispredicted branch per element (5x faster on random signs).
var leakyScale64 = [2]float64{1, LeakySlope}

// activate applies a to y in place; float32 (training) runs fastmath's vector kernel.
func activate[T ops.Float](a Activation, y []T) {
	if a != LeakyReLU {
		return
	}
	switch y := any(y).(type) {
	case []float32:
		fastmath.LeakyReLU(y, y, LeakySlope)
	case []float64:
		for i, v := range y {
			y[i] = v * leakyScale64[math.Float64bits(v)>>63]
		}
	}
}

// activationGrad writes into g the gradient with respect to the pre-activation, given dy with
// respect to the activated output y. LeakyReLU keeps the sign, so y tells the branch; at y = 0
// (either sign) the slope is taken, as PyTorch does. g may be dy itself.
func activationGrad[T ops.Float](a Activation, g, dy, y []T) {
	dy, y = dy[:len(g)], y[:len(g)]
	if a != LeakyReLU {
		copy(g, dy)
		return
	}
	switch g := any(g).(type) {
	case []float32:
		fastmath.LeakyReLUGrad(g, any(dy).([]float32), any(y).([]float32), LeakySlope)
	case []float64:
		dy, y := any(dy).([]float64), any(y).([]float64)
		for i, v := range y {
			// The index is 1 for y <= 0: the sign bit, or +0 (whose bits minus one wrap).
			b := math.Float64bits(v)
			g[i] = dy[i] * leakyScale64[(b-1)>>63|b>>63]
		}
	}
}
