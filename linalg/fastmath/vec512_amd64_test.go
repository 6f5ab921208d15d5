//go:build !noasm

package fastmath

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"golang.org/x/sys/cpu"
)

// specials are inputs at the kernels' branch points and beyond their ranges.
var specials = []float32{0, float32(math.Copysign(0, -1)), float32(math.NaN()), float32(math.Inf(1)), float32(math.Inf(-1)),
	0.625, -0.625, 0.62499994, 10, -10, 87, -87, 88, -88, 89, -100, 1e-30, -1e-30, 1e30, 5, -5}

// mixed returns n values, mostly normal with the given scale, some of them specials.
func mixed(rng *rand.Rand, n int, scale float64) []float32 {
	s := make([]float32, n)
	for i := range s {
		if rng.IntN(8) == 0 {
			s[i] = specials[rng.IntN(len(specials))]
		} else {
			s[i] = float32(scale * rng.NormFloat64())
		}
	}
	return s
}

// withAVX512 runs fn with the AVX-512 kernels on or off and restores the default.
func withAVX512(on bool, fn func()) {
	saved := haveAVX512
	haveAVX512 = on
	defer func() { haveAVX512 = saved }()
	fn()
}

// sameBits reports whether a and b hold the same bit patterns.
func sameBits(a, b []float32) bool {
	return slices.EqualFunc(a, b, func(x, y float32) bool { return math.Float32bits(x) == math.Float32bits(y) })
}

// TestAVX512MatchesAVX2 checks that the AVX-512 kernels give the AVX2 kernels' results bit for
// bit, on widths where the AVX-512 kernel takes all, part or none of the vector body, at
// scales that reach the exp clamps and with NaN, infinities and signed zeros among the inputs.
func TestAVX512MatchesAVX2(t *testing.T) {
	if !cpu.X86.HasAVX512F || !haveAVX2 {
		t.Skip("no AVX-512 on this CPU")
	}
	rng := rand.New(rand.NewPCG(5, 12))
	for _, h := range []int{8, 16, 24, 40, 128, 131} {
		for _, scale := range []float64{0.3, 2, 30} {
			in := gruRow{gi: mixed(rng, 3*h, scale), gh: mixed(rng, 3*h, scale), bi: mixed(rng, 3*h, scale),
				bh: mixed(rng, 3*h, scale), hp: mixed(rng, h, 1), dout: mixed(rng, h, 1), carry: mixed(rng, h, 1)}
			type out struct{ gi, hn, hNew, g, carry, leaky, leakyGrad []float32 }
			run := func() out {
				o := out{gi: slices.Clone(in.gi), hn: make([]float32, h), hNew: make([]float32, h), g: make([]float32, 4*h),
					carry: slices.Clone(in.carry), leaky: make([]float32, 3*h), leakyGrad: make([]float32, 3*h)}
				GRUGates(o.gi, in.gh, in.bi, in.bh, o.hn, in.hp, o.hNew)
				GRUGatesBackward(o.g, o.carry, in.dout, o.gi, o.hn, in.hp)
				LeakyReLU(o.leaky, in.gh, 0.01)
				LeakyReLUGrad(o.leakyGrad, in.bi, o.leaky, 0.01)
				return o
			}
			var want, got out
			withAVX512(false, func() { want = run() })
			withAVX512(true, func() { got = run() })
			for _, c := range []struct {
				name      string
				got, want []float32
			}{
				{"gates", got.gi, want.gi}, {"hn", got.hn, want.hn}, {"hNew", got.hNew, want.hNew}, {"grad", got.g, want.g},
				{"carry", got.carry, want.carry}, {"leaky", got.leaky, want.leaky}, {"leakyGrad", got.leakyGrad, want.leakyGrad},
			} {
				if !sameBits(c.got, c.want) {
					t.Errorf("h=%d scale=%g: %s differs between the AVX-512 and AVX2 kernels", h, scale, c.name)
				}
			}
		}
	}
}

// BenchmarkGates times the GRU gates forward and backward and the leaky ReLU gradient on one
// GRU step's rows (B = 128, H = 128) with the AVX2 and the AVX-512 kernels, in ns per element.
func BenchmarkGates(b *testing.B) {
	const bs, h = 128, 128
	rng := rand.New(rand.NewPCG(1, 1))
	rows := make([]gruRow, bs)
	for i := range rows {
		rows[i] = randRow(rng, h)
	}
	hn, hNew, g := make([]float32, h), make([]float32, h), make([]float32, 4*h)
	for _, k := range []struct {
		name string
		on   bool
	}{{"avx2", false}, {"avx512", true}} {
		if k.on && !haveAVX512 {
			continue
		}
		for _, f := range []struct {
			name string
			fn   func(r gruRow)
		}{
			{"forward", func(r gruRow) { GRUGates(r.gi, r.gh, r.bi, r.bh, hn, r.hp, hNew) }},
			{"backward", func(r gruRow) { GRUGatesBackward(g, r.carry, r.dout, r.gi, hn, r.hp) }},
			{"leakyGrad", func(r gruRow) { LeakyReLUGrad(r.gh, r.gh, r.gi, 0.01) }},
		} {
			b.Run(k.name+"/"+f.name, func(b *testing.B) {
				withAVX512(k.on, func() {
					for b.Loop() {
						for _, r := range rows {
							f.fn(r)
						}
					}
				})
				b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*bs*h), "ns/elem")
			})
		}
	}
}

// TestBiasLeakyRows checks BiasLeakyRows against the scalar expressions leaky(y + b) and y + b
// (slope 1), bit for bit, on row widths with and without whole vectors and a masked tail, with
// the AVX-512 kernel and with the AVX2 one.
func TestBiasLeakyRows(t *testing.T) {
	for _, on := range []bool{true, false} {
		if on && !haveAVX512 {
			continue
		}
		withAVX512(on, func() { testBiasLeakyRows(t) })
	}
}

func testBiasLeakyRows(t *testing.T) {
	rng := rand.New(rand.NewPCG(8, 1))
	for _, n := range []int{1, 3, 7, 8, 9, 16, 20, 32, 33, 128} {
		for _, rows := range []int{1, 5, 40} {
			for _, slope := range []float32{0.01, 1} {
				y, b := mixed(rng, rows*n, 2), mixed(rng, n, 2)
				want := make([]float32, len(y))
				for i, v := range y {
					s := v + b[i%n]
					if !(s > 0) {
						s *= slope
					}
					want[i] = s
				}
				guard := append(slices.Clone(y), 7)
				if !HasBiasLeakyRows() {
					t.Skip("no AVX2 or AVX-512 kernel")
				}
				BiasLeakyRows(guard[:len(y)], b, slope)
				if guard[len(y)] != 7 {
					t.Fatalf("n=%d rows=%d: wrote past y", n, rows)
				}
				for i := range want {
					g, w := guard[i], want[i]
					if math.Float32bits(g) != math.Float32bits(w) && !(g != g && w != w) {
						t.Fatalf("AVX-512 %v, n=%d rows=%d slope=%g: y[%d] = %v, want %v", haveAVX512, n, rows, slope, i, g, w)
					}
				}
			}
		}
	}
}
