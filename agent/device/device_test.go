package device

import (
	"os"
	"strings"
	"testing"

	"spg-tui/linalg/cuda"
	"spg-tui/linalg/cuda/cudastub"
)

func TestMain(m *testing.M) {
	code := m.Run()
	cudastub.Remove()
	os.Exit(code)
}

// fresh forgets the process's choice, before the test and after it (closing a GPU it opened).
func fresh(t *testing.T) {
	forget := func() {
		mu.Lock()
		defer mu.Unlock()
		if current != nil {
			current.Close()
		}
		mode, ptxDir, notify, tried, current, why = "", "", nil, false, nil, ""
	}
	forget()
	t.Cleanup(forget)
}

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
	fresh(t)
	if err := Use(CPU, "", nil); err != nil {
		t.Fatal(err)
	}
	if Open() != nil || CPUName("") != "cpu" || CPUName("spg-gm") != "cpu" {
		t.Fatalf("after cpu: device %v, names %q, %q", Open(), CPUName(""), CPUName("spg-gm"))
	}
	if err := Use(CUDA, "", nil); err != nil || Open() != nil {
		t.Fatalf("a second choice changed the device: %v, %v", err, Open())
	}
	if err := Use("gpu", "", nil); err == nil {
		t.Fatal("an unknown mode was accepted after a choice")
	}
}

// unusable are the stubs whose driver loads but whose GPU cannot be used, each with what its
// reason names.
var unusable = []struct {
	v     cudastub.Variant
	cause string
}{
	{cudastub.NoCublas, "cuBLAS not found"}, {cudastub.NoNVRTC, "NVRTC not found"},
	{cudastub.CtxFails, "cuDevicePrimaryCtxRetain: out of memory"},
	{cudastub.Rejects, "cuModuleLoadData: a PTX JIT compilation failed"},
	{cudastub.FIFO, "libcuda.so.1 is not a regular file"},
}

// TestAutoFallsBack: under auto a GPU that does not open leaves the learners on the CPU, with
// one line saying why (heard once by the note, and in CPUName); it is tried once.
func TestAutoFallsBack(t *testing.T) {
	for _, c := range unusable {
		t.Run(string(c.v), func(t *testing.T) {
			fresh(t)
			cudastub.Use(t, c.v)
			var notes []string
			if err := Use(Auto, t.TempDir(), func(line string) { notes = append(notes, line) }); err != nil {
				t.Fatalf("auto refused: %v", err)
			}
			if d := Open(); d != nil {
				t.Fatalf("opened %s", d.Name())
			}
			inits := cudastub.Calls(t, "cuInit")
			Open()
			name := CPUName("")
			if !strings.HasPrefix(name, "cpu (GPU not used: ") || !strings.Contains(name, c.cause) || strings.Contains(name, "\n") ||
				strings.HasPrefix(name, "cpu (GPU not used: cuda: ") {
				t.Errorf("CPUName %q: want one line, GPU not used: ... %s", name, c.cause)
			}
			if len(notes) != 1 || notes[0] != name {
				t.Errorf("notes %q, want once %q", notes, name)
			}
			if cudastub.Calls(t, "cuInit") != inits {
				t.Error("a second Open tried the GPU again")
			}
			if got := CPUName("spg-sequential"); got != "cpu (spg-sequential has no GPU kernels)" {
				t.Errorf("CPUName for a model without kernels: %q", got)
			}
		})
	}
}

// TestCUDARefuses: --device cuda refuses a GPU that does not open, at once, in one line that
// names the cause.
func TestCUDARefuses(t *testing.T) {
	for _, c := range unusable {
		t.Run(string(c.v), func(t *testing.T) {
			fresh(t)
			cudastub.Use(t, c.v)
			err := Use(CUDA, t.TempDir(), nil)
			if err == nil {
				t.Fatal("cuda accepted a GPU that does not open")
			}
			msg := err.Error()
			if !strings.HasPrefix(msg, "--device cuda: ") || !strings.Contains(msg, c.cause) || strings.Contains(msg, "\n") ||
				strings.HasPrefix(msg, "--device cuda: cuda: ") {
				t.Errorf("refusal %q: want one line naming %s", msg, c.cause)
			}
		})
	}
}

// TestAutoWithoutDriver: a machine without a driver computes on the CPU and says so briefly,
// with no note (every machine without a GPU would print one).
func TestAutoWithoutDriver(t *testing.T) {
	fresh(t)
	t.Setenv(cuda.LibEnv, t.TempDir())
	cuda.LibEnvOnly(true)
	t.Cleanup(func() { cuda.LibEnvOnly(false) })
	noted := false
	if err := Use(Auto, "", func(string) { noted = true }); err != nil {
		t.Fatal(err)
	}
	if Open() != nil || CPUName("") != "cpu (no CUDA driver)" || noted {
		t.Fatalf("without a driver: %v, %q, noted %v", Open(), CPUName(""), noted)
	}
}

// TestAutoOpensWhenNeeded: auto opens the GPU at the first Open, not at Use, and keeps the
// compiled kernels in the cache's ptx folder.
func TestAutoOpensWhenNeeded(t *testing.T) {
	fresh(t)
	cudastub.Use(t, cudastub.OK)
	cache := t.TempDir()
	inits := cudastub.Calls(t, "cuInit")
	if err := Use(Auto, cache, nil); err != nil {
		t.Fatal(err)
	}
	if cudastub.Calls(t, "cuInit") != inits || Current() != nil {
		t.Fatal("auto opened the GPU before a learner asked for it")
	}
	d := Open()
	if d == nil || Current() != d || !strings.Contains(d.Name(), "Stub GPU") {
		t.Fatalf("Open = %v, want the stub GPU", d)
	}
	if ptx, _ := os.ReadDir(cache + "/ptx"); len(ptx) != 1 {
		t.Errorf("the cache's ptx folder holds %d entries, want 1", len(ptx))
	}
}
