package cuda

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"unsafe"

	"github.com/ebitengine/purego"
)

// maxPTX bounds a cached PTX file read back: the project's kernels compile to well under 1 MiB.
const maxPTX = 16 << 20

// nvrtcAPI is the part of NVRTC used to compile the kernels at run time.
type nvrtcAPI struct {
	version        func(major, minor *int32) int32
	create         func(prog *uintptr, src string, name string, nHeaders int32, headers, includeNames unsafe.Pointer) int32
	compile        func(prog uintptr, nOpts int32, opts unsafe.Pointer) int32
	logSize        func(prog uintptr, n *uint64) int32
	log            func(prog uintptr, buf unsafe.Pointer) int32
	ptxSize        func(prog uintptr, n *uint64) int32
	ptx            func(prog uintptr, buf unsafe.Pointer) int32
	destroy        func(prog *uintptr) int32
	getErrorString func(r int32) string
}

// LoadNVRTC loads NVRTC (see openLib for where it looks); the path it came from is returned too.
func LoadNVRTC() (*NVRTC, error) {
	h, path, err := openLib("NVRTC", nvrtcNames)
	if err != nil {
		return nil, err
	}
	api, err := bindNVRTC(h)
	if err != nil {
		return nil, err
	}
	var major, minor int32
	if r := api.version(&major, &minor); r != 0 {
		return nil, fmt.Errorf("nvrtcVersion: %s", api.getErrorString(r))
	}
	return &NVRTC{api: api, Path: path, Major: int(major), Minor: int(minor)}, nil
}

// bindNVRTC binds NVRTC's functions from the library handle h.
func bindNVRTC(h uintptr) (api *nvrtcAPI, err error) {
	defer func() {
		if r := recover(); r != nil {
			api, err = nil, fmt.Errorf("libnvrtc lacks a function spg-tui needs: %v", r)
		}
	}()
	api = &nvrtcAPI{}
	reg := func(fptr any, name string) { purego.RegisterLibFunc(fptr, h, name) }
	reg(&api.version, "nvrtcVersion")
	reg(&api.create, "nvrtcCreateProgram")
	reg(&api.compile, "nvrtcCompileProgram")
	reg(&api.logSize, "nvrtcGetProgramLogSize")
	reg(&api.log, "nvrtcGetProgramLog")
	reg(&api.ptxSize, "nvrtcGetPTXSize")
	reg(&api.ptx, "nvrtcGetPTX")
	reg(&api.destroy, "nvrtcDestroyProgram")
	reg(&api.getErrorString, "nvrtcGetErrorString")
	return api, nil
}

// NVRTC compiles CUDA C to PTX.
type NVRTC struct {
	api          *nvrtcAPI
	Path         string // the library that loaded
	Major, Minor int    // its version
}

// Compile compiles src for arch (for example "compute_90") and returns its PTX and the
// compiler's log (warnings; empty when it has nothing to say), or an error holding the log.
func (c *NVRTC) Compile(src, name, arch string, extra ...string) (ptx []byte, log string, err error) {
	var prog uintptr
	if r := c.api.create(&prog, src, name, 0, nil, nil); r != 0 {
		return nil, "", fmt.Errorf("nvrtcCreateProgram: %s", c.api.getErrorString(r))
	}
	defer c.api.destroy(&prog)
	// The architecture alone: the kernels compile at NVRTC's default dialect.
	opts := append([]string{"--gpu-architecture=" + arch}, extra...)
	cstrs := make([][]byte, len(opts))
	ptrs := make([]*byte, len(opts))
	for i, o := range opts {
		cstrs[i] = append([]byte(o), 0)
		ptrs[i] = &cstrs[i][0]
	}
	r := c.api.compile(prog, int32(len(opts)), unsafe.Pointer(&ptrs[0]))
	log = c.programLog(prog)
	if r != 0 {
		return nil, log, fmt.Errorf("nvrtc: compiling %s for %s: %s\n%s", name, arch, c.api.getErrorString(r), log)
	}
	var n uint64
	if r := c.api.ptxSize(prog, &n); r != 0 || n == 0 || n > maxPTX {
		return nil, log, fmt.Errorf("nvrtcGetPTXSize: %s (%d bytes)", c.api.getErrorString(r), n)
	}
	ptx = make([]byte, n)
	if r := c.api.ptx(prog, unsafe.Pointer(&ptx[0])); r != 0 {
		return nil, log, fmt.Errorf("nvrtcGetPTX: %s", c.api.getErrorString(r))
	}
	return ptx, log, nil
}

// programLog returns the compiler's log of prog, trimmed.
func (c *NVRTC) programLog(prog uintptr) string {
	var n uint64
	if c.api.logSize(prog, &n) != 0 || n <= 1 || n > 1<<20 {
		return ""
	}
	buf := make([]byte, n)
	c.api.log(prog, unsafe.Pointer(&buf[0]))
	return strings.TrimRight(string(buf), "\x00\n ")
}

// ptxCache keeps compiled PTX in dir (empty: no cache) under a hash of everything that shapes
// it, so that a kernel change, another GPU or another NVRTC compiles anew.
type ptxCache struct{ dir string }

// key is the cache file name for src compiled with the given identity strings.
func (ptxCache) key(src string, ident ...string) string {
	h := sha256.New()
	h.Write([]byte(src))
	for _, s := range ident {
		h.Write([]byte{0})
		h.Write([]byte(s))
	}
	return hex.EncodeToString(h.Sum(nil))[:32] + ".ptx"
}

// path is the file of key's entry.
func (c ptxCache) path(key string) string { return filepath.Join(c.dir, key) }

// get returns the cached PTX for key, if a regular file of a sane size holds it. A PTX module
// ends in a NUL that cuModuleLoadData needs; an entry without it is not trusted.
func (c ptxCache) get(key string) ([]byte, bool) {
	if c.dir == "" {
		return nil, false
	}
	p := c.path(key)
	fi, err := os.Lstat(p)
	if err != nil || !fi.Mode().IsRegular() || fi.Size() < 2 || fi.Size() > maxPTX {
		return nil, false
	}
	b, err := os.ReadFile(p)
	if err != nil || len(b) != int(fi.Size()) || b[len(b)-1] != 0 || !strings.Contains(string(b), ".entry") {
		return nil, false
	}
	return b, true
}

// put stores ptx under key, atomically (a temporary file renamed); failures only cost a
// recompilation next time, so they are ignored.
func (c ptxCache) put(key string, ptx []byte) {
	if c.dir == "" || os.MkdirAll(c.dir, 0o755) != nil {
		return
	}
	f, err := os.CreateTemp(c.dir, ".ptx-*")
	if err != nil {
		return
	}
	_, werr := f.Write(ptx)
	if cerr := f.Close(); werr != nil || cerr != nil || os.Rename(f.Name(), c.path(key)) != nil {
		os.Remove(f.Name())
	}
}
