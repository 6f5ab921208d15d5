package checkpoint

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"spg-tui/agent/internal/devtest"
	"spg-tui/agent/learn"
	"spg-tui/agent/replay"
	"spg-tui/envs"
	"spg-tui/run"
)

func TestCheckpointRoundTrip(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "ck")
	cfg := tinyConfig(envs.TaskMWM, 4)
	buf := replay.New(4, 64)
	devtest.Fill(buf, 4, 70)
	h := &Header{Config: cfg, Step: 12, Wall: 3.5, RNG: []byte{1, 2, 3}, Best: &BestEval{Step: 10, Metric: 0.8},
		LastEval: 10, Interval: Interval{Steps: 2, RewardN: 16, RewardMean: 0.5, Train: run.Train{CriticHard: 1.25}}}
	params := []byte("learner parameters")
	if err := Write(path, h, params, buf); err != nil {
		t.Fatal(err)
	}
	ck, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	back := replay.New(4, 64)
	if err := ck.ReadReplay(back); err != nil {
		t.Fatal(err)
	}
	ck.Close()
	if !reflect.DeepEqual(&ck.Header, h) || !bytes.Equal(ck.Learner, params) || !reflect.DeepEqual(back, buf) {
		t.Errorf("round trip differs: header %+v", ck.Header)
	}

	// Without a buffer (a best checkpoint) the file reads back, but cannot be resumed.
	if err := Write(path, h, params, nil); err != nil {
		t.Fatal(err)
	}
	ck, err = Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer ck.Close()
	if err := ck.ReadReplay(replay.New(4, 64)); err == nil || !strings.Contains(err.Error(), "no replay buffer") {
		t.Errorf("ReadReplay on a best checkpoint: %v", err)
	}
}

func TestCheckpointDamageIsRefused(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "ck")
	buf := replay.New(4, 64)
	devtest.Fill(buf, 4, 30)
	h := &Header{Config: tinyConfig(envs.TaskMWM, 4), Step: 3}
	if err := Write(path, h, []byte("params"), buf); err != nil {
		t.Fatal(err)
	}
	good, _ := os.ReadFile(path)
	load := func(data []byte) error {
		if err := os.WriteFile(path, data, 0o644); err != nil {
			t.Fatal(err)
		}
		ck, err := Open(path)
		if err != nil {
			return err
		}
		defer ck.Close()
		return ck.ReadReplay(replay.New(4, 64))
	}
	if err := load(good); err != nil {
		t.Fatal(err)
	}
	for _, at := range []int{2, 20, len(good) / 2, len(good) - 10} {
		bad := bytes.Clone(good)
		bad[at] ^= 0x40
		if err := load(bad); err == nil {
			t.Errorf("a flipped bit at byte %d went unnoticed", at)
		}
	}
	for _, n := range []int{0, 5, len(good) / 3, len(good) - 1} {
		if err := load(good[:n]); err == nil {
			t.Errorf("a file truncated to %d bytes was accepted", n)
		}
	}
}

// The interval sums of a checkpoint written before they were a run.Train load into it.
func TestIntervalOfThePreviousVersion(t *testing.T) {
	old := `{"steps":2,"reward_n":16,"reward_mean":0.5,"reward_m2":0.25,"critic_hard":1.25,"critic_penalty":0.5,` +
		`"critic_loss":1.75,"actor_loss":-0.5,"q_hard":0.25,"q_soft":0.375,"birkhoff":1.5,"seconds":0.5}`
	var s Interval
	if err := json.Unmarshal([]byte(old), &s); err != nil {
		t.Fatal(err)
	}
	want := Interval{Steps: 2, RewardN: 16, RewardMean: 0.5, RewardM2: 0.25, Seconds: 0.5, Train: run.Train{
		CriticHard: 1.25, CriticPenalty: 0.5, CriticLoss: 1.75, ActorLoss: -0.5, QHard: 0.25, QSoft: 0.375, Birkhoff: 1.5}}
	if s != want {
		t.Errorf("decoded %+v, want %+v", s, want)
	}
	tr := s.Record(learn.Hyper{Explore: true, Epsilon: 0.5, ActorLR: 1, CriticLR: 2})
	if tr.CriticHard != 0.625 || tr.Birkhoff != 0.75 || tr.RewardMean != 0.5 || tr.StepsPerSec != 4 {
		t.Errorf("record %+v", tr)
	}
}

// tinyConfig is a valid configuration of task at size n, small as the trainer's tests' are.
func tinyConfig(task envs.Task, n int) run.Config {
	cfg := run.DefaultConfig(task, n)
	cfg.Steps, cfg.Batch, cfg.Buffer = 40, 8, 64
	cfg.TrainSize, cfg.ValSize, cfg.TestSize = 50, 12, 10
	return cfg
}
