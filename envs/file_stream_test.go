package envs

import (
	"bytes"
	"errors"
	"io"
	"strings"
	"testing"
)

// TestFileWriterMatchesWriteFile: the streaming writer that gen uses writes the same bytes as
// WriteFile (which holds the whole file).
func TestFileWriterMatchesWriteFile(t *testing.T) {
	for _, task := range Tasks {
		env, err := New(task, 7)
		if err != nil {
			t.Fatal(err)
		}
		f := &File{Task: task, N: 7}
		var streamed bytes.Buffer
		fw, err := NewFileWriter(&streamed, task, 7)
		if err != nil {
			t.Fatal(err)
		}
		for i := range 5 {
			inst := env.Generate(11, i)
			f.Instances = append(f.Instances, inst)
			if err := fw.Write(inst); err != nil {
				t.Fatal(err)
			}
		}
		if err := fw.Close(); err != nil {
			t.Fatal(err)
		}
		var whole bytes.Buffer
		if err := WriteFile(&whole, f); err != nil {
			t.Fatal(err)
		}
		if streamed.String() != whole.String() {
			t.Errorf("%s: streamed\n%s\nwhole\n%s", task, streamed.String(), whole.String())
		}
	}
}

// TestReadFileHostileInput: duplicate fields inside an instance (the decoder kept the last one
// silently), a 1 MB string where a task name goes and a 1 MB number (both echoed whole), an
// instance file whose instances come before task and n, and a failing reader.
func TestReadFileHostileInput(t *testing.T) {
	long := strings.Repeat("x", 1<<20)
	digits := "1" + strings.Repeat("0", 1<<20)
	for _, tc := range []struct {
		in    string
		index int
		want  string
	}{
		{`{"task":"tsp","n":1,"instances":[{"points":[[0,0]],"points":[[1,1]]}]}`, 0, `field "points" appears twice`},
		{`{"task":"mwm","n":1,"instances":[{"a":[[0,0]],"b":[[0,0]]},{"a":[[0,0]],"b":[[0,0]],"a":[[2,2]]}]}`, 1, `field "a" appears twice`},
		{`{"task":"` + long + `","n":1,"instances":[{}]}`, -1, `unknown task "xxxx`},
		{`{"task":"sort","n":1,"instances":[{"values":["` + long + `"]}]}`, 0, `is not a number ("xxx`},
		{`{"task":"sort","n":1,"instances":[{"values":[` + digits + `]}]}`, 0, `is not a finite float64`},
		{`{"task":"sort","n":1,"instances":[{"` + long + `":1}]}`, 0, `unexpected field "xxx`},
	} {
		_, _, err := ReadFile(strings.NewReader(tc.in))
		var ie *InputError
		if !errors.As(err, &ie) || ie.Index != tc.index || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%.80s: got %.300v, want index %d and %q", tc.in, err, tc.index, tc.want)
			continue
		}
		if len(err.Error()) > 250 {
			t.Errorf("%.80s: a message of %d bytes", tc.in, len(err.Error()))
		}
	}
	f, _, err := ReadFile(strings.NewReader(`{"instances":[{"values":[2,1]},{"values":[0,1]}],"n":2,"task":"sort"}`))
	if err != nil || len(f.Instances) != 2 || f.Instances[1].Values[1] != 1 {
		t.Errorf("instances before task and n: %v %+v", err, f)
	}
	_, _, err = ReadFile(io.MultiReader(strings.NewReader(`{"task":"sort","n":2,"instances":[`), failing{}))
	if err == nil || !strings.Contains(err.Error(), "reading input: disk on fire") {
		t.Errorf("a failing reader: %v", err)
	}
}

type failing struct{}

func (failing) Read([]byte) (int, error) { return 0, errors.New("disk on fire") }
