package layers

import (
	"errors"
	"fmt"

	G "gorgonia.org/gorgonia"
	"gorgonia.org/tensor"

	"spg-tui/agent/ops"
	"spg-tui/linalg/sinkhorn"
)

// SinkhornLayer is the handle of one Sinkhorn node: its temperature and iteration count are live
// hyperparameters, set with Set before its first run and changed between runs.
type SinkhornLayer struct {
	tau   float64
	iters int

	// The settings and saved iterates of the last forward pass, which its backward pass uses.
	runTau   float64
	runIters int
	backward bool
	saved32  []float32
	saved64  []float64

	// keep, when not nil, receives a copy of the last float32 forward pass's input X (B x N x N):
	// the actor's scores, which sampling at inference perturbs.
	keep []float32
}

// KeepInput makes the following float32 forward passes copy their input X into dst (at least
// B N^2 long) until KeepInput(nil). Call it between runs only.
func (l *SinkhornLayer) KeepInput(dst []float32) { l.keep = dst }

// Sinkhorn adds the Sinkhorn layer M = exp(S^iters(X/tau)) (see package linalg/sinkhorn) over a
// batch x of shape (B,N,N) as one node, differentiable with respect to x. The returned layer's
// Set gives tau and iters before the graph first runs.
func Sinkhorn(x *G.Node) (*G.Node, *SinkhornLayer, error) {
	l := &SinkhornLayer{}
	n, err := ops.Apply(l, x)
	if err != nil {
		return nil, nil, err
	}
	return n, l, nil
}

// Set sets the temperature and the number of row-and-column normalisations from the next run
// on. Call it between runs only. The caller's values are trusted: the policy's come from a
// validated run.Config (its one check of tau and L), the other layers' are constants.
func (l *SinkhornLayer) Set(tau float64, iters int) { l.tau, l.iters = tau, iters }

// Name implements ops.Kernel.
func (l *SinkhornLayer) Name() string { return "Sinkhorn" }

// OutShape implements ops.Kernel: the input's shape, which must be (B,N,N).
func (l *SinkhornLayer) OutShape(in []tensor.Shape) (tensor.Shape, error) {
	if len(in) != 1 || in[0].Dims() != 3 || in[0][1] != in[0][2] {
		return nil, fmt.Errorf("input shape %v, want (B,N,N)", in)
	}
	return in[0].Clone(), nil
}

// Differentiable implements ops.Kernel.
func (l *SinkhornLayer) Differentiable(int) bool { return true }

// EnableBackward implements ops.BackwardAware: only then does the forward pass save its iterates.
func (l *SinkhornLayer) EnableBackward() { l.backward = true }

// Forward implements ops.Kernel.
func (l *SinkhornLayer) Forward(in []*tensor.Dense, out *tensor.Dense) error {
	if l.iters == 0 {
		return errors.New("ops: Sinkhorn: run before its layer's Set")
	}
	s := in[0].Shape()
	b, n := s[0], s[1]
	l.runTau, l.runIters = l.tau, l.iters
	if in[0].Dtype() == tensor.Float32 {
		l.saved32 = l.savedBuf32(b, n)
		if l.keep != nil {
			copy(l.keep, ops.Data[float32](in[0]))
		}
		sinkhorn.Forward(ops.Data[float32](out), ops.Data[float32](in[0]), b, n, float32(l.runTau), l.runIters, l.saved32)
	} else {
		l.saved64 = l.savedBuf64(b, n)
		sinkhorn.Forward(ops.Data[float64](out), ops.Data[float64](in[0]), b, n, l.runTau, l.runIters, l.saved64)
	}
	return nil
}

// Backward implements ops.Kernel.
func (l *SinkhornLayer) Backward(in []*tensor.Dense, out, dOut *tensor.Dense, dIn []*tensor.Dense) error {
	s := in[0].Shape()
	b, n := s[0], s[1]
	if in[0].Dtype() == tensor.Float32 {
		sinkhorn.Backward(ops.Data[float32](dIn[0]), ops.Data[float32](dOut), l.saved32, b, n, float32(l.runTau), l.runIters)
	} else {
		sinkhorn.Backward(ops.Data[float64](dIn[0]), ops.Data[float64](dOut), l.saved64, b, n, l.runTau, l.runIters)
	}
	return nil
}

// savedBuf32 returns the buffer for the forward pass's saved iterates (nil when no backward pass
// will read them), reallocated only when iters changed its size.
func (l *SinkhornLayer) savedBuf32(b, n int) []float32 {
	if !l.backward {
		return nil
	}
	if k := sinkhorn.SavedLen(b, n, l.runIters); len(l.saved32) != k {
		return make([]float32, k)
	}
	return l.saved32
}

// savedBuf64 is savedBuf32 for float64.
func (l *SinkhornLayer) savedBuf64(b, n int) []float64 {
	if !l.backward {
		return nil
	}
	if k := sinkhorn.SavedLen(b, n, l.runIters); len(l.saved64) != k {
		return make([]float64, k)
	}
	return l.saved64
}
