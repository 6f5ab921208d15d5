//go:build openblas

package backend

import (
	"os"
	"syscall"

	"golang.org/x/sys/cpu"
)

// coreTypeEnv is read by OpenBLAS's library constructor, before main runs.
const coreTypeEnv = "OPENBLAS_CORETYPE"

// EnsureCoreType makes OpenBLAS use the kernels this CPU supports. OpenBLAS 0.3.21 reads
// OPENBLAS_CORETYPE only when the library loads, so if the variable is unset and the CPU has
// AVX2 or AVX-512, EnsureCoreType sets it and re-executes the running binary (/proc/self/exe,
// same arguments). The re-executed process finds the variable set and returns at once, so it
// re-executes at most once. Call it first thing in main, before any output or goroutines that
// matter; if the exec fails the program continues on the slow kernels (Name tells).
// A value set by the user, even empty, is left alone.
func EnsureCoreType() {
	if _, set := os.LookupEnv(coreTypeEnv); set {
		return
	}
	core := coreType(cpu.X86.HasAVX512F, cpu.X86.HasAVX2)
	if core == "" {
		return
	}
	if os.Setenv(coreTypeEnv, core) != nil {
		return
	}
	_ = syscall.Exec("/proc/self/exe", os.Args, os.Environ())
}

// coreType maps CPU features to the best OpenBLAS 0.3.21 core name; "" leaves OpenBLAS's
// own detection in charge (it handles the older CPUs it knows).
func coreType(avx512f, avx2 bool) string {
	switch {
	case avx512f:
		return "SkylakeX"
	case avx2:
		return "Haswell"
	}
	return ""
}
