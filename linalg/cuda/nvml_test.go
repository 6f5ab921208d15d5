package cuda_test

import (
	"testing"

	"spg-tui/linalg/cuda"
	"spg-tui/linalg/cuda/cudastub"
)

// TestNVMLStub: NVML loads as the driver does and reads the stub GPU's use and memory.
func TestNVMLStub(t *testing.T) {
	cudastub.Use(t, cudastub.OK)
	n, err := cuda.OpenNVML()
	if err != nil {
		t.Fatal(err)
	}
	defer n.Close()
	u, err := n.Read()
	if err != nil {
		t.Fatal(err)
	}
	if u.Util != 42 || u.MemUsed != 1<<30 || u.MemAll != 80<<30 {
		t.Errorf("read %+v, want 42%% and 1 GiB of 80 GiB", u)
	}
}

// TestNVMLAbsent: without NVML (a machine without the NVIDIA driver) OpenNVML says so in one
// line that Absent recognises; a GPU index past those present is no GPU either.
func TestNVMLAbsent(t *testing.T) {
	cudastub.Use(t, cudastub.NoCublas)
	_, err := cuda.OpenNVML()
	if err == nil || !cuda.Absent(err) {
		t.Fatalf("no NVML: %v", err)
	}
	cudastub.Use(t, cudastub.OK)
	t.Setenv("CUDA_VISIBLE_DEVICES", "3")
	if _, err := cuda.OpenNVML(); err == nil || !cuda.Absent(err) {
		t.Errorf("GPU 3 of 1: %v", err)
	}
}
