package envs

import (
	"errors"
	"io"
	"strings"
	"testing"
)

// longArray is an instance file that starts with head and then repeats entry up to 4 MiB in all
// (where it ends, truncated), counting the bytes read from it.
type longArray struct {
	head, entry string
	read        int
}

func (r *longArray) Read(p []byte) (int, error) {
	const size = 4 << 20
	if r.read >= size {
		return 0, io.EOF
	}
	p = p[:min(len(p), size-r.read)]
	n := 0
	for n < len(p) {
		src := r.entry
		if r.read < len(r.head) {
			src = r.head[r.read:]
		} else {
			src = src[(r.read-len(r.head))%len(src):]
		}
		k := copy(p[n:], src)
		n += k
		r.read += k
	}
	return n, nil
}

// TestReadFileRefusesOversizedInstanceEarly: an instance whose field has more entries than n,
// or a point more than two numbers, is refused within the first kilobytes past the bound, not
// after the whole instance was held (a 100 MB point array used to take 20 s and 4 GB before its
// length was checked).
func TestReadFileRefusesOversizedInstanceEarly(t *testing.T) {
	for _, tc := range []struct {
		head, entry, want string
	}{
		{`{"task":"tsp","n":4,"instances":[{"points":[`, `[0,0],`, `instance 0: points has more than n = 4 entries`},
		{`{"task":"mwm","n":2,"instances":[{"a":[[0,0],[1,1]],"b":[`, `[0.5,0.25],`, `instance 0: b has more than n = 2 entries`},
		{`{"task":"sort","n":3,"instances":[{"values":[1,2,0]},{"values":[`, `0,`, `instance 1: values has more than n = 3 entries`},
		{`{"task":"tsp","n":4,"instances":[{"points":[[`, `0,`, `instance 0: points[0] has more than 2 entries`},
		{`{"task":"tsp","n":4,"instances":[[`, `0,`, `instance 0: want an object`},
		{`{"task":"tsp","n":4,"instances":[{"a":[`, `0,`, `instance 0: unexpected field "a" for task tsp`},
	} {
		r := &longArray{head: tc.head, entry: tc.entry}
		_, _, err := ReadFile(r)
		var ie *InputError
		if !errors.As(err, &ie) || err.Error() != tc.want {
			t.Errorf("%s...: error %v, want %q", tc.head, err, tc.want)
		}
		if r.read > 64<<10 {
			t.Errorf("%s...: read %d bytes before refusing, want at most 64 KiB", tc.head, r.read)
		}
	}
}

// TestReadFileBoundKeepsMessages: what the bounded reader keeps of a malformed instance words
// the same refusal as a whole one did.
func TestReadFileBoundKeepsMessages(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{`{"task":"tsp","n":2,"instances":[{"points":[[0,0],{"x":[1,2,3]}]}]}`, `instance 0: points[1]: want a point [x, y]`},
		{`{"task":"tsp","n":2,"instances":[{"points":[[0,0],[1,[2]]]}]}`, `instance 0: points[1][1] is not a number (an array)`},
		{`{"task":"tsp","n":2,"instances":[{"points":{"x":[1,2,3]}}]}`, `instance 0: points: want an array of [x, y] points`},
		{`{"task":"sort","n":2,"instances":[{"values":[1,{"a":1}]}]}`, `instance 0: values[1] is not a number (an object)`},
		{`{"task":"sort","n":2,"instances":[{"values":[1,[2,3]]}]}`, `instance 0: values[1] is not a number (an array)`},
		{`{"task":"tsp","n":2,"instances":[{"points":[[0,0],[1,1]]},5]}`, `instance 1: want an object`},
		{`{"instances":[{"points":[[0,0],[1,1],[2,2]]}],"task":"tsp","n":2}`, `instance 0: points has more than n = 2 entries`},
		{`{"task":"tsp","n":2,"instances":[{"points":[[0,0],[1,1]`, `instance 0: malformed JSON: unexpected end of input`},
	} {
		_, _, err := ReadFile(strings.NewReader(tc.in))
		if err == nil || err.Error() != tc.want {
			t.Errorf("%s: error %v, want %q", tc.in, err, tc.want)
		}
	}
	if _, _, err := ReadFile(strings.NewReader(`{"task":"tsp","n":2,"instances":[{"points":[[0,0],[1,1]]}]}`)); err != nil {
		t.Errorf("a valid file: %v", err)
	}
}
