package agent

import (
	"errors"
	"math"
	"math/rand/v2"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"spg-tui/agent/checkpoint"
	"spg-tui/agent/device"
	"spg-tui/agent/internal/devtest"
	"spg-tui/agent/learn"
	"spg-tui/envs"
	"spg-tui/linalg/assign"
	"spg-tui/linalg/cuda"
	"spg-tui/run"
)

// TestGPUTrainResumesOnCPU trains SPG+Matching on each device, resumes the run on the CPU to a
// longer end, and checks that the checkpoint acts alike on both: the same permutations for
// the validation states. On the emulator the run is tiny; on a GPU the MWM models train MWM-20
// for 200 steps (the others stay tiny: their exact references at N = 20 would take minutes).
func TestGPUTrainResumesOnCPU(t *testing.T) {
	devtest.EachModel(t, func(t *testing.T, dev cuda.Device, gm devtest.Model) {
		tiny := tinyConfig(gm.Task, 5)
		cfg := devtest.Config(t, gm.Task, gm.Model, gm.Recipe)
		cfg.Steps, cfg.Batch, cfg.Buffer, cfg.EvalEvery, cfg.LogEvery = 12, tiny.Batch, tiny.Buffer, tiny.EvalEvery, tiny.LogEvery
		cfg.ActorLR, cfg.CriticLR = 1e-3, 1e-3
		if strings.HasPrefix(dev.Name(), "cuda") && gm.Task == envs.TaskMWM {
			cfg = devtest.RecipeConfig(t, gm.Task, gm.Model, gm.Recipe, 20)
			cfg.Steps, cfg.EvalEvery, cfg.LogEvery = 200, 100, 50
			cfg.TrainSize, cfg.ValSize, cfg.TestSize = 25_600, 200, 200
		}
		dir := t.TempDir()
		var trained learn.Learner
		onDev := func(c run.Spec, _ *device.Device) (learn.Learner, error) {
			l, err := learn.NewDeviceLearner(c, dev)
			trained = l
			return l, err
		}
		e, err := startRun(cfg, dir, nil, onDev)
		if err != nil {
			t.Fatal(err)
		}
		waitDone(t, e)
		if err := e.Err(); err != nil {
			t.Fatalf("training on %s: %v", dev.Name(), err)
		}
		// Its device buffers are freed when the run ends (a console keeps no earlier run's).
		if g, ok := trained.(interface{ Released() bool }); !ok || !g.Released() {
			t.Errorf("the device learner %T was not released when its run ended", trained)
		}
		e2, err := resumeRun(dir, cfg.Steps+4, nil, learn.NewLearner)
		if err != nil {
			t.Fatal(err)
		}
		waitDone(t, e2)
		if err := e2.Err(); err != nil {
			t.Fatalf("resumed on the CPU: %v", err)
		}
		recs, err := run.ReadRecords(filepath.Join(dir, run.MetricsFile))
		if err != nil {
			t.Fatal(err)
		}
		var devices []string
		for _, r := range recs {
			if r.Event != nil && r.Event.Event == run.EventStart {
				devices = append(devices, r.Event.Device)
			}
		}
		if len(devices) != 2 || devices[0] != dev.Name() || devices[1] != "cpu" {
			t.Errorf("start records name devices %q, want %q then cpu", devices, dev.Name())
		}
		// The last checkpoint, restored on both, rounds to the same permutations.
		ck, err := checkpoint.Open(filepath.Join(dir, run.LastCheckpoint))
		if err != nil {
			t.Fatal(err)
		}
		defer ck.Close()
		ckSpec := *devtest.Spec(t, ck.Header.Config)
		cpu, err := learn.NewLearner(ckSpec, nil)
		if err != nil {
			t.Fatal(err)
		}
		gl, err := learn.NewDeviceLearner(ckSpec, dev)
		if err != nil {
			t.Fatal(err)
		}
		defer learn.Release(gl)
		if err := errors.Join(cpu.UnmarshalBinary(ck.Learner), gl.UnmarshalBinary(ck.Learner)); err != nil {
			t.Fatal(err)
		}
		n, b := cfg.N, cfg.Batch
		// random states, as the learner tests' random batches start
		rng := rand.New(rand.NewPCG(11, 12))
		states := make([]float32, b*envs.MustFacts(cfg.Task).StateLen(n))
		for i := range states {
			states[i] = rng.Float32()
		}
		if gm.Task == envs.TaskGM { // where M is decided (devtest.PlantedGraphs)
			devtest.PlantedGraphs(rng, states, b, n)
		}
		h := learn.HyperAt(devtest.Spec(t, cfg), 0)
		mc, mg := make([]float32, b*n*n), make([]float32, b*n*n)
		if err := errors.Join(cpu.Act(states, b, h, mc), gl.Act(states, b, h, mg)); err != nil {
			t.Fatal(err)
		}
		d, compared, differ, err := compareRounding(mc, mg, b, n)
		if err != nil {
			t.Fatal(err)
		}
		tol := actTolerance
		if gm.Task == envs.TaskGM {
			tol = gmActTolerance
		}
		if d > tol {
			t.Errorf("M differs by up to %g between the CPU and %s, over %g", d, dev.Name(), tol)
		}
		if differ > 0 {
			t.Errorf("%d of %d states whose rounding M decides round to other permutations on the CPU", differ, compared)
		}
	})
}

