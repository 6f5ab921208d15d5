package envs

import (
	"bytes"
	"encoding/json"
	"testing"
)

// ownData is a task's own instance data, as a task added without a field here would hold it.
type ownData struct {
	Weights []float64 `json:"weights"`
}

// A task's own data is written beside the shared fields, where its Fields read it back; an
// instance without Data is written as before, byte for byte.
func TestInstanceDataWrittenBesideSharedFields(t *testing.T) {
	for _, c := range []struct {
		inst Instance
		want string
	}{
		{Instance{Data: ownData{[]float64{0.5, 2}}}, `{"weights":[0.5,2]}`},
		{Instance{Values: []float64{1}, Data: ownData{[]float64{3}}}, `{"values":[1],"weights":[3]}`},
		{Instance{Values: []float64{1}, Data: struct{}{}}, `{"values":[1]}`},
		{Instance{}, `{}`},
	} {
		got, err := json.Marshal(c.inst)
		if err != nil || string(got) != c.want {
			t.Errorf("%+v: %s, %v; want %s", c.inst, got, err, c.want)
		}
	}
	if _, err := json.Marshal(Instance{Data: []int{1}}); err == nil {
		t.Error("data that is not a JSON object was written")
	}
	for _, task := range Tasks {
		env, err := New(task, 5)
		if err != nil {
			t.Fatal(err)
		}
		inst := env.Generate(3, 1)
		got, err := json.Marshal(inst)
		want, _ := json.Marshal(plainInstance(inst))
		if err != nil || !bytes.Equal(got, want) {
			t.Errorf("%s: %s, %v; want %s", task, got, err, want)
		}
	}
}
