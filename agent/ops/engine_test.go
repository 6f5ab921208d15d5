package ops

import (
	"math"
	"math/rand/v2"
	"testing"

	G "gorgonia.org/gorgonia"
	"gorgonia.org/tensor"

	"spg-tui/linalg/parallel"
)

// engineSize is above the size from which Engine splits a pass over the cores.
const engineSize = 1 << 16

// oddValues are a tensor's values with every case a float sum or product treats apart.
func oddValues(rng *rand.Rand, n int) []float64 {
	v := make([]float64, n)
	odd := []float64{math.NaN(), math.Inf(1), math.Inf(-1), 0, math.Copysign(0, -1), math.SmallestNonzeroFloat64, math.MaxFloat32}
	for i := range v {
		if i%97 == 0 {
			v[i] = odd[i/97%len(odd)]
		} else {
			v[i] = rng.NormFloat64() * math.Exp2(float64(rng.IntN(40)-20))
		}
	}
	return v
}

// newFloats returns a tensor of shape s and dtype dt holding v on engine e (nil: the default).
func newFloats(dt tensor.Dtype, v []float64, e tensor.Engine, s ...int) *tensor.Dense {
	opts := []tensor.ConsOpt{tensor.WithShape(s...)}
	if dt == tensor.Float32 {
		f := make([]float32, len(v))
		for i, x := range v {
			f[i] = float32(x)
		}
		opts = append(opts, tensor.WithBacking(f))
	} else {
		opts = append(opts, tensor.WithBacking(append([]float64(nil), v...)))
	}
	if e != nil {
		opts = append(opts, tensor.WithEngine(e))
	}
	return tensor.New(opts...)
}

// sameBits reports whether a and b hold the same bits.
func sameBits(a, b tensor.Tensor) bool {
	if !a.Shape().Eq(b.Shape()) || a.Dtype() != b.Dtype() {
		return false
	}
	switch x := a.Data().(type) {
	case []float32:
		y := b.Data().([]float32)
		for i := range x {
			if math.Float32bits(x[i]) != math.Float32bits(y[i]) {
				return false
			}
		}
	case []float64:
		y := b.Data().([]float64)
		for i := range x {
			if math.Float64bits(x[i]) != math.Float64bits(y[i]) {
				return false
			}
		}
	}
	return true
}

// accounted runs fn with parallel's accounting on and returns the time of the chunks it ran.
func accounted(fn func()) float64 {
	parallel.Account(true)
	defer parallel.Account(false)
	fn()
	return float64(parallel.Accounted().Work)
}

// Engine's Add and Mul give gorgonia's bits with each way of passing the result (a new tensor,
// a reused one, the first operand overwritten), NaN, infinities and signed zeros included, and
// run large tensors through parallel.For.
func TestEngineBinaryAsGorgonia(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	x, y := oddValues(rng, engineSize), oddValues(rng, engineSize)
	type binop func(a, b any, opts ...tensor.FuncOpt) (tensor.Tensor, error)
	for _, dt := range []tensor.Dtype{tensor.Float32, tensor.Float64} {
		for name, op := range map[string]binop{"Add": tensor.Add, "Mul": tensor.Mul} {
			for _, mode := range []string{"new", "reuse", "unsafe"} {
				run := func(e tensor.Engine) (tensor.Tensor, float64) {
					a, b := newFloats(dt, x, e, 256, 256), newFloats(dt, y, e, 256, 256)
					var opts []tensor.FuncOpt
					switch mode {
					case "reuse":
						opts = append(opts, tensor.WithReuse(newFloats(dt, make([]float64, engineSize), e, 256, 256)))
					case "unsafe":
						opts = append(opts, tensor.UseUnsafe())
					}
					var r tensor.Tensor
					var err error
					work := accounted(func() { r, err = op(a, b, opts...) })
					if err != nil {
						t.Fatalf("%v %s %s: %v", dt, name, mode, err)
					}
					return r, work
				}
				want, _ := run(nil)
				got, work := run(Engine())
				if !sameBits(got, want) {
					t.Errorf("%v %s %s: Engine's result differs from gorgonia's", dt, name, mode)
				}
				if work == 0 {
					t.Errorf("%v %s %s: %d elements did not run through parallel.For", dt, name, mode, engineSize)
				}
			}
		}
	}
}

