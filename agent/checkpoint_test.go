package agent

import (
	"bytes"
	"errors"
	"io"
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

func TestWriteAtomicKeepsTheOldFile(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "f")
	if err := writeAtomic(path, func(w io.Writer) error { _, err := io.WriteString(w, "old"); return err }); err != nil {
		t.Fatal(err)
	}
	boom := errors.New("boom")
	err := writeAtomic(path, func(w io.Writer) error {
		io.WriteString(w, strings.Repeat("new", 1<<20)) // more than the write buffer: a real partial file
		return boom
	})
	if !errors.Is(err, boom) {
		t.Fatalf("err = %v", err)
	}
	if got, _ := os.ReadFile(path); string(got) != "old" {
		t.Errorf("content %q after a failed write", got[:min(len(got), 10)])
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 1 {
		t.Errorf("temporary files left behind: %v", entries)
	}
}

func TestTruncateMetrics(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, MetricsFile)
	body := `{"kind":"event","step":0,"wall":0,"event":"start"}
{"kind":"train","step":5,"wall":1,"reward_mean":1}
{"kind":"event","step":5,"wall":1,"event":"checkpoint"}
{"kind":"train","step":10,"wall":2,"reward_mean":2}
{"kind":"train","step":15,"wa`
	if err := os.WriteFile(path, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := truncateMetrics(dir, 5); err != nil {
		t.Fatal(err)
	}
	recs, err := ReadRecords(path)
	if err != nil || len(recs) != 3 || recs[2].Event == nil || recs[2].Event.Event != EventCheckpoint {
		t.Errorf("after truncation: %+v, %v", recs, err)
	}
}
