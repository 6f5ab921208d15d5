package gemm

import (
	"fmt"
	"os"
	"strings"
)

// KernelEnv is the environment variable that, when set, picks the micro-kernel by name
// ("avx512", "avx2" or "go") instead of the widest one the CPU runs, so that a narrower
// kernel can be timed on a wider CPU. A name this CPU and build cannot run is refused (see
// KernelEnvError) and the widest kernel stays in use: never an illegal instruction.
const KernelEnv = "SPG_TUI_GEMM"

// kernelEnvErr is what selectFromEnv refused, nil when it refused nothing.
var kernelEnvErr error

// KernelEnvError reports a KernelEnv naming no kernel this CPU and build can run, in one line;
// nil when KernelEnv is unset or was honoured.
func KernelEnvError() error { return kernelEnvErr }

// selectFromEnv makes the kernel KernelEnv names active. The build's init calls it once the
// supported kernels are known. A kernel that is another's narrow or row variant is not
// selectable on its own: Sgemm switches to it by itself.
func selectFromEnv() {
	name := os.Getenv(KernelEnv)
	if name == "" {
		return
	}
	var names []string
	for _, kn := range supported {
		if isNarrowVariant(kn) {
			continue
		}
		if kn.name == name {
			active = kn
			return
		}
		names = append(names, kn.name)
	}
	kernelEnvErr = fmt.Errorf("%s=%q: this CPU and build run the kernels %s", KernelEnv, name, strings.Join(names, ", "))
}

// isNarrowVariant reports whether kn is the narrow or row kernel of a supported kernel.
func isNarrowVariant(kn *microKernel) bool {
	for _, other := range supported {
		if other.narrow == kn || other.row == kn {
			return true
		}
	}
	return false
}
