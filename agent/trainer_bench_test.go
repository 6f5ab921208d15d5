package agent

import (
	"fmt"
	"runtime"
	"testing"

	"spg-tui/agent/device"
	"spg-tui/agent/internal/devtest"
	"spg-tui/agent/learn"
	"spg-tui/envs"
	"spg-tui/run"
)

// nullLearner acts uniformly and learns nothing: it isolates the training loop's own cost.
type nullLearner struct{ n int }

func (l nullLearner) Act(_ []float32, b int, _ learn.Hyper, m []float32) error {
	for i := range m[:b*l.n*l.n] {
		m[i] = 1 / float32(l.n)
	}
	return nil
}
func (nullLearner) Update(*learn.Minibatch, learn.Hyper) (learn.StepStats, error) {
	return learn.StepStats{}, nil
}
func (nullLearner) Q(_, _, _ []float32, _ int, _, _ []float32) error { return nil }
func (nullLearner) MarshalBinary() ([]byte, error)                   { return nil, nil }
func (nullLearner) UnmarshalBinary([]byte) error                     { return nil }

// BenchmarkStepOverhead times one training step without the networks: generating and
// featurising 128 instances, rounding, exploration, rewards, storing, and sampling and
// rebuilding the minibatch.
func BenchmarkStepOverhead(b *testing.B) {
	for _, n := range []int{10, 20, 50} {
		for _, task := range []envs.Task{envs.TaskMWM, envs.TaskTSP} {
			b.Run(fmt.Sprintf("%s/n=%d", task, n), func(b *testing.B) {
				cfg := run.DefaultConfig(task, n)
				cfg.Buffer = 100 * cfg.Batch
				l, err := newLoop(*devtest.Spec(b, cfg), nullLearner{n})
				if err != nil {
					b.Fatal(err)
				}
				spec := devtest.Spec(b, cfg)
				b.ReportAllocs()
				for t := 0; b.Loop(); t++ {
					if _, err := l.step(t, spec); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}

// TestSerialShareIsPerStep checks that the serial share is the median of each step's own ratio,
// not the median serial time over the median step: with the load changing between steps the
// two medians come from different steps.
func TestSerialShareIsPerStep(t *testing.T) {
	// per step: 10% serial, 5% serial, all serial; the medians' ratio would say 1/20
	ms, par := []float64{10, 20, 100}, []float64{9, 19, 0}
	if got := serialShare(ms, par); got != 0.1 {
		t.Errorf("serial share %v, want 0.1", got)
	}
	// a step whose accounted loop time exceeds its wall time (clock granularity) counts as 0
	if got := serialShare([]float64{5}, []float64{5.5}); got != 0 {
		t.Errorf("serial share %v, want 0", got)
	}
}

// coreCounting wraps a learner and records GOMAXPROCS at each update: which core count each
// step ran at.
type coreCounting struct {
	learn.Learner
	cores *[]int
}

func (l coreCounting) Update(mb *learn.Minibatch, h learn.Hyper) (learn.StepStats, error) {
	*l.cores = append(*l.cores, runtime.GOMAXPROCS(0))
	return l.Learner.Update(mb, h)
}

// TestBenchVersusCoresAlternates checks that --versus-cores runs every other step at the
// other core count, warm-up steps included, times as many steps at each, reports both medians
// and their paired ratio, and gives GOMAXPROCS back.
func TestBenchVersusCoresAlternates(t *testing.T) {
	old := runtime.GOMAXPROCS(2)
	defer runtime.GOMAXPROCS(old)
	cfg := run.DefaultConfig(envs.TaskMWM, 5)
	cfg.Batch = 8
	var cores []int
	res, err := bench(cfg, BenchOptions{Steps: 3, VersusCores: 1}, nil, func(spec run.Spec, dev *device.Device) (learn.Learner, error) {
		l, err := learn.NewLearner(spec, dev)
		return coreCounting{l, &cores}, err
	})
	if err != nil {
		t.Fatal(err)
	}
	if want := []int{2, 1, 2, 1, 2, 1, 2, 1, 2}; fmt.Sprint(cores) != fmt.Sprint(want) {
		t.Errorf("steps ran at %v cores, want %v", cores, want)
	}
	if got := runtime.GOMAXPROCS(0); got != 2 {
		t.Errorf("GOMAXPROCS %d after the bench, want 2 back", got)
	}
	if res.Cores != 2 || res.Steps != 3 || res.VersusCores != 1 || !(res.VersusMedianMS > 0) || !(res.RatioToVersus > 0) || !(res.MedianMS > 0) {
		t.Errorf("result %+v", res)
	}
	res, err = bench(cfg, BenchOptions{Steps: 2}, nil, learn.NewLearner)
	if err != nil || res.VersusCores != 0 || res.VersusMedianMS != 0 || res.RatioToVersus != 0 {
		t.Errorf("without --versus-cores: %+v, %v", res, err)
	}
}
