package gpulayers_test

import (
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"spg-tui/linalg/cuda"
	"spg-tui/linalg/cuda/emu/emutest"
	"spg-tui/linalg/cuda/gpulayers"
	"spg-tui/linalg/gru"
)

// gruCPU is one CPU run of a GRU, forward and backward, with its inputs.
type gruCPU struct {
	x, h0, wih, whh, bih, bhh, dout []float32
	out, saved                      []float32
	dx, dh0, dwih, dwhh, dbih, dbhh []float32
}

// runGRUCPU draws inputs and runs gru.Forward and gru.Backward on them. The weights are at most
// 1/sqrt(fan-in) in scale, as PyTorch initialises them: larger ones make a long sequence chaotic,
// its rounding differences growing from step to step.
func runGRUCPU(rng *rand.Rand, d gru.Dims, withH0, reverse bool) gruCPU {
	b, t, in, h := d.B, d.T, d.I, d.H
	c := gruCPU{
		x: emutest.Normals(rng, b*t*in, 1), wih: emutest.Normals(rng, 3*h*in, min(0.5, 1/math.Sqrt(float64(in)))),
		whh: emutest.Normals(rng, 3*h*h, min(0.5, 1/math.Sqrt(float64(h)))), bih: emutest.Normals(rng, 3*h, 0.5),
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

// gruCase is a GRU's sizes with the grid its sequence kernels aim at (gpulayers.SetGRUBlocks):
// 128 as in training, or fewer to run several batch rows a block on a small batch.
type gruCase struct {
	d      gru.Dims
	blocks int
}

// TestGRUForwardBackward checks the sequence kernels against linalg/gru, values and gradients,
// from a zero and a given state, forward and reversed in time: on small sizes, on the trunk's
// (T = I = N at N = 20, 50, 100, with H = 64 and 128), and with several batch rows a block,
// the last block short of rows, and rows bounded by the shared state (H = 520: seven rows).
func TestGRUForwardBackward(t *testing.T) {
	dev := emutest.Device(t)
	rng := rand.New(rand.NewPCG(9, 10))
	for _, c := range []gruCase{
		{gru.Dims{B: 1, T: 1, I: 1, H: 1}, 128}, {gru.Dims{B: 3, T: 4, I: 5, H: 7}, 128}, {gru.Dims{B: 2, T: 3, I: 8, H: 130}, 128},
		{gru.Dims{B: 5, T: 6, I: 3, H: 33}, 128}, {gru.Dims{B: 3, T: 20, I: 20, H: 64}, 128},
		{gru.Dims{B: 2, T: 50, I: 50, H: 128}, 128}, {gru.Dims{B: 2, T: 100, I: 100, H: 128}, 128},
		{gru.Dims{B: 11, T: 5, I: 4, H: 300}, 2}, {gru.Dims{B: 19, T: 3, I: 2, H: 40}, 2},
		{gru.Dims{B: 8, T: 2, I: 3, H: 520}, 1},
	} {
		d := c.d
		// A subtest each, so that each frees its buffers: the emulator copies all of them a launch.
		t.Run(fmt.Sprintf("%+v", d), func(t *testing.T) {
			gpulayers.SetGRUBlocks(t, c.blocks)
			t.Logf("%d rows a block", gpulayers.GRURows(d.B, d.H))
			for _, withH0 := range []bool{false, true} {
				for _, reverse := range []bool{false, true} {
					checkGRU(t, dev, rng, d, withH0, reverse, 2e-6, 1e-5)
				}
			}
		})
	}
}

// checkGRU runs one GRU forward and backward on dev and on the CPU and compares them: the
// values within tol, the gradients within gradTol.
func checkGRU(t *testing.T, dev cuda.Device, rng *rand.Rand, d gru.Dims, withH0, reverse bool, tol, gradTol float64) {
	t.Helper()
	c := runGRUCPU(rng, d, withH0, reverse)
	up := func(v []float32) cuda.Buf { return emutest.UploadTo(t, dev, v) }
	down := func(b cuda.Buf) []float32 { return emutest.DownloadFrom(t, dev, b) }
	zeros := func(n int) cuda.Buf { return up(make([]float32, n)) }
	out, saved, work := zeros(len(c.out)), zeros(len(c.saved)), zeros(gpulayers.GRUWorkLen(d))
	x, wih, whh := up(c.x), up(c.wih), up(c.whh)
	if err := gpulayers.GRUForward(dev, d, out, x, up(c.h0), wih, whh, up(c.bih), up(c.bhh), saved, work, reverse); err != nil {
		t.Fatal(err)
	}
	emutest.Near(t, "out", down(out), c.out, tol)
	emutest.Near(t, "saved", down(saved), c.saved, tol)

	dx, dh0 := zeros(len(c.dx)), zeros(len(c.dh0))
	dwih, dwhh := zeros(len(c.dwih)), zeros(len(c.dwhh))
	dbih, dbhh := zeros(len(c.dbih)), zeros(len(c.dbhh))
	if err := gpulayers.GRUBackward(dev, d, dx, dh0, dwih, dwhh, dbih, dbhh, up(c.dout), x, wih, whh, saved, work, reverse); err != nil {
		t.Fatal(err)
	}
	for _, g := range []struct {
		name      string
		got, want []float32
	}{
		{"dx", down(dx), c.dx}, {"dh0", down(dh0), c.dh0}, {"dwih", down(dwih), c.dwih},
		{"dwhh", down(dwhh), c.dwhh}, {"dbih", down(dbih), c.dbih}, {"dbhh", down(dbhh), c.dbhh},
	} {
		emutest.Near(t, g.name, g.got, g.want, gradTol)
	}

	// With only dx wanted, dx is the same and the rest is left alone.
	dx2 := zeros(len(c.dx))
	none := cuda.Buf{}
	if err := gpulayers.GRUBackward(dev, d, dx2, none, none, none, none, none, up(c.dout), x, wih, whh, saved, work, reverse); err != nil {
		t.Fatal(err)
	}
	emutest.SameBits(t, "dx alone", down(dx2), down(dx))
}

// TestGPUGRUSequence checks the sequence kernels on a GPU (tools/gpu-check.sh; skipped where
// none opens) against linalg/gru at the trunk's sizes with training's batches, 8 rows a block
// and the last block short (B = 1,030), within the GPU learner tests' tolerance: the GPU fuses
// multiplies and adds and cuBLAS sums in its own order.
func TestGPUGRUSequence(t *testing.T) {
	dev := emutest.GPU(t)
	rng := rand.New(rand.NewPCG(11, 12))
	for _, d := range []gru.Dims{{B: 1030, T: 20, I: 20, H: 64}, {B: 128, T: 50, I: 50, H: 128}, {B: 1024, T: 100, I: 100, H: 128}} {
		t.Run(fmt.Sprintf("%+v", d), func(t *testing.T) {
			t.Logf("%d rows a block", gpulayers.GRURows(d.B, d.H))
			for _, withH0 := range []bool{false, true} {
				for _, reverse := range []bool{false, true} {
					checkGRU(t, dev, rng, d, withH0, reverse, 1e-5, 1e-4)
				}
			}
		})
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
		{gpulayers.GRUForward(dev, gru.Dims{B: 1, T: 0, I: 1, H: 1}, buf, buf, buf, buf, buf, buf, buf, buf, buf, false), "dimensions must be positive"},
		{gpulayers.GRUForward(dev, d, buf, short, buf, buf, buf, buf, buf, buf, buf, false), "x has 10 elements, want 24"},
		{gpulayers.GRUForward(dev, d, buf, buf, buf, buf, short, buf, buf, buf, buf, false), "whh has 10 elements, want 75"},
		{gpulayers.GRUForward(dev, d, buf, buf, buf, buf, buf, buf, buf, buf, short, false), "work has 10 elements, want 75"},
		{gpulayers.GRUBackward(dev, d, buf, buf, buf, buf, buf, buf, buf, buf, buf, buf, buf, short, false), "work has 10 elements, want 120"},
		{gpulayers.GRUForward(dev, gru.Dims{B: 1, T: 1, I: 1, H: 4097}, buf, buf, buf, buf, buf, buf, buf, buf, buf, false), "hidden width 4097, at most 4096"},
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
	if err := gpulayers.GRUForward(dev, d, out, emutest.Upload(t, x), cuda.Buf{}, emutest.Upload(t, wih), emutest.Upload(t, whh),
		emutest.Upload(t, bih), emutest.Upload(t, bhh), emutest.Zeros(t, len(saved)), emutest.Zeros(t, gpulayers.GRUWorkLen(d)), false); err != nil {
		t.Fatal(err)
	}
	emutest.Near(t, "out", emutest.Download(t, out), want, 2e-6)
}
