package pointer

import (
	"math"
	"math/rand/v2"
	"testing"
)

func randVec(rng *rand.Rand, n int) []float64 {
	v := make([]float64, n)
	for i := range v {
		v[i] = rng.Float64()*2 - 1
	}
	return v
}

// naiveLogProb is log pi(a) for one step, straight from the definition.
func naiveLogProb(u []float64, used []bool, clip float64, a int) float64 {
	z := 0.0
	for j, x := range u {
		if !used[j] {
			z += math.Exp(clip * math.Tanh(x))
		}
	}
	return clip*math.Tanh(u[a]) - math.Log(z)
}

func TestLogProbsMatchDefinition(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 1))
	d := Dims{B: 2, T: 4, N: 5}
	u := randVec(rng, d.B*d.T*d.N)
	for i := range u {
		u[i] *= 3
	}
	actions := []int{3, 0, 4, 1, 2, 1, 0, 4}
	logp, probs := make([]float64, d.B*d.T), make([]float64, len(u))
	LogProbs(d, u, 10, actions, logp, probs)
	for b := range d.B {
		used := make([]bool, d.N)
		for s := range d.T {
			i := b*d.T + s
			want := naiveLogProb(u[i*d.N:(i+1)*d.N], used, 10, actions[i])
			if math.Abs(logp[i]-want) > 1e-12 {
				t.Fatalf("logp[%d] = %v, want %v", i, logp[i], want)
			}
			sum := 0.0
			for j := range d.N {
				if used[j] && probs[i*d.N+j] != 0 {
					t.Fatalf("step %d: used element %d has probability %v", i, j, probs[i*d.N+j])
				}
				sum += probs[i*d.N+j]
			}
			if math.Abs(sum-1) > 1e-12 {
				t.Fatalf("step %d: probabilities sum to %v", i, sum)
			}
			used[actions[i]] = true
		}
	}
}

// TestBackwardMatchesFiniteDifferences checks the gradients of L = sum(w * LogProbs(Scores(ref,
// q, v))) with respect to ref, q and v, with and without clipping.
func TestBackwardMatchesFiniteDifferences(t *testing.T) {
	rng := rand.New(rand.NewPCG(2, 2))
	d := Dims{B: 2, T: 3, N: 4, H: 3}
	ref, q, v := randVec(rng, d.B*d.N*d.H), randVec(rng, d.B*d.T*d.H), randVec(rng, d.H)
	w := randVec(rng, d.B*d.T)
	actions := []int{2, 0, 3, 1, 3, 2}
	for _, clip := range []float64{0, 10} {
		loss := func() float64 {
			u, logp, probs := make([]float64, d.B*d.T*d.N), make([]float64, d.B*d.T), make([]float64, d.B*d.T*d.N)
			Scores(d, ref, q, v, u)
			LogProbs(d, u, clip, actions, logp, probs)
			l := 0.0
			for i := range logp {
				l += w[i] * logp[i]
			}
			return l
		}
		u, logp, probs := make([]float64, d.B*d.T*d.N), make([]float64, d.B*d.T), make([]float64, d.B*d.T*d.N)
		Scores(d, ref, q, v, u)
		LogProbs(d, u, clip, actions, logp, probs)
		du := make([]float64, len(u))
		LogProbsBackward(d, w, u, clip, actions, probs, du)
		dref, dq, dv := make([]float64, len(ref)), make([]float64, len(q)), make([]float64, len(v))
		ScoresBackward(d, du, ref, q, v, dref, dq, dv)
		for _, c := range []struct {
			name string
			x, g []float64
		}{{"ref", ref, dref}, {"q", q, dq}, {"v", v, dv}} {
			for i := range c.x {
				const eps = 1e-6
				orig := c.x[i]
				c.x[i] = orig + eps
				lp := loss()
				c.x[i] = orig - eps
				lm := loss()
				c.x[i] = orig
				num := (lp - lm) / (2 * eps)
				if math.Abs(num-c.g[i]) > 1e-6*math.Max(1, math.Abs(num)) {
					t.Fatalf("clip %v: d%s[%d] = %v, finite differences %v", clip, c.name, i, c.g[i], num)
				}
			}
		}
	}
}

func TestLogProbsRefuseRepeatedAction(t *testing.T) {
	defer func() {
		if recover() == nil {
			t.Fatal("an action chosen twice was accepted")
		}
	}()
	d := Dims{B: 1, T: 2, N: 2}
	LogProbs(d, make([]float64, 4), 10, []int{1, 1}, make([]float64, 2), make([]float64, 4))
}
