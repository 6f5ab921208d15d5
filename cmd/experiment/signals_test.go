package experimentcmd_test

import (
	"bufio"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"

	"spg-tui/internal/clitest"
	"spg-tui/run"
)

// startLongExperiment starts a tinyExperiment of two sort runs in out and returns once one has
// logged a training record, with the process and a function that waits for its end and returns
// its exit status and stderr.
func startLongExperiment(t *testing.T, out string) (*os.Process, func() (int, string)) {
	t.Helper()
	cmd := clitest.Command(clitest.TinyExperiment("sort", out, "--model", "spg-sequential")...)
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	log := &strings.Builder{}
	read := make(chan struct{})
	go func() {
		sc := bufio.NewScanner(stderr)
		for sc.Scan() {
			log.WriteString(sc.Text() + "\n")
		}
		close(read)
	}()
	finish := func() (int, string) {
		<-read
		cmd.Wait()
		return cmd.ProcessState.ExitCode(), log.String()
	}
	for deadline := time.Now().Add(30 * time.Second); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		paths, _ := filepath.Glob(filepath.Join(out, "runs", "*", run.MetricsFile))
		for _, p := range paths {
			if data, _ := os.ReadFile(p); strings.Contains(string(data), `"kind":"train"`) {
				return cmd.Process, finish
			}
		}
	}
	cmd.Process.Kill()
	_, l := finish()
	t.Fatalf("no run trained within 30 s:\n%s", l)
	return nil, nil
}

// TestExperimentStopsOnSignal: SIGHUP used to kill an experiment at once (129, no checkpoint),
// and SIGINT or SIGTERM stopped it cleanly but exited 1. Each must checkpoint every live run and
// exit 0, as train does; a second signal while stopping exits at once with 128 + its number.
func TestExperimentStopsOnSignal(t *testing.T) {
	for _, sig := range []syscall.Signal{syscall.SIGHUP, syscall.SIGTERM} {
		out := filepath.Join(t.TempDir(), "exp")
		p, finish := startLongExperiment(t, out)
		p.Signal(sig)
		status, log := finish()
		if status != 0 || !strings.Contains(log, sig.String()+": stopping") || !strings.Contains(log, "stopped with 2 of 2 runs unfinished") {
			t.Errorf("%v: exit %d, want 0 and a stop:\n%s", sig, status, log)
		}
		paths, _ := filepath.Glob(filepath.Join(out, "runs", "*", run.MetricsFile))
		if len(paths) != 1 {
			t.Fatalf("%v: run directories %v", sig, paths)
		}
		if data, _ := os.ReadFile(paths[0]); !regexp.MustCompile(`"event":"stop","old":0,"new":0,"message":"stopped at step \d+`).Match(data) {
			t.Errorf("%v: the run did not stop with a checkpoint:\n%s", sig, data)
		}
	}
	out := filepath.Join(t.TempDir(), "exp")
	p, finish := startLongExperiment(t, out)
	p.Signal(syscall.SIGHUP)
	p.Signal(syscall.SIGINT)
	status, log := finish()
	m := regexp.MustCompile(`(\w+) while stopping: exiting at once, without a checkpoint`).FindStringSubmatch(log)
	if want := map[string]int{"interrupt": 130, "hangup": 129}; m == nil || status != want[m[1]] {
		t.Errorf("two signals: exit %d:\n%s", status, log)
	}
}
