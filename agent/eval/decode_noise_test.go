package eval

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"spg-tui/agent/learn"
	"spg-tui/agent/nets"
	"spg-tui/envs"
	"spg-tui/linalg/sinkhorn"
	"spg-tui/run"
)

// naiveSpread is ScoreSpread written from its definition: X minus its row means, minus the
// column means of what is left, then the root mean square.
func naiveSpread(x []float64, n int) float64 {
	y := slices.Clone(x)
	for i := range n {
		var mean float64
		for j := range n {
			mean += y[i*n+j] / float64(n)
		}
		for j := range n {
			y[i*n+j] -= mean
		}
	}
	for j := range n {
		var mean float64
		for i := range n {
			mean += y[i*n+j] / float64(n)
		}
		for i := range n {
			y[i*n+j] -= mean
		}
	}
	var ss float64
	for _, v := range y {
		ss += v * v
	}
	return math.Sqrt(ss / float64(n*n))
}

// TestScoreSpread checks ScoreSpread against its definition, that it ignores the row and column
// constants Sinkhorn normalises away, and that it scales with X.
func TestScoreSpread(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, n := range []int{1, 2, 5, 20} {
		x, x64, shifted, scaled := make([]float32, n*n), make([]float64, n*n), make([]float32, n*n), make([]float32, n*n)
		for k := range x {
			x[k] = float32(rng.NormFloat64())
			x64[k] = float64(x[k])
		}
		for i := range n {
			for j := range n {
				shifted[i*n+j] = x[i*n+j] + float32(i) - 2*float32(j)
				scaled[i*n+j] = 3 * x[i*n+j]
			}
		}
		got, want := ScoreSpread(x, n, false), naiveSpread(x64, n)
		if math.Abs(got-want) > 1e-6*(1+want) {
			t.Errorf("n %d: ScoreSpread %v, by its definition %v", n, got, want)
		}
		if d := ScoreSpread(shifted, n, false); math.Abs(d-got) > 1e-5*(1+got) {
			t.Errorf("n %d: row and column constants moved the spread from %v to %v", n, got, d)
		}
		if d := ScoreSpread(scaled, n, false); math.Abs(d-3*got) > 1e-5*(1+got) {
			t.Errorf("n %d: 3 X has spread %v, want %v", n, d, 3*got)
		}
	}
}

// TestOffDiagonalSpread checks the successor actor's spread: the diagonal's values do not count,
// row and column constants are removed, it scales with X, and on a matrix whose off-diagonal
// entries are already centred it is their root mean square; barred far pairs are ignored.
func TestOffDiagonalSpread(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for _, n := range []int{2, 3, 5, 20, 50} {
		x, barred, shifted, scaled := make([]float32, n*n), make([]float32, n*n), make([]float32, n*n), make([]float32, n*n)
		for i := range n {
			for j := range n {
				k := i*n + j
				x[k] = float32(rng.NormFloat64())
				barred[k], shifted[k], scaled[k] = x[k], x[k]+float32(i)-2*float32(j), 3*x[k]
				if i == j {
					barred[k] = -1e4
				}
			}
		}
		got := ScoreSpread(x, n, true)
		if d := ScoreSpread(barred, n, true); d != got {
			t.Errorf("n %d: the diagonal moved the spread from %v to %v", n, got, d)
		}
		if d := ScoreSpread(shifted, n, true); math.Abs(d-got) > 1e-4*(1+got) {
			t.Errorf("n %d: row and column constants moved the spread from %v to %v", n, got, d)
		}
		if d := ScoreSpread(scaled, n, true); math.Abs(d-3*got) > 1e-5*(1+got) {
			t.Errorf("n %d: 3 X has spread %v, want %v", n, d, 3*got)
		}
	}
	// SPG+Successor-Local's far pairs, at nets.FarScore, are ignored as the diagonal is: their
	// value changes nothing, and the spread stays that of the learned scores.
	const n = 12
	far, farther := make([]float32, n*n), make([]float32, n*n)
	for k := range far {
		far[k] = float32(rng.NormFloat64())
		if i, j := k/n, k%n; (j-i+n)%n > 4 {
			far[k] = nets.FarScore
		}
		farther[k] = far[k]
		if far[k] == nets.FarScore {
			farther[k] = 2 * nets.FarScore
		}
	}
	if a, b := ScoreSpread(far, n, true), ScoreSpread(farther, n, true); a != b || !(a > 0.1 && a < 10) {
		t.Errorf("far pairs: spread %v (%v with them farther), want the learned scores' (about 1)", a, b)
	}
	// Off the diagonal of 3 x 3, x_ij = +1 on (0,1), (1,2), (2,0) and -1 on the others has zero
	// row and column sums: nothing is removed and the spread is 1.
	c := []float32{9, 1, -1, -1, 9, 1, 1, -1, 9}
	if d := ScoreSpread(c, 3, true); math.Abs(d-1) > 1e-12 {
		t.Errorf("centred 3 x 3: spread %v, want 1", d)
	}
}

// TestRelativeNoiseIgnoresTheScaleOfX checks that, rounded by log M, the sampled decode with
// relative noise gives the same candidates for scores X and 5 X (absolute noise does not): the
// decode follows the order of the actor's scores, not the scale it learned.
func TestRelativeNoiseIgnoresTheScaleOfX(t *testing.T) {
	const n = 9
	env, err := envs.New(envs.TaskTSP, n)
	if err != nil {
		t.Fatal(err)
	}
	h := learn.Hyper{Tau: 1, SinkhornIters: 10, RoundLog: true}
	rng := rand.New(rand.NewPCG(3, 4))
	decodeAt := func(inst envs.Instance, x []float32, noise string) []int {
		m := make([]float32, n*n)
		sinkhorn.Forward(m, x, 1, n, float32(h.Tau), h.SinkhornIters, nil)
		dec := run.Decoding{Samples: 16, GumbelScale: 40, Noise: noise}
		if noise == run.NoiseAbsolute {
			dec.GumbelScale = 0.5
		}
		perm := make([]int, n)
		var obj float64
		if err := newCandidates(n).decode(env, inst, x, m, h, dec, rand.New(rand.NewPCG(7, 8)), perm, &obj, true); err != nil {
			t.Fatal(err)
		}
		return perm
	}
	absoluteDiffers := false
	for i := range 20 {
		inst := envs.Dataset{Env: env, Seed: 9, Size: 20}.At(i)
		x, x5 := make([]float32, n*n), make([]float32, n*n)
		for k := range x {
			x[k] = float32(rng.NormFloat64())
			x5[k] = 5 * x[k]
		}
		if a, b := decodeAt(inst, x, run.NoiseRelative), decodeAt(inst, x5, run.NoiseRelative); !slices.Equal(a, b) {
			t.Fatalf("instance %d: relative noise decodes X to %v and 5 X to %v", i, a, b)
		}
		absoluteDiffers = absoluteDiffers || !slices.Equal(decodeAt(inst, x, run.NoiseAbsolute), decodeAt(inst, x5, run.NoiseAbsolute))
	}
	if !absoluteDiffers {
		t.Error("absolute noise decoded X and 5 X alike on all 20 instances: the test cannot tell the units apart")
	}
}
