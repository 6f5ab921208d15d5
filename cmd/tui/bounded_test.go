package tuicmd_test

import (
	"io"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"spg-tui/cmd/cmdutil"
	tuicmd "spg-tui/cmd/tui"
	"spg-tui/internal/clitest"
	"spg-tui/run"
)

// TestResumeRefusesHugeOrSpecialFiles is issue 33's sixth reproduction and its kin at the
// command line: a run whose metrics.jsonl ends in a line past run.MaxRecordLine (a file extended
// to 64 GB of NULs was fatal, out of memory, in run.MetricsRunIDs), or whose metrics.jsonl or
// config.json is a FIFO (a hang) or a directory, is a damaged run directory: train --resume and
// tui --resume refuse it in one line with exit 2, as the conventions have bad input (they exited
// 1, as for an I/O error).
func TestResumeRefusesHugeOrSpecialFiles(t *testing.T) {
	base := filepath.Join(t.TempDir(), "run")
	if out, err := clitest.Command(clitest.TinyTrain(base)...).CombinedOutput(); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	for _, c := range []struct {
		name, file, want string
		spoil            func(path string) error
		// inProcess also checks tui --resume, in this process. Not the 64 MiB line: holding it
		// would raise this process's peak memory, which the later tests' children inherit in
		// their rusage (TestGenStreams bounds one's); the console resumes by the same
		// agent.ResumeRun and runErrorStatus as train.
		inProcess bool
	}{
		{"huge metrics", run.MetricsFile, "is over 64.0 MiB: not a metrics file", lineTooLong, false},
		{"FIFO metrics", run.MetricsFile, "metrics.jsonl is a named pipe, not a regular file", mkfifo, true},
		{"directory metrics", run.MetricsFile, "metrics.jsonl is a directory, not a regular file", mkdir, true},
		{"FIFO config", run.ConfigFile, "config.json is a named pipe, not a regular file", mkfifo, true},
	} {
		dir := filepath.Join(t.TempDir(), "run")
		if err := os.CopyFS(dir, os.DirFS(base)); err != nil {
			t.Fatal(err)
		}
		if err := c.spoil(filepath.Join(dir, c.file)); err != nil {
			t.Skipf("%s: %v", c.name, err)
		}
		status, _, msg := clitest.Run(t, nil, "train", "--resume", dir, "--steps", "10")
		if status != cmdutil.ExitUsage || strings.Count(msg, "\n") != 1 || !strings.Contains(msg, c.want) {
			t.Errorf("train --resume, %s: exit %d, %q; want exit 2 and one line with %q", c.name, status, msg, c.want)
		}
		if c.inProcess {
			checkConsoleResume(t, c.name, dir, c.want)
		}
	}
}

// checkConsoleResume is tui --resume's path to its exit status, in this process (the console
// needs a terminal): its options, then the resume ui.Run makes, whose error tui's Run turns into
// the status.
func checkConsoleResume(t *testing.T, name, dir, want string) {
	t.Helper()
	opts, status, ok := tuicmd.ConsoleOptions([]string{"--resume", dir, "--steps", "10"}, cmdutil.Streams{Out: io.Discard, Err: io.Discard})
	if ok {
		eng, err := opts.ResumeRun(opts.Resume, opts.Steps)
		if err == nil {
			eng.Stop()
			<-eng.Done()
			t.Fatalf("tui --resume, %s: resumed", name)
		}
		status = cmdutil.RunErrorStatus(err)
		if strings.Contains(err.Error(), "\n") || !strings.Contains(err.Error(), want) {
			t.Errorf("tui --resume, %s: %q; want one line with %q", name, err, want)
		}
	}
	if status != cmdutil.ExitUsage {
		t.Errorf("tui --resume, %s: exit %d, want 2", name, status)
	}
}

// lineTooLong appends to the file at path the shortest last line run.LineReader refuses, one
// byte past run.MaxRecordLine, as NULs that a sparse file holds without writing them.
func lineTooLong(path string) error {
	fi, err := os.Stat(path)
	if err != nil {
		return err
	}
	return os.Truncate(path, fi.Size()+run.MaxRecordLine+1)
}

// mkfifo replaces the file at path with a FIFO that nothing writes.
func mkfifo(path string) error {
	os.Remove(path)
	return syscall.Mkfifo(path, 0o644)
}

// mkdir replaces the file at path with an empty directory.
func mkdir(path string) error {
	os.Remove(path)
	return os.Mkdir(path, 0o755)
}
