package cuda

import (
	"errors"
	"fmt"
	"math"
	"os"
	"runtime"
	"sync"
	"unsafe"
)

// Options configure Open.
type Options struct {
	// Source is the CUDA C of every kernel Launch may name (package kernels' Source).
	Source string
	// Kernels are the names of its kernels, looked up once at Open.
	Kernels []string
	// CacheDir keeps compiled PTX between runs; empty compiles every time.
	CacheDir string
	// Ordinal picks the GPU (0 is the first).
	Ordinal int
}

// gpu is the CUDA implementation of Device.
type gpu struct {
	thread  *osThread
	drv     *driverAPI
	blas    *cublasAPI
	dev     int32
	ctx     uintptr
	module  uintptr
	funcs   map[string]uintptr
	name    string
	ptrs    Buf // scratch for batched products' operand addresses
	ptrHost []uint64
	closed  bool
	mu      sync.Mutex
	count   LaunchCount
}

// Open loads the CUDA driver, cuBLAS and NVRTC, makes the primary context of GPU opts.Ordinal
// current on a locked OS thread, and compiles opts.Source for that GPU (or takes its PTX from
// the cache). Its refusal is one line: it wraps ErrNoDriver where no driver library is found
// and ErrNoGPU where the driver finds no GPU; whatever it had opened is released.
func Open(opts Options) (Device, error) {
	hCuda, _, err := openLib("libcuda", cudaNames)
	if errors.Is(err, errNotFound) {
		return nil, fmt.Errorf("cuda: %w: %v", ErrNoDriver, err)
	}
	if err != nil {
		return nil, fmt.Errorf("cuda: %v", err)
	}
	drv, err := loadDriver(hCuda)
	if err != nil {
		return nil, fmt.Errorf("cuda: %v", err)
	}
	g := &gpu{thread: newOSThread(), drv: drv, funcs: map[string]uintptr{}}
	g.thread.do(func() {
		if err = g.init(opts); err != nil {
			g.release()
		}
	})
	if err != nil {
		g.thread.stop()
		return nil, err
	}
	return g, nil
}

// init runs on the device thread: context, cuBLAS, module.
func (g *gpu) init(opts Options) error {
	d := g.drv
	if r := d.cuInit(0); r != 0 {
		return fmt.Errorf("cuda: %w: %s", ErrNoGPU, d.describe("cuInit", r))
	}
	var count, version int32
	if r := d.cuDeviceGetCount(&count); r != 0 {
		return fmt.Errorf("cuda: %w: %s", ErrNoGPU, d.describe("cuDeviceGetCount", r))
	}
	if opts.Ordinal < 0 || int(count) <= opts.Ordinal {
		return fmt.Errorf("cuda: %w: GPU %d asked, %d found", ErrNoGPU, opts.Ordinal, count)
	}
	if err := d.check("cuDeviceGet", d.cuDeviceGet(&g.dev, int32(opts.Ordinal))); err != nil {
		return err
	}
	var ctx uintptr
	if err := d.check("cuDevicePrimaryCtxRetain", d.cuDevicePrimaryCtxRetain(&ctx, g.dev)); err != nil {
		return err
	}
	g.ctx = ctx
	if err := d.check("cuCtxSetCurrent", d.cuCtxSetCurrent(g.ctx)); err != nil {
		return err
	}
	d.cuDriverGetVersion(&version)
	var major, minor int32
	d.cuDeviceGetAttribute(&major, attrComputeMajor, g.dev)
	d.cuDeviceGetAttribute(&minor, attrComputeMinor, g.dev)
	nameBuf := make([]byte, 256)
	d.cuDeviceGetName(&nameBuf[0], int32(len(nameBuf)), g.dev)
	g.name = fmt.Sprintf("cuda: %s, driver %d.%d, sm_%d%d", goString(&nameBuf[0]), version/1000, version%1000/10, major, minor)

	hBlas, _, err := openLib("cuBLAS", cublasNames)
	if err != nil {
		return fmt.Errorf("cuda: %v", err)
	}
	if g.blas, err = loadCublas(hBlas); err != nil {
		return fmt.Errorf("cuda: %v", err)
	}
	return g.loadModule(opts, fmt.Sprintf("compute_%d%d", major, minor), fmt.Sprint(version))
}

