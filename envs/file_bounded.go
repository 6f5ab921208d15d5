package envs

import (
	"encoding/json"
	"fmt"
	"slices"
)

// shapeError is an instance refused while it is read, before it is held whole: a field the task
// does not have, a field given twice, or an array longer than the instance can hold.
type shapeError struct{ msg string }

func (e *shapeError) Error() string { return e.msg }

// decodeInstance reads one instance of task at size n from dec token by token and returns it as
// Decode into an `any` with UseNumber would, for parseInstance to check. It refuses at once,
// without reading further, an instance that is not an object, a field that task lacks or that
// repeats, a field holding more than n entries and an entry holding more than two, so that
// memory stays bounded by n whatever the instance's size (a 100 MB point array used to be held
// whole, then expanded many times over, before its length was checked). An object or array
// where a field's array, a number or a coordinate belongs is read to its end and kept empty:
// parseInstance refuses it. Errors other than *shapeError are the decoder's.
func decodeInstance(dec *json.Decoder, task Task, n int) (any, error) {
	tok, err := dec.Token()
	if err != nil {
		return nil, err
	}
	if tok != json.Delim('{') {
		return nil, &shapeError{"want an object"}
	}
	fields := map[string]any{}
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return nil, err
		}
		key := tok.(string) // object keys are always strings
		if _, ok := fields[key]; ok {
			return nil, &shapeError{fmt.Sprintf("field %s appears twice", QuoteClip(key))}
		}
		i := slices.IndexFunc(registry[task].Fields, func(f Field) bool { return f.Name == key })
		if i < 0 {
			return nil, &shapeError{fmt.Sprintf("unexpected field %s for task %s", QuoteClip(key), task)}
		}
		if fields[key], err = decodeField(dec, key, n, registry[task].Fields[i].entryWidth(n)); err != nil {
			return nil, err
		}
	}
	_, err = dec.Token() // '}'
	return fields, err
}

// decodeField reads the value of the instance field name: an array of at most n entries, each a
// number or an array of at most width numbers (a point, an adjacency row), refusing the first
// entry past either bound. Any other value is returned as skipped does.
func decodeField(dec *json.Decoder, name string, n, width int) (any, error) {
	tok, err := dec.Token()
	if err != nil || tok != json.Delim('[') {
		return skipped(dec, tok, err)
	}
	var list []any
	for dec.More() {
		if len(list) == n {
			return nil, &shapeError{fmt.Sprintf("%s has more than n = %d entries", name, n)}
		}
		tok, err := dec.Token()
		if err != nil {
			return nil, err
		}
		if tok != json.Delim('[') {
			v, err := skipped(dec, tok, nil)
			if err != nil {
				return nil, err
			}
			list = append(list, v)
			continue
		}
		var xy []any
		for dec.More() {
			if len(xy) == width {
				return nil, &shapeError{fmt.Sprintf("%s[%d] has more than %d entries", name, len(list), width)}
			}
			tok, err := dec.Token()
			v, err := skipped(dec, tok, err)
			if err != nil {
				return nil, err
			}
			xy = append(xy, v)
		}
		if _, err := dec.Token(); err != nil { // ']'
			return nil, err
		}
		list = append(list, xy)
	}
	_, err = dec.Token() // ']'
	return list, err
}

// skipped returns the token tok just read (and its error) as a value: a scalar as it is, an
// array or object, read to its end and dropped, as an empty one.
func skipped(dec *json.Decoder, tok json.Token, err error) (any, error) {
	if err != nil {
		return nil, err
	}
	switch tok {
	case json.Delim('['):
		return []any{}, skipRest(dec)
	case json.Delim('{'):
		return map[string]any{}, skipRest(dec)
	}
	return tok, nil
}

// skipRest reads past the end of the array or object whose opening delimiter was just read,
// holding nothing.
func skipRest(dec *json.Decoder) error {
	for depth := 1; depth > 0; {
		tok, err := dec.Token()
		if err != nil {
			return err
		}
		switch tok {
		case json.Delim('['), json.Delim('{'):
			depth++
		case json.Delim(']'), json.Delim('}'):
			depth--
		}
	}
	return nil
}
