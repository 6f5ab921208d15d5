//go:build noasm || !amd64

package gemm

// init honours KernelEnv where only the Go kernel is built.
func init() { selectFromEnv() }
