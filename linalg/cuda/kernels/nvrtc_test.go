package kernels_test

import (
	"fmt"
	"runtime"
	"strings"
	"testing"
	"unsafe"

	"github.com/ebitengine/purego"

	"spg-tui/linalg/cuda/kernels"
)

// nvrtcNames are where NVRTC is looked for: the sonames of CUDA 13 down to 11 (11.x ships
// libnvrtc.so.11.2), then the toolkit's usual directory.
var nvrtcNames = []string{"libnvrtc.so", "libnvrtc.so.13", "libnvrtc.so.12", "libnvrtc.so.11.2",
	"/usr/local/cuda/lib64/libnvrtc.so"}

// nvrtc is the part of NVRTC's API the test calls; a program handle is a pointer.
type nvrtc struct {
	create     func(prog *uintptr, src, name string, nHeaders int32, headers, includeNames unsafe.Pointer) int32
	compile    func(prog uintptr, nOptions int32, options unsafe.Pointer) int32
	logSize    func(prog uintptr, size *uintptr) int32
	log        func(prog uintptr, log *byte) int32
	ptxSize    func(prog uintptr, size *uintptr) int32
	ptx        func(prog uintptr, ptx *byte) int32
	destroy    func(prog *uintptr) int32
	errorText  func(code int32) string
	loadedFrom string
}

// loadNVRTC opens the first NVRTC found, or returns nil.
func loadNVRTC() *nvrtc {
	for _, name := range nvrtcNames {
		lib, err := purego.Dlopen(name, purego.RTLD_NOW|purego.RTLD_LOCAL)
		if err != nil {
			continue
		}
		n := &nvrtc{loadedFrom: name}
		purego.RegisterLibFunc(&n.create, lib, "nvrtcCreateProgram")
		purego.RegisterLibFunc(&n.compile, lib, "nvrtcCompileProgram")
		purego.RegisterLibFunc(&n.logSize, lib, "nvrtcGetProgramLogSize")
		purego.RegisterLibFunc(&n.log, lib, "nvrtcGetProgramLog")
		purego.RegisterLibFunc(&n.ptxSize, lib, "nvrtcGetPTXSize")
		purego.RegisterLibFunc(&n.ptx, lib, "nvrtcGetPTX")
		purego.RegisterLibFunc(&n.destroy, lib, "nvrtcDestroyProgram")
		purego.RegisterLibFunc(&n.errorText, lib, "nvrtcGetErrorString")
		return n
	}
	return nil
}

// compilePTX compiles src with the given options and returns the PTX and the compiler's log.
func (n *nvrtc) compilePTX(src string, options ...string) (ptx, log string, err error) {
	var prog uintptr
	if rc := n.create(&prog, src, "kernels.cu", 0, nil, nil); rc != 0 {
		return "", "", fmt.Errorf("nvrtcCreateProgram: %s", n.errorText(rc))
	}
	defer n.destroy(&prog)
	// NVRTC reads the option strings through a C array of pointers: keep them pinned.
	var pin runtime.Pinner
	defer pin.Unpin()
	ptrs := make([]*byte, len(options))
	for i, o := range options {
		b := append([]byte(o), 0)
		pin.Pin(&b[0])
		ptrs[i] = &b[0]
	}
	pin.Pin(&ptrs[0])
	rc := n.compile(prog, int32(len(options)), unsafe.Pointer(&ptrs[0]))
	var size uintptr
	if n.logSize(prog, &size) == 0 && size > 1 {
		buf := make([]byte, size)
		n.log(prog, &buf[0])
		log = strings.TrimRight(string(buf), "\x00\n")
	}
	if rc != 0 {
		return "", log, fmt.Errorf("nvrtcCompileProgram: %s", n.errorText(rc))
	}
	if rc := n.ptxSize(prog, &size); rc != 0 || size == 0 {
		return "", log, fmt.Errorf("nvrtcGetPTXSize: %s", n.errorText(rc))
	}
	buf := make([]byte, size)
	if rc := n.ptx(prog, &buf[0]); rc != 0 {
		return "", log, fmt.Errorf("nvrtcGetPTX: %s", n.errorText(rc))
	}
	return strings.TrimRight(string(buf), "\x00"), log, nil
}

// TestNVRTCCompiles compiles every kernel source as the CUDA driver will, for compute_80 (the
// newest architecture NVRTC 11.8 knows; the GPU machine compiles for compute_90), and checks
// that each kernel is an entry of the PTX under its C name. Warnings fail too.
func TestNVRTCCompiles(t *testing.T) {
	n := loadNVRTC()
	if n == nil {
		t.Skipf("no NVRTC loads (tried %s)", strings.Join(nvrtcNames, ", "))
	}
	ptx, log, err := n.compilePTX(kernels.Source(), "--gpu-architecture=compute_80")
	if err != nil {
		t.Fatalf("%s (NVRTC from %s):\n%s", err, n.loadedFrom, log)
	}
	if log != "" {
		t.Fatalf("NVRTC warns:\n%s", log)
	}
	ks, err := kernels.List()
	if err != nil {
		t.Fatal(err)
	}
	for _, k := range ks {
		if !strings.Contains(ptx, ".entry "+k.Name+"(") {
			t.Errorf("PTX has no entry %s", k.Name)
		}
	}
}

// TestNVRTCReportsErrors makes sure the test above can fail: a source with an error does not
// compile and the log names it.
func TestNVRTCReportsErrors(t *testing.T) {
	n := loadNVRTC()
	if n == nil {
		t.Skipf("no NVRTC loads (tried %s)", strings.Join(nvrtcNames, ", "))
	}
	_, log, err := n.compilePTX(`extern "C" __global__ void bad(float* y) { y[0] = undefined_name; }`, "--gpu-architecture=compute_80")
	if err == nil || !strings.Contains(log, "undefined_name") {
		t.Fatalf("err = %v, log %q: want a compile error naming undefined_name", err, log)
	}
}
