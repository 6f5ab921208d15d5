package layers

import (
	"math"
	"math/rand/v2"
	"testing"

	G "gorgonia.org/gorgonia"
	"gorgonia.org/tensor"

	"spg-tui/agent/ops/internal/opstest"
)

// naiveStats returns each channel's mean and biased variance over x (b, c, f).
func naiveStats(x []float64, b, c, f int) (mean, variance []float64) {
	mean, variance = make([]float64, c), make([]float64, c)
	m := float64(b * f)
	for ch := range c {
		for bi := range b {
			for i := range f {
				mean[ch] += x[(bi*c+ch)*f+i] / m
			}
		}
		for bi := range b {
			for i := range f {
				d := x[(bi*c+ch)*f+i] - mean[ch]
				variance[ch] += d * d / m
			}
		}
	}
	return mean, variance
}

// naiveNorm is act(gamma (x - mean)/sqrt(var + 1e-5) + beta) per channel.
func naiveNorm(x, gamma, beta, mean, variance []float64, b, c, f int, act Activation) []float64 {
	y := make([]float64, len(x))
	for bi := range b {
		for ch := range c {
			for i := range f {
				k := (bi*c+ch)*f + i
				y[k] = gamma[ch]*(x[k]-mean[ch])/math.Sqrt(variance[ch]+1e-5) + beta[ch]
				if act == LeakyReLU {
					y[k] = leaky(y[k])
				}
			}
		}
	}
	return y
}

func TestBatchNorm(t *testing.T) {
	const b, c, f = 3, 2, 4
	rng := rand.New(rand.NewPCG(41, 42))
	for _, act := range []Activation{Identity, LeakyReLU} {
		x, gamma, beta := opstest.RandDense(rng, b, c, f), opstest.RandDense(rng, c), opstest.RandDense(rng, c)
		mean, variance := naiveStats(x.Float64s(), b, c, f)
		want := naiveNorm(x.Float64s(), gamma.Float64s(), beta.Float64s(), mean, variance, b, c, f, act)
		build := func(p []*G.Node) (*G.Node, error) {
			y, _, err := BatchNorm(p[0], p[1], p[2], BatchNormOptions{Act: act})
			return y, err
		}
		vals := []*tensor.Dense{x, gamma, beta}
		opstest.CheckForward(t, vals, want, 1e-5, build)
		t.Logf("act %v", act)
		opstest.CheckOpGrads(t, rng, opstest.GradParams(vals...), func(_ *G.ExprGraph, p []*G.Node) (*G.Node, error) { return build(p) })
	}
}

// Frozen gamma and beta still pass the right gradient to x.
func TestBatchNormFrozen(t *testing.T) {
	const b, c, f = 3, 2, 4
	rng := rand.New(rand.NewPCG(43, 44))
	x, gamma, beta := opstest.RandDense(rng, b, c, f), opstest.RandDense(rng, c), opstest.RandDense(rng, c)
	opstest.CheckOpGrads(t, rng, opstest.GradParams(x), func(g *G.ExprGraph, p []*G.Node) (*G.Node, error) {
		gn := G.NewVector(g, tensor.Float64, G.WithShape(c), G.WithName("gamma"), G.WithValue(gamma))
		bn := G.NewVector(g, tensor.Float64, G.WithShape(c), G.WithName("beta"), G.WithValue(beta))
		y, _, err := BatchNorm(p[0], gn, bn, BatchNormOptions{Act: LeakyReLU, Frozen: true})
		return y, err
	})
}

// UpdateRunning follows PyTorch's formula with the unbiased variance, and inference mode
// normalises with the running statistics.
func TestBatchNormRunningAndInference(t *testing.T) {
	const b, c, f, momentum = 3, 2, 4, 0.1
	rng := rand.New(rand.NewPCG(45, 46))
	x, gamma, beta := opstest.RandDense(rng, b, c, f), opstest.RandDense(rng, c), opstest.RandDense(rng, c)
	runMean, runVar := opstest.RandDense(rng, c), opstest.RandDense(rng, c)
	for i, v := range runVar.Float64s() {
		runVar.Float64s()[i] = 1 + math.Abs(v)
	}
	wantMean, wantVar := append([]float64(nil), runMean.Float64s()...), append([]float64(nil), runVar.Float64s()...)
	mean, variance := naiveStats(x.Float64s(), b, c, f)
	for ch := range c {
		wantMean[ch] = (1-momentum)*wantMean[ch] + momentum*mean[ch]
		wantVar[ch] = (1-momentum)*wantVar[ch] + momentum*variance[ch]*b*f/(b*f-1)
	}

	g := G.NewGraph()
	node := func(v *tensor.Dense, name string) *G.Node {
		return G.NewTensor(g, tensor.Float64, v.Dims(), G.WithShape(v.Shape()...), G.WithName(name), G.WithValue(v))
	}
	_, layer, err := BatchNorm(node(x, "x"), node(gamma, "gamma"), node(beta, "beta"), BatchNormOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if err := layer.UpdateRunning(runMean, runVar, momentum); err == nil {
		t.Error("UpdateRunning before a run succeeded")
	}
	m := G.NewTapeMachine(g)
	defer m.Close()
	if err := m.RunAll(); err != nil {
		t.Fatal(err)
	}
	if err := layer.UpdateRunning(runMean, runVar, momentum); err != nil {
		t.Fatal(err)
	}
	for ch := range c {
		if math.Abs(runMean.Float64s()[ch]-wantMean[ch]) > 1e-12 || math.Abs(runVar.Float64s()[ch]-wantVar[ch]) > 1e-12 {
			t.Errorf("channel %d: running (%v, %v), want (%v, %v)", ch, runMean.Float64s()[ch], runVar.Float64s()[ch], wantMean[ch], wantVar[ch])
		}
	}
	if err := layer.UpdateRunning(opstest.ToDtype(runMean, tensor.Float32), runVar, momentum); err == nil {
		t.Error("UpdateRunning accepted float32 statistics for a float64 layer")
	}

	want := naiveNorm(x.Float64s(), gamma.Float64s(), beta.Float64s(), runMean.Float64s(), runVar.Float64s(), b, c, f, LeakyReLU)
	opstest.CheckForward(t, []*tensor.Dense{x, gamma, beta, runMean, runVar}, want, 1e-5, func(p []*G.Node) (*G.Node, error) {
		return BatchNormInference(p[0], p[1], p[2], p[3], p[4], LeakyReLU)
	})
}