// loadModule compiles (or takes from the cache) opts.Source for arch and looks up its kernels.
// A cached PTX the driver rejects is removed and compiled again, once; a fresh PTX is cached
// only once the driver has taken it.
func (g *gpu) loadModule(opts Options, arch, driver string) error {
	if opts.Source == "" {
		return nil
	}
	nv, err := LoadNVRTC()
	if err != nil {
		return fmt.Errorf("cuda: %v", err)
	}
	cache := ptxCache{dir: opts.CacheDir}
	key := cache.key(opts.Source, arch, driver, fmt.Sprintf("nvrtc %d.%d", nv.Major, nv.Minor))
	d := g.drv
	load := func(ptx []byte) error {
		return d.check("cuModuleLoadData", d.cuModuleLoadData(&g.module, unsafe.Pointer(&ptx[0])))
	}
	stale := "" // the cached PTX the driver rejected
	if ptx, ok := cache.get(key); ok {
		if err := load(ptx); err == nil {
			return g.getFunctions(opts.Kernels)
		}
		// A stale file that cannot be removed is replaced by put, or rejected again next time.
		stale = cache.path(key)
		os.Remove(stale)
	}
	ptx, _, err := nv.Compile(opts.Source, "spg-tui.cu", arch)
	if err != nil {
		return fmt.Errorf("cuda: %v", err)
	}
	if err := load(ptx); err != nil {
		if stale != "" {
			return fmt.Errorf("%v, for the cached %s and for the PTX compiled in its place", err, stale)
		}
		return fmt.Errorf("%v, for the PTX NVRTC %d.%d compiled for %s", err, nv.Major, nv.Minor, arch)
	}
	cache.put(key, ptx)
	return g.getFunctions(opts.Kernels)
}

// getFunctions looks up the kernels of the loaded module.
func (g *gpu) getFunctions(names []string) error {
	d := g.drv
	for _, name := range names {
		var f uintptr
		if err := d.check("cuModuleGetFunction "+name, d.cuModuleGetFunction(&f, g.module, name)); err != nil {
			return err
		}
		g.funcs[name] = f
	}
	return nil
}

func (g *gpu) Name() string { return g.name }

// call runs f on the device thread and returns its error; it refuses after Close.
func (g *gpu) call(f func() error) error {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.closed {
		return fmt.Errorf("cuda: device used after Close")
	}
	var err error
	g.thread.do(func() { err = f() })
	return err
}

// maxAlloc bounds one buffer (4 Gi floats, 16 GiB): far above any step, and it keeps the
// byte count and offsets inside int arithmetic.
const maxAlloc = 1 << 32

func (g *gpu) Alloc(n int) (Buf, error) {
	if n < 1 || n > maxAlloc {
		return Buf{}, fmt.Errorf("cuda: Alloc(%d): want 1 to %d floats", n, maxAlloc)
	}
	var p uint64
	err := g.call(func() error {
		if err := g.drv.check("cuMemAlloc", g.drv.cuMemAlloc(&p, uint64(4*n))); err != nil {
			return err
		}
		return g.drv.check("cuMemsetD32", g.drv.cuMemsetD32(p, 0, uint64(n)))
	})
	return Buf{Ptr: Ptr(p), N: n}, err
}

func (g *gpu) Free(b Buf) {
	if b.Ptr != 0 {
		g.call(func() error { return g.drv.check("cuMemFree", g.drv.cuMemFree(uint64(b.Ptr))) })
	}
}

func (g *gpu) Upload(dst Buf, src []float32) error {
	if len(src) > dst.N {
		return fmt.Errorf("cuda: Upload of %d floats into a buffer of %d", len(src), dst.N)
	}
	if len(src) == 0 {
		return nil
	}
	return g.call(func() error {
		return g.drv.check("cuMemcpyHtoD", g.drv.cuMemcpyHtoD(uint64(dst.Ptr), unsafe.Pointer(&src[0]), uint64(4*len(src))))
	})
}

func (g *gpu) Download(dst []float32, src Buf) error {
	if len(dst) > src.N {
		return fmt.Errorf("cuda: Download of %d floats from a buffer of %d", len(dst), src.N)
	}
	if len(dst) == 0 {
		return nil
	}
	return g.call(func() error {
		return g.drv.check("cuMemcpyDtoH", g.drv.cuMemcpyDtoH(unsafe.Pointer(&dst[0]), uint64(src.Ptr), uint64(4*len(dst))))
	})
}

// Launch packs the arguments as cuLaunchKernel wants them: an array of pointers, each to one
// argument's value (8 bytes each here, the widest kind).
func (g *gpu) Launch(name string, grid, block Dim3, args ...any) error {
	f, ok := g.funcs[name]
	if !ok {
		return fmt.Errorf("cuda: no kernel %q in the module", name)
	}
	vals := make([]uint64, len(args)+1)
	ptrs := make([]unsafe.Pointer, len(args)+1)
	for i, a := range args {
		switch v := a.(type) {
		case Buf:
			vals[i] = uint64(v.Ptr)
		case int32:
			*(*int32)(unsafe.Pointer(&vals[i])) = v
		case int:
			if v < math.MinInt32 || v > math.MaxInt32 {
				return fmt.Errorf("cuda: %s: argument %d (%d) does not fit an int", name, i, v)
			}
			*(*int32)(unsafe.Pointer(&vals[i])) = int32(v)
		case float32:
			*(*float32)(unsafe.Pointer(&vals[i])) = v
		case float64:
			*(*float32)(unsafe.Pointer(&vals[i])) = float32(v)
		default:
			return fmt.Errorf("cuda: %s: argument %d has type %T (want Buf, int32, int or float32)", name, i, a)
		}
		ptrs[i] = unsafe.Pointer(&vals[i])
	}
	if err := checkDims(name, grid, block); err != nil {
		return err
	}
	return g.call(func() error {
		var pin runtime.Pinner
		defer pin.Unpin()
		pin.Pin(&vals[0])
		pin.Pin(&ptrs[0])
		r := g.drv.cuLaunchKernel(f, uint32(grid.X), uint32(grid.Y), uint32(grid.Z),
			uint32(block.X), uint32(block.Y), uint32(block.Z), 0, 0, unsafe.Pointer(&ptrs[0]), nil)
		return g.counted(g.drv.check("cuLaunchKernel "+name, r))
	})
}

