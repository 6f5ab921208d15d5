package layers_test

import (
	"math/rand/v2"
	"testing"

	G "gorgonia.org/gorgonia"
	"gorgonia.org/tensor"

	oplayers "spg-tui/agent/ops/layers"
	"spg-tui/linalg/cuda"
	"spg-tui/linalg/cuda/emu/emutest"
	"spg-tui/linalg/cuda/layers"
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
		for _, act := range []oplayers.Activation{oplayers.Identity, oplayers.LeakyReLU} {
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
				y, err := oplayers.Dense(xn, wn, bn, oplayers.DenseOptions{Act: act})
				if err != nil {
					t.Fatal(err)
				}
				loss := G.Must(G.Sum(G.Must(G.HadamardProd(y, mat(g, "dy", dy, rows, nOut)))))
				runGraph(t, g, loss, wrt...)

				slope := float32(1)
				if act == oplayers.LeakyReLU {
					slope = oplayers.LeakySlope
				}
				xb, wb, yb := emutest.Upload(t, x), emutest.Upload(t, w), emutest.Zeros(t, rows*nOut)
				bb := cuda.Buf{}
				if bias {
					bb = emutest.Upload(t, b)
				}
				if err := layers.DenseForward(dev, yb, xb, wb, bb, rows, nIn, nOut, slope); err != nil {
					t.Fatal(err)
				}
				emutest.Near(t, "y", emutest.Download(t, yb), y.Value().Data().([]float32), 1e-6)

				dxb, dwb, dbb := emutest.Zeros(t, rows*nIn), emutest.Zeros(t, nIn*nOut), cuda.Buf{}
				if bias {
					dbb = emutest.Zeros(t, nOut)
				}
				dyb := emutest.Upload(t, dy)
				if err := layers.DenseBackward(dev, dxb, dwb, dbb, dyb, dyb, xb, wb, yb, rows, nIn, nOut, slope); err != nil {
					t.Fatal(err)
				}
				emutest.Near(t, "dx", emutest.Download(t, dxb), grad(t, xn), 1e-5)
				emutest.Near(t, "dw", emutest.Download(t, dwb), grad(t, wn), 1e-5)
				if bias {
					emutest.Near(t, "db", emutest.Download(t, dbb), grad(t, bn), 1e-5)
				}
			}
		}
	}
}
