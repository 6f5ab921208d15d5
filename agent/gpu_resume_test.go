package agent

import (
	"errors"
	"math/rand/v2"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"spg-tui/agent/checkpoint"
	"spg-tui/agent/internal/devtest"
	"spg-tui/agent/learn"
	"spg-tui/envs"
	"spg-tui/linalg/assign"
	"spg-tui/run"
)

// TestGPUTrainResumesOnCPU trains SPG+Matching on each device, resumes the run on the CPU to a
// longer end, and checks that the checkpoint acts alike on both: the same permutations for
// the validation states. On the emulator the run is tiny; on a GPU the MWM models train MWM-20
// for 200 steps (the others stay tiny: their exact references at N = 20 would take minutes).
func TestGPUTrainResumesOnCPU(t *testing.T) {
	for _, dev := range devtest.Devices(t) {
		for _, gm := range devtest.Models {
			t.Run(dev.Name()+"/"+gm.Model, func(t *testing.T) {
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
				onDev := func(c run.Config) (learn.Learner, error) {
					l, err := learn.NewDeviceLearner(c, dev)
					trained = l
					return l, err
				}
				e, err := startRun(cfg, dir, onDev)
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
				e2, err := resumeRun(dir, cfg.Steps+4, learn.NewLearner)
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
				cpu, err := learn.NewLearner(ck.Header.Config)
				if err != nil {
					t.Fatal(err)
				}
				gl, err := learn.NewDeviceLearner(ck.Header.Config, dev)
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
				h := learn.HyperAt(devtest.Spec(t, cfg), 0)
				mc, mg := make([]float32, b*n*n), make([]float32, b*n*n)
				if err := errors.Join(cpu.Act(states, b, h, mc), gl.Act(states, b, h, mg)); err != nil {
					t.Fatal(err)
				}
				pc, pg := make([]int, b*n), make([]int, b*n)
				if err := errors.Join(assign.RoundBatch(mc, b, n, pc), assign.RoundBatch(mg, b, n, pg)); err != nil {
					t.Fatal(err)
				}
				differ := 0
				for i := range b {
					if !slices.Equal(pc[i*n:(i+1)*n], pg[i*n:(i+1)*n]) {
						differ++
					}
				}
				if differ > 0 {
					t.Errorf("%d of %d states round to other permutations on the CPU", differ, b)
				}
			})
		}
	}
}
