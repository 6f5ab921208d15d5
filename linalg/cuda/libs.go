package cuda

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

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

// ErrNoDriver is wrapped by Open's refusal where no CUDA driver loads.
var ErrNoDriver = errors.New("no CUDA driver")

// openLib dlopens the first of names that loads: in the directories of LibEnv, then by soname
// through the system loader, then in libDirs. It returns the handle and the path or soname
// that loaded, or an error naming what was tried.
func openLib(what string, names []string) (uintptr, string, error) {
	var dirs []string
	if env := os.Getenv(LibEnv); env != "" {
		dirs = filepath.SplitList(env)
	}
	var tried []string
	try := func(path string) (uintptr, bool) {
		h, err := purego.Dlopen(path, purego.RTLD_NOW|purego.RTLD_GLOBAL)
		if err != nil {
			tried = append(tried, path)
			return 0, false
		}
		return h, true
	}
	for _, d := range dirs {
		for _, n := range names {
			if h, ok := try(filepath.Join(d, n)); ok {
				return h, filepath.Join(d, n), nil
			}
		}
	}
	for _, n := range names {
		if h, ok := try(n); ok {
			return h, n, nil
		}
	}
	for _, d := range libDirs {
		for _, n := range names {
			p := filepath.Join(d, n)
			if _, err := os.Stat(p); err != nil {
				continue
			}
			if h, ok := try(p); ok {
				return h, p, nil
			}
		}
	}
	return 0, "", fmt.Errorf("%s: none of %s loads; set %s to its directory", what, strings.Join(names, ", "), LibEnv)
}
