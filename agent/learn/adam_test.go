package learn

import (
	"math"
	"math/rand/v2"
	"testing"

	G "gorgonia.org/gorgonia"
	"gorgonia.org/tensor"
)

// adamRef is Adam and clip_grad_norm_ written out in float64 from the formulas.
func adamRef(p, g [][]float64, steps []float64, lrs []float64, beta1, beta2, eps, maxNorm float64) {
	m, v := make([][]float64, len(p)), make([][]float64, len(p))
	for i := range p {
		m[i], v[i] = make([]float64, len(p[i])), make([]float64, len(p[i]))
	}
	for s, lr := range lrs {
		var sq float64
		for _, gi := range g {
			for _, x := range gi {
				sq += x * x * steps[s] * steps[s]
			}
		}
		scale := steps[s]
		if n := math.Sqrt(sq); maxNorm > 0 && maxNorm/(n+1e-6) < 1 {
			scale *= maxNorm / (n + 1e-6)
		}
		t := float64(s + 1)
		for i := range p {
			for j := range p[i] {
				gj := g[i][j] * scale
				m[i][j] = beta1*m[i][j] + (1-beta1)*gj
				v[i][j] = beta2*v[i][j] + (1-beta2)*gj*gj
				mh, vh := m[i][j]/(1-math.Pow(beta1, t)), v[i][j]/(1-math.Pow(beta2, t))
				p[i][j] -= lr * mh / (math.Sqrt(vh) + eps)
			}
		}
	}
}

// Without clipping and at a constant learning rate, adam takes the same steps as gorgonia's
// AdamSolver.
func TestAdamMatchesGorgonia(t *testing.T) {
	rng := rand.New(rand.NewPCG(61, 62))
	const steps, lr = 5, 0.01
	shapes := [][]int{{3, 4}, {5}}
	var nodes []*G.Node
	var ours [][]float64
	var grads [][][]float64 // per step
	g := G.NewGraph()
	for i, s := range shapes {
		v := tensor.New(tensor.WithShape(s...), tensor.Of(tensor.Float64))
		for j := range v.Float64s() {
			v.Float64s()[j] = rng.NormFloat64()
		}
		ours = append(ours, append([]float64(nil), v.Float64s()...))
		nodes = append(nodes, G.NewTensor(g, tensor.Float64, len(s), G.WithShape(s...), G.WithName(string(rune('a'+i))), G.WithValue(v)))
	}
	for range steps {
		var gs [][]float64
		for _, s := range shapes {
			gi := make([]float64, tensor.Shape(s).TotalSize())
			for j := range gi {
				gi[j] = rng.NormFloat64() * 3
			}
			gs = append(gs, gi)
		}
		grads = append(grads, gs)
	}

	solver := G.NewAdamSolver(G.WithLearnRate(lr), G.WithBeta1(0.9), G.WithBeta2(0.999), G.WithEps(1e-8))
	opt := newAdam[float64]([]int{12, 5}, 0.9, 0.999, 1e-8)
	for s := range steps {
		model := make([]G.ValueGrad, len(nodes))
		for i, n := range nodes {
			gv := tensor.New(tensor.WithShape(shapes[i]...), tensor.WithBacking(append([]float64(nil), grads[s][i]...)))
			model[i] = valueGrad{n.Value(), gv}
		}
		if err := solver.Step(model); err != nil {
			t.Fatal(err)
		}
		opt.update(ours, grads[s], lr, clipScale(gradNorm(grads[s]), 0))
	}
	for i, n := range nodes {
		for j, want := range n.Value().Data().([]float64) {
			if d := math.Abs(ours[i][j] - want); d > 1e-12 {
				t.Errorf("param %d[%d] = %v, gorgonia %v", i, j, ours[i][j], want)
			}
		}
	}
}

// valueGrad pairs a value and its gradient for AdamSolver.Step.
type valueGrad struct{ v, g G.Value }

func (vg valueGrad) Value() G.Value         { return vg.v }
func (vg valueGrad) Grad() (G.Value, error) { return vg.g, nil }

// With clipping on and a changing learning rate, adam follows the formulas: the global norm
// over all tensors, scaled only when above the maximum; float32 within rounding of float64.
func TestAdamClipAndSchedule(t *testing.T) {
	rng := rand.New(rand.NewPCG(63, 64))
	sizes := []int{7, 3}
	p := [][]float64{make([]float64, 7), make([]float64, 3)}
	g := [][]float64{make([]float64, 7), make([]float64, 3)}
	for i := range p {
		for j := range p[i] {
			p[i][j], g[i][j] = rng.NormFloat64(), rng.NormFloat64()
		}
	}
	// Gradient scale per step: the norm is ~4 times the unit; steps 0 and 2 are clipped at
	// max norm 1, step 1 (scale 0.05) is not.
	scales := []float64{1, 0.05, 2, 1}
	lrs := []float64{0.1, 0.05, 0.02, 0.2}
	want := [][]float64{append([]float64(nil), p[0]...), append([]float64(nil), p[1]...)}
	adamRef(want, g, scales, lrs, 0.9, 0.999, 1e-8, 1)

	got64 := [][]float64{append([]float64(nil), p[0]...), append([]float64(nil), p[1]...)}
	got32 := [][]float32{make([]float32, 7), make([]float32, 3)}
	for i := range p {
		for j := range p[i] {
			got32[i][j] = float32(p[i][j])
		}
	}
	o64 := newAdam[float64](sizes, 0.9, 0.999, 1e-8)
	o32 := newAdam[float32](sizes, 0.9, 0.999, 1e-8)
	for s, lr := range lrs {
		g64 := [][]float64{make([]float64, 7), make([]float64, 3)}
		g32 := [][]float32{make([]float32, 7), make([]float32, 3)}
		for i := range g {
			for j := range g[i] {
				g64[i][j] = g[i][j] * scales[s]
				g32[i][j] = float32(g64[i][j])
			}
		}
		if s == 1 && clipScale(gradNorm(g64), 1) != 1 || s != 1 && clipScale(gradNorm(g64), 1) == 1 {
			t.Fatalf("step %d: clipping %v, the test expects it only at steps 0 and 2", s, clipScale(gradNorm(g64), 1))
		}
		o64.update(got64, g64, lr, clipScale(gradNorm(g64), 1))
		o32.update(got32, g32, lr, clipScale(gradNorm(g32), 1))
	}
	for i := range want {
		for j := range want[i] {
			if d := math.Abs(got64[i][j] - want[i][j]); d > 1e-12 {
				t.Errorf("float64 param %d[%d] = %v, want %v", i, j, got64[i][j], want[i][j])
			}
			if d := math.Abs(float64(got32[i][j]) - want[i][j]); d > 1e-5 {
				t.Errorf("float32 param %d[%d] = %v, want %v", i, j, got32[i][j], want[i][j])
			}
		}
	}
}
