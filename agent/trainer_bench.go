package agent

import (
	"fmt"
	"math"
	"runtime"
	"slices"
	"time"

	"spg-tui/agent/device"
	"spg-tui/agent/learn"
	"spg-tui/agent/nets"
	"spg-tui/agent/replay"
	"spg-tui/envs"
	"spg-tui/linalg/backend"
	"spg-tui/linalg/parallel"
	"spg-tui/run"
	"spg-tui/sysmem"
)

// benchWarmup steps run before timing starts: the first steps grow buffers and caches.
const benchWarmup = 3

// MaxBenchSteps bounds the timed steps of a bench: more would take days and hold a timing each.
const MaxBenchSteps = 1_000_000

// BenchResult is the timing of full training steps (act, round, explore, store, sample,
// update), as `spg-tui bench` prints it.
type BenchResult struct {
	MedianMS float64 `json:"median_ms_per_step"`
	MinMS    float64 `json:"min_ms"`
	MaxMS    float64 `json:"max_ms"`
	// RoundMS is the median time of a step's Hungarian rounding of M (on the CPU whatever the
	// device), and StepLessRoundMS the median of each step less its rounding: a device's own
	// share of the step.
	RoundMS         float64 `json:"round_ms"`
	StepLessRoundMS float64 `json:"step_less_round_ms"`
	Backend         string  `json:"backend"`
	// Device is where the learner computes: the GPU's name, or "cpu" with why where there is
	// a why ("cpu (no CUDA driver)"; learn.DeviceName).
	Device string `json:"device"`
	// SerialMS is the median time of a step spent outside the kernels' parallel loops
	// (parallel.For), ParallelMS the median wall time inside them, and ParallelEfficiency their
	// chunks' summed time over that wall time times Cores, over all timed steps: where many
	// cores are used poorly, these say whether by serial code or by loops that do not scale.
	SerialMS float64 `json:"serial_ms"`
	// SerialShare is the median over the timed steps of each step's serial time over its wall
	// time: a ratio within one step, so a machine whose load changes between steps still gives
	// it, where the times themselves scatter. At one core it bounds the speed-up more cores can
	// give (Amdahl).
	SerialShare        float64 `json:"serial_share"`
	ParallelMS         float64 `json:"parallel_ms"`
	ParallelEfficiency float64 `json:"parallel_efficiency"`
	// CPU is the processor's model name and Cores the goroutines that run at once
	// (GOMAXPROCS): machines differ, so every timing names its machine.
	CPU    string    `json:"cpu"`
	Cores  int       `json:"cores"`
	Model  string    `json:"model"`
	Recipe string    `json:"recipe"`
	Task   envs.Task `json:"task"`
	N      int       `json:"n"`
	Batch  int       `json:"batch"`
	Steps  int       `json:"steps"`
	// LaunchesPerStep is the median number of kernels and products a step starts on the GPU
	// (cuda.Device.Launches; absent on the CPU): each costs the host a launch, so it should not
	// grow with N.
	LaunchesPerStep int64 `json:"launches_per_step,omitempty"`
	// VersusCores, with `bench --versus-cores K`, is K: every other step ran at K cores
	// (GOMAXPROCS), alternating with Cores step by step, so that both see the machine as it is
	// over the same seconds; VersusMedianMS is those steps' median and RatioToVersus the median,
	// over consecutive pairs, of a step at Cores over the step at K before it (at Cores 2 and K
	// 1, the 2-core step over the 1-core step).
	VersusCores    int     `json:"versus_cores,omitempty"`
	VersusMedianMS float64 `json:"versus_median_ms,omitempty"`
	RatioToVersus  float64 `json:"ratio_to_versus,omitempty"`
	// GFLOPS is FLOPsPerStep over the median step time; FLOPsPerStep counts the GEMM
	// floating-point operations of one step and spg-gm-spectral's eigendecompositions (StepFLOPs).
	GFLOPS       float64 `json:"gflops"`
	FLOPsPerStep float64 `json:"flops_per_step"`
}

// BenchOptions are what a bench times besides the run's configuration.
type BenchOptions struct {
	// Steps is the number of timed steps (at each core count, with VersusCores).
	Steps int
	// VersusCores, where not 0, runs every other step at that many cores (GOMAXPROCS).
	VersusCores int
}

