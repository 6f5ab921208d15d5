package agent

import (
	"errors"
	"flag"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"

	"spg-tui/agent/device"
	"spg-tui/agent/nets"
	"spg-tui/envs"
	"spg-tui/linalg/assign"
	"spg-tui/linalg/cuda"
	"spg-tui/linalg/cuda/emu"
	"spg-tui/run"
)

// testDevices are the devices the GPU learners are checked on: the emulator wherever a C++
// compiler is found, and a real GPU wherever one opens (tools/gpu-check.sh).
var (
	testDevicesOnce sync.Once
	testDevs        []cuda.Device
	testDevsWhy     []string
)

func testDevices(t *testing.T) []cuda.Device {
	t.Helper()
	testDevicesOnce.Do(func() {
		// On a GPU machine (tools/gpu-check.sh) the GPU alone is checked: the emulator ran here.
		dir, err := os.MkdirTemp("", "spg-agent-emu-")
		if os.Getenv(cuda.RequireGPUEnv) != "" {
			err = errors.New("not run where a GPU is required")
		}
		if err == nil {
			var d *emu.Device
			if d, err = emu.OpenIn(dir); err == nil {
				testDevs = append(testDevs, d)
			}
		}
		if err != nil {
			testDevsWhy = append(testDevsWhy, "emulator: "+err.Error())
		}
		opts, err := device.Options("")
		if err != nil {
			panic(err)
		}
		g, err := cuda.Open(opts)
		switch {
		case err == nil:
			testDevs = append(testDevs, g)
		case errors.Is(err, cuda.ErrNoDriver) && os.Getenv(cuda.RequireGPUEnv) == "":
			testDevsWhy = append(testDevsWhy, "gpu: "+err.Error())
		default:
			testDevsWhy = append(testDevsWhy, "GPU FAILED: "+err.Error())
		}
	})
	for _, w := range testDevsWhy {
		if strings.HasPrefix(w, "GPU FAILED") {
			t.Fatal(w)
		}
	}
	if len(testDevs) == 0 {
		t.Skipf("no device: %s", strings.Join(testDevsWhy, "; "))
	}
	return testDevs
}

// gpuModels are the models with GPU learners, each with the recipe it is checked under.
var gpuModels = []struct {
	task          envs.Task
	model, recipe string
}{{envs.TaskMWM, "spg-matching", run.RecipePaper}, {envs.TaskMWM, "spg-pairwise", run.RecipeBest}, {envs.TaskTSP, "spg-successor", run.RecipeBest},
	{envs.TaskSort, "spg-factored", run.RecipeBest}, {envs.TaskSort, "spg-pairwise", run.RecipeBest}}

// recipeConfig is train's configuration of model under recipe on task at size n, through the
// flag rules.
func recipeConfig(t *testing.T, task envs.Task, model, recipe string, n int) run.Config {
	t.Helper()
	cfg := run.DefaultConfig(task, n)
	fs := flag.NewFlagSet("", flag.ContinueOnError)
	finish := run.RegisterFlags(fs, &cfg)
	if err := fs.Parse([]string{"--task", string(task), "--n", strconv.Itoa(n), "--recipe", recipe, "--model", model}); err != nil {
		t.Fatal(err)
	}
	if err := finish(); err != nil {
		t.Fatal(err)
	}
	return cfg
}

// learnerPair returns cfg's CPU learner and its learner on dev, which start from the same
// parameters; the device's buffers are freed when the test ends.
func learnerPair(t *testing.T, cfg run.Config, dev cuda.Device) (*spgLearner, *gpuLearner) {
	t.Helper()
	cpu, err := newSPGLearner(cfg)
	if err != nil {
		t.Fatal(err)
	}
	l, err := newDeviceLearner(cfg, dev)
	if err != nil {
		t.Fatal(err)
	}
	gpu := l.(*gpuLearner)
	t.Cleanup(gpu.release)
	return cpu, gpu
}

