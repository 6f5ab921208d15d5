// Package emu implements cuda.Device on the CPU by compiling the same kernel sources
// (linalg/cuda/kernels) with the host's C++ compiler, so that every kernel, and whatever is
// built from them, is tested on machines without a GPU. A prelude (prelude.h) defines CUDA's
// built-ins; each CUDA thread is a coroutine and __syncthreads() a real barrier; blocks run one
// after another on the calling thread, so a launch is deterministic. The library is compiled
// once per source into a cache directory and loaded with purego. Memory is allocated by the
// library, outside Go's heap, and every buffer passed in is checked against the allocations.
// Products run on the CPU with backend.Gemm.
package emu

import (
	"fmt"
	"math"
	"os"
	"path/filepath"
	"sort"
	"sync"
	"unsafe"

	"github.com/ebitengine/purego"

	"spg-tui/linalg/cuda"
	"spg-tui/linalg/cuda/kernels"
)

// maxArgs is the most arguments a kernel may take here.
const maxArgs = 64

// launchMu serialises launches over every Device: the library's scheduler state is global and
// a second Open of the same library shares it.
var launchMu sync.Mutex

// Device is the emulator. Its methods must be called from one goroutine at a time.
type Device struct {
	name    string
	launch  func(k int32, args unsafe.Pointer, gx, gy, gz, bx, by, bz, reverse int32) int32
	alloc   func(n int64) unsafe.Pointer
	free    func(p unsafe.Pointer)
	kernels map[string]kernel
	allocs  []allocation // sorted by ptr
	params  unsafe.Pointer
	// checkOrder makes every launch run twice, in reverse order then in index order, and
	// compare all memory (see CheckOrder).
	checkOrder bool
	// launched holds the kernels launched without an error.
	launched map[string]bool
	count    cuda.LaunchCount
}

// kernel is a kernel's index in the library's table and its signature.
type kernel struct {
	index int32
	args  []kernels.Kind
}

// allocation is one Alloc: its host address and length in elements, with guard elements on
// either side from start on.
type allocation struct {
	start unsafe.Pointer
	base  unsafe.Pointer
	ptr   cuda.Ptr
	n     int
}

// guard is how many elements lie before and after each allocation holding guardBits, checked
// after every launch: a kernel that writes just outside its buffers fails there instead of
// silently corrupting its neighbours (a write further off may still land in another buffer).
const (
	guard     = 16
	guardBits = 0x7fc0dead // a NaN no arithmetic produces
)

// guards returns the guard elements of a.
func (a allocation) guards() (before, after []uint32) {
	all := unsafe.Slice((*uint32)(a.start), a.n+2*guard)
	return all[:guard], all[guard+a.n:]
}

var _ cuda.Device = (*Device)(nil)

// Open returns an emulator whose library is cached in the user cache directory
// (spg-tui/emu), or a one-line error where no C++ compiler is found or the kernels do not
// compile.
func Open() (*Device, error) {
	dir, err := os.UserCacheDir()
	if err != nil {
		return nil, fmt.Errorf("emu: no cache directory: %v", err)
	}
	return OpenIn(filepath.Join(dir, "spg-tui", "emu"))
}

// OpenIn is Open with the library cached in dir.
func OpenIn(dir string) (*Device, error) {
	ks, err := kernels.List()
	if err != nil {
		return nil, err
	}
	return open(dir, kernels.Source(), ks)
}

// open compiles (or finds in dir) and loads the library of src, whose kernels are ks.
func open(dir, src string, ks []kernels.Kernel) (*Device, error) {
	path, version, err := library(dir, src, ks)
	if err != nil {
		return nil, err
	}
	lib, err := purego.Dlopen(path, purego.RTLD_NOW|purego.RTLD_LOCAL)
	if err != nil {
		return nil, fmt.Errorf("emu: loading %s: %v", path, err)
	}
	d := &Device{name: "emu: CPU emulator (" + version + ")", kernels: map[string]kernel{}, launched: map[string]bool{}}
	purego.RegisterLibFunc(&d.launch, lib, "emu_launch")
	purego.RegisterLibFunc(&d.alloc, lib, "emu_alloc")
	purego.RegisterLibFunc(&d.free, lib, "emu_free")
	for i, k := range ks {
		if len(k.Args) > maxArgs {
			return nil, fmt.Errorf("emu: kernel %s takes %d arguments, the emulator at most %d", k.Name, len(k.Args), maxArgs)
		}
		d.kernels[k.Name] = kernel{index: int32(i), args: k.Args}
	}
	// Arguments as cuLaunchKernel takes them: maxArgs 8-byte value slots, then maxArgs
	// pointers to them (16 bytes an argument, 4 floats).
	d.params = d.alloc(4 * maxArgs)
	if d.params == nil {
		return nil, fmt.Errorf("emu: out of memory")
	}
	for i := range maxArgs {
		*(*unsafe.Pointer)(unsafe.Add(d.params, 8*maxArgs+8*i)) = unsafe.Add(d.params, 8*i)
	}
	return d, nil
}