// bench times o.Steps training steps of cfg after benchWarmup untimed ones (and as many more at
// o.VersusCores cores, alternating), with the learner built by newLearner on dev.
func bench(cfg run.Config, o BenchOptions, dev *device.Device, newLearner learnerFactory) (BenchResult, error) {
	steps := o.Steps
	if steps < 1 || steps > MaxBenchSteps {
		return BenchResult{}, fmt.Errorf("steps %d: must be in [1, %d] (the timed steps; %d untimed warm-up steps run first)", steps, MaxBenchSteps, benchWarmup)
	}
	if o.VersusCores < 0 || o.VersusCores > runtime.NumCPU() {
		return BenchResult{}, fmt.Errorf("versus-cores %d: must be in [1, %d] (this machine's cores), or 0 for none", o.VersusCores, runtime.NumCPU())
	}
	cfg.Steps = steps + benchWarmup
	if o.VersusCores > 0 {
		cfg.Steps += steps
	}
	// The buffer never holds more than the run stores; reserving more would only cost memory.
	cfg.Buffer = min(cfg.Buffer, max(cfg.Batch, cfg.Steps*cfg.Batch))
	spec, err := run.Resolve(cfg)
	if err != nil {
		return BenchResult{}, err
	}
	// bench has no --buffer-mem to raise: a batch its replay buffer cannot hold is the batch's
	// fault.
	if each := replay.TransitionBytes(cfg.N); int64(cfg.Batch)*each > cfg.BufferMem {
		return BenchResult{}, fmt.Errorf("batch %d: a batch of n = %d transitions takes %s, more than bench's %s replay buffer holds: give --batch %d or less",
			cfg.Batch, cfg.N, sysmem.Bytes(int64(cfg.Batch)*each), sysmem.Bytes(cfg.BufferMem), cfg.BufferMem/each)
	}
	if err := CheckMemory(cfg); err != nil {
		return BenchResult{}, err
	}
	l, err := newLearner(spec, dev)
	if err != nil {
		return BenchResult{}, err
	}
	core, err := newLoop(spec, l)
	if err != nil {
		return BenchResult{}, err
	}
	ms, round, rest := make([]float64, steps), make([]float64, steps), make([]float64, steps)
	launches := make([]float64, steps)
	serial, par := make([]float64, steps), make([]float64, steps)
	var versus, ratios []float64
	var wall, work time.Duration
	cores := runtime.GOMAXPROCS(0)
	defer runtime.GOMAXPROCS(cores)
	defer parallel.Account(false)
	for t := range cfg.Steps {
		// With VersusCores the odd steps run at that many cores: the timed ones start with one
		// of those (benchWarmup is odd), each paired with the step at cores after it.
		atVersus := o.VersusCores > 0 && t%2 == 1
		if o.VersusCores > 0 {
			procs := cores
			if atVersus {
				procs = o.VersusCores
			}
			runtime.GOMAXPROCS(procs) // one stop-the-world a step, not two
		}
		timed := t >= benchWarmup
		parallel.Account(timed && !atVersus)
		began := time.Now()
		launched, _ := learn.Launches(l)
		if _, err := core.step(t, &spec); err != nil {
			return BenchResult{}, err
		}
		took := float64(time.Since(began).Nanoseconds()) / 1e6
		switch {
		case !timed:
		case atVersus:
			versus = append(versus, took)
		default:
			i := (t - benchWarmup) / (1 + min(o.VersusCores, 1))
			after, _ := learn.Launches(l)
			launches[i] = float64(after - launched)
			ms[i] = took
			round[i] = float64(core.roundTime.Nanoseconds()) / 1e6
			rest[i] = ms[i] - round[i]
			a := parallel.Accounted()
			par[i] = float64(a.Wall.Nanoseconds()) / 1e6
			serial[i] = ms[i] - par[i]
			wall, work = wall+a.Wall, work+a.Work
			if len(versus) > 0 {
				ratios = append(ratios, took/versus[len(versus)-1])
			}
		}
	}
	efficiency := 0.0
	if wall > 0 {
		efficiency = float64(work) / float64(wall) / float64(cores)
	}
	share := serialShare(ms, par) // before medianOf sorts ms and par apart
	median, flops := medianOf(ms), nets.StepFLOPs(spec)
	return BenchResult{
		MedianMS: median, MinMS: ms[0], MaxMS: ms[steps-1],
		RoundMS: medianOf(round), StepLessRoundMS: medianOf(rest),
		SerialMS: medianOf(serial), SerialShare: share, ParallelMS: medianOf(par), ParallelEfficiency: efficiency,
		Backend: learn.Backend(l), Device: learn.DeviceName(spec, l, dev),
		CPU: backend.CPUModel(), Cores: cores, Model: cfg.Model, Recipe: cfg.Recipe,
		Task: cfg.Task, N: cfg.N, Batch: cfg.Batch, Steps: steps,
		GFLOPS: flops / median / 1e6, FLOPsPerStep: flops, LaunchesPerStep: int64(math.Round(medianOf(launches))),
		VersusCores: o.VersusCores, VersusMedianMS: medianOrZero(versus), RatioToVersus: medianOrZero(ratios),
	}, nil
}

// serialShare is the median over steps of the part of step i's ms[i] milliseconds spent
// outside the parallel loops, which took par[i] of them.
func serialShare(ms, par []float64) float64 {
	share := make([]float64, len(ms))
	for i, t := range ms {
		if t > 0 {
			share[i] = max(0, t-par[i]) / t
		}
	}
	return medianOf(share)
}

// medianOrZero is medianOf, 0 for no values.
func medianOrZero(v []float64) float64 {
	if len(v) == 0 {
		return 0
	}
	return medianOf(v)
}

// medianOf sorts v and returns its median.
func medianOf(v []float64) float64 {
	slices.Sort(v)
	if len(v)%2 == 0 {
		return (v[len(v)/2-1] + v[len(v)/2]) / 2
	}
	return v[len(v)/2]
}