// actTolerance bounds the difference of any entry of M (in [0, 1]) between the CPU learner
// and a device learner with the same parameters. Both compute in float32 with other kernels
// (and each BLAS rounds by CPU), so entries differ in their last bits: 1.5e-8 to 4.5e-8 on the
// emulator with OpenBLAS on every kernel set and with linalg/gemm. Scaling one entry of one
// state by 1.01 on the device's side moves M by 2e-6 to 1.5e-5 in these runs.
const actTolerance = 1e-6

// gmActTolerance is actTolerance for SPG+GM, whose eight consensus rounds (Sinkhorn at tau 0.01)
// amplify the last bits of spg-gm's untrained actor: on five batches of planted graph pairs the
// CPU's own M moved by 5.5e-6 to 4.1e-5 when its parameters moved by 1e-7 relative (about one
// rounding), and the emulator's differed from the CPU's by 1.8e-7 to 5.8e-6 (spg-gm-spectral,
// which the spectral similarity steadies: under 5e-7 both ways). The permutations are compared
// as for every model.
const gmActTolerance = 1e-4

// compareRounding compares the b matrices (n x n) that the CPU (mc) and a device (mg) act with:
// d is their largest difference, and the rounded permutations are compared only on the states
// whose rounding M decides, those whose best permutation's sum of mc leads every other's by
// more than 2 n d. Elsewhere the two may round either way: a near-tie that float32's last bits
// break, which says nothing about the device. On the decided states the two must agree (any
// other permutation's sum of mg is below the best's), so a difference there is the rounding's.
func compareRounding(mc, mg []float32, b, n int) (d float64, compared, differ int, err error) {
	for k := range mc[:b*n*n] {
		d = max(d, math.Abs(float64(mc[k])-float64(mg[k])))
	}
	pc, pg := make([]int, b*n), make([]int, b*n)
	if err := errors.Join(assign.RoundBatch(mc, b, n, pc), assign.RoundBatch(mg, b, n, pg)); err != nil {
		return d, 0, 0, err
	}
	for i := range b {
		lead, err := roundingLead(mc[i*n*n:(i+1)*n*n], n, pc[i*n:(i+1)*n])
		if err != nil {
			return d, 0, 0, err
		}
		if lead <= 2*float64(n)*d {
			continue
		}
		compared++
		if !slices.Equal(pc[i*n:(i+1)*n], pg[i*n:(i+1)*n]) {
			differ++
		}
	}
	return d, compared, differ, nil
}

// roundingLead is how far the permutation best, the maximum of sum_i m[i][best[i]], leads the
// best permutation other than it: the runner-up leaves out at least one of best's entries, so
// it is the best of the n assignments that each forbid one of them.
func roundingLead(m []float32, n int, best []int) (float64, error) {
	var s assign.Solver
	cost, perm := make([]float64, n*n), make([]int, n)
	top := 0.0
	for i := range n {
		top += float64(m[i*n+best[i]])
	}
	lead := math.Inf(1)
	for i := range n {
		for k, v := range m[:n*n] {
			cost[k] = float64(v)
		}
		cost[i*n+best[i]] = -float64(n) // below any permutation of entries in [0, 1]
		v, err := s.Maximize(cost, n, perm)
		if err != nil {
			return 0, err
		}
		lead = min(lead, top-v)
	}
	return lead, nil
}

// The check of TestGPUTrainResumesOnCPU measures how far M differs, counts a state whose
// device rounds another way, and leaves out one whose rounding is a near-tie.
func TestCompareRounding(t *testing.T) {
	const n = 3
	decided := []float32{0.8, 0.1, 0.1, 0.1, 0.8, 0.1, 0.1, 0.1, 0.8}
	nearTie := []float32{0.5 + 1e-6, 0.5, 0, 0.5, 0.5, 0, 0, 0, 1} // the identity, by 2e-6
	swapped := func(m []float32) []float32 {                       // columns 0 and 1 exchanged
		out := slices.Clone(m)
		for i := range n {
			out[i*n], out[i*n+1] = m[i*n+1], m[i*n]
		}
		return out
	}
	mc := slices.Concat(decided, nearTie)
	d, compared, differ, err := compareRounding(mc, slices.Concat(decided, swapped(nearTie)), 2, n)
	if err != nil || d > 2e-6 || compared != 1 || differ != 0 {
		t.Fatalf("a near-tie broken the other way: d %g, compared %d, differ %d (%v); want d 1e-6, 1 compared, 0 differ", d, compared, differ, err)
	}
	d, compared, differ, err = compareRounding(mc, slices.Concat(swapped(decided), nearTie), 2, n)
	if err != nil || d < 0.7 || compared != 0 {
		t.Fatalf("a decided state rounded otherwise: d %g, compared %d, differ %d (%v); want d 0.7 and no state decided by a margin over 2n d", d, compared, differ, err)
	}
	if lead, err := roundingLead(decided, n, []int{0, 1, 2}); err != nil || math.Abs(lead-1.4) > 1e-6 {
		t.Fatalf("lead of the identity on decided = %g (%v), want 1.4", lead, err)
	}
}
