package device

import (
	"strings"
	"testing"
)

func TestCheck(t *testing.T) {
	for _, m := range []string{Auto, CPU, CUDA} {
		if err := Check(m); err != nil {
			t.Errorf("Check(%q) = %v", m, err)
		}
	}
	for _, m := range []string{"", "gpu", "CUDA", "cuda:0"} {
		if err := Check(m); err == nil || !strings.Contains(err.Error(), "want auto, cpu or cuda") {
			t.Errorf("Check(%q) = %v, want a refusal", m, err)
		}
	}
}

// TestUseCPU: --device cpu never opens a GPU, and the first choice holds for the process.
func TestUseCPU(t *testing.T) {
	if err := Use(CPU, ""); err != nil {
		t.Fatal(err)
	}
	if Current() != nil || Name() != "cpu" {
		t.Fatalf("after cpu: current %v, name %q", Current(), Name())
	}
	if err := Use(CUDA, ""); err != nil || Current() != nil {
		t.Fatalf("a second choice changed the device: %v, %v", err, Current())
	}
	if err := Use("gpu", ""); err == nil {
		t.Fatal("an unknown mode was accepted after a choice")
	}
}