// What Engine does not split (a view, an increment) it leaves to gorgonia, with its results.
func TestEngineFallsBack(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	x, y := oddValues(rng, 64), oddValues(rng, 64)
	for _, e := range []tensor.Engine{nil, Engine()} {
		a, b := newFloats(tensor.Float32, x, e, 8, 8), newFloats(tensor.Float32, y, e, 8, 8)
		v, err := a.Slice(tensor.S(0, 4))
		if err != nil {
			t.Fatal(err)
		}
		w, err := b.Slice(tensor.S(4, 8))
		if err != nil {
			t.Fatal(err)
		}
		sum, err := tensor.Add(v, w)
		if err != nil {
			t.Fatal(err)
		}
		incr := newFloats(tensor.Float32, make([]float64, 64), e, 8, 8)
		if _, err := tensor.Add(a, b, tensor.WithIncr(incr)); err != nil {
			t.Fatal(err)
		}
		ref, _ := tensor.Add(newFloats(tensor.Float32, x[:32], nil, 4, 8), newFloats(tensor.Float32, y[32:], nil, 4, 8))
		refIncr, _ := tensor.Add(newFloats(tensor.Float32, x, nil, 8, 8), newFloats(tensor.Float32, y, nil, 8, 8))
		if !sameBits(sum, ref) || !sameBits(incr, refIncr) {
			t.Errorf("engine %T: a sum of views or an increment differs from gorgonia's", e)
		}
	}
}

// Engine's Concat gives gorgonia's tensor along every axis, with inputs of different widths,
// split over the outer indices.
func TestEngineConcatAsGorgonia(t *testing.T) {
	for _, dt := range []tensor.Dtype{tensor.Float32, tensor.Float64} {
		for axis := range 3 {
			shapes := [][]int{{64, 64, 64}, {64, 64, 64}, {64, 64, 64}}
			for i := range shapes {
				shapes[i][axis] = 1 + 3*i
			}
			run := func(e tensor.Engine) (tensor.Tensor, float64) {
				ts := make([]tensor.Tensor, len(shapes))
				for i, s := range shapes {
					ts[i] = newFloats(dt, oddValues(rand.New(rand.NewPCG(uint64(i), 7)), s[0]*s[1]*s[2]), e, s...)
				}
				var r tensor.Tensor
				var err error
				work := accounted(func() { r, err = tensor.Concat(axis, ts[0], ts[1:]...) })
				if err != nil {
					t.Fatalf("%v axis %d: %v", dt, axis, err)
				}
				return r, work
			}
			want, _ := run(nil)
			got, work := run(Engine())
			if !sameBits(got, want) {
				t.Errorf("%v axis %d: Engine's Concat differs from gorgonia's", dt, axis)
			}
			if axis > 0 && work == 0 { // along axis 0 each input is one block: nothing to split
				t.Errorf("%v axis %d: Concat did not run through parallel.For", dt, axis)
			}
		}
	}
}

// A machine with Engine sums a node's gradients (gorgonia's Add of the paths' gradients) over the
// cores, and its gradients are gorgonia's bits.
func TestEngineGradientSums(t *testing.T) {
	v := oddValues(rand.New(rand.NewPCG(8, 9)), engineSize)
	for i := range v { // finite: the test compares a loss too
		if math.IsNaN(v[i]) || math.IsInf(v[i], 0) || math.Abs(v[i]) > 1e6 {
			v[i] = 0.5
		}
	}
	run := func(opts ...G.VMOpt) (*tensor.Dense, float64) {
		g := G.NewGraph()
		x := G.NewMatrix(g, tensor.Float32, G.WithShape(256, 256), G.WithName("x"), G.WithValue(newFloats(tensor.Float32, v, nil, 256, 256)))
		loss := G.Must(G.Sum(G.Must(G.HadamardProd(x, x))))
		if _, err := G.Grad(loss, x); err != nil {
			t.Fatal(err)
		}
		m := G.NewTapeMachine(g, append(opts, G.BindDualValues(x))...)
		defer m.Close()
		var err error
		work := accounted(func() { err = m.RunAll() })
		if err != nil {
			t.Fatal(err)
		}
		dx, err := x.Grad()
		if err != nil {
			t.Fatal(err)
		}
		return dx.(*tensor.Dense).Clone().(*tensor.Dense), work
	}
	want, _ := run()
	got, work := run(G.WithEngine(Engine()))
	if !sameBits(got, want) {
		t.Error("the gradient with Engine differs from gorgonia's")
	}
	if work == 0 {
		t.Error("no gradient sum ran through parallel.For")
	}
}