// Name describes the emulator and the compiler that built it.
func (d *Device) Name() string { return d.name }

// Alloc returns a zeroed buffer of n float32s.
func (d *Device) Alloc(n int) (cuda.Buf, error) {
	if n < 0 {
		return cuda.Buf{}, fmt.Errorf("emu: Alloc of %d elements", n)
	}
	p := d.alloc(int64(n + 2*guard))
	if p == nil {
		return cuda.Buf{}, fmt.Errorf("emu: out of memory allocating %d floats", n)
	}
	base := unsafe.Add(p, 4*guard)
	a := allocation{start: p, base: base, ptr: cuda.Ptr(uintptr(base)), n: n}
	before, after := a.guards()
	for i := range guard {
		before[i], after[i] = guardBits, guardBits
	}
	i := sort.Search(len(d.allocs), func(i int) bool { return d.allocs[i].ptr > a.ptr })
	d.allocs = append(d.allocs, allocation{})
	copy(d.allocs[i+1:], d.allocs[i:])
	d.allocs[i] = a
	return cuda.Buf{Ptr: a.ptr, N: n}, nil
}

// Free releases a buffer from Alloc; anything else is ignored.
func (d *Device) Free(b cuda.Buf) {
	i := sort.Search(len(d.allocs), func(i int) bool { return d.allocs[i].ptr >= b.Ptr })
	if i == len(d.allocs) || d.allocs[i].ptr != b.Ptr {
		return
	}
	d.free(d.allocs[i].start)
	d.allocs = append(d.allocs[:i], d.allocs[i+1:]...)
}

// view returns the host memory of b's first n elements, or an error where b is not inside
// one allocation or is shorter than n.
func (d *Device) view(what string, b cuda.Buf, n int) ([]float32, error) {
	if n > b.N || n < 0 {
		return nil, fmt.Errorf("emu: %s needs %d elements, the buffer has %d", what, n, b.N)
	}
	i := sort.Search(len(d.allocs), func(i int) bool { return d.allocs[i].ptr > b.Ptr }) - 1
	if i < 0 {
		return nil, fmt.Errorf("emu: %s: address %#x is not in any allocation", what, b.Ptr)
	}
	a := d.allocs[i]
	off := int(b.Ptr - a.ptr)
	if off%4 != 0 || off/4+b.N > a.n {
		return nil, fmt.Errorf("emu: %s: buffer of %d at element %d.%d of an allocation of %d", what, b.N, off/4, off%4, a.n)
	}
	return unsafe.Slice((*float32)(unsafe.Add(a.base, off)), b.N)[:n], nil
}

// Upload copies src into the first len(src) elements of dst.
func (d *Device) Upload(dst cuda.Buf, src []float32) error {
	v, err := d.view("Upload", dst, len(src))
	if err != nil {
		return err
	}
	copy(v, src)
	return nil
}

// Download copies the first len(dst) elements of src into dst.
func (d *Device) Download(dst []float32, src cuda.Buf) error {
	v, err := d.view("Download", src, len(dst))
	if err != nil {
		return err
	}
	copy(dst, v)
	return nil
}

// Launch runs kernel name on grid x block threads with the arguments checked against its
// signature: a Buf for a pointer (checked to lie in an allocation), an int32 for an int and a
// float32 for a float. It returns when the kernel has finished.
func (d *Device) Launch(name string, grid, block cuda.Dim3, args ...any) error {
	k, ok := d.kernels[name]
	if !ok {
		return fmt.Errorf("emu: no kernel %q", name)
	}
	if len(args) != len(k.args) {
		return fmt.Errorf("emu: %s takes %d arguments, got %d", name, len(k.args), len(args))
	}
	launchMu.Lock()
	defer launchMu.Unlock()
	for i, a := range args {
		slot := unsafe.Add(d.params, 8*i)
		switch v := a.(type) {
		case cuda.Buf:
			if k.args[i] != kernels.Ptr {
				return fmt.Errorf("emu: %s argument %d is a buffer, want %v", name, i, k.args[i])
			}
			h, err := d.view(fmt.Sprintf("%s argument %d", name, i), v, v.N)
			if err != nil {
				return err
			}
			*(*unsafe.Pointer)(slot) = unsafe.Pointer(unsafe.SliceData(h))
		case int32:
			if k.args[i] != kernels.Int {
				return fmt.Errorf("emu: %s argument %d is an int32, want %v", name, i, k.args[i])
			}
			*(*int32)(slot) = v
		case float32:
			if k.args[i] != kernels.Float {
				return fmt.Errorf("emu: %s argument %d is a float32, want %v", name, i, k.args[i])
			}
			*(*float32)(slot) = v
		default:
			return fmt.Errorf("emu: %s argument %d is a %T, want %v", name, i, a, k.args[i])
		}
	}
	if err := d.launchChecked(name, k.index, grid, block); err != nil {
		return err
	}
	d.launched[name] = true
	d.count.Add()
	return nil
}

