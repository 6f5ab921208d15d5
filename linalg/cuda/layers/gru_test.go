package layers_test

import (
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"spg-tui/linalg/cuda"
	"spg-tui/linalg/cuda/emu/emutest"
	"spg-tui/linalg/cuda/layers"
	"spg-tui/linalg/gru"
)

// gruCPU is one CPU run of a GRU, forward and backward, with its inputs.
type gruCPU struct {
	x, h0, wih, whh, bih, bhh, dout []float32
	out, saved                      []float32
	dx, dh0, dwih, dwhh, dbih, dbhh []float32
}

// runGRUCPU draws inputs and runs gru.Forward and gru.Backward on them.
func runGRUCPU(rng *rand.Rand, d gru.Dims, withH0, reverse bool) gruCPU {
	b, t, in, h := d.B, d.T, d.I, d.H
	c := gruCPU{
		x: emutest.Normals(rng, b*t*in, 1), wih: emutest.Normals(rng, 3*h*in, 0.5),
		whh: emutest.Normals(rng, 3*h*h, 0.5), bih: emutest.Normals(rng, 3*h, 0.5),
		bhh: emutest.Normals(rng, 3*h, 0.5), dout: emutest.Normals(rng, b*t*h, 1),
		out: make([]float32, b*t*h), saved: make([]float32, gru.SavedLen(d)),
		dx: make([]float32, b*t*in), dh0: make([]float32, b*h), dwih: make([]float32, 3*h*in),
		dwhh: make([]float32, 3*h*h), dbih: make([]float32, 3*h), dbhh: make([]float32, 3*h),
	}
	if withH0 {
		c.h0 = emutest.Normals(rng, b*h, 1)
	}
	work := make([]float32, gru.WorkLen(d))
	gru.Forward(d, c.out, c.x, c.h0, c.wih, c.whh, c.bih, c.bhh, c.saved, work, reverse)
	gru.Backward(d, c.dx, c.dh0, c.dwih, c.dwhh, c.dbih, c.dbhh, c.dout, c.x, c.wih, c.whh, c.saved, work, reverse)
	return c
}

func TestGRUForwardBackward(t *testing.T) {
	dev := emutest.Device(t)
	rng := rand.New(rand.NewPCG(9, 10))
	for _, d := range []gru.Dims{{B: 1, T: 1, I: 1, H: 1}, {B: 3, T: 4, I: 5, H: 7}, {B: 2, T: 3, I: 8, H: 130}, {B: 5, T: 6, I: 3, H: 33}} {
		for _, withH0 := range []bool{false, true} {
			for _, reverse := range []bool{false, true} {
				c := runGRUCPU(rng, d, withH0, reverse)
				up := func(v []float32) cuda.Buf { return emutest.Upload(t, v) }
				out, saved, work := emutest.Zeros(t, len(c.out)), emutest.Zeros(t, len(c.saved)), emutest.Zeros(t, layers.GRUWorkLen(d))
				x, wih, whh := up(c.x), up(c.wih), up(c.whh)
				if err := layers.GRUForward(dev, d, out, x, up(c.h0), wih, whh, up(c.bih), up(c.bhh), saved, work, reverse); err != nil {
					t.Fatal(err)
				}
				emutest.Near(t, "out", emutest.Download(t, out), c.out, 2e-6)
				emutest.Near(t, "saved", emutest.Download(t, saved), c.saved, 2e-6)

				dx, dh0 := emutest.Zeros(t, len(c.dx)), emutest.Zeros(t, len(c.dh0))
				dwih, dwhh := emutest.Zeros(t, len(c.dwih)), emutest.Zeros(t, len(c.dwhh))
				dbih, dbhh := emutest.Zeros(t, len(c.dbih)), emutest.Zeros(t, len(c.dbhh))
				if err := layers.GRUBackward(dev, d, dx, dh0, dwih, dwhh, dbih, dbhh, up(c.dout), x, wih, whh, saved, work, reverse); err != nil {
					t.Fatal(err)
				}
				for _, g := range []struct {
					name      string
					got, want []float32
				}{
					{"dx", emutest.Download(t, dx), c.dx}, {"dh0", emutest.Download(t, dh0), c.dh0},
					{"dwih", emutest.Download(t, dwih), c.dwih}, {"dwhh", emutest.Download(t, dwhh), c.dwhh},
					{"dbih", emutest.Download(t, dbih), c.dbih}, {"dbhh", emutest.Download(t, dbhh), c.dbhh},
				} {
					emutest.Near(t, g.name, g.got, g.want, 1e-5)
				}

				// With only dx wanted, dx is the same and the rest is left alone.
				dx2 := emutest.Zeros(t, len(c.dx))
				none := cuda.Buf{}
				if err := layers.GRUBackward(dev, d, dx2, none, none, none, none, none, up(c.dout), x, wih, whh, saved, work, reverse); err != nil {
					t.Fatal(err)
				}
				emutest.SameBits(t, "dx alone", emutest.Download(t, dx2), emutest.Download(t, dx))
			}
		}
	}
}

