package gm

import (
	"bytes"
	"reflect"
	"strings"
	"testing"

	"spg-tui/envs"
)

// A gm file round-trips: written instances read back equal, planted correspondence included.
func TestGMFileRoundTrip(t *testing.T) {
	env, _ := envs.New(envs.TaskGM, 7)
	f := &envs.File{Task: envs.TaskGM, N: 7}
	for i := range 3 {
		f.Instances = append(f.Instances, env.Generate(5, i))
	}
	var buf bytes.Buffer
	if err := envs.WriteFile(&buf, f); err != nil {
		t.Fatal(err)
	}
	got, _, err := envs.ReadFile(&buf)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got.Instances, f.Instances) {
		t.Error("gm instances changed on the way through a file")
	}
}

// Bad graphs are refused in one line naming the instance and what is wrong; the planted
// correspondence may be left out.
func TestGMFileErrors(t *testing.T) {
	ok := `[[0,1],[1,0]]`
	for _, c := range []struct{ g2, extra, want string }{
		{`[[0,1],[0,0]]`, ``, "instance 0: g2 is not symmetric"},
		{`[[0,2],[2,0]]`, ``, "instance 0: g2[0][1] = 2, want 0 or 1"},
		{`[[0,0.5],[0.5,0]]`, ``, "instance 0: g2[0][1] = 0.5, want 0 or 1"},
		{`[[1,0],[0,0]]`, ``, "instance 0: g2 has a self-loop at node 0"},
		{`[[0,1,0],[1,0,0],[0,0,0]]`, ``, "instance 0: g2[0] has more than 2 entries"},
		{`[[0]]`, ``, "instance 0: g2 has 1 rows, want 2"},
		{ok, `,"planted":[0,0]`, "instance 0: planted is not a permutation"},
		{ok, ``, ""},
	} {
		in := `{"task":"gm","n":2,"instances":[{"g1":` + ok + `,"g2":` + c.g2 + c.extra + `}]}`
		_, _, err := envs.ReadFile(strings.NewReader(in))
		switch {
		case c.want == "" && err != nil:
			t.Errorf("%s: %v", in, err)
		case c.want != "" && (err == nil || !strings.HasPrefix(err.Error(), c.want) || strings.Contains(err.Error(), "\n")):
			t.Errorf("%s: got %v, want %q", in, err, c.want)
		}
	}
}
