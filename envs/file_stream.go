package envs

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
)

// readStream is ReadFile's parser. It decodes the top-level object token by token straight from
// r and each instance with decodeInstance, so that memory holds the parsed instances and at
// most n entries of the one being read, not the file (reading a 200 MB file used to peak at 4
// to 7 times its size), and an instance too large for n is refused at its first entry past n.
// Instances that come before "task" and "n" in the file are kept raw until both are known.
func readStream(r io.Reader) (*File, Env, error) {
	src := &errReader{r: r}
	dec := json.NewDecoder(src)
	dec.UseNumber()
	// fail words a decoder error: a read error of the input, or malformed JSON.
	fail := func(index int, format string, err error) error {
		if src.err != nil {
			return fileError("reading input: %v", src.err)
		}
		return &InputError{Index: index, Msg: fmt.Sprintf(format, syntaxMsg(err))}
	}
	if err := expectDelim(dec, '{'); err != nil {
		if errors.Is(err, io.EOF) && src.err == nil {
			return nil, nil, fileError(`empty input: want an instance file {"task":...,"n":...,"instances":[...]}`)
		}
		return nil, nil, fail(-1, "malformed JSON: %s", err)
	}
	var (
		f       = &File{}
		env     Env
		pending []json.RawMessage // instances read before task and n
		seen    = map[string]bool{}
	)
	// ready makes env once task and n are both known; it reports whether it could.
	ready := func() (bool, error) {
		if env != nil {
			return true, nil
		}
		if !seen["task"] || !seen["n"] {
			return false, nil
		}
		if _, ok := registry[f.Task]; !ok {
			return false, fileError("unknown task %s (want %s)", QuoteClip(string(f.Task)), TaskList())
		}
		e, err := New(f.Task, f.N)
		if err != nil {
			return false, fileError("%v", err)
		}
		env = e
		return true, nil
	}
	// add reads the next instance from d, bounded by the size n (see decodeInstance).
	add := func(d *json.Decoder) error {
		i := len(f.Instances)
		v, err := decodeInstance(d, f.Task, f.N)
		var shape *shapeError
		if err != nil && !errors.As(err, &shape) {
			return fail(i, "malformed JSON: %s", err)
		}
		var inst Instance
		if err == nil {
			inst, err = parseInstance(f.Task, v)
		}
		if err == nil {
			err = env.Validate(inst)
		}
		if err != nil {
			return instanceError(i, "%v", err)
		}
		f.Instances = append(f.Instances, inst)
		return nil
	}
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return nil, nil, fail(-1, "malformed JSON: %s", err)
		}
		key := tok.(string) // object keys are always strings
		if seen[key] {
			return nil, nil, fileError("field %s appears twice", QuoteClip(key))
		}
		seen[key] = true
		switch key {
		case "task":
			var s string
			if err := dec.Decode(&s); err != nil {
				if src.err != nil {
					return nil, nil, fail(-1, "", err)
				}
				return nil, nil, fileError(`field "task": want a string (%s)`, TaskList())
			}
			f.Task = Task(s)
		case "n":
			var v any
			if err := dec.Decode(&v); err != nil {
				return nil, nil, fail(-1, "malformed JSON: %s", err)
			}
			num, isNum := v.(json.Number)
			size, err := strconv.Atoi(string(num))
			if !isNum || err != nil || size < 1 {
				return nil, nil, fileError(`field "n": want a positive integer, got %s`, describeValue(v))
			}
			f.N = size
		case "instances":
			if err := expectDelim(dec, '['); err != nil {
				return nil, nil, fail(-1, `field "instances": want an array: %s`, err)
			}
			for dec.More() {
				ok, err := ready()
				if err != nil {
					return nil, nil, err
				}
				if ok {
					if err := add(dec); err != nil {
						return nil, nil, err
					}
					continue
				}
				var raw json.RawMessage
				if err := dec.Decode(&raw); err != nil {
					return nil, nil, fail(len(pending), "malformed JSON: %s", err)
				}
				pending = append(pending, raw)
			}
			if err := expectDelim(dec, ']'); err != nil {
				return nil, nil, fail(-1, "malformed JSON: %s", err)
			}
		default:
			return nil, nil, fileError("unknown field %s (want task, n, instances)", QuoteClip(key))
		}
	}
	if err := expectDelim(dec, '}'); err != nil {
		return nil, nil, fail(-1, "malformed JSON: %s", err)
	}
	if _, err := dec.Token(); err != io.EOF {
		if src.err != nil {
			return nil, nil, fail(-1, "", err)
		}
		return nil, nil, fileError("malformed JSON: unexpected data after the top-level object")
	}
	for _, k := range []string{"task", "n", "instances"} {
		if !seen[k] {
			return nil, nil, fileError("missing field %q", k)
		}
	}
	if _, err := ready(); err != nil {
		return nil, nil, err
	}
	for _, raw := range pending {
		d := json.NewDecoder(bytes.NewReader(raw))
		d.UseNumber()
		if err := add(d); err != nil {
			return nil, nil, err
		}
	}
	if len(f.Instances) == 0 {
		return nil, nil, fileError("the file has no instances")
	}
	return f, env, nil
}

// errReader remembers the first error of its reader other than io.EOF, so that a failing read
// is reported as such and not as malformed JSON.
type errReader struct {
	r   io.Reader
	err error
}

func (e *errReader) Read(p []byte) (int, error) {
	n, err := e.r.Read(p)
	if err != nil && !errors.Is(err, io.EOF) && e.err == nil {
		e.err = err
	}
	return n, err
}
