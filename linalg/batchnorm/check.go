package batchnorm

import "fmt"

// checkDims panics unless every dimension is positive.
func checkDims(b, c, f int) {
	if b <= 0 || c <= 0 || f <= 0 {
		panic(fmt.Sprintf("batchnorm: dimensions must be positive, got b=%d c=%d f=%d", b, c, f))
	}
}

// checkLen panics unless len(s) == n.
func checkLen[F Float](name string, s []F, n int) {
	if len(s) != n {
		panic(fmt.Sprintf("batchnorm: len(%s) = %d, want %d", name, len(s), n))
	}
}
