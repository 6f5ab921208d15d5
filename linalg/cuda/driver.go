package cuda

import (
	"fmt"
	"unsafe"

	"github.com/ebitengine/purego"
)

// cuResult is a CUresult; 0 is CUDA_SUCCESS.
type cuResult int32

// Device attributes read at Open (CUdevice_attribute).
const (
	attrComputeMajor = 75
	attrComputeMinor = 76
)

// driverAPI is the part of the CUDA driver API the device uses, loaded from libcuda. The
// signatures are those of cuda.h (CUDA 12 and 13 agree on all of them; cuCtxCreate, which
// changed, is not used: the primary context is).
type driverAPI struct {
	cuInit                    func(flags uint32) cuResult
	cuDriverGetVersion        func(v *int32) cuResult
	cuDeviceGetCount          func(n *int32) cuResult
	cuDeviceGet               func(dev *int32, ordinal int32) cuResult
	cuDeviceGetName           func(name *byte, n int32, dev int32) cuResult
	cuDeviceGetAttribute      func(v *int32, attr int32, dev int32) cuResult
	cuDevicePrimaryCtxRetain  func(ctx *uintptr, dev int32) cuResult
	cuDevicePrimaryCtxRelease func(dev int32) cuResult
	cuCtxSetCurrent           func(ctx uintptr) cuResult
	cuCtxSynchronize          func() cuResult
	cuMemAlloc                func(p *uint64, bytes uint64) cuResult
	cuMemFree                 func(p uint64) cuResult
	cuMemsetD32               func(p uint64, v uint32, n uint64) cuResult
	cuMemcpyHtoD              func(dst uint64, src unsafe.Pointer, bytes uint64) cuResult
	cuMemcpyDtoH              func(dst unsafe.Pointer, src uint64, bytes uint64) cuResult
	cuModuleLoadData          func(mod *uintptr, image unsafe.Pointer) cuResult
	cuModuleUnload            func(mod uintptr) cuResult
	cuModuleGetFunction       func(f *uintptr, mod uintptr, name string) cuResult
	cuLaunchKernel            func(f uintptr, gx, gy, gz, bx, by, bz, shared uint32, stream uintptr, params unsafe.Pointer, extra unsafe.Pointer) cuResult
	cuGetErrorString          func(r cuResult, s **byte) cuResult
}

// loadDriver binds the driver API from the library handle h.
func loadDriver(h uintptr) (d *driverAPI, err error) {
	defer func() {
		// RegisterLibFunc panics on a missing symbol: an old or foreign libcuda.
		if r := recover(); r != nil {
			d, err = nil, fmt.Errorf("libcuda lacks a function spg-tui needs: %v", r)
		}
	}()
	d = &driverAPI{}
	reg := func(fptr any, name string) { purego.RegisterLibFunc(fptr, h, name) }
	reg(&d.cuInit, "cuInit")
	reg(&d.cuDriverGetVersion, "cuDriverGetVersion")
	reg(&d.cuDeviceGetCount, "cuDeviceGetCount")
	reg(&d.cuDeviceGet, "cuDeviceGet")
	reg(&d.cuDeviceGetName, "cuDeviceGetName")
	reg(&d.cuDeviceGetAttribute, "cuDeviceGetAttribute")
	reg(&d.cuDevicePrimaryCtxRetain, "cuDevicePrimaryCtxRetain")
	reg(&d.cuDevicePrimaryCtxRelease, "cuDevicePrimaryCtxRelease_v2")
	reg(&d.cuCtxSetCurrent, "cuCtxSetCurrent")
	reg(&d.cuCtxSynchronize, "cuCtxSynchronize")
	reg(&d.cuMemAlloc, "cuMemAlloc_v2")
	reg(&d.cuMemFree, "cuMemFree_v2")
	reg(&d.cuMemsetD32, "cuMemsetD32_v2")
	reg(&d.cuMemcpyHtoD, "cuMemcpyHtoD_v2")
	reg(&d.cuMemcpyDtoH, "cuMemcpyDtoH_v2")
	reg(&d.cuModuleLoadData, "cuModuleLoadData")
	reg(&d.cuModuleUnload, "cuModuleUnload")
	reg(&d.cuModuleGetFunction, "cuModuleGetFunction")
	reg(&d.cuLaunchKernel, "cuLaunchKernel")
	reg(&d.cuGetErrorString, "cuGetErrorString")
	return d, nil
}

// check turns a CUresult into an error naming the call, or nil.
func (d *driverAPI) check(call string, r cuResult) error {
	if r == 0 {
		return nil
	}
	return fmt.Errorf("cuda: %s", d.describe(call, r))
}

// describe says what call's failure r is, in the driver's words.
func (d *driverAPI) describe(call string, r cuResult) string {
	var s *byte
	msg := "unknown error"
	if d.cuGetErrorString(r, &s) == 0 && s != nil {
		msg = goString(s)
	}
	return fmt.Sprintf("%s: %s (CUresult %d)", call, msg, r)
}

// goString copies the NUL-terminated C string at s (at most 4 KiB).
func goString(s *byte) string {
	var b []byte
	for p := unsafe.Pointer(s); len(b) < 4096; p = unsafe.Add(p, 1) {
		c := *(*byte)(p)
		if c == 0 {
			break
		}
		b = append(b, c)
	}
	return string(b)
}
