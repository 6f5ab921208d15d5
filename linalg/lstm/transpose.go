package lstm

import (
	"sync"

	"spg-tui/linalg/fastmath"
)

// scratch holds transposed weights between Forward calls so that training steps do not
// allocate them anew; it holds *[]float32 and *[]float64.
var scratch sync.Pool

// transposedMat is an r x c matrix's transpose (c x r, row-major) in pooled storage.
type transposedMat[F Float] struct {
	m   []F
	buf *[]F
}

// transposed returns the transpose of the r x c row-major matrix a in pooled storage; the
// caller releases it when done.
func transposed[F Float](a []F, r, c int) transposedMat[F] {
	buf, ok := scratch.Get().(*[]F)
	if !ok || cap(*buf) < r*c {
		s := make([]F, r*c)
		buf = &s
	}
	m := (*buf)[:r*c]
	fastmath.Transpose(m, a, r, c)
	return transposedMat[F]{m: m, buf: buf}
}

// release returns the storage to the pool.
func (t transposedMat[F]) release() { scratch.Put(t.buf) }
