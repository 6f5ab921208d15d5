package cuda

import "fmt"

// Ptr is a device address: a CUdeviceptr on a GPU, a host address in the emulator.
type Ptr uintptr

// Buf is a device array of N float32s (or int32s: both are 4 bytes).
type Buf struct {
	Ptr Ptr
	N   int
}

// At returns the part of b that starts at element off, n elements long.
func (b Buf) At(off, n int) Buf {
	if off < 0 || n < 0 || off+n > b.N {
		panic(fmt.Sprintf("cuda: slice [%d:%d] of a buffer of %d", off, off+n, b.N))
	}
	return Buf{Ptr: b.Ptr + Ptr(4*off), N: n}
}

// Dim3 is a launch's grid or block size.
type Dim3 struct{ X, Y, Z int }

// D1 is the one-dimensional size x.
func D1(x int) Dim3 { return Dim3{x, 1, 1} }

// Device is what a training step needs of an accelerator: memory, the project's kernels
// (linalg/cuda/kernels), and row-major float32 matrix products. Two implement it: the CUDA
// driver (Open) and, for tests on machines without a GPU, an emulator that compiles the same
// kernel sources for the CPU (linalg/cuda/emu). All methods must be called from one goroutine
// at a time; the CUDA implementation runs them on its own locked OS thread.
type Device interface {
	// Name describes the device in one line, for example "cuda: NVIDIA H200, driver 13.0".
	Name() string
	// Alloc returns a zeroed buffer of n float32s.
	Alloc(n int) (Buf, error)
	// Free releases a buffer from Alloc.
	Free(b Buf)
	// Upload copies src into the first len(src) elements of dst.
	Upload(dst Buf, src []float32) error
	// Download copies the first len(dst) elements of src into dst.
	Download(dst []float32, src Buf) error
	// Launch runs kernel name (a function of linalg/cuda/kernels) on grid x block threads.
	// Each argument is a Buf (passed as a pointer), an int32 or a float32, in the kernel's order.
	Launch(name string, grid, block Dim3, args ...any) error
	// Sgemm computes c = alpha op(a) op(b) + beta c for row-major matrices, as
	// backend.Gemm does on the CPU: c is m x n, op(a) m x k, op(b) k x n.
	Sgemm(transA, transB bool, m, n, k int, alpha float32, a Buf, lda int, b Buf, ldb int, beta float32, c Buf, ldc int) error
	// SgemmStrided is Sgemm over count matrices, the i-th operands offset by i times the
	// strides (in elements) from the first: a batched product.
	SgemmStrided(transA, transB bool, m, n, k int, alpha float32, a Buf, lda, strideA int, b Buf, ldb, strideB int, beta float32, c Buf, ldc, strideC int, count int) error
	// Launches returns how many kernels and products the device has started since it opened:
	// one for each Launch, Sgemm and SgemmStrided that succeeded. Each costs the host a launch
	// (about 6 us on an H200 from Go), so a step's count says how much of it is launch latency;
	// cuBLAS may run a product as more than one kernel, which the count does not see.
	Launches() int64
	// Sync waits for every launched kernel and copy to finish and returns the first error.
	Sync() error
	// Close releases the device and everything allocated on it.
	Close() error
}
