package gpunet

import (
	"spg-tui/linalg/cuda"
	"spg-tui/linalg/cuda/gpulayers"
)

// mlp is a pair MLP's activations and backward scratch over its rows (B N^2 pairs): layers
// name1..name3, width -> H -> H -> 1, LeakyReLU between (nets' pairwise scores, SPG+GM's W).
type mlp struct {
	y1, y2, out cuda.Buf // rows x H, rows x H, rows
	g1, g2      cuda.Buf // the gradients through the activations, rows x H
}

func newMLP(a *allocator, rows, h int) mlp {
	return mlp{y1: a.get(rows * h), y2: a.get(rows * h), out: a.get(rows), g1: a.get(rows * h), g2: a.get(rows * h)}
}

// forward runs the MLP name with parameters p over feats (rows x width) into l.out.
func (l *mlp) forward(dev cuda.Device, p *Flat, name string, feats cuda.Buf, rows, width, h int) error {
	if err := denseForward(dev, l.y1, feats, p.get(name+"1.W"), p.get(name+"1.b"), rows, width, h, true); err != nil {
		return err
	}
	if err := denseForward(dev, l.y2, l.y1, p.get(name+"2.W"), p.get(name+"2.b"), rows, h, h, true); err != nil {
		return err
	}
	return denseForward(dev, l.out, l.y2, p.get(name+"3.W"), p.get(name+"3.b"), rows, h, 1, false)
}

// backward takes dOut (rows) back through the MLP name into g's gradients (overwritten); dOut
// and l.g1 are used as scratch. The features are data: no gradient flows into them.
func (l *mlp) backward(dev cuda.Device, p, g *Flat, name string, feats, ones, dOut cuda.Buf, rows, width, h int) error {
	gr := gpulayers.DenseGrads{DX: l.g2, DW: g.get(name + "3.W"), DB: g.get(name + "3.b")}
	if err := denseBackward(dev, gr, cuda.Buf{}, dOut, l.y2, p.get(name+"3.W"), cuda.Buf{}, ones, rows, h, 1, false); err != nil {
		return err
	}
	gr = gpulayers.DenseGrads{DX: l.g1, DW: g.get(name + "2.W"), DB: g.get(name + "2.b")}
	if err := denseBackward(dev, gr, l.g2, l.g2, l.y1, p.get(name+"2.W"), l.y2, ones, rows, h, h, true); err != nil {
		return err
	}
	gr = gpulayers.DenseGrads{DW: g.get(name + "1.W"), DB: g.get(name + "1.b")}
	return denseBackward(dev, gr, l.g1, l.g1, feats, p.get(name+"1.W"), l.y1, ones, rows, width, h, true)
}
