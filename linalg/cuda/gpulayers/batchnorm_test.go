package gpulayers_test

import (
	"math/rand/v2"
	"strings"
	"testing"

	"spg-tui/linalg/batchnorm"
	"spg-tui/linalg/cuda"
	"spg-tui/linalg/cuda/emu/emutest"
	"spg-tui/linalg/cuda/gpulayers"
	"spg-tui/linalg/fastmath"
)

// leakyCPU applies LeakyReLU with slope in place as agent/ops does (slope 1: nothing).
func leakyCPU(y []float32, slope float32) {
	if slope != 1 {
		fastmath.LeakyReLU(y, y, slope)
	}
}

func TestBatchNorm(t *testing.T) {
	dev := emutest.Device(t)
	rng := rand.New(rand.NewPCG(11, 12))
	for _, s := range [][3]int{{1, 1, 2}, {3, 4, 5}, {2, 3, 300}, {16, 2, 20}} {
		b, c, f := s[0], s[1], s[2]
		n := b * c * f
		for _, slope := range []float32{0.01, 1} {
			x := emutest.Normals(rng, n, 2)
			for i := range x {
				x[i] += 3 // a mean far from 0, as the second variance pass is there for
			}
			gamma, beta, dy := emutest.Normals(rng, c, 1), emutest.Normals(rng, c, 1), emutest.Normals(rng, n, 1)
			// The CPU, composed as agent/ops' BatchNorm node.
			y, mean, invStd := make([]float32, n), make([]float32, c), make([]float32, c)
			batchnorm.Forward(y, x, gamma, beta, b, c, f, batchnorm.DefaultEps, mean, invStd)
			leakyCPU(y, slope)
			g := make([]float32, n)
			fastmath.LeakyReLUGrad(g, dy, y, slope)
			dx, dgamma, dbeta := make([]float32, n), make([]float32, c), make([]float32, c)
			batchnorm.Backward(dx, dgamma, dbeta, g, x, gamma, mean, invStd, b, c, f)

			xb, gb, bb := emutest.Upload(t, x), emutest.Upload(t, gamma), emutest.Upload(t, beta)
			yb, mb, ib := emutest.Zeros(t, n), emutest.Zeros(t, c), emutest.Zeros(t, c)
			if err := gpulayers.BatchNormForward(dev, yb, xb, gb, bb, mb, ib, b, c, f, slope); err != nil {
				t.Fatal(err)
			}
			emutest.Near(t, "y", emutest.Download(t, yb), y, 2e-6)
			emutest.Near(t, "mean", emutest.Download(t, mb), mean, 1e-6)
			emutest.Near(t, "invStd", emutest.Download(t, ib), invStd, 1e-6)

			dyb, dxb, dgb, dbb := emutest.Upload(t, dy), emutest.Zeros(t, n), emutest.Zeros(t, c), emutest.Zeros(t, c)
			if err := gpulayers.BatchNormBackward(dev, dxb, dgb, dbb, dyb, xb, yb, gb, mb, ib, b, c, f, slope); err != nil {
				t.Fatal(err)
			}
			emutest.Near(t, "dx", emutest.Download(t, dxb), dx, 1e-5)
			emutest.Near(t, "dgamma", emutest.Download(t, dgb), dgamma, 1e-5)
			emutest.Near(t, "dbeta", emutest.Download(t, dbb), dbeta, 1e-5)
			// Frozen gamma and beta: the same dx, in place in dy.
			if err := gpulayers.BatchNormBackward(dev, dyb, cuda.Buf{}, cuda.Buf{}, dyb, xb, yb, gb, mb, ib, b, c, f, slope); err != nil {
				t.Fatal(err)
			}
			emutest.SameBits(t, "dx frozen, in place", emutest.Download(t, dyb), emutest.Download(t, dxb))

			if b*f < 2 {
				continue
			}
			runMean, runVar := emutest.Normals(rng, c, 1), emutest.Normals(rng, c, 1)
			for i := range runVar {
				runVar[i] = runVar[i]*runVar[i] + 0.5
			}
			rmb, rvb := emutest.Upload(t, runMean), emutest.Upload(t, runVar)
			batchnorm.UpdateRunning(runMean, runVar, mean, invStd, b*f, 0.1, batchnorm.DefaultEps)
			if err := gpulayers.BatchNormUpdateRunning(dev, rmb, rvb, mb, ib, c, b*f, 0.1); err != nil {
				t.Fatal(err)
			}
			emutest.Near(t, "runMean", emutest.Download(t, rmb), runMean, 1e-6)
			emutest.Near(t, "runVar", emutest.Download(t, rvb), runVar, 1e-5)

			yi := make([]float32, n)
			batchnorm.Inference(yi, x, gamma, beta, runMean, runVar, b, c, f, batchnorm.DefaultEps)
			leakyCPU(yi, slope)
			if err := gpulayers.BatchNormInference(dev, yb, xb, gb, bb, rmb, rvb, b, c, f, slope); err != nil {
				t.Fatal(err)
			}
			emutest.Near(t, "inference y", emutest.Download(t, yb), yi, 2e-6)
		}
	}
}

func TestBatchNormErrors(t *testing.T) {
	dev := emutest.Device(t)
	buf, short := emutest.Zeros(t, 100), emutest.Zeros(t, 2)
	for _, c := range []struct {
		err  error
		want string
	}{
		{gpulayers.BatchNormForward(dev, buf, buf, buf, buf, buf, buf, 0, 1, 1, 1), "dimensions must be positive"},
		{gpulayers.BatchNormForward(dev, buf, buf, short, buf, buf, buf, 2, 3, 4, 1), "gamma has 2 elements, want 3"},
		{gpulayers.BatchNormBackward(dev, buf, short, buf, buf, buf, buf, buf, buf, buf, 2, 3, 4, 1), "dgamma has 2 elements, want 3"},
		{gpulayers.BatchNormUpdateRunning(dev, buf, buf, buf, buf, 3, 1, 0.1), "count >= 2"},
	} {
		if c.err == nil || !strings.Contains(c.err.Error(), c.want) {
			t.Errorf("err = %v, want %q", c.err, c.want)
		}
	}
}
