package agent

import (
	"bytes"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"spg-tui/envs"
)

func TestCheckpointRoundTrip(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "ck")
	cfg := tinyConfig(envs.TaskMWM, 4)
	replay := NewReplay(4, 64)
	fillReplay(replay, 70)
	h := &checkpointHeader{Config: cfg, Step: 12, Wall: 3.5, RNG: []byte{1, 2, 3}, Best: &bestEval{Step: 10, Metric: 0.8},
		LastEval: 10, Interval: intervalStats{Steps: 2, RewardN: 16, RewardMean: 0.5, CriticHard: 1.25}}
	params := []byte("learner parameters")
	if err := writeCheckpoint(path, h, params, replay); err != nil {
		t.Fatal(err)
	}
	ck, err := openCheckpoint(path)
	if err != nil {
		t.Fatal(err)
	}
	back := NewReplay(4, 64)
	if err := ck.readReplay(back); err != nil {
		t.Fatal(err)
	}
	ck.Close()
	if !reflect.DeepEqual(&ck.header, h) || !bytes.Equal(ck.learner, params) || !reflect.DeepEqual(back, replay) {
		t.Errorf("round trip differs: header %+v", ck.header)
	}

	// Without a buffer (a best checkpoint) the file reads back, but cannot be resumed.
	if err := writeCheckpoint(path, h, params, nil); err != nil {
		t.Fatal(err)
	}
	ck, err = openCheckpoint(path)
	if err != nil {
		t.Fatal(err)
	}
	defer ck.Close()
	if err := ck.readReplay(NewReplay(4, 64)); err == nil || !strings.Contains(err.Error(), "no replay buffer") {
		t.Errorf("readReplay on a best checkpoint: %v", err)
	}
}

func TestCheckpointDamageIsRefused(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "ck")
	replay := NewReplay(4, 64)
	fillReplay(replay, 30)
	h := &checkpointHeader{Config: tinyConfig(envs.TaskMWM, 4), Step: 3}
	if err := writeCheckpoint(path, h, []byte("params"), replay); err != nil {
		t.Fatal(err)
	}
	good, _ := os.ReadFile(path)
	load := func(data []byte) error {
		if err := os.WriteFile(path, data, 0o644); err != nil {
			t.Fatal(err)
		}
		ck, err := openCheckpoint(path)
		if err != nil {
			return err
		}
		defer ck.Close()
		return ck.readReplay(NewReplay(4, 64))
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
