package main

import (
	"errors"
	"os/exec"
	"strings"
	"testing"
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
		out, err := spgTUI(c.args...).CombinedOutput()
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
	out, err := spgTUI("bench", "--task", "mwm", "--n", "4", "--batch", "8", "--steps", "2", "--device", "cpu").Output()
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`"device":"cpu"`, `"round_ms":`, `"step_less_round_ms":`} {
		if !strings.Contains(string(out), want) {
			t.Errorf("bench output %s lacks %s", out, want)
		}
	}
}
