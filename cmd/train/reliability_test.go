package main

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"spg-tui/run"
)

// runCLI runs spg-tui with args and returns its exit status, stdout and stderr.
func runCLI(t *testing.T, stdin []byte, args ...string) (int, string, string) {
	t.Helper()
	cmd := spgTUI(args...)
	var out, errOut bytes.Buffer
	cmd.Stdin, cmd.Stdout, cmd.Stderr = bytes.NewReader(stdin), &out, &errOut
	err := cmd.Run()
	var exit *exec.ExitError
	switch {
	case err == nil:
		return 0, out.String(), errOut.String()
	case errors.As(err, &exit):
		return exit.ExitCode(), out.String(), errOut.String()
	}
	t.Fatalf("%v: %v", args, err)
	return 0, "", ""
}

// TestSizesRefusedUpFront runs the sizes that used to crash with a Go runtime trace, spin for
// minutes or fail at step 1: each must be refused with one line naming the bound or the memory,
// exit status 2, and no run directory.
func TestSizesRefusedUpFront(t *testing.T) {
	dir := t.TempDir()
	fresh := filepath.Join(dir, "fresh")
	train := func(extra ...string) []string {
		return append([]string{"train", "--task", "mwm", "--n", "20", "--out", fresh}, extra...)
	}
	for _, tc := range []struct {
		args []string
		want string
	}{
		{train("--val-size", "1000000000"), "val-size 1000000000: must be at most 1000000"},
		{train("--train-size", "1000000000"), "train-size 1000000000: must be at most 10000000"},
		{train("--buffer", "1000000000000", "--buffer-mem", "1048575G"), "buffer 1000000000000: must be at most"},
		{train("--buffer", "2000000000", "--buffer-mem", "1048575G"), "needs about"},
		{train("--sinkhorn-iters", "1000000000"), "sinkhorn-iters 1000000000: must be at most 1000"},
		{train("--tau", "1e-300"), "tau 1e-300: must be in"},
		{train("--epochs", "1e300"), "more than the most a run may have"},
		{train("--batch", "100000000"), "batch 100000000: must be at most 65536"},
		{[]string{"bench", "--task", "mwm", "--n", "10", "--batch", "100000000"}, "batch 100000000: must be at most 65536"},
		// --steps counts the timed steps, not the warm-up ones (it said 1000000000003).
		{[]string{"bench", "--task", "mwm", "--n", "10", "--steps", "1000000000000"}, "steps 1000000000000: must be in [1, 1000000] (the timed steps"},
		// bench has no --buffer-mem: a batch its replay buffer cannot hold names the --batch it can.
		{[]string{"bench", "--task", "mwm", "--n", "200", "--batch", "65536"}, "give --batch 53547 or less"},
	} {
		status, out, msg := runCLI(t, nil, tc.args...)
		if status != exitUsage || out != "" || strings.Count(msg, "\n") != 1 || !strings.Contains(msg, tc.want) || (tc.args[0] == "bench" && strings.Contains(msg, "buffer-mem")) {
			t.Errorf("%v: exit %d, stderr %q; want exit 2 and one line containing %q", tc.args[len(tc.args)-2:], status, msg, tc.want)
		}
	}
	if _, err := os.Stat(fresh); err == nil {
		t.Error("a refused size created its run directory")
	}
}

// TestSolveRefusesWhatCannotFit: the Hungarian solver on one MWM-100000 instance needs two
// 80 GB matrices; solve must say so in one line (it died in the runtime). Such a file is now
// refused by its size, above mwm's bound, before any solver is named.
func TestSolveRefusesWhatCannotFit(t *testing.T) {
	in := filepath.Join(t.TempDir(), "mwm100000.json")
	if os.WriteFile(in, []byte(`{"task":"mwm","n":100000,"instances":[]}`), 0o644) != nil {
		t.Fatal("writing the file")
	}
	status, out, msg := runCLI(t, nil, "solve", "--solver", "hungarian", "--in", in)
	if status != exitUsage || out != "" || strings.Count(msg, "\n") != 1 || !strings.Contains(msg, "size n = 100000: mwm instances have at most n = 4096") {
		t.Errorf("exit %d, stderr %q", status, msg)
	}
}

