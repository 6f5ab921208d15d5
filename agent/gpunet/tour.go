package gpunet

import (
	"errors"

	"spg-tui/linalg/cuda"
	"spg-tui/linalg/cuda/gpulayers"
)

// tourCritic is SPG+Factored's critic on tsp over the pair MLP's output g (nets' tourQ):
// Q(s, A) = <W, (A S) A^T>, S the cyclic shift (S_j,j+1 = 1) and W = g with each diagonal entry
// its row's mean off the diagonal (gpulayers.TourWeights). (A S A^T)_ik is the mass of city k
// following city i. Every product is one call over the batch.
type tourCritic struct {
	b, n          int
	shift, shiftT cuda.Buf    // S and S^T (n x n)
	w             cuda.Buf    // W
	next, adj     [2]cuda.Buf // A S and (A S) A^T of up to two actions
	prev, dW      cuda.Buf    // A S^T, and the gradient of W
}

func newTourCritic(a *allocator, b, n int) *tourCritic {
	nn := b * n * n
	c := &tourCritic{b: b, n: n, shift: a.get(n * n), shiftT: a.get(n * n), w: a.get(nn), prev: a.get(nn), dW: a.get(nn)}
	for i := range c.next {
		c.next[i], c.adj[i] = a.get(nn), a.get(nn)
	}
	if a.err == nil {
		s, st := make([]float32, n*n), make([]float32, n*n)
		for j := range n {
			s[j*n+(j+1)%n], st[((j+1)%n)*n+j] = 1, 1
		}
		a.err = errors.Join(a.dev.Upload(c.shift, s), a.dev.Upload(c.shiftT, st))
	}
	return c
}

// q sets W from g and q's element i b on to Q at acts[i] (each b x n x n).
func (c *tourCritic) q(dev cuda.Device, q, g cuda.Buf, acts ...cuda.Buf) error {
	b, n, nn := c.b, c.n, c.n*c.n
	if err := gpulayers.TourWeights(dev, c.w, g, b, n); err != nil {
		return err
	}
	for i, a := range acts {
		if err := dev.Sgemm(false, false, b*n, n, n, 1, a, n, c.shift, n, 0, c.next[i], n); err != nil {
			return err
		}
		if err := dev.SgemmStrided(false, true, n, n, n, 1, c.next[i], n, nn, a, n, nn, 0, c.adj[i], n, nn, b); err != nil {
			return err
		}
		if err := gpulayers.BilinearQ(dev, q.At(i*b, b), c.adj[i], c.w, b, nn); err != nil {
			return err
		}
	}
	return nil
}

// gradG sets dG, the gradient of g, from dq (Q's gradient at the last q's actions, b each):
// dW = sum_i dq_i (A_i S) A_i^T, then back through TourWeights.
func (c *tourCritic) gradG(dev cuda.Device, dG, dq cuda.Buf, actions int) error {
	b, nn := c.b, c.n*c.n
	for i := range actions {
		if err := gpulayers.ScaleRowsAdd(dev, c.dW, dq.At(i*b, b), c.adj[i], b, nn, float32(min(i, 1))); err != nil {
			return err
		}
	}
	return gpulayers.TourWeightsBackward(dev, dG, c.dW, b, c.n)
}

// gradA sets dA to scale times the gradient of Q at the last q's first action a:
// W (A S^T) + W^T (A S).
func (c *tourCritic) gradA(dev cuda.Device, dA, a cuda.Buf, scale float32) error {
	b, n, nn := c.b, c.n, c.n*c.n
	if err := dev.Sgemm(false, false, b*n, n, n, 1, a, n, c.shiftT, n, 0, c.prev, n); err != nil {
		return err
	}
	if err := dev.SgemmStrided(false, false, n, n, n, scale, c.w, n, nn, c.prev, n, nn, 0, dA, n, nn, b); err != nil {
		return err
	}
	return dev.SgemmStrided(true, false, n, n, n, scale, c.w, n, nn, c.next[0], n, nn, 1, dA, n, nn, b)
}
