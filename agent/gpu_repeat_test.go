package agent

import (
	"bytes"
	"encoding/json"
	"errors"
	"path/filepath"
	"testing"

	"spg-tui/agent/device"
	"spg-tui/agent/internal/devtest"
	"spg-tui/agent/learn"
	"spg-tui/linalg/cuda"
	"spg-tui/run"
)

// The same seed and config train to the same records on a device, run after run, as on the
// CPU: two 20-step runs of each GPU learner on each device, compared record by record less
// what depends on the machine's speed.
func TestGPUTrainingRepeats(t *testing.T) {
	devtest.EachModel(t, func(t *testing.T, dev cuda.Device, gm devtest.Model) {
		tiny := tinyConfig(gm.Task, 5)
		cfg := devtest.Config(t, gm.Task, gm.Model, gm.Recipe)
		cfg.Steps, cfg.Batch, cfg.Buffer, cfg.EvalEvery, cfg.LogEvery = 20, tiny.Batch, tiny.Buffer, 10, 5
		onDev := func(c run.Spec, _ *device.Device) (learn.Learner, error) { return learn.NewDeviceLearner(c, dev) }
		var runs [2][]run.Record
		for i := range runs {
			dir := t.TempDir()
			e, err := startRun(cfg, dir, nil, onDev)
			if err != nil {
				t.Fatal(err)
			}
			waitDone(t, e)
			if err := e.Err(); err != nil {
				t.Fatalf("training on %s: %v", dev.Name(), err)
			}
			recs, err := run.ReadRecords(filepath.Join(dir, run.MetricsFile))
			if err != nil {
				t.Fatal(err)
			}
			// less what depends on the machine's speed: times, the clock's checkpoints,
			// and when the references solved beside training arrived
			runs[i] = withoutTime(settled(recs))
		}
		if len(runs[0]) < 6 {
			t.Fatalf("%d records, want the start, 4 training summaries and 2 evaluations at least", len(runs[0]))
		}
		if len(runs[0]) != len(runs[1]) {
			t.Fatalf("%d records, then %d", len(runs[0]), len(runs[1]))
		}
		for i := range runs[0] {
			a, errA := json.Marshal(runs[0][i])
			b, errB := json.Marshal(runs[1][i])
			if err := errors.Join(errA, errB); err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(a, b) {
				t.Fatalf("record %d differs:\n%s\n%s", i, a, b)
			}
		}
	})
}
