package gpulayers_test

import (
	"math"
	"math/rand/v2"
	"testing"

	"spg-tui/linalg/cuda"
	"spg-tui/linalg/cuda/emu/emutest"
	"spg-tui/linalg/cuda/gpulayers"
)

// adamCPU is agent/learn/adam.go's update (unexported there), step for step: the reference.
func adamCPU(step int, params, grads, m, v [][]float32, lr, scale, beta1, beta2, eps float64) {
	t := float64(step)
	stepSize := float32(lr / (1 - math.Pow(beta1, t)))
	invSqrtBC2 := float32(1 / math.Sqrt(1-math.Pow(beta2, t)))
	b1, b2 := float32(beta1), float32(beta2)
	c1, c2 := float32(1-beta1), float32(1-beta2)
	e, s := float32(eps), float32(scale)
	for i, p := range params {
		for j := range p {
			gj := grads[i][j] * s
			m[i][j] = b1*m[i][j] + c1*gj
			v[i][j] = b2*v[i][j] + c2*gj*gj
			p[j] -= stepSize * m[i][j] / (float32(math.Sqrt(float64(v[i][j])))*invSqrtBC2 + e)
		}
	}
}

func TestAdamAndGradNorm(t *testing.T) {
	dev := emutest.Device(t)
	rng := rand.New(rand.NewPCG(13, 14))
	sizes := []int{1, 300, 1000}
	params, m, v := make([][]float32, len(sizes)), make([][]float32, len(sizes)), make([][]float32, len(sizes))
	var pb, mb, vb []cuda.Buf
	for i, n := range sizes {
		params[i], m[i], v[i] = emutest.Normals(rng, n, 1), make([]float32, n), make([]float32, n)
		pb = append(pb, emutest.Upload(t, params[i]))
		mb, vb = append(mb, emutest.Zeros(t, n)), append(vb, emutest.Zeros(t, n))
	}
	scratch := emutest.Zeros(t, 2*len(sizes))
	a := &gpulayers.Adam{Beta1: 0.9, Beta2: 0.999, Eps: 1e-8}
	for step := 1; step <= 3; step++ {
		grads := make([][]float32, len(sizes))
		var gb []cuda.Buf
		var want float64
		for i, n := range sizes {
			grads[i] = emutest.Normals(rng, n, 2)
			gb = append(gb, emutest.Upload(t, grads[i]))
			for _, g := range grads[i] {
				want += float64(g) * float64(g)
			}
		}
		want = math.Sqrt(want)
		norm, err := gpulayers.GradNorm(dev, scratch, gb...)
		if err != nil {
			t.Fatal(err)
		}
		if math.Abs(norm-want) > 1e-12*want {
			t.Fatalf("step %d: GradNorm = %v, want %v", step, norm, want)
		}
		scale := min(1, 30/(norm+1e-6)) // agent's clipScale at maxNorm 30: the norm is about 72, so it clips
		adamCPU(step, params, grads, m, v, 1e-3, scale, 0.9, 0.999, 1e-8)
		if err := a.Update(dev, pb, mb, vb, gb, 1e-3, scale); err != nil {
			t.Fatal(err)
		}
		for i := range sizes {
			emutest.Near(t, "p", emutest.Download(t, pb[i]), params[i], 1e-6)
			emutest.Near(t, "m", emutest.Download(t, mb[i]), m[i], 1e-6)
			emutest.Near(t, "v", emutest.Download(t, vb[i]), v[i], 1e-6)
		}
	}
	if err := a.Update(dev, pb, mb[:1], vb, pb, 1e-3, 1); err == nil {
		t.Error("Update with too few moments: no error")
	}
	if _, err := gpulayers.GradNorm(dev, scratch.At(0, 5), pb[0], pb[0], pb[0]); err == nil {
		t.Error("GradNorm with short scratch: no error")
	}
}
