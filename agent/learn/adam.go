package learn

import "math"

// adam is the Adam optimiser (Kingma & Ba, in PyTorch's formulation) over the flat parameter
// slices of one network, with PyTorch's global-norm gradient clipping (clip_grad_norm_). Unlike
// gorgonia's AdamSolver its learning rate is passed per step and its whole state (step count
// and moments) is exported for checkpoints.
type adam[T float32 | float64] struct {
	beta1, beta2, eps float64
	step              int
	m, v              [][]T // first and second moments, shaped as the parameters
}

// newAdam returns an optimiser for parameters of the given sizes.
func newAdam[T float32 | float64](sizes []int, beta1, beta2, eps float64) *adam[T] {
	a := &adam[T]{beta1: beta1, beta2: beta2, eps: eps, m: make([][]T, len(sizes)), v: make([][]T, len(sizes))}
	for i, n := range sizes {
		a.m[i], a.v[i] = make([]T, n), make([]T, n)
	}
	return a
}

// gradNorm returns the L2 norm of all gradients together, accumulated in float64.
func gradNorm[T float32 | float64](grads [][]T) float64 {
	var s float64
	for _, g := range grads {
		for _, v := range g {
			s += float64(v) * float64(v)
		}
	}
	return math.Sqrt(s)
}

// clipScale is PyTorch's clip_grad_norm_ factor for a gradient of norm total: grads are scaled
// by maxNorm/(total+1e-6) when that is below 1. maxNorm <= 0 or +Inf disables clipping.
func clipScale(total, maxNorm float64) float64 {
	if !(maxNorm > 0) || math.IsInf(maxNorm, 1) {
		return 1
	}
	return min(1, maxNorm/(total+1e-6))
}

// update takes one step: the gradients, scaled by scale (see clipScale), update the moments, and
// params -= lr mhat / (sqrt(vhat) + eps) with the bias-corrected moments. grads are not modified.
func (a *adam[T]) update(params, grads [][]T, lr, scale float64) {
	a.step++
	t := float64(a.step)
	// PyTorch: p -= (lr / bc1) m / (sqrt(v) / sqrt(bc2) + eps).
	stepSize := T(lr / (1 - math.Pow(a.beta1, t)))
	invSqrtBC2 := T(1 / math.Sqrt(1-math.Pow(a.beta2, t)))
	b1, b2 := T(a.beta1), T(a.beta2)
	c1, c2 := T(1-a.beta1), T(1-a.beta2)
	eps, s := T(a.eps), T(scale)
	for i, p := range params {
		g, m, v := grads[i][:len(p)], a.m[i][:len(p)], a.v[i][:len(p)]
		for j := range p {
			gj := g[j] * s
			m[j] = b1*m[j] + c1*gj
			v[j] = b2*v[j] + c2*gj*gj
			p[j] -= stepSize * m[j] / (sqrtT(v[j])*invSqrtBC2 + eps)
		}
	}
}

// sqrtT is math.Sqrt for either float type; the float32 conversion rounds the exact root once,
// so it is the correctly rounded float32 square root.
func sqrtT[T float32 | float64](x T) T { return T(math.Sqrt(float64(x))) }
