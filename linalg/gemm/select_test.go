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

// TestTranspose16 checks every kernel's 16 x 16 transpose against the naive one, at strides
// wider than the block.
func TestTranspose16(t *testing.T) {
	const ldsrc, lddst = 21, 19
	src := make([]float32, 16*ldsrc)
	for i := range src {
		src[i] = float32(i)
	}
	for _, kn := range supported {
		if kn.transpose16 == nil {
			continue
		}
		dst := make([]float32, 16*lddst)
		kn.transpose16(dst, lddst, src, ldsrc)
		for i := range 16 {
			for j := range lddst {
				want := float32(0)
				if j < 16 {
					want = src[j*ldsrc+i]
				}
				if dst[i*lddst+j] != want {
					t.Fatalf("%s: dst[%d][%d] = %v, want %v", kn.name, i, j, dst[i*lddst+j], want)
				}
			}
		}
	}
}
