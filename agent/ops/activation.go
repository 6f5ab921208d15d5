package ops

import "fmt"

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

// activate applies a to y in place.
func activate[T Float](a Activation, y []T) {
	if a != LeakyReLU {
		return
	}
	for i, v := range y {
		if v < 0 {
			y[i] = v * LeakySlope
		}
	}
}

// activationGrad writes into g the gradient with respect to the pre-activation, given dy with
// respect to the activated output y. LeakyReLU keeps the sign, so y tells the branch (at 0 the
// slope, as PyTorch). g may be dy itself.
func activationGrad[T Float](a Activation, g, dy, y []T) {
	dy, y = dy[:len(g)], y[:len(g)]
	if a != LeakyReLU {
		copy(g, dy)
		return
	}
	for i, v := range y {
		if v > 0 {
			g[i] = dy[i]
		} else {
			g[i] = dy[i] * LeakySlope
		}
	}
}
