package run

import "testing"

// TestProgressLineReferencesBeside: train's lines say that the references are solved while the
// run trains (the start used to list none, as "validation references: ") and when they are.
func TestProgressLineReferencesBeside(t *testing.T) {
	cfg := DefaultConfig("tsp", 20)
	for _, c := range []struct {
		rec  Record
		want string
	}{
		{Record{Kind: KindEvent, Event: &Event{Event: EventStart, Message: "SPG+Successor · TSP-20"}},
			"start: SPG+Successor · TSP-20; validation references: solved while the run trains"},
		{Record{Kind: KindEvent, Step: 300, Event: &Event{Event: EventReferences, References: map[string]float64{"optimal": 3.83, "nn": 4.5}}},
			"step 300: validation references solved: nn 4.5000, optimal 3.8300"},
	} {
		if got := ProgressLine(c.rec, cfg); got != c.want {
			t.Errorf("got %q\nwant %q", got, c.want)
		}
	}
}
