package traincmd_test

import (
	"bufio"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"spg-tui/cmd/cmdutil"
	"spg-tui/internal/clitest"
)

// startLongTrain starts a clitest.TinyTrain run of a million steps in dir and returns once it has
// logged step 4, with the scanner of its stderr and what it has read so far.
func startLongTrain(t *testing.T, dir string, stdout io.Writer, extra ...string) (*exec.Cmd, *bufio.Scanner, *strings.Builder) {
	t.Helper()
	args := clitest.TinyTrain(dir, extra...)
	args[6] = "1000000" // --steps
	cmd := clitest.Command(args...)
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

// resumeFor resumes the run in dir for two more steps than it stopped at and fails the test if
// that fails.
func resumeFor(t *testing.T, dir, log string) {
	t.Helper()
	m := regexp.MustCompile(`stopped at step (\d+) of`).FindStringSubmatch(log)
	if m == nil {
		t.Fatalf("no stop line in:\n%s", log)
	}
	stopped, _ := strconv.Atoi(m[1])
	if out, err := clitest.Command("train", "--resume", dir, "--steps", strconv.Itoa(stopped+2)).CombinedOutput(); err != nil {
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
	if status := clitest.Finish(t, cmd, sc, log); status != 0 || !strings.Contains(log.String(), "hangup: stopping") {
		t.Fatalf("exit %d:\n%s", status, log)
	}
	resumeFor(t, dir, log.String())
}

// TestTrainStopsOnClosedStdout: `train --json | head -c 300` used to die of SIGPIPE (141) with
// no checkpoint. The run must stop with a checkpoint, say why, and exit 141.
func TestTrainStopsOnClosedStdout(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "run")
	args := clitest.TinyTrain(dir, "--json")
	args[6] = "1000000"
	cmd := clitest.Command(args...)
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
	status := clitest.Finish(t, cmd, sc, log)
	if status != cmdutil.ExitStdoutClosed || !strings.Contains(log.String(), "standard output failed") || !strings.Contains(log.String(), "stopped at step") {
		t.Fatalf("exit %d, want %d:\n%s", status, cmdutil.ExitStdoutClosed, log)
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
		status := clitest.Finish(t, cmd, sc, log)
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
	clitest.Finish(t, cmd, sc, log)
	out, err := clitest.Command("train", "--resume", dir, "--steps", "9").CombinedOutput()
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
	for _, args := range [][]string{clitest.TinyTrain(dir), {"train", "--resume", dir}} {
		status, _, msg := clitest.Run(t, nil, args...)
		if status != cmdutil.ExitUsage || strings.Count(msg, "\n") != 1 || !strings.Contains(msg, want) {
			t.Errorf("%v: exit %d, %q; want exit 2 naming %q", args[:2], status, msg, want)
		}
	}
	cmd.Process.Signal(syscall.SIGTERM)
	if status := clitest.Finish(t, cmd, sc, log); status != 0 {
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
	if out, err := clitest.Command(clitest.TinyTrain(dir)...).CombinedOutput(); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if err := os.Remove(filepath.Join(dir, "config.json")); err != nil {
		t.Fatal(err)
	}
	if status, _, msg := clitest.Run(t, nil, "train", "--resume", dir, "--steps", "8"); status != 0 {
		t.Fatalf("resume without config.json: exit %d: %s", status, msg)
	}
	metrics := filepath.Join(dir, "metrics.jsonl")
	if err := os.Rename(metrics, metrics+".bak"); err != nil || os.Symlink(metrics, metrics) != nil {
		t.Fatal(err)
	}
	status, _, msg := clitest.Run(t, nil, "train", "--resume", dir, "--steps", "10")
	if status != cmdutil.ExitFailed || strings.Count(msg, "\n") != 1 || !strings.Contains(msg, "too many levels of symbolic links") {
		t.Errorf("I/O error on resume: exit %d, %q; want exit 1", status, msg)
	}
}
