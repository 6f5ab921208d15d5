package gemm

import (
	"strings"
	"testing"
)

// TestSelectFromEnv checks that KernelEnv makes each selectable kernel active and refuses names
// this CPU does not run with one line, keeping the widest kernel.
func TestSelectFromEnv(t *testing.T) {
	widest := active
	defer func() { active, kernelEnvErr = widest, nil }()
	for _, kn := range supported {
		if isNarrowVariant(kn) {
			continue
		}
		active, kernelEnvErr = widest, nil
		t.Setenv(KernelEnv, kn.name)
		selectFromEnv()
		if active != kn || kernelEnvErr != nil {
			t.Errorf("%s=%s: active %s, error %v", KernelEnv, kn.name, active.name, kernelEnvErr)
		}
	}
	for _, name := range []string{"sse9", "avx512-n16"} {
		active, kernelEnvErr = widest, nil
		t.Setenv(KernelEnv, name)
		selectFromEnv()
		if active != widest || kernelEnvErr == nil || strings.Contains(kernelEnvErr.Error(), "\n") {
			t.Errorf("%s=%s: active %s, error %v; want the widest kernel kept and a one-line refusal", KernelEnv, name, active.name, kernelEnvErr)
		}
	}
}
