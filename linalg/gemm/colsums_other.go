//go:build noasm || !amd64

package gemm

// colSumsVec reports false: no vector kernel in this build.
func colSumsVec() bool { return false }

func colSumsAVX512(a *float32, m, lda int, y *float32, n int) { panic("gemm: no colSumsAVX512") }