// gpuTestConfig is a small configuration of model under recipe for the device tests.
func gpuTestConfig(t *testing.T, task envs.Task, model, recipe string) run.Config {
	cfg := recipeConfig(t, task, model, recipe, 5)
	cfg.Batch, cfg.Hidden, cfg.SinkhornIters, cfg.Tau = 6, 8, 4, 0.5
	cfg.TrainSize, cfg.ValSize, cfg.TestSize = 60, 12, 12
	return cfg
}

// randomBatch returns a batch of b random MWM states with random permutation and soft actions.
func randomBatch(rng *rand.Rand, task envs.Task, n, b int) *Minibatch {
	sl := nets.StateLen(task, n)
	bt := &Minibatch{B: b, States: make([]float32, b*sl), P: make([]float32, b*n*n), M: make([]float32, b*n*n), Reward: make([]float32, b)}
	for i := range bt.States {
		bt.States[i] = rng.Float32()
	}
	for i := range b {
		perm := rng.Perm(n)
		for r, c := range perm {
			bt.P[i*n*n+r*n+c] = 1
		}
		for r := range n {
			s := float32(0)
			row := bt.M[i*n*n+r*n:][:n]
			for c := range row {
				row[c] = rng.Float32() + 0.1
				s += row[c]
			}
			for c := range row {
				row[c] /= s
			}
		}
		bt.Reward[i] = rng.Float32()
	}
	return bt
}

// maxRelDiff is the largest |a-b| over the largest |b| (at least 1e-3) of two tensor lists.
func maxRelDiff(a, b [][]float32) float64 {
	worst := 0.0
	for i := range b {
		scale := 1e-3
		for _, v := range b[i] {
			scale = math.Max(scale, math.Abs(float64(v)))
		}
		for j := range b[i] {
			worst = math.Max(worst, math.Abs(float64(a[i][j]-b[i][j]))/scale)
		}
	}
	return worst
}

// paramTol bounds the parameters' difference after a few Adam steps: Adam divides each gradient
// by its own running magnitude, so an entry whose gradient is rounding noise on both sides moves
// by up to the learning rate (1e-3 here) in either direction. The gradients themselves are held
// to 1e-4 (TestGPULearnerGradients).
const paramTol = 5e-4

