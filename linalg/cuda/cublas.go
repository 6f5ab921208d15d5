package cuda

import (
	"fmt"

	"github.com/ebitengine/purego"
)

// cublasAPI is the part of cuBLAS used: single-precision products, plain and batched. Strided
// batched products take 18 arguments, more than purego passes, so batches go through
// cublasSgemmBatched (15) with arrays of pointers.
type cublasAPI struct {
	create     func(h *uintptr) int32
	destroy    func(h uintptr) int32
	getVersion func(h uintptr, v *int32) int32
	sgemm      func(h uintptr, ta, tb int32, m, n, k int32, alpha *float32, a uint64, lda int32, b uint64, ldb int32, beta *float32, c uint64, ldc int32) int32
	sgemmBatch func(h uintptr, ta, tb int32, m, n, k int32, alpha *float32, a uint64, lda int32, b uint64, ldb int32, beta *float32, c uint64, ldc int32, count int32) int32
	handle     uintptr
	version    int
}

// cuBLAS operation codes (cublasOperation_t).
const (
	cublasOpN = 0
	cublasOpT = 1
)

// loadCublas binds cuBLAS from the library handle h and creates a handle on the current context.
func loadCublas(h uintptr) (api *cublasAPI, err error) {
	defer func() {
		if r := recover(); r != nil {
			api, err = nil, fmt.Errorf("libcublas lacks a function spg-tui needs: %v", r)
		}
	}()
	api = &cublasAPI{}
	reg := func(fptr any, name string) { purego.RegisterLibFunc(fptr, h, name) }
	reg(&api.create, "cublasCreate_v2")
	reg(&api.destroy, "cublasDestroy_v2")
	reg(&api.getVersion, "cublasGetVersion_v2")
	reg(&api.sgemm, "cublasSgemm_v2")
	reg(&api.sgemmBatch, "cublasSgemmBatched")
	if s := api.create(&api.handle); s != 0 {
		return nil, fmt.Errorf("cublasCreate: status %d", s)
	}
	var v int32
	if api.getVersion(api.handle, &v) == 0 {
		api.version = int(v)
	}
	return api, nil
}

// op is cuBLAS's code for a transpose flag.
func op(trans bool) int32 {
	if trans {
		return cublasOpT
	}
	return cublasOpN
}

// gemm is Device.Sgemm on cuBLAS. A row-major matrix is its transpose in column-major, so
// the row-major c = op(a) op(b) is cuBLAS's c^T = op(b)^T op(a)^T: b first, m and n swapped,
// the same transpose flags.
func (c *cublasAPI) gemm(transA, transB bool, m, n, k int, alpha float32, a Buf, lda int, b Buf, ldb int, beta float32, cb Buf, ldc int) error {
	s := c.sgemm(c.handle, op(transB), op(transA), int32(n), int32(m), int32(k), &alpha,
		uint64(b.Ptr), int32(ldb), uint64(a.Ptr), int32(lda), &beta, uint64(cb.Ptr), int32(ldc))
	if s != 0 {
		return fmt.Errorf("cuda: cublasSgemm %dx%dx%d: status %d", m, n, k, s)
	}
	return nil
}

// gemmBatched is Device.SgemmStrided on cuBLAS, given device arrays of the count operands'
// addresses (ptrs: a's, then b's, then c's).
func (c *cublasAPI) gemmBatched(transA, transB bool, m, n, k int, alpha float32, lda, ldb int, beta float32, ldc int, ptrs Ptr, count int) error {
	a, b, cc := uint64(ptrs), uint64(ptrs)+8*uint64(count), uint64(ptrs)+16*uint64(count)
	s := c.sgemmBatch(c.handle, op(transB), op(transA), int32(n), int32(m), int32(k), &alpha,
		b, int32(ldb), a, int32(lda), &beta, cc, int32(ldc), int32(count))
	if s != 0 {
		return fmt.Errorf("cuda: cublasSgemmBatched %d x %dx%dx%d: status %d", count, m, n, k, s)
	}
	return nil
}

// pointerArrays fills the host array of a batched product's operand addresses.
func pointerArrays(dst []uint64, a, b, c Buf, strideA, strideB, strideC, count int) {
	for i := 0; i < count; i++ {
		dst[i] = uint64(a.Ptr) + 4*uint64(i*strideA)
		dst[count+i] = uint64(b.Ptr) + 4*uint64(i*strideB)
		dst[2*count+i] = uint64(c.Ptr) + 4*uint64(i*strideC)
	}
}
