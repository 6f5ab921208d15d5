package gpulayers_test

import (
	"math"
	"math/rand/v2"
	"testing"

	"spg-tui/linalg/cuda/emu/emutest"
	"spg-tui/linalg/cuda/gpulayers"
)

// naiveTourWeights is tour_weights in float64: g off the diagonal, the row's mean off it on it.
func naiveTourWeights(g []float64, b, n int) []float64 {
	w := make([]float64, len(g))
	for r := range b * n {
		i, s := r%n, 0.0
		for k := range n {
			if k != i {
				s += g[r*n+k]
				w[r*n+k] = g[r*n+k]
			}
		}
		w[r*n+i] = s / float64(n-1)
	}
	return w
}

// TourWeights against a naive float64 version, and its backward against finite differences of
// that version's <W(g), dW>.
func TestTourWeights(t *testing.T) {
	dev := emutest.Device(t)
	rng := rand.New(rand.NewPCG(51, 52))
	const b, n = 3, 6
	g, dw := emutest.Normals(rng, b*n*n, 1), emutest.Normals(rng, b*n*n, 1)
	g64, dw64 := make([]float64, len(g)), make([]float64, len(dw))
	for i := range g {
		g64[i], dw64[i] = float64(g[i]), float64(dw[i])
	}
	wb := emutest.Zeros(t, b*n*n)
	if err := gpulayers.TourWeights(dev, wb, emutest.Upload(t, g), b, n); err != nil {
		t.Fatal(err)
	}
	want := naiveTourWeights(g64, b, n)
	for i, v := range emutest.Download(t, wb) {
		if math.Abs(float64(v)-want[i]) > 1e-6*max(1, math.Abs(want[i])) {
			t.Fatalf("W[%d] = %v, want %v", i, v, want[i])
		}
	}
	dgb := emutest.Zeros(t, b*n*n)
	if err := gpulayers.TourWeightsBackward(dev, dgb, emutest.Upload(t, dw), b, n); err != nil {
		t.Fatal(err)
	}
	loss := func(g []float64) float64 {
		s := 0.0
		for i, v := range naiveTourWeights(g, b, n) {
			s += v * dw64[i]
		}
		return s
	}
	const h = 1e-6
	for i, got := range emutest.Download(t, dgb) {
		gp, gm := append([]float64(nil), g64...), append([]float64(nil), g64...)
		gp[i] += h
		gm[i] -= h
		fd := (loss(gp) - loss(gm)) / (2 * h)
		if math.Abs(float64(got)-fd) > 1e-5*max(1, math.Abs(fd)) {
			t.Fatalf("dg[%d] = %v, finite differences %v", i, got, fd)
		}
	}
	if gpulayers.TourWeights(dev, wb, emutest.Zeros(t, 1), b, n) == nil || gpulayers.TourWeights(dev, wb, wb, b, 1) == nil {
		t.Error("TourWeights took a short g or n = 1")
	}
}
