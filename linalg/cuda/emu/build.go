package emu

import (
	"crypto/sha256"
	_ "embed"
	"encoding/hex"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"spg-tui/linalg/cuda/kernels"
)

//go:embed prelude.h
var prelude string

// cxxFlags compile the library. Contraction into FMAs is off so that the numbers do not depend
// on the host CPU's instruction set.
var cxxFlags = []string{"-x", "c++", "-O2", "-shared", "-fPIC", "-ffp-contract=off", "-fno-fast-math", "-w"}

// program returns the emulator's C++ translation unit: the prelude, the kernel sources src,
// and one trampoline per kernel of ks (src's) that unpacks cuLaunchKernel-style arguments (an
// array of pointers to the values) into a call, dispatched by emu_launch on the kernel's index
// with whether the kernel has barriers.
func program(src string, ks []kernels.Kernel) string {
	var b strings.Builder
	b.WriteString(prelude)
	b.WriteString("\n#line 1 \"kernels.cu\"\n")
	b.WriteString(src)
	b.WriteString("\n// ---- trampolines ----\n")
	for i, k := range ks {
		fmt.Fprintf(&b, "static void emu_call_%d(void** a) { %s(", i, k.Name)
		for j, t := range k.Types {
			if j > 0 {
				b.WriteString(", ")
			}
			fmt.Fprintf(&b, "*(%s*)a[%d]", t, j)
		}
		b.WriteString("); }\n")
	}
	b.WriteString("static void (*const emu_table[])(void**) = {")
	for i := range ks {
		fmt.Fprintf(&b, "emu_call_%d, ", i)
	}
	b.WriteString("0};\nstatic const int emu_barrier[] = {")
	for _, k := range ks {
		if k.Barrier {
			b.WriteString("1, ")
		} else {
			b.WriteString("0, ")
		}
	}
	b.WriteString("0};\n")
	fmt.Fprintf(&b, `extern "C" int emu_launch(int k, void** a, int gx, int gy, int gz, int bx, int by, int bz, int reverse)
{
    if (k < 0 || k >= %d) {
        return emu_bad_dims;
    }
    return emu_run(emu_table[k], a, gx, gy, gz, bx, by, bz, reverse, emu_barrier[k]);
}
`, len(ks))
	return b.String()
}

// compiler returns the C++ compiler to use ($CXX, else g++, c++ or clang++ on PATH) and its
// version line, which is part of the cache key.
func compiler() (string, string, error) {
	names := []string{"g++", "c++", "clang++"}
	if cxx := os.Getenv("CXX"); cxx != "" {
		names = []string{cxx}
	}
	for _, n := range names {
		path, err := exec.LookPath(n)
		if err != nil {
			continue
		}
		out, err := exec.Command(path, "--version").Output()
		if err != nil {
			continue
		}
		version, _, _ := strings.Cut(string(out), "\n")
		return path, version, nil
	}
	return "", "", fmt.Errorf("emu: no C++ compiler found (tried %s)", strings.Join(names, ", "))
}

// library returns the path of the emulator library of kernelSrc (with signatures ks) in dir, compiling it first where
// dir has none for this source and compiler. The name is a hash of both, so a changed kernel
// gets a new library and a stale one is never loaded.
func library(dir, kernelSrc string, ks []kernels.Kernel) (string, string, error) {
	cxx, version, err := compiler()
	if err != nil {
		return "", "", err
	}
	src := program(kernelSrc, ks)
	h := sha256.New()
	fmt.Fprintf(h, "%s\n%s\n%s\n", version, strings.Join(cxxFlags, " "), src)
	path := filepath.Join(dir, "emu-"+hex.EncodeToString(h.Sum(nil))[:24]+".so")
	if _, err := os.Stat(path); err == nil {
		return path, version, nil
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", "", fmt.Errorf("emu: cache directory: %v", err)
	}
	// Compile to a temporary name and rename, so that a concurrent or interrupted build never
	// leaves a partial library under the final name.
	tmp, err := os.CreateTemp(dir, "emu-*.so.tmp")
	if err != nil {
		return "", "", fmt.Errorf("emu: cache directory: %v", err)
	}
	tmp.Close()
	defer os.Remove(tmp.Name())
	cmd := exec.Command(cxx, append(cxxFlags, "-o", tmp.Name(), "-")...)
	cmd.Stdin = strings.NewReader(src)
	if out, err := cmd.CombinedOutput(); err != nil {
		return "", "", fmt.Errorf("emu: %s failed on the kernels: %s", filepath.Base(cxx), firstLines(string(out), err))
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		return "", "", fmt.Errorf("emu: cache directory: %v", err)
	}
	return path, version, nil
}

// firstLines returns the compiler's first error lines, joined into one line.
func firstLines(out string, err error) string {
	var errs []string
	for _, l := range strings.Split(out, "\n") {
		if strings.Contains(l, "error") {
			errs = append(errs, strings.TrimSpace(l))
		}
		if len(errs) == 3 {
			break
		}
	}
	if len(errs) == 0 {
		return err.Error()
	}
	return strings.Join(errs, "; ")
}
