package gpunet

import (
	"math"

	"spg-tui/linalg/cuda"
	"spg-tui/linalg/cuda/gpulayers"
)

// factoredActor is SPG+Factored's actor (nets' factored): an item MLP F over each item's input
// and a place MLP P over each place's, both width -> h -> h -> h with LeakyReLU between, and
// the scores X = F P^T, one product over all B N items. On sorting an item is its scaled value
// and place j is j/N (width 1); on tsp an item is its city less the centroid and place j the
// point (cos 2 pi j/N, sin 2 pi j/N) (width 2).
type factoredActor struct {
	b, n, h, w    int
	places        cuda.Buf // the places' inputs, j/N (N)
	i1, i2, f     cuda.Buf // the item MLP's activations, B N x h
	p1, p2, pl    cuda.Buf // the place MLP's, N x h
	scores        cuda.Buf // X, B N x N
	gi1, gi2, df  cuda.Buf // backward scratch over the items
	gp1, gp2, dpl cuda.Buf // and over the places
	ones          cuda.Buf // B N ones for bias sums
	items         cuda.Buf // the items' inputs (B N x width)
	placeValues   []float32
}

func newFactoredActor(a *allocator, b, n, h, width int, items cuda.Buf) *factoredActor {
	r := b * n
	f := &factoredActor{b: b, n: n, h: h, w: width, items: items}
	f.places = a.get(n * width)
	f.i1, f.i2, f.f = a.get(r*h), a.get(r*h), a.get(r*h)
	f.p1, f.p2, f.pl = a.get(n*h), a.get(n*h), a.get(n*h)
	f.scores = a.get(r * n)
	f.gi1, f.gi2, f.df = a.get(r*h), a.get(r*h), a.get(r*h)
	f.gp1, f.gp2, f.dpl = a.get(n*h), a.get(n*h), a.get(n*h)
	f.ones = newOnes(a, r)
	if a.err == nil {
		a.err = a.dev.Upload(f.places, placeInputs(n, width))
	}
	return f
}

// placeInputs are the inputs of the n places of width 1 (j/n) or 2 (a circle), as nets'
// factored computes them (in float64, then rounded).
func placeInputs(n, width int) []float32 {
	v := make([]float32, n*width)
	for j := range n {
		if width == 1 {
			v[j] = float32(float64(j) / float64(n))
			continue
		}
		v[2*j], v[2*j+1] = float32(math.Cos(2*math.Pi*float64(j)/float64(n))), float32(math.Sin(2*math.Pi*float64(j)/float64(n)))
	}
	return v
}

// mlp3 runs name1..name3 (w -> h -> h -> h) over rows of x into y1, y2, out.
func mlp3(dev cuda.Device, p *Flat, name string, x, y1, y2, out cuda.Buf, rows, w, h int) error {
	if err := denseForward(dev, y1, x, p.get(name+"1.W"), p.get(name+"1.b"), rows, w, h, true); err != nil {
		return err
	}
	if err := denseForward(dev, y2, y1, p.get(name+"2.W"), p.get(name+"2.b"), rows, h, h, true); err != nil {
		return err
	}
	return denseForward(dev, out, y2, p.get(name+"3.W"), p.get(name+"3.b"), rows, h, h, false)
}

// mlp3Backward takes dOut (rows x h) back through mlp3 into g's gradients (overwritten); the
// inputs are data. g1, g2 are scratch of rows x h; dOut is not changed.
func mlp3Backward(dev cuda.Device, p, g *Flat, name string, x, y1, y2, dOut, g1, g2, ones cuda.Buf, rows, w, h int) error {
	gr := gpulayers.DenseGrads{DX: g2, DW: g.get(name + "3.W"), DB: g.get(name + "3.b")}
	if err := denseBackward(dev, gr, cuda.Buf{}, dOut, y2, p.get(name+"3.W"), cuda.Buf{}, ones, rows, h, h, false); err != nil {
		return err
	}
	gr = gpulayers.DenseGrads{DX: g1, DW: g.get(name + "2.W"), DB: g.get(name + "2.b")}
	if err := denseBackward(dev, gr, g2, g2, y1, p.get(name+"2.W"), y2, ones, rows, h, h, true); err != nil {
		return err
	}
	gr = gpulayers.DenseGrads{DW: g.get(name + "1.W"), DB: g.get(name + "1.b")}
	return denseBackward(dev, gr, g1, g1, x, p.get(name+"1.W"), y1, ones, rows, w, h, true)
}

// forward computes the scores X = F P^T with the actor's parameters p.
func (f *factoredActor) forward(dev cuda.Device, p *Flat) error {
	r, n, h := f.b*f.n, f.n, f.h
	if err := mlp3(dev, p, "item", f.items, f.i1, f.i2, f.f, r, f.w, h); err != nil {
		return err
	}
	if err := mlp3(dev, p, "place", f.places, f.p1, f.p2, f.pl, n, f.w, h); err != nil {
		return err
	}
	return dev.Sgemm(false, true, r, n, h, 1, f.f, h, f.pl, h, 0, f.scores, n)
}

// backward takes dX (B N x N) back into the actor's gradients g: dF = dX P, dP = dX^T F.
func (f *factoredActor) backward(dev cuda.Device, p, g *Flat, dX cuda.Buf) error {
	r, n, h := f.b*f.n, f.n, f.h
	if err := dev.Sgemm(false, false, r, h, n, 1, dX, n, f.pl, h, 0, f.df, h); err != nil {
		return err
	}
	if err := dev.Sgemm(true, false, n, h, r, 1, dX, n, f.f, h, 0, f.dpl, h); err != nil {
		return err
	}
	if err := mlp3Backward(dev, p, g, "item", f.items, f.i1, f.i2, f.df, f.gi1, f.gi2, f.ones, r, f.w, h); err != nil {
		return err
	}
	return mlp3Backward(dev, p, g, "place", f.places, f.p1, f.p2, f.dpl, f.gp1, f.gp2, f.ones, n, f.w, h)
}
