//go:build noasm || !amd64

package gemm

// colSumsVec reports false: no vector kernel in this build.
func colSumsVec(int) bool { return false }

func colSumsBlocks(a []float32, m, lda int, y []float32) { panic("gemm: no ColSums kernel") }