// Launches returns how many kernels and products have run, counted as the GPU counts them.
func (d *Device) Launches() int64 { return d.count.Launches() }

// Launched reports whether kernel name has run without an error on d: tests check with it
// that every kernel is covered.
func (d *Device) Launched(name string) bool { return d.launched[name] }

// launchChecked runs a launch whose arguments are packed, twice where checkOrder is set.
func (d *Device) launchChecked(name string, index int32, grid, block cuda.Dim3) error {
	if !d.checkOrder {
		return d.run(name, index, grid, block, 0)
	}
	before := d.snapshot()
	if err := d.run(name, index, grid, block, 1); err != nil {
		return err
	}
	reversed := d.snapshot()
	d.restore(before)
	if err := d.run(name, index, grid, block, 0); err != nil {
		return err
	}
	for i, a := range d.allocs {
		got := unsafe.Slice((*uint32)(a.base), a.n)
		for j, v := range reversed[i] {
			if got[j] != v {
				return fmt.Errorf("emu: %s: its result depends on the order of blocks or threads (a race): element %d of the allocation at %#x is %v in index order, %v in reverse order",
					name, j, a.ptr, math.Float32frombits(got[j]), math.Float32frombits(v))
			}
		}
	}
	return nil
}

// CheckOrder sets whether every launch runs twice, with blocks and threads in reverse order
// and then in index order, failing where any allocation differs. A GPU runs blocks and
// threads between barriers in no set order, so such a kernel has a race; tests turn this on.
// It costs two copies of all allocated memory a launch.
func (d *Device) CheckOrder(on bool) { d.checkOrder = on }

// checkGuards returns an error naming the first allocation whose guards a launch of name
// overwrote, and restores them.
func (d *Device) checkGuards(name string) error {
	var err error
	for _, a := range d.allocs {
		before, after := a.guards()
		for i := range guard {
			if err == nil && before[i] != guardBits {
				err = fmt.Errorf("emu: %s wrote element %d of a buffer of %d at %#x, outside it", name, i-guard, a.n, a.ptr)
			}
			if err == nil && after[i] != guardBits {
				err = fmt.Errorf("emu: %s wrote element %d of a buffer of %d at %#x, outside it", name, a.n+i, a.n, a.ptr)
			}
			before[i], after[i] = guardBits, guardBits
		}
	}
	return err
}

// snapshot returns a copy of every allocation's bits.
func (d *Device) snapshot() [][]uint32 {
	s := make([][]uint32, len(d.allocs))
	for i, a := range d.allocs {
		s[i] = append([]uint32(nil), unsafe.Slice((*uint32)(a.base), a.n)...)
	}
	return s
}

// restore writes a snapshot back.
func (d *Device) restore(s [][]uint32) {
	for i, a := range d.allocs {
		copy(unsafe.Slice((*uint32)(a.base), a.n), s[i])
	}
}

// run launches kernel index on grid x block threads with the arguments already packed, and
// checks the allocations' guards.
func (d *Device) run(name string, index int32, grid, block cuda.Dim3, reverse int32) error {
	rc := d.launch(index, unsafe.Add(d.params, 8*maxArgs),
		int32(grid.X), int32(grid.Y), int32(grid.Z), int32(block.X), int32(block.Y), int32(block.Z), reverse)
	switch rc {
	case 0:
		return d.checkGuards(name)
	case 1:
		return fmt.Errorf("emu: %s: bad launch size grid %v block %v (each >= 1, at most 1024 threads a block)", name, grid, block)
	case 2:
		return fmt.Errorf("emu: %s: out of memory for %d thread stacks", name, block.X*block.Y*block.Z)
	case 3:
		return fmt.Errorf("emu: %s: __syncthreads() not reached by every thread of a block", name)
	case 4:
		return fmt.Errorf("emu: %s: reached __syncthreads() where kernels.List found none", name)
	}
	return fmt.Errorf("emu: %s: launch returned %d", name, rc)
}

// Sync returns nil: every call of the emulator has finished, and reported its error, when
// it returns.
func (d *Device) Sync() error { return nil }

// Close frees every allocation. The library stays loaded: another Device may share it.
func (d *Device) Close() error {
	for _, a := range d.allocs {
		d.free(a.start)
	}
	d.allocs = nil
	if d.params != nil {
		d.free(d.params)
		d.params = nil
	}
	return nil
}