// TestGPULearnerEqualsCPU: each GPU learner on each device acts and updates as the CPU
// learner does, to float32 tolerance, over several steps with the penalty on and off and a
// critic-only update; its checkpoint is the CPU learner's format.
func TestGPULearnerEqualsCPU(t *testing.T) {
	for _, dev := range testDevices(t) {
		for _, gm := range gpuModels {
			t.Run(dev.Name()+"/"+gm.model, func(t *testing.T) {
				cfg := gpuTestConfig(t, gm.task, gm.model, gm.recipe)
				cpu, gpu := learnerPair(t, cfg, dev)
				rng := rand.New(rand.NewPCG(7, 8))
				n, nn := cfg.N, cfg.N*cfg.N
				h := hyperAt(&cfg, run.ModelOf(cfg).Kind, 0)
				h.ActorLR, h.CriticLR = 1e-3, 1e-3
				for step := range 4 {
					bt := randomBatch(rng, cfg.Task, n, cfg.Batch)
					mc, mg := make([]float32, cfg.Batch*nn), make([]float32, cfg.Batch*nn)
					if err := errors.Join(cpu.Act(bt.States, cfg.Batch, h, mc), gpu.Act(bt.States, cfg.Batch, h, mg)); err != nil {
						t.Fatal(err)
					}
					if d := maxRelDiff([][]float32{mg}, [][]float32{mc}); d > 1e-4 {
						t.Fatalf("step %d: M differs by %.2g", step, d)
					}
					hs := h
					hs.CriticPenalty = step%2 == 0
					hs.CriticOnly = step == 2
					sc, err1 := cpu.Update(bt, hs)
					sg, err2 := gpu.Update(bt, hs)
					if err := errors.Join(err1, err2); err != nil {
						t.Fatal(err)
					}
					for _, v := range [][3]any{{"critic loss", sc.CriticLoss, sg.CriticLoss}, {"hard", sc.CriticHard, sg.CriticHard},
						{"penalty", sc.CriticPenalty, sg.CriticPenalty}, {"actor loss", sc.ActorLoss, sg.ActorLoss},
						{"Q(s,P)", sc.QHard, sg.QHard}, {"Q(s,M)", sc.QSoft, sg.QSoft}} {
						want, got := v[1].(float64), v[2].(float64)
						if math.Abs(got-want) > 1e-4*math.Max(1, math.Abs(want)) {
							t.Errorf("step %d: %s %v, CPU %v", step, v[0], got, want)
						}
					}
					if err := gpu.syncHost(); err != nil {
						t.Fatal(err)
					}
					if d := maxRelDiff(gpu.host.actor.Float32s(), cpu.actor.Float32s()); d > paramTol {
						t.Errorf("step %d: actor parameters differ by %.2g", step, d)
					}
					if d := maxRelDiff(gpu.host.critic.Float32s(), cpu.critic.Float32s()); d > paramTol {
						t.Errorf("step %d: critic parameters differ by %.2g", step, d)
					}
					if d := maxRelDiff(gpu.host.running.Float32s(), cpu.running.Float32s()); d > 1e-4 {
						t.Errorf("step %d: running statistics differ by %.2g", step, d)
					}
					if cpu.target != nil {
						if d := maxRelDiff(gpu.host.target.Float32s(), cpu.target.Float32s()); d > paramTol {
							t.Errorf("step %d: target critics differ by %.2g", step, d)
						}
					}
					if t.Failed() {
						return
					}
				}
				// The checkpoint is the CPU learner's: a CPU learner restores it and acts the same.
				data, err := gpu.MarshalBinary()
				if err != nil {
					t.Fatal(err)
				}
				back, err := newSPGLearner(cfg)
				if err != nil {
					t.Fatal(err)
				}
				if err := back.UnmarshalBinary(data); err != nil {
					t.Fatal(err)
				}
				bt := randomBatch(rng, cfg.Task, n, cfg.Batch)
				mb, mg := make([]float32, cfg.Batch*nn), make([]float32, cfg.Batch*nn)
				if err := errors.Join(back.Act(bt.States, cfg.Batch, h, mb), gpu.Act(bt.States, cfg.Batch, h, mg)); err != nil {
					t.Fatal(err)
				}
				if d := maxRelDiff([][]float32{mg}, [][]float32{mb}); d > 1e-4 {
					t.Fatalf("restored on the CPU, M differs by %.2g", d)
				}
			})
		}
	}
}

// TestGPULearnerGradients compares the gradients themselves with the CPU graphs' (Adam's
// update hides a gradient's scale, so the parameters alone would not show it).
func TestGPULearnerGradients(t *testing.T) {
	for _, dev := range testDevices(t) {
		for _, gm := range gpuModels {
			t.Run(dev.Name()+"/"+gm.model, func(t *testing.T) {
				cfg := gpuTestConfig(t, gm.task, gm.model, gm.recipe)
				cpu, gpu := learnerPair(t, cfg, dev)
				bt := randomBatch(rand.New(rand.NewPCG(9, 10)), cfg.Task, cfg.N, cfg.Batch)
				h := hyperAt(&cfg, run.ModelOf(cfg).Kind, 0)
				// The CPU's gradients, read before anything is updated.
				c := cpu.crit
				copy(c.x.Float32s(), bt.States)
				copy(c.p.Float32s(), bt.P)
				copy(c.m.Float32s(), bt.M)
				copy(c.r.Float32s(), bt.Reward)
				*c.w = 1
				setSinkhorn(cpu.pol.loss.sk, h)
				if err := errors.Join(runGraph(c.vm), runGraph(cpu.pol.vm)); err != nil {
					t.Fatal(err)
				}
				clone := func(g [][]float32) [][]float32 {
					out := make([][]float32, len(g))
					for i := range g {
						out[i] = append([]float32(nil), g[i]...)
					}
					return out
				}
				cg, err1 := gradients(c.wrt)
				ag, err2 := gradients(cpu.pol.wrt)
				if err := errors.Join(err1, err2); err != nil {
					t.Fatal(err)
				}
				wantCritic, wantActor := clone(cg), clone(ag)
				// The device's, from the same batch.
				if _, err := gpu.net.CriticGrad(bt.States, bt.P, bt.M, bt.Reward, 1); err != nil {
					t.Fatal(err)
				}
				if _, _, err := gpu.net.ActorGrad(float32(h.Tau), h.SinkhornIters); err != nil {
					t.Fatal(err)
				}
				actorG, criticG := gpu.net.Grads()
				gotActor, gotCritic := clone(cpu.actor.Float32s()), clone(cpu.critic.Float32s())
				if err := errors.Join(actorG.Download(dev, gotActor), criticG.Download(dev, gotCritic)); err != nil {
					t.Fatal(err)
				}
				for i, s := range cpu.critic.Specs {
					if d := maxRelDiff(gotCritic[i:i+1], wantCritic[i:i+1]); d > 1e-4 {
						t.Errorf("critic gradient of %s differs by %.2g", s.Name, d)
					}
				}
				for i, s := range cpu.actor.Specs {
					if d := maxRelDiff(gotActor[i:i+1], wantActor[i:i+1]); d > 1e-4 {
						t.Errorf("actor gradient of %s differs by %.2g", s.Name, d)
					}
				}
			})
		}
	}
}

