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