// startLongTrain starts a tinyTrain run of a million steps in dir and returns once it has
// logged step 4, with the scanner of its stderr and what it has read so far.
func startLongTrain(t *testing.T, dir string, stdout io.Writer, extra ...string) (*exec.Cmd, *bufio.Scanner, *strings.Builder) {
	t.Helper()
	args := tinyTrain(dir, extra...)
	args[6] = "1000000" // --steps
	cmd := spgTUI(args...)
	cmd.Stdout = stdout
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	sc := bufio.NewScanner(stderr)
	log := &strings.Builder{}
	for sc.Scan() {
		log.WriteString(sc.Text() + "\n")
		if strings.Contains(sc.Text(), "step 4/") {
			return cmd, sc, log
		}
	}
	cmd.Wait()
	t.Fatalf("the run ended before step 4:\n%s", log)
	return nil, nil, nil
}

// finish reads the rest of a run's stderr and returns its exit status.
func finish(t *testing.T, cmd *exec.Cmd, sc *bufio.Scanner, log *strings.Builder) int {
	t.Helper()
	for sc.Scan() {
		log.WriteString(sc.Text() + "\n")
	}
	err := cmd.Wait()
	var exit *exec.ExitError
	if errors.As(err, &exit) {
		return exit.ExitCode()
	}
	if err != nil {
		t.Fatal(err)
	}
	return 0
}

// resumeFor resumes the run in dir for two more steps than it stopped at and fails the test if
// that fails.
func resumeFor(t *testing.T, dir, log string) {
	t.Helper()
	m := regexp.MustCompile(`stopped at step (\d+) of`).FindStringSubmatch(log)
	if m == nil {
		t.Fatalf("no stop line in:\n%s", log)
	}
	stopped, _ := strconv.Atoi(m[1])
	if out, err := spgTUI("train", "--resume", dir, "--steps", strconv.Itoa(stopped+2)).CombinedOutput(); err != nil {
		t.Fatalf("resume: %v\n%s", err, out)
	}
}

// TestTrainStopsOnHangup: SIGHUP (a closed terminal) used to kill the run with status 129 and
// no checkpoint; it must stop it as SIGTERM does.
func TestTrainStopsOnHangup(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "run")
	cmd, sc, log := startLongTrain(t, dir, nil)
	if err := cmd.Process.Signal(syscall.SIGHUP); err != nil {
		t.Fatal(err)
	}
	if status := finish(t, cmd, sc, log); status != 0 || !strings.Contains(log.String(), "hangup: stopping") {
		t.Fatalf("exit %d:\n%s", status, log)
	}
	resumeFor(t, dir, log.String())
}

// TestTrainStopsOnClosedStdout: `train --json | head -c 300` used to die of SIGPIPE (141) with
// no checkpoint. The run must stop with a checkpoint, say why, and exit 141.
func TestTrainStopsOnClosedStdout(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "run")
	args := tinyTrain(dir, "--json")
	args[6] = "1000000"
	cmd := spgTUI(args...)
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	head := make([]byte, 300)
	if _, err := io.ReadFull(stdout, head); err != nil {
		t.Fatal(err)
	}
	stdout.Close() // what head does after 300 bytes
	sc := bufio.NewScanner(stderr)
	log := &strings.Builder{}
	status := finish(t, cmd, sc, log)
	if status != exitStdoutClosed || !strings.Contains(log.String(), "standard output failed") || !strings.Contains(log.String(), "stopped at step") {
		t.Fatalf("exit %d, want %d:\n%s", status, exitStdoutClosed, log)
	}
	resumeFor(t, dir, log.String())
}

// TestSecondSignalExitsAtOnce: a second signal while the first one's checkpoint is being
// written ends the process at once with 128 + the second signal's number. Two signals of one
// kind sent together merge into one in the kernel, so the test sends two kinds; whichever
// arrives second decides the status.
func TestSecondSignalExitsAtOnce(t *testing.T) {
	for _, pair := range [][2]syscall.Signal{{syscall.SIGTERM, syscall.SIGINT}, {syscall.SIGHUP, syscall.SIGTERM}} {
		dir := filepath.Join(t.TempDir(), "run")
		cmd, sc, log := startLongTrain(t, dir, nil)
		cmd.Process.Signal(pair[0])
		cmd.Process.Signal(pair[1])
		status := finish(t, cmd, sc, log)
		m := regexp.MustCompile(`train: (\w+) while stopping: exiting at once, without a checkpoint`).FindStringSubmatch(log.String())
		want := map[string]int{"interrupt": 130, "terminated": 143, "hangup": 129}
		if m == nil || status != want[m[1]] || strings.Contains(log.String(), "stopped at step") {
			t.Errorf("%v then %v: exit %d:\n%s", pair[0], pair[1], status, log)
		}
	}
}

