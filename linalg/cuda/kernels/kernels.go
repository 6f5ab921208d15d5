// Package kernels holds the CUDA C sources of spg-tui's GPU kernels (one .cu file per layer)
// and the list of their signatures. Both implementations of cuda.Device compile the same
// sources: the CUDA driver with NVRTC for the GPU found, the emulator (linalg/cuda/emu) with a
// C++ compiler for the CPU. So the sources keep to what both accept: no headers, every kernel
// `extern "C" __global__ void name(...)` with only float*, const float*, int*, int and float
// arguments, no warp intrinsics and no dynamic shared memory (static __shared__ arrays sized for
// blockDim <= 256 are fine). Each kernel's comment gives its grid and block convention.
package kernels

import (
	"embed"
	"fmt"
	"regexp"
	"slices"
	"strings"
)

//go:embed *.cu
var files embed.FS

// Kind is the kind of a kernel argument.
type Kind int

// The argument kinds a kernel may take: a device pointer (float*, const float*, int*), an int
// or a float.
const (
	Ptr Kind = iota
	Int
	Float
)

// String names the kind as in a signature.
func (k Kind) String() string {
	switch k {
	case Ptr:
		return "pointer"
	case Int:
		return "int"
	case Float:
		return "float"
	}
	return fmt.Sprintf("Kind(%d)", int(k))
}

// Kernel is one kernel's signature.
type Kernel struct {
	Name string // the C name, as passed to cuda.Device.Launch
	File string // the .cu file that defines it
	Args []Kind
	// Types are the arguments' C types, normalised ("const float*", "int"): what a caller
	// compiling the sources for the CPU casts to.
	Types []string
	// Barrier is whether the kernel may call __syncthreads(), itself or through a device
	// function: the emulator runs the threads of a kernel without one as plain calls.
	Barrier bool
}

// Sources returns the .cu files by name.
func Sources() map[string]string {
	names := fileNames()
	m := make(map[string]string, len(names))
	for _, n := range names {
		m[n] = read(n)
	}
	return m
}

// Source returns every .cu file concatenated, common.cu (the shared device functions) first
// and the others in name order: one translation unit, which is what NVRTC and the emulator
// compile.
func Source() string {
	var b strings.Builder
	for _, n := range fileNames() {
		fmt.Fprintf(&b, "// ---- %s ----\n%s\n", n, read(n))
	}
	return b.String()
}

// commonFile holds the device functions other files use; it comes first.
const commonFile = "common.cu"

// fileNames returns the embedded .cu files' names, common.cu first and the rest sorted.
func fileNames() []string {
	ents, err := files.ReadDir(".")
	if err != nil {
		panic(err) // the embedded directory always reads
	}
	var names []string
	for _, e := range ents {
		names = append(names, e.Name())
	}
	slices.SortFunc(names, func(a, b string) int {
		switch {
		case a == b:
			return 0
		case a == commonFile:
			return -1
		case b == commonFile:
			return 1
		}
		return strings.Compare(a, b)
	})
	return names
}

// read returns an embedded file's text.
func read(name string) string {
	b, err := files.ReadFile(name)
	if err != nil {
		panic(err) // name comes from ReadDir
	}
	return string(b)
}

var (
	globalRE = regexp.MustCompile(`__global__`)
	kernelRE = regexp.MustCompile(`extern "C" __global__ void (\w+)\(([^)]*)\)`)
)

// List returns every kernel's signature, in file then source order (see Parse).
func List() ([]Kernel, error) {
	var ks []Kernel
	seen := map[string]bool{}
	for _, f := range fileNames() {
		fks, err := parse(f, read(f))
		if err != nil {
			return nil, err
		}
		for _, k := range fks {
			if seen[k.Name] {
				return nil, fmt.Errorf("kernels: %s: kernel %s defined twice", f, k.Name)
			}
			seen[k.Name] = true
		}
		ks = append(ks, fks...)
	}
	// A kernel may reach a barrier through a device function of another file.
	b := barriers(Source())
	for i := range ks {
		ks[i].Barrier = b[ks[i].Name]
	}
	return ks, nil
}

// Names returns every kernel's name, in List's order: what a device looks up once it has
// compiled Source.
func Names() ([]string, error) {
	ks, err := List()
	if err != nil {
		return nil, err
	}
	names := make([]string, len(ks))
	for i, k := range ks {
		names[i] = k.Name
	}
	return names, nil
}

// Parse returns the signatures of the kernels in src, the text of file, with whether each
// reaches a barrier within src. It fails, naming the
// kernel, where a __global__ function is not declared as the package doc says or takes an
// argument of another type: the launchers pack arguments by these kinds.
func Parse(file, src string) ([]Kernel, error) {
	ks, err := parse(file, src)
	if err != nil {
		return nil, err
	}
	b := barriers(src)
	for i := range ks {
		ks[i].Barrier = b[ks[i].Name]
	}
	return ks, nil
}

// parse is Parse without Barrier.
func parse(file, src string) ([]Kernel, error) {
	ms := kernelRE.FindAllStringSubmatch(src, -1)
	if n := len(globalRE.FindAllString(src, -1)); n != len(ms) {
		return nil, fmt.Errorf("kernels: %s has %d __global__ but %d declared as `extern \"C\" __global__ void name(...)`", file, n, len(ms))
	}
	var ks []Kernel
	for _, m := range ms {
		k := Kernel{Name: m[1], File: file}
		for _, p := range strings.Split(m[2], ",") {
			typ, kind, err := paramKind(p)
			if err != nil {
				return nil, fmt.Errorf("kernels: %s: kernel %s: %v", file, k.Name, err)
			}
			k.Args = append(k.Args, kind)
			k.Types = append(k.Types, typ)
		}
		ks = append(ks, k)
	}
	return ks, nil
}

// paramKind returns the normalised C type and the kind of one parameter declaration such as
// "const float *x".
func paramKind(p string) (string, Kind, error) {
	f := strings.Fields(strings.ReplaceAll(strings.TrimSpace(p), "*", " * "))
	if len(f) < 2 {
		return "", 0, fmt.Errorf("parameter %q has no type and name", strings.TrimSpace(p))
	}
	typ := strings.ReplaceAll(strings.Join(f[:len(f)-1], " "), " *", "*")
	switch typ {
	case "float*", "const float*", "int*":
		return typ, Ptr, nil
	case "int":
		return typ, Int, nil
	case "float":
		return typ, Float, nil
	}
	return "", 0, fmt.Errorf("parameter %q: want float*, const float*, int*, int or float", strings.TrimSpace(p))
}
