package ops

import (
	"slices"
	"testing"

	G "gorgonia.org/gorgonia"
	"gorgonia.org/tensor"
)

// A buffer reshaped or transposed in place by a consumer comes back with its shape, over the
// same memory.
func TestOwnedRestoresShape(t *testing.T) {
	for _, dt := range []tensor.Dtype{tensor.Float32, tensor.Float64} {
		var o owned
		s := tensor.Shape{2, 3}
		a := o.get(s, dt)
		if err := a.Reshape(3, 2); err != nil {
			t.Fatal(err)
		}
		b := o.get(s, dt)
		if !b.Shape().Eq(s) || b.Uintptr() != a.Uintptr() {
			t.Errorf("%v: after Reshape: shape %v, same memory %v", dt, b.Shape(), b.Uintptr() == a.Uintptr())
		}
		if err := b.T(); err != nil {
			t.Fatal(err)
		}
		c := o.get(s, dt)
		if !c.Shape().Eq(s) || c.IsMaterializable() || c.Uintptr() != a.Uintptr() {
			t.Errorf("%v: after T: shape %v, materializable %v", dt, c.Shape(), c.IsMaterializable())
		}
		if d := o.get(s, dt); d != c {
			t.Errorf("%v: an untouched buffer was replaced", dt)
		}
	}
}

// stage passes contiguous tensors through and copies views and reshaped tensors.
func TestStage(t *testing.T) {
	var st stage
	x := tensor.New(tensor.WithShape(3, 4), tensor.WithBacking([]float64{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11}))
	if d, err := st.dense(x, tensor.Shape{3, 4}, tensor.Float64); err != nil || d != x {
		t.Errorf("contiguous tensor: got %v, %v; want it back", d, err)
	}
	v, err := x.Slice(tensor.S(1, 3), tensor.S(1, 3))
	if err != nil {
		t.Fatal(err)
	}
	d, err := st.dense(v, tensor.Shape{2, 2}, tensor.Float64)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := d.Float64s(), []float64{5, 6, 9, 10}; !slices.Equal(got, want) {
		t.Errorf("view: got %v, want %v", got, want)
	}
	y := tensor.New(tensor.WithShape(6), tensor.WithBacking([]float64{1, 2, 3, 4, 5, 6}))
	if d, err := st.dense(y, tensor.Shape{2, 3}, tensor.Float64); err != nil || !d.Shape().Eq(tensor.Shape{2, 3}) || !slices.Equal(d.Float64s(), y.Float64s()) {
		t.Errorf("(6) as (2,3): got %v, %v", d, err)
	}
	for name, bad := range map[string]struct {
		v  G.Value
		s  tensor.Shape
		dt tensor.Dtype
	}{
		"size":   {x, tensor.Shape{4, 4}, tensor.Float64},
		"dtype":  {x, tensor.Shape{3, 4}, tensor.Float32},
		"scalar": {G.NewF64(1), tensor.Shape{1}, tensor.Float64},
	} {
		if _, err := st.dense(bad.v, bad.s, bad.dt); err == nil {
			t.Errorf("%s: no error", name)
		}
	}
}