// TestGPUTrainResumesOnCPU trains SPG+Matching on each device, resumes the run on the CPU to a
// longer end, and checks that the checkpoint acts alike on both: the same permutations for
// the validation states. On the emulator the run is tiny; on a GPU the MWM models train MWM-20
// for 200 steps (the others stay tiny: their exact references at N = 20 would take minutes).
func TestGPUTrainResumesOnCPU(t *testing.T) {
	for _, dev := range testDevices(t) {
		for _, gm := range gpuModels {
			t.Run(dev.Name()+"/"+gm.model, func(t *testing.T) {
				tiny := tinyConfig(gm.task, 5)
				cfg := gpuTestConfig(t, gm.task, gm.model, gm.recipe)
				cfg.Steps, cfg.Batch, cfg.Buffer, cfg.EvalEvery, cfg.LogEvery = 12, tiny.Batch, tiny.Buffer, tiny.EvalEvery, tiny.LogEvery
				cfg.ActorLR, cfg.CriticLR = 1e-3, 1e-3
				if strings.HasPrefix(dev.Name(), "cuda") && gm.task == envs.TaskMWM {
					cfg = recipeConfig(t, gm.task, gm.model, gm.recipe, 20)
					cfg.Steps, cfg.EvalEvery, cfg.LogEvery = 200, 100, 50
					cfg.TrainSize, cfg.ValSize, cfg.TestSize = 25_600, 200, 200
				}
				dir := t.TempDir()
				var trained Learner
				onDev := func(c run.Config) (Learner, error) {
					l, err := newDeviceLearner(c, dev)
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
				if g, ok := trained.(*gpuLearner); !ok || !g.released {
					t.Errorf("the device learner %T was not released when its run ended", trained)
				}
				e2, err := resumeRun(dir, cfg.Steps+4, NewLearner)
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
				ck, err := openCheckpoint(filepath.Join(dir, run.LastCheckpoint))
				if err != nil {
					t.Fatal(err)
				}
				defer ck.Close()
				cpu, gl := learnerPair(t, ck.header.Config, dev)
				if err := errors.Join(cpu.UnmarshalBinary(ck.learner), gl.UnmarshalBinary(ck.learner)); err != nil {
					t.Fatal(err)
				}
				n, b := cfg.N, cfg.Batch
				bt := randomBatch(rand.New(rand.NewPCG(11, 12)), cfg.Task, n, b)
				h := hyperAt(&cfg, run.ModelOf(cfg).Kind, 0)
				mc, mg := make([]float32, b*n*n), make([]float32, b*n*n)
				if err := errors.Join(cpu.Act(bt.States, b, h, mc), gl.Act(bt.States, b, h, mg)); err != nil {
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