func TestGRUErrors(t *testing.T) {
	dev := emutest.Device(t)
	d := gru.Dims{B: 2, T: 3, I: 4, H: 5}
	buf := emutest.Zeros(t, 1000)
	short := emutest.Zeros(t, 10)
	for _, c := range []struct {
		err  error
		want string
	}{
		{layers.GRUForward(dev, gru.Dims{B: 1, T: 0, I: 1, H: 1}, buf, buf, buf, buf, buf, buf, buf, buf, buf, false), "dimensions must be positive"},
		{layers.GRUForward(dev, d, buf, short, buf, buf, buf, buf, buf, buf, buf, false), "x has 10 elements, want 24"},
		{layers.GRUForward(dev, d, buf, buf, buf, buf, short, buf, buf, buf, buf, false), "whh has 10 elements, want 75"},
		{layers.GRUBackward(dev, d, buf, buf, buf, buf, buf, buf, buf, buf, buf, buf, buf, short, false), "work has 10 elements, want 130"},
	} {
		if c.err == nil || !strings.Contains(c.err.Error(), c.want) {
			t.Errorf("err = %v, want %q", c.err, c.want)
		}
	}
}

// TestGRUZeroStateIgnoresWhh: from a zero initial state the first step's hidden projections
// are zeros, as on the CPU, even where whh holds an infinity (0 * Inf would be NaN).
func TestGRUZeroStateIgnoresWhh(t *testing.T) {
	dev := emutest.Device(t)
	d := gru.Dims{B: 2, T: 1, I: 3, H: 4}
	rng := rand.New(rand.NewPCG(43, 44))
	x, wih, whh := emutest.Normals(rng, 2*3, 1), emutest.Normals(rng, 12*3, 1), emutest.Normals(rng, 12*4, 1)
	bih, bhh := emutest.Normals(rng, 12, 1), emutest.Normals(rng, 12, 1)
	whh[5] = float32(math.Inf(1))
	want, saved := make([]float32, 2*4), make([]float32, gru.SavedLen(d))
	gru.Forward(d, want, x, nil, wih, whh, bih, bhh, saved, make([]float32, gru.WorkLen(d)), false)
	out := emutest.Zeros(t, len(want))
	if err := layers.GRUForward(dev, d, out, emutest.Upload(t, x), cuda.Buf{}, emutest.Upload(t, wih), emutest.Upload(t, whh),
		emutest.Upload(t, bih), emutest.Upload(t, bhh), emutest.Zeros(t, len(saved)), emutest.Zeros(t, layers.GRUWorkLen(d)), false); err != nil {
		t.Fatal(err)
	}
	emutest.Near(t, "out", emutest.Download(t, out), want, 2e-6)
}
