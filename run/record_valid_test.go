package run

import (
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
