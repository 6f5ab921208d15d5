package run

import (
	"encoding/json"
	"strings"
	"testing"
)

func TestParseRecordLine(t *testing.T) {
	for line, want := range map[string]bool{
		`{"kind":"train","step":3,"reward_mean":0.5}` + "\n":       true,
		`{"kind":"event","step":0,"event":"start"}` + "\n":         true,
		`{"kind":"eval","step":5,"split":"val","metric":1}` + "\n": true,
		`{"kind":"train","step":3,"reward_mean":0.5}`:              false, // torn
		`{"kind":"train","reward_mean":0.5}` + "\n":                false, // no step
		`{"kind":"bogus","step":1}` + "\n":                         false,
		`{"kind":"event","step":1}` + "\n":                         false, // no event field
		`[1,2]` + "\n":                                             false,
		"\n":                                                       false,
	} {
		if _, ok := ParseRecordLine([]byte(line)); ok != want {
			t.Errorf("%q: ok = %v, want %v", line, ok, want)
		}
	}
}

// TestSampleMStaysOutOfMetrics checks that a sample's soft permutation is not written to
// metrics.jsonl while its entropy and Birkhoff number are, and that a record from before they
// existed still reads.
func TestSampleMStaysOutOfMetrics(t *testing.T) {
	rec := Record{Kind: KindEval, Eval: &Eval{Split: "val", Samples: []Sample{{M: []float32{0.25, 0.75}, Entropy: 0.5, Birkhoff: 0.75}}}}
	b, err := json.Marshal(rec)
	if err != nil {
		t.Fatal(err)
	}
	if s := string(b); strings.Contains(s, `"M"`) || !strings.Contains(s, `"m_entropy":0.5`) || !strings.Contains(s, `"m_birkhoff":0.75`) {
		t.Errorf("marshalled: %s", s)
	}
	old := `{"kind":"eval","step":50,"wall":1,"split":"val","metric":0.8,"samples":[{"index":0,"perm":[1,0],"objective":1}]}`
	recs, err := DecodeRecords(strings.NewReader(old + "\n"))
	if err != nil || len(recs) != 1 || len(recs[0].Samples) != 1 || recs[0].Samples[0].Birkhoff != 0 {
		t.Fatalf("old record: %+v, %v", recs, err)
	}
}
