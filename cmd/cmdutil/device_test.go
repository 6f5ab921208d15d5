package cmdutil_test

import (
	"bytes"
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"spg-tui/internal/clitest"
	"spg-tui/linalg/cuda/cudastub"
	"spg-tui/run"
)

// TestDeviceFlagRefusals: an unknown --device, and --device cuda where no GPU opens, are
// refused in one line with exit 2 before anything runs; --view takes no --device.
func TestDeviceFlagRefusals(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"bench", "--task", "mwm", "--n", "5", "--device", "gpu"}, `--device "gpu": want auto, cpu or cuda`},
		{[]string{"train", "--task", "mwm", "--n", "5", "--out", t.TempDir() + "/r", "--device", "tpu"}, `--device "tpu"`},
		{[]string{"bench", "--task", "mwm", "--n", "5", "--device", "cuda"}, "--device cuda: no CUDA driver"},
		{[]string{"tui", "--view", t.TempDir(), "--device", "cpu"}, "--device: --view opens runs read-only"},
	} {
		out, err := clitest.Command(c.args...).CombinedOutput()
		var exit *exec.ExitError
		if !errors.As(err, &exit) || exit.ExitCode() != 2 {
			t.Errorf("%v: exit %v, want 2 (%s)", c.args, err, out)
			continue
		}
		msg := strings.TrimSpace(string(out))
		if strings.Contains(c.want, "CUDA driver") && !strings.Contains(msg, c.want) && strings.Contains(msg, "cuda") {
			t.Logf("%v: a CUDA driver is here: %s", c.args, msg)
			continue
		}
		if strings.Count(msg, "\n") > 0 || !strings.Contains(msg, c.want) {
			t.Errorf("%v: %q, want one line with %q", c.args, msg, c.want)
		}
	}
}

// TestBenchNamesDevice: bench's JSON names the device and reports the rounding apart.
func TestBenchNamesDevice(t *testing.T) {
	out, err := clitest.Command("bench", "--task", "mwm", "--n", "4", "--batch", "8", "--steps", "2", "--device", "cpu").Output()
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`"device":"cpu"`, `"round_ms":`, `"step_less_round_ms":`} {
		if !strings.Contains(string(out), want) {
			t.Errorf("bench output %s lacks %s", out, want)
		}
	}
}

// stubCommand runs spg-tui with the stub CUDA libraries of v (and env after), returning its
// standard output, standard error and exit status; one that hangs is killed after two minutes
// (a named pipe for the driver used to block dlopen for ever).
func stubCommand(t *testing.T, v cudastub.Variant, env []string, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, os.Args[0], args...)
	cmd.Env = append(append(os.Environ(), "SPG_TUI_AS_MAIN=1"), append(cudastub.Env(t, v), env...)...)
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	err := cmd.Run()
	if ctx.Err() != nil {
		t.Fatalf("%v with %s: killed after hanging: %s", args, v, errOut.String())
	}
	var exit *exec.ExitError
	if err != nil && !errors.As(err, &exit) {
		t.Fatal(err)
	}
	return out.String(), errOut.String(), cmd.ProcessState.ExitCode()
}

// startDevice is the device the start record of the run in dir names.
func startDevice(t *testing.T, dir string) string {
	t.Helper()
	recs, err := run.ReadRecords(filepath.Join(dir, run.MetricsFile))
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range recs {
		if r.Event != nil && r.Event.Event == run.EventStart {
			return r.Event.Device
		}
	}
	t.Fatalf("%s has no start record", dir)
	return ""
}

