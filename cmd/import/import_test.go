package importcmd_test

import (
	"archive/zip"
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"spg-tui/cmd/cmdutil"
	"spg-tui/internal/clitest"
	"spg-tui/run"
)

// TestImportEvalInitCLI: import writes a run directory that eval reads and a new run starts
// from with --init; a misfit file exits 2 with one line and writes nothing.
func TestImportEvalInitCLI(t *testing.T) {
	npz := clitest.Repo("agent", "authors", "testdata", "authors", "actor-mwm15.npz")
	dir := filepath.Join(t.TempDir(), "authors15")
	var errOut bytes.Buffer
	cmd := clitest.Command("import", "--task", "mwm", "--n", "15", "--in", npz, "--out", dir)
	cmd.Stderr = &errOut
	if err := cmd.Run(); err != nil || !strings.Contains(errOut.String(), "validation optimality_ratio 0.94") {
		t.Fatalf("import: %v: %s", err, errOut.String())
	}
	inst := filepath.Join(t.TempDir(), "mwm15.json")
	gen, err := clitest.Command("gen", "--task", "mwm", "--n", "15", "--count", "20", "--seed", "7").Output()
	if err != nil || os.WriteFile(inst, gen, 0o644) != nil {
		t.Fatal(err)
	}
	if out, err := clitest.Command("eval", "--checkpoint", dir, "--in", inst).Output(); err != nil || bytes.Count(out, []byte("\n")) != 20 {
		t.Errorf("eval of the imported actor: %v: %d lines", err, bytes.Count(out, []byte("\n")))
	}
	runDir := filepath.Join(t.TempDir(), "run")
	cmd = clitest.Command("train", "--task", "mwm", "--n", "15", "--init", dir, "--recipe", "authors", "--steps", "2",
		"--batch", "8", "--buffer", "64", "--train-size", "64", "--val-size", "20", "--test-size", "20", "--eval-every", "2", "--out", runDir)
	errOut.Reset()
	cmd.Stderr = &errOut
	if err := cmd.Run(); err != nil {
		t.Fatalf("train --init: %v: %s", err, errOut.String())
	}
	cfg, err := run.ReadRunConfig(runDir)
	if err != nil || cfg.Init != dir || cfg.Recipe != run.RecipeAuthors || cfg.Reward != run.RewardSum {
		t.Errorf("config of the --init run: %+v, %v", cfg, err)
	}

	bad := filepath.Join(t.TempDir(), "bad")
	cmd = clitest.Command("import", "--task", "mwm", "--n", "51", "--in", npz, "--out", bad)
	errOut.Reset()
	cmd.Stderr = &errOut
	err = cmd.Run()
	var exit *exec.ExitError
	if !errors.As(err, &exit) || exit.ExitCode() != cmdutil.ExitUsage {
		t.Fatalf("n = 51: want exit status %d, got %v", cmdutil.ExitUsage, err)
	}
	if msg := errOut.String(); strings.Count(msg, "\n") != 1 || !strings.Contains(msg, `"gru.weight_ih_l0" has shape (384, 50), want (384, >=51)`) {
		t.Errorf("n = 51: %q", msg)
	}
	if _, err := os.Stat(bad); !os.IsNotExist(err) {
		t.Errorf("a refused import wrote %s", bad)
	}
}

// TestImportRefusesBadHeaderCLI: an .npy header of {} without its newline (a panic in the
// npyio reader) is one line, exit 2, and writes nothing.
func TestImportRefusesBadHeaderCLI(t *testing.T) {
	dir := t.TempDir()
	npz := filepath.Join(dir, "empty-header.npz")
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	w, err := zw.Create("embedding.weight.npy")
	if err == nil {
		_, err = w.Write([]byte("\x93NUMPY\x01\x00\x02\x00{}"))
	}
	if err != nil || zw.Close() != nil || os.WriteFile(npz, buf.Bytes(), 0o644) != nil {
		t.Fatal("writing the .npz", err)
	}
	out := filepath.Join(dir, "run")
	status, stdout, msg := clitest.Run(t, nil, "import", "--task", "mwm", "--n", "15", "--in", npz, "--out", out)
	if status != cmdutil.ExitUsage || stdout != "" || strings.Count(msg, "\n") != 1 ||
		!strings.Contains(msg, `array "embedding.weight" has a bad header: "{}" lacks 'descr', 'fortran_order', 'shape'`) {
		t.Errorf("status %d, stderr %q", status, msg)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 1 {
		t.Errorf("a refused import left %d entries beside its input", len(entries)-1)
	}
}

// TestImportMissingFileCLI: an --in that is not there says so, not that it is no .npz archive.
func TestImportMissingFileCLI(t *testing.T) {
	dir := t.TempDir()
	npz := filepath.Join(dir, "actor-mwm15.npz")
	status, stdout, msg := clitest.Run(t, nil, "import", "--task", "mwm", "--n", "15", "--in", npz, "--out", filepath.Join(dir, "run"))
	if status != cmdutil.ExitUsage || stdout != "" || msg != "spg-tui import: open "+npz+": no such file or directory\n" {
		t.Errorf("status %d, stderr %q", status, msg)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 0 {
		t.Errorf("a refused import left %d entries", len(entries))
	}
}
