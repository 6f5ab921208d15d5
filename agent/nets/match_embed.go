package nets

import (
	"gonum.org/v1/gonum/blas"

	"spg-tui/linalg/backend"
	"spg-tui/linalg/lstm"
)

// leakySlope is the negative slope of σ = LeakyReLU(0.01), the paper's σ.
const leakySlope = 0.01

// matchEmbed is SPG+Matching's shared dual embedding, which the appendix's AC+Matching and
// PN-AC+Matching reuse: E1 = σ(A We + be), E2 = σ(B We + be) (one weight for both sets) and
// E = E2 E1^T, whose row i pairs B[i] with every point of A, as in SPG+Matching's actor. States
// are the N points of A then the N points of B, K features each. It keeps its last forward's
// buffers for backward.
type matchEmbed[F lstm.Float] struct {
	n, h, k, b int
	x          []F // the states (b, 2n, k)
	pre, emb   []F // before and after σ, (b, 2n, h): rows 0..n-1 are E1, n..2n-1 are E2
	e          []F // (b, n, n)
	demb       []F // backward scratch, (b, 2n, h)
}

// forward computes the embedding of b states with weights we (k x h) and be (h).
func (m *matchEmbed[F]) forward(we, be, states []F, b int) {
	n, h, k := m.n, m.h, m.k
	m.b, m.x = b, states[:b*2*n*k]
	m.pre, m.emb, m.e = grow(m.pre, b*2*n*h), grow(m.emb, b*2*n*h), grow(m.e, b*n*n)
	linear(b*2*n, k, h, m.x, we, be, m.pre)
	for i, v := range m.pre {
		if v < 0 {
			v *= leakySlope
		}
		m.emb[i] = v
	}
	for bi := range b {
		backend.Gemm(blas.NoTrans, blas.Trans, n, n, h, 1, m.e2(bi), h, m.e1(bi), h, 0, m.e[bi*n*n:(bi+1)*n*n], n)
	}
}

// e1 and e2 are state bi's embedded A and B points (n x h each).
func (m *matchEmbed[F]) e1(bi int) []F { return m.emb[bi*2*m.n*m.h:][:m.n*m.h] }
func (m *matchEmbed[F]) e2(bi int) []F { return m.emb[(bi*2*m.n+m.n)*m.h:][:m.n*m.h] }

// gradBuffer returns the zeroed gradient buffer of emb (b, 2n, h) that backward reads, for the
// caller's own uses of E1 and E2 (the pointer network's decoder inputs) to add into.
func (m *matchEmbed[F]) gradBuffer() []F {
	m.demb = grow(m.demb, len(m.emb))
	clear(m.demb)
	return m.demb
}

// backward adds into dwe and dbe the gradient given de (b, n, n), that of E, plus whatever the
// caller added into gradBuffer(), which it must have called first.
func (m *matchEmbed[F]) backward(we, de, dwe, dbe []F) {
	n, h, k := m.n, m.h, m.k
	for bi := range m.b {
		d := m.demb[bi*2*n*h:][:2*n*h]
		dE := de[bi*n*n : (bi+1)*n*n]
		// E = E2 E1^T: dE1 += dE^T E2, dE2 += dE E1.
		backend.Gemm(blas.Trans, blas.NoTrans, n, h, n, 1, dE, n, m.e2(bi), h, 1, d[:n*h], h)
		backend.Gemm(blas.NoTrans, blas.NoTrans, n, h, n, 1, dE, n, m.e1(bi), h, 1, d[n*h:], h)
	}
	for i, v := range m.pre {
		if v < 0 {
			m.demb[i] *= leakySlope
		}
	}
	linearBackward(m.b*2*n, k, h, m.x, we, m.demb, nil, dwe, dbe)
}
