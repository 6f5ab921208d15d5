package traincmd_test

import (
	"bufio"
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"spg-tui/envs"
	"spg-tui/internal/clitest"
	"spg-tui/run"
)

func TestTrainEvalResumeCLI(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "run")
	cmd := clitest.Command(clitest.TinyTrain(dir, "--json")...)
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	if err := cmd.Run(); err != nil {
		t.Fatalf("train: %v: %s", err, errOut.String())
	}
	for _, want := range []string{"replay buffer capacity 64", "step 2/6", "val at step 3", "test at step 6", "done"} {
		if !strings.Contains(errOut.String(), want) {
			t.Errorf("progress lacks %q:\n%s", want, errOut.String())
		}
	}
	// --json prints exactly the lines of metrics.jsonl.
	file, err := os.ReadFile(filepath.Join(dir, run.MetricsFile))
	if err != nil {
		t.Fatal(err)
	}
	if out.String() != string(file) {
		t.Errorf("--json output differs from metrics.jsonl:\n%s\nvs\n%s", out.String(), file)
	}
	recs, err := run.DecodeRecords(&out)
	if err != nil || len(recs) < 8 {
		t.Fatalf("%d records, %v", len(recs), err)
	}

	// eval: the trained policy on a gen file, in solve's format.
	inst := filepath.Join(t.TempDir(), "sort4.json")
	gen, err := clitest.Command("gen", "--task", "sort", "--n", "4", "--count", "5", "--seed", "9").Output()
	if err != nil || os.WriteFile(inst, gen, 0o644) != nil {
		t.Fatal(err)
	}
	for _, ckpt := range []string{filepath.Join(dir, "checkpoints", "best"), dir} {
		cmd = clitest.Command("eval", "--checkpoint", ckpt, "--in", inst)
		out.Reset()
		errOut.Reset()
		cmd.Stdout, cmd.Stderr = &out, &errOut
		if err := cmd.Run(); err != nil {
			t.Fatalf("eval: %v: %s", err, errOut.String())
		}
		env, _ := envs.NewData(envs.TaskSort, 4, envs.DefaultData(envs.TaskSort)) // gen's data
		sc := bufio.NewScanner(&out)
		i := 0
		for ; sc.Scan(); i++ {
			var sol envs.Solution
			if err := json.Unmarshal(sc.Bytes(), &sol); err != nil || sol.Index != i {
				t.Fatalf("line %d: %v %+v", i, err, sol)
			}
			if got := env.Objective(env.Generate(9, i), sol.Perm); got != sol.Objective {
				t.Errorf("line %d: objective %v, recomputed %v", i, sol.Objective, got)
			}
		}
		if i != 5 || strings.Count(errOut.String(), "\n") != 1 || !strings.Contains(errOut.String(), "5 sort-4 instances") {
			t.Errorf("%d lines; summary %q", i, errOut.String())
		}
	}

	// A resume to a larger total appends to the same run.
	cmd = clitest.Command("train", "--resume", dir, "--steps", "8")
	errOut.Reset()
	cmd.Stderr = &errOut
	if err := cmd.Run(); err != nil {
		t.Fatalf("resume: %v: %s", err, errOut.String())
	}
	recs, err = run.ReadRecords(filepath.Join(dir, run.MetricsFile))
	if err != nil || recs[len(recs)-1].Step != 8 || recs[len(recs)-1].Event.Event != run.EventDone {
		t.Errorf("after the resume: last record %+v, %v", recs[len(recs)-1], err)
	}
}

// A run written by the version before the run contract moved to package run resumes from the
// command line; --json prints only the records of this session, as before.
func TestResumeRunOfThePreviousVersionCLI(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "mwm5")
	if err := os.CopyFS(dir, os.DirFS(clitest.Repo("testdata", "prev-run", "mwm5"))); err != nil {
		t.Fatal(err)
	}
	cmd := clitest.Command("train", "--resume", dir, "--steps", "30", "--model", "spg-matching", "--json")
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	if err := cmd.Run(); err != nil {
		t.Fatalf("resume: %v: %s", err, errOut.String())
	}
	recs, err := run.DecodeRecords(&out)
	want, _ := run.ReadRecords(clitest.Repo("testdata", "prev-run", "mwm5.resumed-to-30.jsonl"))
	if err != nil || len(recs) != len(want) || recs[0].Event == nil || recs[0].Event.Event != run.EventStart {
		t.Errorf("--json printed %d records (want %d, from the start event), %v", len(recs), len(want), err)
	}
	if strings.Count(errOut.String(), "start:") != 1 || !strings.Contains(errOut.String(), "resumed at step 20") {
		t.Errorf("progress:\n%s", errOut.String())
	}
	cmd = clitest.Command("train", "--resume", dir, "--steps", "40", "--model", "spg-sequential")
	errOut.Reset()
	cmd.Stderr = &errOut
	if err := cmd.Run(); err == nil || !strings.Contains(errOut.String(), "--model spg-sequential: the run in") {
		t.Errorf("a resume with another model: %v: %s", err, errOut.String())
	}
}

// TestTrainStopsOnSignal sends SIGINT and SIGTERM to long training runs: each must checkpoint
// and exit cleanly within 5 s, and the run must resume from there.
func TestTrainStopsOnSignal(t *testing.T) {
	for _, sig := range []os.Signal{os.Interrupt, syscall.SIGTERM} {
		dir := filepath.Join(t.TempDir(), "run")
		args := clitest.TinyTrain(dir)
		args[6] = "1000000" // --steps
		cmd := clitest.Command(args...)
		stderr, err := cmd.StderrPipe()
		if err != nil {
			t.Fatal(err)
		}
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		sc := bufio.NewScanner(stderr)
		var log strings.Builder
		for sc.Scan() {
			log.WriteString(sc.Text() + "\n")
			if strings.Contains(sc.Text(), "step 4/") {
				break
			}
		}
		began := time.Now()
		if err := cmd.Process.Signal(sig); err != nil {
			t.Fatal(err)
		}
		for sc.Scan() {
			log.WriteString(sc.Text() + "\n")
		}
		err = cmd.Wait()
		if d := time.Since(began); d > 5*time.Second {
			t.Errorf("%v: exit took %s", sig, d)
		}
		if err != nil || !strings.Contains(log.String(), "stopped at step") {
			t.Fatalf("%v: %v\n%s", sig, err, log.String())
		}
		m := regexp.MustCompile(`stopped at step (\d+) of`).FindStringSubmatch(log.String())
		stopped, _ := strconv.Atoi(m[1])
		if out, err := clitest.Command("train", "--resume", dir, "--steps", strconv.Itoa(stopped+2)).CombinedOutput(); err != nil {
			t.Fatalf("%v: resume: %v\n%s", sig, err, out)
		}
	}
}
