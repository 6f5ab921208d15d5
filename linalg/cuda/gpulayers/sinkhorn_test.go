package gpulayers_test

import (
	"math/rand/v2"
	"strings"
	"testing"

	"spg-tui/linalg/cuda/emu/emutest"
	"spg-tui/linalg/cuda/gpulayers"
	"spg-tui/linalg/sinkhorn"
)

// sinkhornCases are small shapes, n up to 100 and around the block of 128 threads' multiples
// of 32, with scores whose X/tau spans from a few units to hundreds (where the CPU's exact
// steps matter).
var sinkhornCases = []struct {
	b, n, iters int
	tau         float32
	scale       float64
}{
	{1, 1, 1, 1, 1},
	{2, 2, 3, 1, 1},
	{3, 5, 5, 0.5, 2},
	{2, 33, 10, 0.1, 3},
	{1, 100, 20, 0.05, 5},
	{2, 130, 4, 1, 1},
}

func TestSinkhornForwardBackward(t *testing.T) {
	dev := emutest.Device(t)
	rng := rand.New(rand.NewPCG(7, 8))
	for _, c := range sinkhornCases {
		nn := c.b * c.n * c.n
		x, dm := emutest.Normals(rng, nn, c.scale), emutest.Normals(rng, nn, 1)
		want := make([]float32, nn)
		saved := make([]float32, sinkhorn.SavedLen(c.b, c.n, c.iters))
		sinkhorn.Forward(want, x, c.b, c.n, c.tau, c.iters, saved)
		wantDx := make([]float32, nn)
		sinkhorn.Backward(wantDx, dm, saved, c.b, c.n, c.tau, c.iters)

		xb, mb, sb := emutest.Upload(t, x), emutest.Zeros(t, nn), emutest.Zeros(t, len(saved))
		if err := gpulayers.SinkhornForward(dev, mb, xb, sb, c.b, c.n, c.tau, c.iters); err != nil {
			t.Fatal(err)
		}
		emutest.Near(t, "M", emutest.Download(t, mb), want, 2e-6)
		// Without saving, the same M.
		mb2 := emutest.Zeros(t, nn)
		if err := gpulayers.SinkhornForward(dev, mb2, xb, emutest.Zeros(t, 0), c.b, c.n, c.tau, c.iters); err != nil {
			t.Fatal(err)
		}
		emutest.SameBits(t, "M without saved", emutest.Download(t, mb2), emutest.Download(t, mb))

		dmb, dxb := emutest.Upload(t, dm), emutest.Zeros(t, nn)
		if err := gpulayers.SinkhornBackward(dev, dxb, dmb, sb, c.b, c.n, c.tau, c.iters); err != nil {
			t.Fatal(err)
		}
		emutest.Near(t, "dX", emutest.Download(t, dxb), wantDx, 2e-5)
		// The CPU's saved buffer, compact column slots included, gives the CPU's dX too.
		if err := gpulayers.SinkhornBackward(dev, dxb, dmb, emutest.Upload(t, saved), c.b, c.n, c.tau, c.iters); err != nil {
			t.Fatal(err)
		}
		emutest.Near(t, "dX from the CPU's saved", emutest.Download(t, dxb), wantDx, 2e-5)
	}
}

func TestSinkhornCPUSavedIsCompact(t *testing.T) {
	// The test above reads compact slots only if the CPU writes them for its shapes.
	c := sinkhornCases[4]
	x := emutest.Normals(rand.New(rand.NewPCG(7, 8)), c.b*c.n*c.n, 0.1)
	saved := make([]float32, sinkhorn.SavedLen(c.b, c.n, c.iters))
	sinkhorn.Forward(make([]float32, len(x)), x, c.b, c.n, c.tau, c.iters, saved)
	compact := 0
	for s := 1; s < 2*c.iters-1; s += 2 {
		if saved[s*c.n*c.n] < 0 {
			compact++
		}
	}
	if compact == 0 {
		t.Fatal("the CPU saved no compact column slot")
	}
}

func TestSinkhornErrors(t *testing.T) {
	dev := emutest.Device(t)
	buf := emutest.Zeros(t, 8)
	for _, c := range []struct {
		err  error
		want string
	}{
		{gpulayers.SinkhornForward(dev, buf, buf, buf, 1, 300, 1, 1), "n = 300, want 1..256"},
		{gpulayers.SinkhornForward(dev, buf, buf, buf, 1, 2, 0, 1), "tau = 0"},
		{gpulayers.SinkhornForward(dev, buf, buf, buf, 1, 2, 1, 0), "iters = 0"},
		{gpulayers.SinkhornForward(dev, buf, buf, buf, 3, 2, 1, 1), "m has 8 elements, want 12"},
		{gpulayers.SinkhornForward(dev, buf, buf, buf, 1, 2, 1, 2), "saved has 8 elements, want 16"},
		{gpulayers.SinkhornBackward(dev, buf, buf, buf, 1, 2, 1, 2), "saved has 8 elements, want 16"},
	} {
		if c.err == nil || !strings.Contains(c.err.Error(), c.want) {
			t.Errorf("err = %v, want %q", c.err, c.want)
		}
	}
}
