package envs

import (
	"bytes"
	"errors"
	"reflect"
	"strings"
	"testing"
)

func TestReadFileRoundTrip(t *testing.T) {
	for _, task := range Tasks {
		for _, n := range []int{1, 2, 9} {
			env, err := New(task, n)
			if err != nil {
				t.Fatal(err)
			}
			f := &File{Task: task, N: n}
			for i := range 4 {
				f.Instances = append(f.Instances, env.Generate(3, i))
			}
			var buf bytes.Buffer
			if err := WriteFile(&buf, f); err != nil {
				t.Fatal(err)
			}
			got, gotEnv, err := ReadFile(&buf)
			if err != nil {
				t.Fatalf("%s-%d: %v", task, n, err)
			}
			if !reflect.DeepEqual(got, f) {
				t.Fatalf("%s-%d: round trip changed the file:\n got %+v\nwant %+v", task, n, got, f)
			}
			if gotEnv.Task() != task || gotEnv.N() != n {
				t.Fatalf("%s-%d: env is %s-%d", task, n, gotEnv.Task(), gotEnv.N())
			}
		}
	}
}

func TestReadFileErrors(t *testing.T) {
	for _, tc := range []struct {
		in    string
		index int
		want  string
	}{
		{"", -1, "empty input"},
		{"  \n", -1, "empty input"},
		{`{`, -1, "unexpected end of input"},
		{`[1,2]`, -1, "malformed JSON"},
		{`{"task":"mwm","n":2}`, -1, `missing field "instances"`},
		{`{"n":2,"instances":[{}]}`, -1, `missing field "task"`},
		{`{"task":"mwm","instances":[{}]}`, -1, `missing field "n"`},
		{`{"task":"mwm","n":0,"instances":[{}]}`, -1, `field "n"`},
		{`{"task":"mwm","n":2.5,"instances":[{}]}`, -1, `field "n"`},
		{`{"task":"mwm","n":"2","instances":[{}]}`, -1, `field "n"`},
		{`{"task":7,"n":2,"instances":[{}]}`, -1, `field "task"`},
		{`{"task":"lp","n":2,"instances":[{}]}`, -1, `unknown task "lp"`},
		{`{"task":"tsp","n":2,"instances":[]}`, -1, "no instances"},
		{`{"task":"tsp","n":2,"instances":{}}`, -1, `field "instances"`},
		{`{"task":"tsp","n":2,"n":3,"instances":[]}`, -1, "appears twice"},
		{`{"task":"tsp","n":2,"extra":1,"instances":[]}`, -1, `unknown field "extra"`},
		{`{"task":"tsp","n":1,"instances":[{"points":[[0,0]]}]} {}`, -1, "after the top-level object"},
		{`{"task":"tsp","n":1,"instances":[{"points":[[0,0]]},{"points":[[0,0]],}]}`, 1, "malformed JSON"},
		{`{"task":"tsp","n":1,"instances":[{"points":[[0,0]]},[1]]}`, 1, "want an object"},
		{`{"task":"tsp","n":1,"instances":[{"points":[[0,0]],"values":[1]}]}`, 0, `unexpected field "values"`},
		{`{"task":"tsp","n":2,"instances":[{"points":[[0,0]]}]}`, 0, "points"},
		{`{"task":"tsp","n":2,"instances":[{"points":[[0,0],[1]]}]}`, 0, "points[1]: want a point"},
		{`{"task":"tsp","n":2,"instances":[{"points":[[0,0],[1,null]]}]}`, 0, "points[1][1] is not a number (null)"},
		{`{"task":"tsp","n":2,"instances":[{"points":[[0,0],[1,-1e309]]}]}`, 0, "points[1][1] = -1e309 is not a finite"},
		{`{"task":"tsp","n":2,"instances":[{"points":[[0,0],[1,Infinity]]}]}`, 0, "malformed JSON"},
		{`{"task":"mwm","n":1,"instances":[{"a":[[0,0]],"b":[[0,0]]},{"a":[[0,0]],"b":[[0,0],[1,1]]}]}`, 1, "b"},
		{`{"task":"sort","n":2,"instances":[{"values":[1,"2"]}]}`, 0, `values[1] is not a number ("2")`},
		{`{"task":"sort","n":2,"instances":[{"values":{"x":1}}]}`, 0, "values: want an array"},
	} {
		_, _, err := ReadFile(strings.NewReader(tc.in))
		var ie *InputError
		if !errors.As(err, &ie) {
			t.Errorf("%s: want an *InputError, got %v", tc.in, err)
			continue
		}
		if ie.Index != tc.index || !strings.Contains(err.Error(), tc.want) || strings.Contains(err.Error(), "\n") {
			t.Errorf("%s:\n got index %d, %q\nwant index %d, one line containing %q", tc.in, ie.Index, err, tc.index, tc.want)
		}
	}
}

// FuzzReadFile checks that no input makes the parser panic, and that whatever it accepts is
// valid and survives a write/read round trip unchanged. Its seed corpus runs with go test.
func FuzzReadFile(f *testing.F) {
	for _, s := range []string{
		`{"task":"mwm","n":2,"instances":[{"a":[[0,0],[1,1]],"b":[[0.5,0.25],[1e-3,0]]}]}`,
		`{"task":"tsp","n":3,"instances":[{"points":[[0,0],[1,1],[0,1]]},{"points":[[0,0],[0,0],[0,0]]}]}`,
		`{"task":"sort","n":3,"instances":[{"values":[2,0,1]}]}`,
		`{"instances":[{"values":[-1.5e10]}],"n":1,"task":"sort"}`,
		`{"task":"sort","n":3,"instances":[{"values":[2,0,NaN]}]}`,
		`{"task":"tsp","n":1,"instances":[{"points":[[1e999,0]]}]}`,
		`{"task":"mwm","n":1,"instances":[{"a":[[0,0]]}]}`,
		``, `{`, `null`, `{"task":"tsp","n":-1,"instances":[]}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		file, env, err := ReadFile(bytes.NewReader(data))
		if err != nil {
			var ie *InputError
			if !errors.As(err, &ie) || strings.Contains(err.Error(), "\n") {
				t.Fatalf("error is not a one-line *InputError: %q", err)
			}
			return
		}
		if len(file.Instances) == 0 || env.N() != file.N || env.Task() != file.Task {
			t.Fatalf("accepted an inconsistent file: %+v", file)
		}
		for i, inst := range file.Instances {
			if err := env.Validate(inst); err != nil {
				t.Fatalf("accepted invalid instance %d: %v", i, err)
			}
		}
		var buf bytes.Buffer
		if err := WriteFile(&buf, file); err != nil {
			t.Fatal(err)
		}
		again, _, err := ReadFile(&buf)
		if err != nil || !reflect.DeepEqual(again, file) {
			t.Fatalf("round trip failed: %v", err)
		}
	})
}
