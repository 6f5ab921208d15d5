package device

import (
	"os"
	"strings"
	"testing"

	"spg-tui/linalg/cuda"
	"spg-tui/linalg/cuda/cudastub"
)

func TestMain(m *testing.M) { cudastub.Main(m) }

// use is New for a test: the GPU it opens is closed when the test ends.
func use(t *testing.T, mode, cacheRoot string, note func(string)) (*Device, error) {
	d, err := New(mode, cacheRoot, note)
	if d != nil {
		t.Cleanup(func() {
			if d.gpu != nil {
				d.gpu.Close()
			}
		})
	}
	return d, err
}

func TestModes(t *testing.T) {
	for _, m := range []string{Auto, CPU, CUDA} {
		if err := check(m); err != nil {
			t.Errorf("check(%q) = %v", m, err)
		}
	}
	for _, m := range []string{"", "gpu", "CUDA", "cuda:0"} {
		if err := check(m); err == nil || !strings.Contains(err.Error(), "want auto, cpu or cuda") {
			t.Errorf("check(%q) = %v, want a refusal", m, err)
		}
	}
}

// TestCPU: --device cpu never opens a GPU; nor does a nil Device, which is the CPU.
func TestCPU(t *testing.T) {
	cudastub.Use(t, cudastub.OK)
	inits := cudastub.Calls(t, "cuInit")
	d, err := use(t, CPU, "", nil)
	if err != nil {
		t.Fatal(err)
	}
	var none *Device
	for _, d := range []*Device{d, none} {
		if d.Open() != nil || d.CPUName("") != "cpu" || d.CPUName("spg-gm") != "cpu" {
			t.Fatalf("%v: device %v, names %q, %q", d, d.Open(), d.CPUName(""), d.CPUName("spg-gm"))
		}
	}
	if cudastub.Calls(t, "cuInit") != inits {
		t.Error("cpu initialised the driver")
	}
	if _, err := New("gpu", "", nil); err == nil || !strings.Contains(err.Error(), "want auto, cpu or cuda") {
		t.Fatalf("an unknown mode: %v", err)
	}
}

// TestDevicesAreIndependent: two devices in one process keep their own choice. They used to
// be one package-level choice, the first command's, which a second could not change.
func TestDevicesAreIndependent(t *testing.T) {
	cudastub.Use(t, cudastub.OK)
	cpu, err := use(t, CPU, "", nil)
	if err != nil {
		t.Fatal(err)
	}
	auto, err := use(t, Auto, t.TempDir(), nil)
	if err != nil {
		t.Fatal(err)
	}
	if g := auto.Open(); g == nil || !strings.Contains(g.Name(), "Stub GPU") {
		t.Fatalf("auto after cpu: %v, want the stub GPU", g)
	}
	if cpu.Open() != nil || cpu.CPUName("") != "cpu" {
		t.Fatalf("cpu after auto opened the GPU: %v, %q", cpu.Open(), cpu.CPUName(""))
	}
	other, err := use(t, Auto, t.TempDir(), nil)
	if err != nil {
		t.Fatal(err)
	}
	if g := other.Open(); g == nil || g == auto.Open() {
		t.Fatalf("a second auto device shares the first's GPU: %v", g)
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
			cudastub.Use(t, c.v)
			var notes []string
			d, err := use(t, Auto, t.TempDir(), func(line string) { notes = append(notes, line) })
			if err != nil {
				t.Fatalf("auto refused: %v", err)
			}
			if g := d.Open(); g != nil {
				t.Fatalf("opened %s", g.Name())
			}
			inits := cudastub.Calls(t, "cuInit")
			d.Open()
			name := d.CPUName("")
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
			if got := d.CPUName("spg-sequential"); got != "cpu (spg-sequential has no GPU kernels)" {
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
			cudastub.Use(t, c.v)
			d, err := use(t, CUDA, t.TempDir(), nil)
			if err == nil || d != nil {
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
	t.Setenv(cuda.LibEnv, t.TempDir())
	cuda.LibEnvOnly(true)
	t.Cleanup(func() { cuda.LibEnvOnly(false) })
	noted := false
	d, err := use(t, Auto, "", func(string) { noted = true })
	if err != nil {
		t.Fatal(err)
	}
	if d.Open() != nil || d.CPUName("") != "cpu (no CUDA driver)" || noted {
		t.Fatalf("without a driver: %v, %q, noted %v", d.Open(), d.CPUName(""), noted)
	}
}

// TestAutoOpensWhenNeeded: auto opens the GPU at the first Open, not at Use, and keeps the
// compiled kernels in the cache's ptx folder.
func TestAutoOpensWhenNeeded(t *testing.T) {
	cudastub.Use(t, cudastub.OK)
	cache := t.TempDir()
	inits := cudastub.Calls(t, "cuInit")
	d, err := use(t, Auto, cache, nil)
	if err != nil {
		t.Fatal(err)
	}
	if cudastub.Calls(t, "cuInit") != inits {
		t.Fatal("auto opened the GPU before a learner asked for it")
	}
	g := d.Open()
	if g == nil || d.Open() != g || !strings.Contains(g.Name(), "Stub GPU") {
		t.Fatalf("Open = %v, want the stub GPU, the same at every call", g)
	}
	if ptx, _ := os.ReadDir(cache + "/ptx"); len(ptx) != 1 {
		t.Errorf("the cache's ptx folder holds %d entries, want 1", len(ptx))
	}
}
