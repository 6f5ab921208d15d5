package learn

import (
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"
	"gorgonia.org/tensor"

	"spg-tui/agent/nets"
	"spg-tui/envs"
	"spg-tui/run"
)

// spg-gm-spectral is spg-gm-logstep plus w times the spectral similarity in its scores: with
// spg-gm-logstep's parameters and w = 0 it gives spg-gm-logstep's M exactly, and with its initial w
// it gives another.
func TestGraphMatchingSpectralAddsSpectral(t *testing.T) {
	const b, n, h = 3, 7, 6
	logStep, spectral := testArch(t, run.ModelGMLogStep, envs.TaskGM, n, h), testArch(t, run.ModelGMSpectral, envs.TaskGM, n, h)
	rng := rand.New(rand.NewPCG(87, 88))
	apLog, cp := nets.NewParams(logStep.ActorSpecs(), tensor.Float64, rng), nets.NewParams(logStep.CriticSpecs(), tensor.Float64, rng)
	apSpectral := nets.NewParams(spectral.ActorSpecs(), tensor.Float64, rng)
	spec := -1
	for i, s := range apSpectral.Specs {
		if s.Name == "spec.W" {
			spec = i
			continue
		}
		j := slices.IndexFunc(apLog.Specs, func(s2 nets.ParamSpec) bool { return s2.Name == s.Name })
		if j < 0 {
			t.Fatalf("spg-gm-spectral's %s is not spg-gm-logstep's", s.Name)
		}
		copy(apSpectral.Vals[i].Float64s(), apLog.Vals[j].Float64s())
	}
	if spec < 0 || len(apSpectral.Specs) != len(apLog.Specs)+1 {
		t.Fatalf("spg-gm-spectral has %d actor tensors (spec.W at %d), want spg-gm-logstep's %d and spec.W", len(apSpectral.Specs), spec, len(apLog.Specs))
	}
	if w := apSpectral.Vals[spec].Float64s()[0]; w != 0.5 {
		t.Fatalf("spec.W starts at %g, want 0.5", w)
	}
	x := distinctGMStates(rand.New(rand.NewPCG(89, 90)), b, n)
	act := tensor.New(tensor.WithShape(b, n, n), tensor.Of(tensor.Float64))
	mLog, _ := runGM(t, logStep, apLog, cp, x, act)
	mSpectral, _ := runGM(t, spectral, apSpectral, cp, x, act)
	differ := false
	for i := range mLog {
		differ = differ || math.Abs(mLog[i]-mSpectral[i]) > 1e-6
	}
	if !differ {
		t.Fatal("spg-gm-spectral at spec.W 0.5 gives spg-gm-logstep's M")
	}
	apSpectral.Vals[spec].Float64s()[0] = 0
	mSpectral, _ = runGM(t, spectral, apSpectral, cp, x, act)
	for i := range mLog {
		if math.Abs(mLog[i]-mSpectral[i]) > 1e-9 {
			t.Fatalf("spec.W 0: M[%d] %g (spg-gm-spectral) and %g (spg-gm-logstep)", i, mSpectral[i], mLog[i])
		}
	}
}

// Relabelling either graph permutes spg-gm-spectral's M as it does spg-gm's, on graphs whose
// eigenvalues are distinct (a repeated one leaves the eigenvectors' basis, and so the spectral
// similarity, to the eigensolver).
func TestGraphMatchingSpectralIsEquivariant(t *testing.T) {
	checkGMEquivariant(t, run.ModelGMSpectral, separableGMStates)
}

// spg-gm-spectral's critic loss and actor loss, spec.W included, against central differences in
// float64, the consensus steps near 1 as in spg-gm-logstep's check and spec.W near 0. The loss is
// sharp (spectral scores over the consensus' tau 0.01): at spec.W near 0.01 the central
// differences themselves moved by 3e-4 relative between steps 1e-5 and 1e-6, bracketing the
// analytic gradient, and near 0.001 they agree with it to 4e-6. From states (81, 82) mp3's
// gradient of 6e-6 missed by 5e-5 relative, and from (91, 92), gradients of 1e2, the differences
// missed by up to 14%; from (83, 84) and (85, 86) every tensor agrees within 1e-5.
func TestGraphMatchingSpectralGradients(t *testing.T) {
	a := testArch(t, run.ModelGMSpectral, envs.TaskGM, checkN, checkH)
	rng := rand.New(rand.NewPCG(83, 84))
	ap, cp := randParams(a.ActorSpecs(), rng), randParams(a.CriticSpecs(), rng)
	for i, s := range ap.Specs {
		switch {
		case strings.HasPrefix(s.Name, "cons"):
			ap.Vals[i].Float64s()[0] *= 0.02
		case s.Name == "spec.W":
			ap.Vals[i].Float64s()[0] *= 0.002
		}
	}
	tb := newToyBatch(a, envs.TaskMWM, checkB, checkN, rng)
	tb.x = distinctGMStates(rng, checkB, checkN)
	checkCriticLoss(t, a, cp, tb, 1)
	t.Logf("%d actor tensors checked", checkActorLoss(t, a, ap, cp, tb, 1e-5))
}

// distinctGMStates is gmStates drawn again until every graph's eigenvalues are at least 1e-6
// apart.
func distinctGMStates(rng *rand.Rand, b, n int) *tensor.Dense {
	for {
		x := gmStates(rng, b, n)
		v, ok := x.Float64s(), true
		for g := 0; g < 2*b && ok; g++ {
			var es mat.EigenSym
			ok = es.Factorize(mat.NewSymDense(n, slices.Clone(v[g*n*n:][:n*n])), false)
			vals := es.Values(nil)
			slices.Sort(vals)
			for i := 1; i < n && ok; i++ {
				ok = vals[i]-vals[i-1] >= 1e-6
			}
		}
		if ok {
			return x
		}
	}
}

// separableGMStates is distinctGMStates drawn again until, in every graph, any two nodes' rows
// of |U| (the absolute eigenvectors the spectral similarity is built from) differ by at least
// 1e-3 somewhere. Where two nodes share their rows (an automorphism swaps them, or they are
// cospectral) their scores tie exactly, and the consensus at tau 0.01 turns a last-bit
// difference between the two into different correspondences: relabelling the nodes moves them
// to other positions in the BLAS products, whose kernels round by position and differ from one
// CPU and BLAS to another, so such a tie would be broken one way on one machine and the other
// way on the next. Without exact ties the rounding moves M by about its own size.
func separableGMStates(rng *rand.Rand, b, n int) *tensor.Dense {
	for {
		x := distinctGMStates(rng, b, n)
		v, ok := x.Float64s(), true
		for g := 0; g < 2*b && ok; g++ {
			ok = nodesSeparable(v[g*n*n:][:n*n], n, 1e-3)
		}
		if ok {
			return x
		}
	}
}

// nodesSeparable reports whether every two rows of |U| for the symmetric n x n matrix a differ
// by at least gap in some column.
func nodesSeparable(a []float64, n int, gap float64) bool {
	var es mat.EigenSym
	if !es.Factorize(mat.NewSymDense(n, slices.Clone(a)), true) {
		return false
	}
	var u mat.Dense
	es.VectorsTo(&u)
	for i := range n {
		for j := i + 1; j < n; j++ {
			apart := false
			for c := 0; c < n && !apart; c++ {
				apart = math.Abs(math.Abs(u.At(i, c))-math.Abs(u.At(j, c))) >= gap
			}
			if !apart {
				return false
			}
		}
	}
	return true
}
