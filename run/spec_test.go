package run

import (
	"bytes"
	"encoding/json"
	"testing"

	"spg-tui/envs"
)

// Resolve hands out the catalogue's entry and the task's facts for every model and task it
// learns, refuses what Validate refuses with Validate's message, and a Spec writes the JSON its
// Config writes (config.json and the records must not change when a Spec is what travels).
func TestResolve(t *testing.T) {
	for _, m := range Models {
		for _, task := range m.Tasks() {
			c := DefaultConfig(task, 10)
			c.Model = m.Name
			if m.Defaults != nil {
				m.Defaults(&c)
			}
			s, err := Resolve(c)
			if err != nil {
				t.Fatalf("%s on %s: %v", m.Name, task, err)
			}
			if s.Entry.Name != m.Name || s.Entry.Kind != m.Kind || s.Facts != envs.MustFacts(task) || s.Config.Model != m.Name {
				t.Errorf("%s on %s: resolved to model %q (kind %v), facts %p", m.Name, task, s.Entry.Name, s.Entry.Kind, s.Facts)
			}
			want, err := json.Marshal(c)
			if err != nil {
				t.Fatal(err)
			}
			got, err := json.Marshal(s)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(got, want) {
				t.Errorf("%s on %s: a Spec writes %s, its Config %s", m.Name, task, got, want)
			}
		}
	}
	c := DefaultConfig(envs.TaskMWM, 10)
	c.Model = ModelSequential
	if _, err := Resolve(c); err == nil || err.Error() != c.Validate().Error() {
		t.Errorf("spg-sequential on mwm: Resolve says %v, Validate %v", err, c.Validate())
	}
}

// With takes another configuration of a Spec's task and model, checked as ResolveModel checks
// one, without resolving it again; another task or model, or a value ResolveModel refuses, it
// refuses.
func TestSpecWith(t *testing.T) {
	s, err := Resolve(DefaultConfig(envs.TaskTSP, 10))
	if err != nil {
		t.Fatal(err)
	}
	c := s.Config
	c.Tau, c.N = 0.5, MaxN+1
	before := Resolves()
	w, err := s.With(c)
	if err != nil || w.Config != c || w.Facts != s.Facts || w.Entry.Name != s.Entry.Name {
		t.Fatalf("With(tau 0.5, n %d) = %+v, %v", c.N, w, err)
	}
	if n := Resolves() - before; n != 0 {
		t.Errorf("With resolved %d times", n)
	}
	other, bad, big := c, c, c
	other.Model = ModelSuccessor
	bad.Batch = 0
	big.N = s.Facts.MaxN + 1
	for _, c := range []Config{other, bad, big} {
		_, err := s.With(c)
		_, want := ResolveModel(c)
		if err == nil || (c.Model == s.Model && err.Error() != want.Error()) {
			t.Errorf("With(model %s, batch %d, n %d) = %v, want a refusal (ResolveModel: %v)", c.Model, c.Batch, c.N, err, want)
		}
	}
}
