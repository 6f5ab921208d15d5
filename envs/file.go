package envs

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
)

// File is an instance file: one task, one size n, and the instances, written as
//
//	{"task":"mwm","n":3,"instances":[{"a":[[x,y],...],"b":[[x,y],...]}]}
//	{"task":"tsp","n":4,"instances":[{"points":[[x,y],...]}]}
//	{"task":"sort","n":3,"instances":[{"values":[2,0,1]}]}
//	{"task":"gm","n":2,"instances":[{"g1":[[0,1],[1,0]],"g2":[[0,1],[1,0]],"planted":[1,0]}]}
type File struct {
	Task      Task       `json:"task"`
	N         int        `json:"n"`
	Instances []Instance `json:"instances"`
}

// InputError is one problem found in an instance file. Index is the instance it concerns, or -1
// when it concerns the file as a whole.
type InputError struct {
	Index int
	Msg   string
}

func (e *InputError) Error() string {
	if e.Index < 0 {
		return e.Msg
	}
	return fmt.Sprintf("instance %d: %s", e.Index, e.Msg)
}

func fileError(format string, args ...any) error {
	return &InputError{Index: -1, Msg: fmt.Sprintf(format, args...)}
}

func instanceError(i int, format string, args ...any) error {
	return &InputError{Index: i, Msg: fmt.Sprintf(format, args...)}
}

// ReadFile reads a whole instance file, validates every instance, and returns it with the
// environment it describes. Nothing is returned unless the whole file is valid; the error is an
// *InputError naming the instance and the problem. The input is parsed as it is read (see
// readStream).
func ReadFile(r io.Reader) (*File, Env, error) {
	return readStream(r)
}

// syntaxMsg words a decoder error for a person: the decoder reports a truncated file as io.EOF.
func syntaxMsg(err error) string {
	if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
		return "unexpected end of input"
	}
	return err.Error()
}

func expectDelim(dec *json.Decoder, want json.Delim) error {
	tok, err := dec.Token()
	if err != nil {
		return err
	}
	if d, ok := tok.(json.Delim); !ok || d != want {
		return fmt.Errorf("want %q, got %v", string(want), tok)
	}
	return nil
}

// parseInstance converts one instance of task, as decodeInstance read it, checking that every
// number is a finite number. Sizes are checked by the environment.
func parseInstance(task Task, v any) (Instance, error) {
	fields, ok := v.(map[string]any)
	if !ok {
		return Instance{}, errors.New("want an object")
	}
	want := registry[task].Fields
	for k := range fields {
		if !slices.ContainsFunc(want, func(f Field) bool { return f.Name == k }) {
			return Instance{}, fmt.Errorf("unexpected field %s for task %s", QuoteClip(k), task)
		}
	}
	var inst Instance
	for _, f := range want {
		v, ok := fields[f.Name]
		if !ok && f.Optional {
			continue
		}
		if !ok {
			return Instance{}, fmt.Errorf("missing field %q", f.Name)
		}
		if err := f.Parse(&inst, v); err != nil {
			return Instance{}, err
		}
	}
	return inst, nil
}

// PointsField is an instance field holding an array of [x, y] points, read into *at(inst).
func PointsField(name string, at func(*Instance) *[]Point) Field {
	return Field{Name: name, Parse: func(inst *Instance, v any) (err error) {
		*at(inst), err = parsePoints(name, v)
		return err
	}}
}

// NumbersField is an instance field holding an array of numbers, read into *at(inst).
func NumbersField(name string, at func(*Instance) *[]float64) Field {
	return Field{Name: name, Parse: func(inst *Instance, v any) (err error) {
		*at(inst), err = ParseNumbers(name, v)
		return err
	}}
}

func parsePoints(name string, v any) ([]Point, error) {
	list, ok := v.([]any)
	if !ok {
		return nil, fmt.Errorf("%s: want an array of [x, y] points", name)
	}
	pts := make([]Point, len(list))
	for i, p := range list {
		xy, ok := p.([]any)
		if !ok || len(xy) != 2 {
			return nil, fmt.Errorf("%s[%d]: want a point [x, y]", name, i)
		}
		for j := range 2 {
			f, err := ParseNumber(fmt.Sprintf("%s[%d][%d]", name, i, j), xy[j])
			if err != nil {
				return nil, err
			}
			pts[i][j] = f
		}
	}
	return pts, nil
}

// ParseNumbers reads the decoded JSON value v of the instance field called name as an array of
// finite numbers, or says what is wrong with it: for a task's Field.Parse.
func ParseNumbers(name string, v any) ([]float64, error) {
	list, ok := v.([]any)
	if !ok {
		return nil, fmt.Errorf("%s: want an array of numbers", name)
	}
	out := make([]float64, len(list))
	for i, x := range list {
		f, err := ParseNumber(fmt.Sprintf("%s[%d]", name, i), x)
		if err != nil {
			return nil, err
		}
		out[i] = f
	}
	return out, nil
}

// ParseNumber reads the decoded JSON value v, at where in an instance, as a finite number, or says
// what is wrong with it: for a task's Field.Parse.
func ParseNumber(where string, v any) (float64, error) {
	num, ok := v.(json.Number)
	if !ok {
		return 0, fmt.Errorf("%s is not a number (%s)", where, describeValue(v))
	}
	f, err := strconv.ParseFloat(num.String(), 64)
	if err != nil || math.IsInf(f, 0) || math.IsNaN(f) {
		return 0, fmt.Errorf("%s = %s is not a finite float64", where, Clip(num.String()))
	}
	return f, nil
}

// describeValue names a decoded JSON value for an error message.
func describeValue(v any) string {
	switch x := v.(type) {
	case json.Number:
		return Clip(string(x))
	case nil:
		return "null"
	case string:
		return QuoteClip(x)
	case bool:
		return strconv.FormatBool(x)
	case []any:
		return "an array"
	default:
		return "an object"
	}
}

// WriteFile writes f as one line of JSON. Coordinates keep full float64 precision, so reading the
// file back gives the same instances.
func WriteFile(w io.Writer, f *File) error {
	enc := json.NewEncoder(w)
	return enc.Encode(f)
}
