package run

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// FuzzMetricsLine feeds arbitrary bytes to the readers of metrics.jsonl: ParseRecordLine must
// accept only a record whose kind has its payload, and one it accepts must survive being
// written and read again and be told by ProgressLine; DecodeRecords, TruncateMetrics and
// MetricsRunIDs must return or refuse in one line, never panic.
func FuzzMetricsLine(f *testing.F) {
	for _, s := range []string{
		`{"kind":"train","step":5,"wall":1,"reward_mean":1}` + "\n",
		`{"kind":"eval","step":10,"wall":2,"split":"val","metric_name":"tour_length","metric":3.1,"gap":0}` + "\n",
		`{"kind":"event","step":0,"wall":0,"event":"start","run_id":"abc","references":{"greedy":0.9}}` + "\n",
		`{"kind":"event","step":0,"event":""}` + "\n",
		`{"kind":"train","step":-9223372036854775808}`,
		`{"kind":"eval","eval":null}` + "\n",
		"\x00\x00\n\n{",
		`{"kind":"event","step":1e400}` + "\n",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		if rec, ok := ParseRecordLine(data); ok {
			switch {
			case rec.Kind == KindTrain && rec.Train != nil, rec.Kind == KindEval && rec.Eval != nil,
				rec.Kind == KindEvent && rec.Event != nil && rec.Event.Event != "":
			default:
				t.Fatalf("accepted a record without its payload: %+v", rec)
			}
			again, err := json.Marshal(rec)
			if err != nil {
				t.Fatal(err)
			}
			if _, ok := ParseRecordLine(append(again, '\n')); !ok {
				t.Fatalf("a record written again is refused: %s", again)
			}
			ProgressLine(rec, Config{})
		}
		if _, err := DecodeRecords(bytes.NewReader(data)); err != nil && strings.Contains(err.Error(), "\n") {
			t.Fatalf("a refusal of more than one line: %q", err)
		}
		dir := t.TempDir()
		if err := os.WriteFile(filepath.Join(dir, MetricsFile), data, 0o644); err != nil {
			t.Fatal(err)
		}
		if _, err := MetricsRunIDs(dir); err != nil {
			t.Fatalf("MetricsRunIDs: %v", err)
		}
		if err := TruncateMetrics(dir, 5); err != nil {
			t.Fatalf("TruncateMetrics: %v", err)
		}
	})
}

// FuzzConfig reads arbitrary bytes as a run's config.json: a refusal is one line, and what is
// accepted can be validated and titled, as the commands and the view do, without a panic.
func FuzzConfig(f *testing.F) {
	for _, s := range []string{
		`{"task":"mwm","n":6,"seed":1,"steps":400,"batch":10,"train_size":1000}`,
		`{"task":"tsp","n":-1,"batch":0,"train_size":-5,"model":"spg-pairwise"}`,
		`{"task":"sort","n":9223372036854775807,"hidden":-1,"tau":1e400}`,
		`{"task":"gm","n":5,"data":"regular:d=1","steps":1,"eval_every":0,"log_every":0}`,
		`[]`, `null`, "\x00",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		dir := t.TempDir()
		if err := os.WriteFile(filepath.Join(dir, ConfigFile), data, 0o644); err != nil {
			t.Fatal(err)
		}
		cfg, err := ReadRunConfig(dir)
		if err != nil {
			if strings.Contains(err.Error(), "\n") {
				t.Fatalf("a refusal of more than one line: %q", err)
			}
			return
		}
		if err := cfg.Validate(); err != nil && strings.Contains(err.Error(), "\n") {
			t.Fatalf("a refusal of more than one line: %q", err)
		}
		Title(cfg)
		ModelTitle(cfg)
		cfg.StepsPerEpoch()
	})
}
