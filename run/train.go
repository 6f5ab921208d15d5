package run

import (
	"reflect"
	"strings"
)

// trainField is one float64 field of Train: its index and its JSON name.
type trainField struct {
	index int
	name  string
}

// trainFields are Train's float64 fields in declaration order. A new training metric is one
// such field: the trainer's interval accumulator sums it (Add, Div), and the console keeps it
// as a series under its JSON name (EachSeries), which a pane draws.
var trainFields = func() []trainField {
	var out []trainField
	t := reflect.TypeFor[Train]()
	for i := range t.NumField() {
		f := t.Field(i)
		if f.Type.Kind() == reflect.Float64 {
			name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
			out = append(out, trainField{index: i, name: name})
		}
	}
	return out
}()

// EachSeries calls fn with the name and value of each of t's numbers, in declaration order.
func (t *Train) EachSeries(fn func(name string, v float64)) {
	v := reflect.ValueOf(t).Elem()
	for _, f := range trainFields {
		fn(f.name, v.Field(f.index).Float())
	}
}

// Add adds each number of u to t's.
func (t *Train) Add(u *Train) {
	tv, uv := reflect.ValueOf(t).Elem(), reflect.ValueOf(u).Elem()
	for _, f := range trainFields {
		x := tv.Field(f.index)
		x.SetFloat(x.Float() + uv.Field(f.index).Float())
	}
}

// Div divides each number of t by k: sums over an interval of k steps become means.
func (t *Train) Div(k float64) {
	v := reflect.ValueOf(t).Elem()
	for _, f := range trainFields {
		x := v.Field(f.index)
		x.SetFloat(x.Float() / k)
	}
}
