package gpulayers_test

import (
	"math/rand/v2"
	"strings"
	"testing"

	G "gorgonia.org/gorgonia"
	"gorgonia.org/tensor"

	"spg-tui/agent/ops/layers"
	"spg-tui/linalg/cuda"
	"spg-tui/linalg/cuda/emu/emutest"
	"spg-tui/linalg/cuda/gpulayers"
)

// mat returns a float32 input matrix node holding v (rows x cols).
func mat(g *G.ExprGraph, name string, v []float32, rows, cols int) *G.Node {
	return G.NewMatrix(g, tensor.Float32, G.WithShape(rows, cols), G.WithName(name),
		G.WithValue(tensor.New(tensor.WithShape(rows, cols), tensor.WithBacking(append([]float32(nil), v...)))))
}

func TestDense(t *testing.T) {
	dev := emutest.Device(t)
	rng := rand.New(rand.NewPCG(19, 20))
	for _, s := range [][3]int{{1, 1, 1}, {5, 3, 7}, {300, 4, 33}} {
		rows, nIn, nOut := s[0], s[1], s[2]
		for _, act := range []layers.Activation{layers.Identity, layers.LeakyReLU} {
			for _, bias := range []bool{false, true} {
				x, w, b := emutest.Normals(rng, rows*nIn, 1), emutest.Normals(rng, nIn*nOut, 1), emutest.Normals(rng, nOut, 1)
				dy := emutest.Normals(rng, rows*nOut, 1)
				// agent/ops' Dense node; the loss sum(y * dy) makes dy its output gradient.
				g := G.NewGraph()
				xn, wn := mat(g, "x", x, rows, nIn), mat(g, "w", w, nIn, nOut)
				wrt := []*G.Node{xn, wn}
				var bn *G.Node
				if bias {
					bn = vec(g, "b", b)
					wrt = append(wrt, bn)
				}
				y, err := layers.Dense(xn, wn, bn, layers.DenseOptions{Act: act})
				if err != nil {
					t.Fatal(err)
				}
				loss := G.Must(G.Sum(G.Must(G.HadamardProd(y, mat(g, "dy", dy, rows, nOut)))))
				runGraph(t, g, loss, wrt...)

				slope := float32(1)
				if act == layers.LeakyReLU {
					slope = layers.LeakySlope
				}
				xb, wb, yb := emutest.Upload(t, x), emutest.Upload(t, w), emutest.Zeros(t, rows*nOut)
				bb := cuda.Buf{}
				if bias {
					bb = emutest.Upload(t, b)
				}
				if err := gpulayers.DenseForward(dev, yb, xb, wb, bb, rows, nIn, nOut, slope); err != nil {
					t.Fatal(err)
				}
				emutest.Near(t, "y", emutest.Download(t, yb), y.Value().Data().([]float32), 1e-6)

				dxb, dwb, dbb := emutest.Zeros(t, rows*nIn), emutest.Zeros(t, nIn*nOut), cuda.Buf{}
				if bias {
					dbb = emutest.Zeros(t, nOut)
				}
				dyb := emutest.Upload(t, dy)
				if err := gpulayers.DenseBackward(dev, gpulayers.DenseGrads{DX: dxb, DW: dwb, DB: dbb}, dyb, dyb, xb, wb, yb, onesBuf(t, rows), rows, nIn, nOut, slope); err != nil {
					t.Fatal(err)
				}
				emutest.Near(t, "dx", emutest.Download(t, dxb), grad(t, xn), 1e-5)
				emutest.Near(t, "dw", emutest.Download(t, dwb), grad(t, wn), 1e-5)
				if bias {
					emutest.Near(t, "db", emutest.Download(t, dbb), grad(t, bn), 1e-5)
				}

				// Accumulating, the same dy again doubles dw and db and leaves dx as it was.
				dyb = emutest.Upload(t, dy)
				acc := gpulayers.DenseGrads{DX: dxb, DW: dwb, DB: dbb, Accumulate: true}
				if err := gpulayers.DenseBackward(dev, acc, dyb, dyb, xb, wb, yb, onesBuf(t, rows), rows, nIn, nOut, slope); err != nil {
					t.Fatal(err)
				}
				emutest.Near(t, "dx accumulating", emutest.Download(t, dxb), grad(t, xn), 1e-5)
				emutest.Near(t, "dw accumulated", emutest.Download(t, dwb), twice(grad(t, wn)), 1e-5)
				if bias {
					emutest.Near(t, "db accumulated", emutest.Download(t, dbb), twice(grad(t, bn)), 1e-5)
				}
			}
		}
	}
}

// twice returns 2v.
func twice(v []float32) []float32 {
	o := make([]float32, len(v))
	for i := range v {
		o[i] = 2 * v[i]
	}
	return o
}

// onesBuf returns a device buffer of n ones, for bias gradients.
func onesBuf(t *testing.T, n int) cuda.Buf {
	v := make([]float32, n)
	for i := range v {
		v[i] = 1
	}
	return emutest.Upload(t, v)
}

// TestDenseBackwardNoRows: with no rows the parameter gradients are sums of nothing, zeros, or
// left as they are where they accumulate; a short ones or activation buffer is refused.
func TestDenseBackwardNoRows(t *testing.T) {
	dev := emutest.Device(t)
	none := cuda.Buf{}
	for _, accumulate := range []bool{false, true} {
		dw, db := emutest.Upload(t, []float32{1, 2, 3, 4, 5, 6}), emutest.Upload(t, []float32{7, 8})
		gr := gpulayers.DenseGrads{DW: dw, DB: db, Accumulate: accumulate}
		if err := gpulayers.DenseBackward(dev, gr, none, none, none, emutest.Zeros(t, 6), none, none, 0, 3, 2, 1); err != nil {
			t.Fatal(err)
		}
		wantW, wantB := []float32{1, 2, 3, 4, 5, 6}, []float32{7, 8}
		if !accumulate {
			wantW, wantB = make([]float32, 6), make([]float32, 2)
		}
		emutest.SameBits(t, "dw", emutest.Download(t, dw), wantW)
		emutest.SameBits(t, "db", emutest.Download(t, db), wantB)
	}
	dy, x, w := emutest.Zeros(t, 8), emutest.Zeros(t, 12), emutest.Zeros(t, 6)
	for _, c := range []struct {
		err  error
		want string
	}{
		{gpulayers.DenseBackward(dev, gpulayers.DenseGrads{DB: emutest.Zeros(t, 2)}, none, dy, x, w, none, onesBuf(t, 3), 4, 3, 2, 1), "ones has 3 elements, want 4"},
		{gpulayers.DenseBackward(dev, gpulayers.DenseGrads{DW: w}, dy, dy, x, w, emutest.Zeros(t, 7), none, 4, 3, 2, 0.01), "y has 7 elements, want 8"},
	} {
		if c.err == nil || !strings.Contains(c.err.Error(), c.want) {
			t.Errorf("err = %v, want %q", c.err, c.want)
		}
	}
}