// TestKilledBeforeFirstCheckpointResumes: a run killed (SIGKILL) before its first full
// checkpoint, which waits 10 minutes, used to leave nothing to resume from. The early
// checkpoint (no replay buffer) must let it resume.
func TestKilledBeforeFirstCheckpointResumes(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "run")
	cmd, sc, log := startLongTrain(t, dir, nil)
	cmd.Process.Kill()
	finish(t, cmd, sc, log)
	out, err := spgTUI("train", "--resume", dir, "--steps", "9").CombinedOutput()
	if err != nil || !strings.Contains(string(out), "resumed at step 0") && !strings.Contains(string(out), "done") {
		t.Fatalf("resume after SIGKILL: %v\n%s", err, out)
	}
}

// TestRunDirectoryHasOneWriter: while a trainer runs in a directory, a second train --out on it
// and a train --resume of it used to both run (the second deleting the first's metrics); each
// must be refused with one line naming the holder's PID, exit status 2.
func TestRunDirectoryHasOneWriter(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "run")
	cmd, sc, log := startLongTrain(t, dir, nil)
	want := "in use by process " + strconv.Itoa(cmd.Process.Pid)
	for _, args := range [][]string{tinyTrain(dir), {"train", "--resume", dir}} {
		status, _, msg := runCLI(t, nil, args...)
		if status != exitUsage || strings.Count(msg, "\n") != 1 || !strings.Contains(msg, want) {
			t.Errorf("%v: exit %d, %q; want exit 2 naming %q", args[:2], status, msg, want)
		}
	}
	cmd.Process.Signal(syscall.SIGTERM)
	if status := finish(t, cmd, sc, log); status != 0 {
		t.Fatalf("exit %d:\n%s", status, log)
	}
	resumeFor(t, dir, log.String())
}

// TestResumeErrorsStatus: an I/O error while resuming (here metrics.jsonl is a symbolic link to
// itself, which no open follows) is a failure (exit 1), not bad input, where a file that opens
// but is not what it should be is a damaged run directory (exit 2,
// TestResumeRefusesHugeOrSpecialFiles); with config.json deleted the run resumes from its
// checkpoint.
func TestResumeErrorsStatus(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "run")
	if out, err := spgTUI(tinyTrain(dir)...).CombinedOutput(); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if err := os.Remove(filepath.Join(dir, "config.json")); err != nil {
		t.Fatal(err)
	}
	if status, _, msg := runCLI(t, nil, "train", "--resume", dir, "--steps", "8"); status != 0 {
		t.Fatalf("resume without config.json: exit %d: %s", status, msg)
	}
	metrics := filepath.Join(dir, "metrics.jsonl")
	if err := os.Rename(metrics, metrics+".bak"); err != nil || os.Symlink(metrics, metrics) != nil {
		t.Fatal(err)
	}
	status, _, msg := runCLI(t, nil, "train", "--resume", dir, "--steps", "10")
	if status != exitFailed || strings.Count(msg, "\n") != 1 || !strings.Contains(msg, "too many levels of symbolic links") {
		t.Errorf("I/O error on resume: exit %d, %q; want exit 1", status, msg)
	}
}

// TestGenStreams: gen used to build the whole file in memory (gen --count 10000000 took 2.2 GB
// and then died); it must write in constant memory. Two million sort-2 instances (34 MB of
// output, 460 MiB of resident memory before) must run in under 150 MiB (the test binary itself
// takes about 70).
func TestGenStreams(t *testing.T) {
	cmd := spgTUI("gen", "--task", "sort", "--n", "2", "--count", "2000000")
	var counted countingWriter
	cmd.Stdout = &counted
	if err := cmd.Run(); err != nil {
		t.Fatal(err)
	}
	rss := cmd.ProcessState.SysUsage().(*syscall.Rusage).Maxrss << 10 // KiB on Linux
	t.Logf("%d bytes written, peak RSS %d MiB", counted.n, rss>>20)
	if counted.n < 30<<20 || rss > 150<<20 {
		t.Errorf("%d bytes with a peak RSS of %d MiB", counted.n, rss>>20)
	}
}

// countingWriter counts what is written to it.
type countingWriter struct{ n int64 }

func (c *countingWriter) Write(p []byte) (int, error) {
	c.n += int64(len(p))
	return len(p), nil
}