// TestDeviceAutoFallsBack: where a driver loads but the GPU cannot be used (no cuBLAS, a
// context that fails, a named pipe for the driver), the default --device auto trains on the
// CPU and says why in one line of the header and in the start record; --device cuda refuses
// in one line, exit 2, before anything is written. auto used to exit 2 too, and the pipe hung.
func TestDeviceAutoFallsBack(t *testing.T) {
	for _, c := range []struct {
		v     cudastub.Variant
		cause string
	}{
		{cudastub.NoCublas, "cuBLAS not found; set SPG_TUI_CUDA_LIB to its directory"},
		{cudastub.CtxFails, "cuDevicePrimaryCtxRetain: out of memory (CUresult 2)"},
		{cudastub.FIFO, "libcuda.so.1 is not a regular file"},
	} {
		t.Run(string(c.v), func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), "r")
			_, stderr, code := stubCommand(t, c.v, nil, "train", "--task", "mwm", "--n", "10", "--steps", "5", "--out", dir)
			var why []string
			for _, line := range strings.Split(stderr, "\n") {
				if strings.Contains(line, "GPU not used") {
					why = append(why, line)
				}
			}
			if code != 0 || len(why) != 1 || !strings.Contains(why[0], "backend ") || !strings.Contains(why[0], " on cpu (GPU not used: ") ||
				!strings.Contains(why[0], c.cause) {
				t.Fatalf("auto: exit %d, want 0 and one line saying the GPU was not used for %q:\n%s", code, c.cause, stderr)
			}
			if d := startDevice(t, dir); !strings.HasPrefix(d, "cpu (GPU not used: ") || !strings.Contains(d, c.cause) {
				t.Errorf("start record names device %q", d)
			}
			refused := filepath.Join(t.TempDir(), "r")
			_, stderr, code = stubCommand(t, c.v, nil, "train", "--task", "mwm", "--n", "10", "--steps", "5", "--out", refused, "--device", "cuda")
			msg := strings.TrimSpace(stderr)
			if code != 2 || strings.Contains(msg, "\n") || !strings.HasPrefix(msg, "spg-tui train: --device cuda: ") || !strings.Contains(msg, c.cause) {
				t.Errorf("cuda: exit %d, want 2 and one line naming %q: %q", code, c.cause, msg)
			}
			if _, err := os.Stat(refused); !os.IsNotExist(err) {
				t.Errorf("cuda's refusal left %s (%v)", refused, err)
			}
		})
	}
}

// TestDeviceAutoOpensOnlyForKernels: under auto, a configuration without GPU kernels trains on
// the CPU without the GPU being opened, and says so.
func TestDeviceAutoOpensOnlyForKernels(t *testing.T) {
	inits := cudastub.Calls(t, "cuInit")
	dir := filepath.Join(t.TempDir(), "r")
	_, stderr, code := stubCommand(t, cudastub.NoKernel, nil, "train", "--task", "mwm", "--n", "10", "--steps", "5", "--target-critic", "0.01", "--out", dir)
	if code != 0 || !strings.Contains(stderr, "on cpu (spg-matching with these options has no GPU kernels)") || strings.Contains(stderr, "GPU not used") {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if n := cudastub.Calls(t, "cuInit") - inits; n != 0 {
		t.Errorf("the driver was initialised %d times for a run without GPU kernels", n)
	}
}

// TestDevicePTXFollowsCache: compiled kernels are kept in the shared cache's ptx folder,
// --cache DIR's or the default's, and --cache off keeps none (they used to go to the default
// cache whatever --cache said).
func TestDevicePTXFollowsCache(t *testing.T) {
	ptxIn := func(dir string) int {
		entries, err := filepath.Glob(filepath.Join(dir, "ptx", "*.ptx"))
		if err != nil {
			t.Fatal(err)
		}
		return len(entries)
	}
	for _, c := range []struct {
		cache string // --cache's value; "" for none
		want  int
	}{{"", 1}, {"DIR", 1}, {run.CacheOff, 0}} {
		xdg, dir := t.TempDir(), t.TempDir()
		args := []string{"train", "--task", "mwm", "--n", "5", "--steps", "2", "--out", filepath.Join(t.TempDir(), "r")}
		root := filepath.Join(xdg, "spg-tui")
		switch c.cache {
		case "DIR":
			args, root = append(args, "--cache", dir), dir
		case run.CacheOff:
			args = append(args, "--cache", run.CacheOff)
		}
		_, stderr, code := stubCommand(t, cudastub.NoKernel, []string{"XDG_CACHE_HOME=" + xdg}, args...)
		if code != 0 {
			t.Fatalf("--cache %q: exit %d: %s", c.cache, code, stderr)
		}
		if got := ptxIn(root); got != c.want {
			t.Errorf("--cache %q: %d PTX files in %s, want %d", c.cache, got, root, c.want)
		}
		if c.cache != "" && ptxIn(filepath.Join(xdg, "spg-tui")) != 0 {
			t.Errorf("--cache %q: PTX written to the default cache", c.cache)
		}
	}
}

// TestBenchSaysFallback: bench, which has no header, says in one line of standard error that
// the GPU was not used and why, and its device field carries it.
func TestBenchSaysFallback(t *testing.T) {
	out, stderr, code := stubCommand(t, cudastub.CtxFails, nil, "bench", "--task", "mwm", "--n", "4", "--batch", "8", "--steps", "1")
	want := "device cpu (GPU not used: cuDevicePrimaryCtxRetain: out of memory (CUresult 2))"
	if code != 0 || strings.TrimSpace(stderr) != "bench: "+want || !strings.Contains(out, `"device":"cpu (GPU not used: cuDevicePrimaryCtxRetain`) {
		t.Errorf("exit %d, stderr %q, stdout %s", code, stderr, out)
	}
}
