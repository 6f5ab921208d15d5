//go:build openblas

package backend

import (
	"context"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"testing"
	"time"

	"golang.org/x/sys/cpu"
	"gonum.org/v1/gonum/blas/blas32"
	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/netlib/blas/netlib"
)

func TestCoreTypeMapping(t *testing.T) {
	for _, c := range []struct {
		avx512f, avx2 bool
		want          string
	}{
		{true, true, "SkylakeX"},
		{true, false, "SkylakeX"},
		{false, true, "Haswell"},
		{false, false, ""},
	} {
		if got := coreType(c.avx512f, c.avx2); got != c.want {
			t.Errorf("coreType(avx512f=%v, avx2=%v) = %q, want %q", c.avx512f, c.avx2, got, c.want)
		}
	}
}

func TestOpenBLASInstalled(t *testing.T) {
	if _, ok := blas32.Implementation().(netlib.Implementation); !ok {
		t.Errorf("blas32 uses %T, want netlib.Implementation", blas32.Implementation())
	}
	if _, ok := blas64.Implementation().(netlib.Implementation); !ok {
		t.Errorf("blas64 uses %T, want netlib.Implementation", blas64.Implementation())
	}
	if Implementation() == nil {
		t.Error("Implementation() is nil in the openblas build")
	}
	if !strings.HasPrefix(Name(), "OpenBLAS (") {
		t.Errorf("Name() = %q", Name())
	}
}

// helperEnv makes TestHelperReportCore print what the process sees instead of skipping.
const helperEnv = "SPG_BACKEND_TEST_HELPER"

func TestHelperReportCore(t *testing.T) {
	if os.Getenv(helperEnv) == "" {
		t.Skip("helper for TestReexecSetsCoreType")
	}
	os.Stdout.WriteString("\nCORE=" + os.Getenv(coreTypeEnv) + "\nNAME=" + Name() +
		"\nTHREADS=" + strconv.Itoa(Threads()) + "\nSPLIT=" + strconv.FormatBool(splitInGo) + "\n")
}

// TestReexecSetsCoreType runs this test binary with OPENBLAS_CORETYPE removed: TestMain's
// EnsureCoreType must re-execute it once with the variable set, and the library must then
// have loaded the kernels named by it (which proves the variable was there at load time).
func TestReexecSetsCoreType(t *testing.T) {
	want := coreType(cpu.X86.HasAVX512F, cpu.X86.HasAVX2)
	if want == "" {
		t.Skip("CPU has neither AVX2 nor AVX-512: EnsureCoreType leaves OpenBLAS alone")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second) // a re-exec loop would hang
	defer cancel()
	cmd := exec.CommandContext(ctx, os.Args[0], "-test.run=^TestHelperReportCore$", "-test.v")
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, coreTypeEnv+"=") {
			cmd.Env = append(cmd.Env, kv)
		}
	}
	cmd.Env = append(cmd.Env, helperEnv+"=1")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("helper failed: %v\n%s", err, out)
	}
	if !strings.Contains(string(out), "\nCORE="+want+"\n") {
		t.Errorf("re-executed process does not have %s=%s:\n%s", coreTypeEnv, want, out)
	}
	if !strings.Contains(strings.ToLower(string(out)), "\nname=openblas ("+strings.ToLower(want)+")\n") {
		t.Errorf("OpenBLAS did not load the %s kernels:\n%s", want, out)
	}
}

// TestThreads checks that OpenBLAS runs single-threaded with the splitting done in Go when no
// thread count is chosen, and that a chosen one is left alone with the splitting off: it runs
// the helper with the variables removed, then with OPENBLAS_NUM_THREADS=2.
func TestThreads(t *testing.T) {
	for _, c := range []struct {
		env, want string
	}{{"", "\nTHREADS=1\nSPLIT=true\n"}, {"OPENBLAS_NUM_THREADS=2", "\nTHREADS=2\nSPLIT=false\n"}} {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		cmd := exec.CommandContext(ctx, os.Args[0], "-test.run=^TestHelperReportCore$", "-test.v")
		for _, kv := range os.Environ() {
			chosen := false
			for _, e := range threadEnvs {
				chosen = chosen || strings.HasPrefix(kv, e+"=")
			}
			if !chosen {
				cmd.Env = append(cmd.Env, kv)
			}
		}
		cmd.Env = append(cmd.Env, helperEnv+"=1")
		if c.env != "" {
			cmd.Env = append(cmd.Env, c.env)
		}
		out, err := cmd.CombinedOutput()
		cancel()
		if err != nil {
			t.Fatalf("helper failed: %v\n%s", err, out)
		}
		if !strings.Contains(string(out), c.want) {
			t.Errorf("with %q: want %q in:\n%s", c.env, c.want, out)
		}
	}
}