// TestNonFiniteErrorsNameTheInstance: values near the float64 limits made an objective +Inf
// (solve said "json: unsupported value: +Inf") or the policy's M NaN (eval said "actor:
// non-finite M (NaN)"); they are refused as they are read, naming the instance.
func TestNonFiniteErrorsNameTheInstance(t *testing.T) {
	dir := t.TempDir()
	mwm := `{"task":"mwm","n":2,"instances":[{"a":[[0,0],[1,1]],"b":[[0,1],[1,0]]},{"a":[[0,0],[1e308,1]],"b":[[-1e308,1],[1,0]]}]}`
	status, out, msg := runCLI(t, []byte(mwm), "solve", "--solver", "greedy", "--in", "-")
	if status != exitUsage || out != "" || !strings.Contains(msg, "instance 1: a[1][0] = 1e+308 is outside [-1e+30, 1e+30]") {
		t.Errorf("solve: exit %d, stdout %q, stderr %q", status, out, msg)
	}
	run := filepath.Join(dir, "run")
	if o, err := spgTUI(tinyTrain(run)...).CombinedOutput(); err != nil {
		t.Fatalf("%v\n%s", err, o)
	}
	sort := `{"task":"sort","n":4,"instances":[{"values":[1,2,3,4]},{"values":[1e308,-1e308,3,1e300]}]}`
	status, out, msg = runCLI(t, []byte(sort), "eval", "--checkpoint", run, "--in", "-")
	if status != exitUsage || out != "" || !strings.HasPrefix(msg, "spg-tui eval: instance 1: ") {
		t.Errorf("eval: exit %d, stdout %q, stderr %q", status, out, msg)
	}
}

// TestRunErrorStatus: a directory in use, a file refused as not what it should be and bad input
// are exit 2, an I/O error exit 1 (every start error used to be 2).
func TestRunErrorStatus(t *testing.T) {
	_, isDir := os.ReadFile(t.TempDir())
	_, missing := os.ReadFile(filepath.Join(t.TempDir(), "none"))
	_, refused := run.OpenRegular(t.TempDir(), 1<<20)
	for _, tc := range []struct {
		err  error
		want int
	}{
		{&run.DirLockedError{Dir: "d", PID: 7}, exitUsage},
		{fmt.Errorf("resuming: %w", isDir), exitFailed},
		{missing, exitUsage},
		{fmt.Errorf("resuming: %w", refused), exitUsage},
		{errors.New("tau 0: must be in [0.0001, 10000]"), exitUsage},
	} {
		if got := runErrorStatus(tc.err); got != tc.want {
			t.Errorf("%v: status %d, want %d", tc.err, got, tc.want)
		}
	}
}

// TestSolveRestarts: --restarts reaches gm's faq (more starts keep at least as many edges) and
// is refused in one line, exit 2, for a solver without random starts and above its bound (2^63-1
// used to run for ever).
func TestSolveRestarts(t *testing.T) {
	in := filepath.Join(t.TempDir(), "gm12.json")
	status, out, msg := runCLI(t, nil, "gen", "--task", "gm", "--n", "12", "--count", "4")
	if status != 0 || os.WriteFile(in, []byte(out), 0o644) != nil {
		t.Fatalf("gen: %d %s", status, msg)
	}
	mean := func(msg string) float64 {
		_, after, _ := strings.Cut(msg, "mean objective ")
		v, _, _ := strings.Cut(after, ",")
		f, err := strconv.ParseFloat(v, 64)
		if err != nil {
			return math.NaN()
		}
		return f
	}
	status, _, one := runCLI(t, nil, "solve", "--solver", "faq", "--in", in)
	status2, _, more := runCLI(t, nil, "solve", "--solver", "faq", "--in", in, "--restarts", "5")
	if status != 0 || status2 != 0 || !(mean(more) >= mean(one)) || !strings.Contains(more, "solver faq with 5 random restarts") {
		t.Errorf("faq: exit %d %q; --restarts 5: exit %d %q", status, one, status2, more)
	}
	for _, c := range []struct{ solver, restarts, want string }{
		{"spectral", "2", `solver "spectral" takes no restarts`},
		{"faq", "101", "restarts 101: must be in [0, 100]"},
		{"faq", "9223372036854775807", "restarts 9223372036854775807: must be in [0, 100]"},
	} {
		status, out, msg = runCLI(t, nil, "solve", "--solver", c.solver, "--in", in, "--restarts", c.restarts)
		if status != exitUsage || out != "" || strings.Count(msg, "\n") != 1 || !strings.Contains(msg, c.want) {
			t.Errorf("%s --restarts %s: exit %d, stderr %q; want exit 2 and one line with %q", c.solver, c.restarts, status, msg, c.want)
		}
	}
}
