package cuda

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync/atomic"

	"github.com/ebitengine/purego"
)

// RequireGPUEnv, set to anything, makes the GPU tests of every package fail where they would
// skip for want of a GPU: tools/gpu-check.sh sets it on the GPU machine.
const RequireGPUEnv = "SPG_TUI_REQUIRE_GPU"

// LibEnv names a directory (or a colon-separated list) searched first for the CUDA libraries.
const LibEnv = "SPG_TUI_CUDA_LIB"

// libDirs are the usual places of the CUDA toolkit's libraries, searched after the loader's
// own path: cuBLAS and NVRTC live in the toolkit's target folder on the GPU machines.
var libDirs = []string{
	"/usr/local/cuda/targets/x86_64-linux/lib",
	"/usr/local/cuda/lib64",
	"/usr/lib/x86_64-linux-gnu",
	"/usr/lib64",
}

// Sonames of each library, newest first: the driver keeps one soname; cuBLAS and NVRTC change
// theirs with each major CUDA version.
var (
	cudaNames   = []string{"libcuda.so.1", "libcuda.so"}
	cublasNames = []string{"libcublas.so.13", "libcublas.so.12", "libcublas.so.11", "libcublas.so"}
	nvrtcNames  = []string{"libnvrtc.so.13", "libnvrtc.so.12", "libnvrtc.so.11.2", "libnvrtc.so"}
)

// ErrNoDriver is wrapped by Open's refusal where no CUDA driver library is found at all.
var ErrNoDriver = errors.New("no CUDA driver")

// ErrNoGPU is wrapped by Open's refusal where the driver loads but finds no GPU (cuInit fails,
// or the GPU asked for is not there).
var ErrNoGPU = errors.New("no GPU")

// Absent reports whether err, from Open, says that this machine has no GPU to open (no driver,
// or a driver without a GPU), as against a GPU that is there and failed to open.
func Absent(err error) bool { return errors.Is(err, ErrNoDriver) || errors.Is(err, ErrNoGPU) }

// errNotFound is wrapped by openLib's error where no candidate exists anywhere it looks.
var errNotFound = errors.New("not found")

// libEnvOnly keeps openLib to LibEnv's directories (LibEnvOnly).
var libEnvOnly atomic.Bool

// LibEnvOnly makes the libraries be looked for in LibEnv's directories alone: tests with stub
// libraries (package cudastub) set it, so that a machine's own CUDA libraries cannot stand in
// for one a stub leaves out.
func LibEnvOnly(on bool) { libEnvOnly.Store(on) }

// openLib dlopens the first of names that loads: in the directories of LibEnv, then by soname
// through the system loader, then in libDirs. It returns the handle and the path or soname
// that loaded, or a one-line error with the loader's own message (wrapping errNotFound where
// no candidate exists anywhere).
//
// Only regular files are dlopened from a directory (a named pipe would block dlopen until a
// writer came). A file of LibEnv's directories that exists is the one the user pointed at: it
// loads, or openLib refuses with why, rather than take another copy from elsewhere.
func openLib(what string, names []string) (uintptr, string, error) {
	// dlerror is per OS thread: it must be read on the thread whose dlopen failed.
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	var dirs []string
	if env := os.Getenv(LibEnv); env != "" {
		dirs = filepath.SplitList(env)
	}
	var places []string
	if len(dirs) > 0 {
		places = append(places, fmt.Sprintf("in %s (%s)", LibEnv, strings.Join(dirs, ", ")))
	}
	for _, d := range dirs {
		for _, n := range names {
			p := filepath.Join(d, n)
			h, exists, err := openFile(p)
			if !exists {
				continue
			}
			if err != nil {
				return 0, "", fmt.Errorf("%s from %s: %v", what, LibEnv, err)
			}
			return h, p, nil
		}
	}
	if !libEnvOnly.Load() {
		var failed error // the first candidate that exists but does not load
		miss := ""       // the loader's message for the first soname
		for _, n := range names {
			h, err := purego.Dlopen(n, purego.RTLD_NOW|purego.RTLD_GLOBAL)
			switch {
			case err == nil:
				return h, n, nil
			case strings.Contains(err.Error(), "No such file or directory"):
				if miss == "" {
					miss = err.Error()
				}
			case failed == nil:
				failed = err
			}
		}
		for _, d := range libDirs {
			for _, n := range names {
				h, exists, err := openFile(filepath.Join(d, n))
				switch {
				case exists && err == nil:
					return h, filepath.Join(d, n), nil
				case exists && failed == nil:
					failed = err
				}
			}
		}
		if failed != nil {
			return 0, "", fmt.Errorf("%s: %v", what, failed)
		}
		places = append(places, fmt.Sprintf("on the loader's path (dlopen: %s)", miss), "in "+strings.Join(libDirs, ", "))
	}
	list := strings.Join(names[:len(names)-1], ", ") + " or " + names[len(names)-1]
	return 0, "", fmt.Errorf("%s %w; set %s to its directory (no %s %s)", what, errNotFound, LibEnv, list, strings.Join(places, ", "))
}

// openFile dlopens the file at path where it exists (exists false where it does not): a file
// that is not regular is refused unopened, and a failed dlopen returns the loader's message.
func openFile(path string) (h uintptr, exists bool, err error) {
	fi, err := os.Stat(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return 0, false, nil
	case err != nil:
		return 0, true, err
	case !fi.Mode().IsRegular():
		return 0, true, fmt.Errorf("%s is not a regular file (mode %v)", path, fi.Mode().Type())
	}
	if h, err = purego.Dlopen(path, purego.RTLD_NOW|purego.RTLD_GLOBAL); err != nil {
		if msg := err.Error(); !strings.Contains(msg, path) {
			return 0, true, fmt.Errorf("%s: %s", path, msg)
		}
		return 0, true, err
	}
	return h, true, nil
}