// counted counts a launch that err says succeeded, and returns err.
func (g *gpu) counted(err error) error {
	if err == nil {
		g.count.Add()
	}
	return err
}

func (g *gpu) Launches() int64 { return g.count.Launches() }

// checkDims refuses launch sizes the hardware cannot take (CUDA: grid.x < 2^31, grid.y and z
// < 2^16, at most 1,024 threads a block).
func checkDims(name string, grid, block Dim3) error {
	if grid.X < 1 || grid.Y < 1 || grid.Z < 1 || grid.X >= 1<<31 || grid.Y >= 1<<16 || grid.Z >= 1<<16 ||
		block.X < 1 || block.Y < 1 || block.Z < 1 || block.X*block.Y*block.Z > 1024 {
		return fmt.Errorf("cuda: %s: launch %v x %v is out of range", name, grid, block)
	}
	return nil
}

func (g *gpu) Sgemm(transA, transB bool, m, n, k int, alpha float32, a Buf, lda int, b Buf, ldb int, beta float32, c Buf, ldc int) error {
	if err := CheckGemm(transA, transB, m, n, k, a, lda, b, ldb, c, ldc, 0, 0, 0, 1); err != nil {
		return err
	}
	return g.call(func() error {
		return g.counted(g.blas.gemm(transA, transB, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc))
	})
}

func (g *gpu) SgemmStrided(transA, transB bool, m, n, k int, alpha float32, a Buf, lda, strideA int, b Buf, ldb, strideB int, beta float32, c Buf, ldc, strideC int, count int) error {
	if err := CheckGemm(transA, transB, m, n, k, a, lda, b, ldb, c, ldc, strideA, strideB, strideC, count); err != nil {
		return err
	}
	// The operand addresses go through one scratch buffer, so the upload and the product run
	// in one call on the device thread: another goroutine's product cannot come between them.
	return g.call(func() error {
		d := g.drv
		if 3*count > len(g.ptrHost) {
			if g.ptrs.Ptr != 0 {
				d.cuMemFree(uint64(g.ptrs.Ptr))
			}
			var p uint64
			if err := d.check("cuMemAlloc", d.cuMemAlloc(&p, uint64(8*3*count))); err != nil {
				g.ptrs, g.ptrHost = Buf{}, nil
				return err
			}
			g.ptrs, g.ptrHost = Buf{Ptr: Ptr(p), N: 2 * 3 * count}, make([]uint64, 3*count)
		}
		host := g.ptrHost[:3*count]
		pointerArrays(host, a, b, c, strideA, strideB, strideC, count)
		if err := d.check("cuMemcpyHtoD", d.cuMemcpyHtoD(uint64(g.ptrs.Ptr), unsafe.Pointer(&host[0]), uint64(8*len(host)))); err != nil {
			return err
		}
		return g.counted(g.blas.gemmBatched(transA, transB, m, n, k, alpha, lda, ldb, beta, ldc, g.ptrs.Ptr, count))
	})
}

func (g *gpu) Sync() error {
	return g.call(func() error { return g.drv.check("cuCtxSynchronize", g.drv.cuCtxSynchronize()) })
}

func (g *gpu) Close() error {
	err := g.Sync()
	g.call(func() error {
		g.release()
		return nil
	})
	g.mu.Lock()
	g.closed = true
	g.mu.Unlock()
	g.thread.stop()
	return err
}

// release frees, on the device thread, what Open or the products acquired: the batched
// products' scratch, the cuBLAS handle, the module and the primary context.
func (g *gpu) release() {
	d := g.drv
	if g.ptrs.Ptr != 0 {
		d.cuMemFree(uint64(g.ptrs.Ptr))
		g.ptrs = Buf{}
	}
	if g.blas != nil {
		g.blas.destroy(g.blas.handle)
		g.blas = nil
	}
	if g.module != 0 {
		d.cuModuleUnload(g.module)
		g.module = 0
	}
	if g.ctx != 0 {
		d.cuDevicePrimaryCtxRelease(g.dev)
		g.ctx = 0
	}
}
