package run

import (
	"encoding/json"
	"testing"
)

// Every number of Train is a series: EachSeries names each by its JSON name, Add sums them and
// Div divides them.
func TestTrainSeries(t *testing.T) {
	a := Train{RewardMean: 1, CriticHard: 2, Birkhoff: 3, StepsPerSec: 4}
	b := a
	a.Add(&b)
	a.Div(2)
	if a != b {
		t.Errorf("(a + a) / 2 = %+v, want %+v", a, b)
	}
	var asJSON map[string]float64
	data, _ := json.Marshal(b)
	if err := json.Unmarshal(data, &asJSON); err != nil {
		t.Fatal(err)
	}
	seen := 0
	b.EachSeries(func(name string, v float64) {
		seen++
		if w, ok := asJSON[name]; !ok || w != v {
			t.Errorf("series %s = %g, JSON has %g (%v)", name, v, w, ok)
		}
	})
	if seen != len(asJSON) {
		t.Errorf("%d series for %d JSON fields", seen, len(asJSON))
	}
}
