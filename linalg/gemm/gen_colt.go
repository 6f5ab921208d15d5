//go:build ignore

// gen_colt.go, part of the generator gen_kernels.go, writes the kernels of the products with
// one column, which Sgemm computes as their transpose: row_amd64.s, the one-row kernels, and
// colt_amd64.s, the kernels that transpose 16 (AVX-512) or 8 (AVX2) rows of an untransposed a
// in registers.
package main

import (
	"bytes"
	"fmt"
	"math/bits"
	"slices"
)

// genRowKernels is row_amd64.s: kernelAVX512Row (1 x 32, the columns stored by opmasks) and
// kernelAVX2Row (1 x 16, all stored).
func genRowKernels() []byte {
	var w bytes.Buffer
	w.WriteString(header("gen_colt.go"))
	w.WriteString("\n// The one-row kernels (rowkernel_amd64.go): one row of c by two registers of columns, each\n" +
		"// element a chain of FMAs over k from zero, stored as the other kernels store a tile.\n")
	genRowKernel(&w, "kernelAVX512Row", "Z", 16, "VPXORD", true)
	genRowKernel(&w, "kernelAVX2Row", "Y", 8, "VXORPS", false)
	return w.Bytes()
}

// genRowKernel writes
//
//	func name(kc int, a *float32, ps int, b *float32, bs int, c *float32, alpha, beta float32[, mask0, mask1 int])
//
// which sets the row of 2*lanes floats at c to alpha acc + beta c (as genKernel's kernels do),
// acc[j] = sum over p < kc of a[p*ps] b[p*bs + j]; a masked kernel takes mask0 and mask1, the
// opmasks of the columns it reads and writes in the first and second register.
func genRowKernel(w *bytes.Buffer, name, reg string, lanes int, zero string, masked bool) {
	p := func(format string, args ...any) { fmt.Fprintf(w, "\t"+format+"\n", args...) }
	r := func(i int) string { return fmt.Sprintf("%s%d", reg, i) } // sums 0, 1; a's broadcast 2; alpha 3; beta 4; c 5
	args, size := "", 56
	if masked {
		args, size = ", mask0, mask1 int", 72
	}
	fmt.Fprintf(w, "\n// func %s(kc int, a *float32, ps int, b *float32, bs int, c *float32, alpha, beta float32%s)\n", name, args)
	fmt.Fprintf(w, "TEXT ·%s(SB), NOSPLIT, $0-%d\n", name, size)
	p("MOVQ kc+0(FP), CX")
	p("MOVQ a+8(FP), AX")
	p("MOVQ ps+16(FP), R12")
	p("SHLQ $2, R12")
	p("MOVQ b+24(FP), DI")
	p("MOVQ bs+32(FP), R13")
	p("SHLQ $2, R13")
	for v := range 2 {
		p("%s %s, %s, %s", zero, r(v), r(v), r(v))
	}
	w.WriteString("\nloop:\n")
	p("VBROADCASTSS (AX), %s", r(2))
	for v := range 2 {
		p("VFMADD231PS %d(DI), %s, %s", v*lanes*4, r(2), r(v))
	}
	p("ADDQ R12, AX")
	p("ADDQ R13, DI")
	p("DECQ CX")
	p("JNZ loop")
	w.WriteString("\n")
	p("MOVQ c+40(FP), DX")
	mask := func(v int) string { return "" }
	if masked {
		for v := range 2 {
			p("MOVQ mask%d+%d(FP), SI", v, 56+8*v)
			p("KMOVW SI, K%d", v+1)
		}
		mask = func(v int) string { return fmt.Sprintf("K%d", v+1) }
	}
	p("VBROADCASTSS alpha+48(FP), %s", r(3))
	p("MOVL beta+52(FP), SI")
	p("ANDL $0x7fffffff, SI") // -0 is zero too
	p("JZ overwrite")
	p("VBROADCASTSS beta+52(FP), %s", r(4))
	for v := range 2 {
		storeAcc(p, r(v), r(3), r(4), r(5), v*lanes*4, mask(v))
	}
	p("VZEROUPPER")
	p("RET")
	w.WriteString("\noverwrite:\n")
	for v := range 2 {
		storeAcc(p, r(v), r(3), "", "", v*lanes*4, mask(v))
	}
	p("VZEROUPPER")
	p("RET")
}

// colT describes a kernel of genColT: rows rows of a by one column, in registers named by reg.
type colT struct {
	name    string
	reg     string // vector register prefix: "Z" (AVX-512) or "Y" (AVX2)
	rows    int    // rows of a, and columns of a block, one register each
	steps   []step // the block's transpose, rows in registers 0..rows-1
	results []int  // the registers in which steps leave the block's columns
	temps   []int  // the registers the transpose may write besides the rows'
	acc     int    // the sums
	tmp     int    // AVX2: the mask of the tail's loads, then the broadcasts of b
	scalars [3]int // alpha, beta and c in the update of c
}

// genColT is colt_amd64.s, kernelAVX512ColT (16 rows) and kernelAVX2ColT (8 rows):
//
//	func name(kc int, a *float32, lda int, b *float32, bs int, c *float32, alpha, beta float32, tail int)
//
// which sets c[0:rows] = alpha acc + beta c[0:rows] for rows rows of a (row stride lda): acc[i]
// is the chain of FMAs over p < kc of a[i*lda+p] b[p*bs], from zero and in order of p, as in
// the row kernels. Each rows x rows block of a is transposed in registers (transpose16Steps or
// transpose8Steps, renamed by renameSteps to keep a register for the sums) so that column p of
// the block is one register; the last kc%rows = tail columns are loaded under a mask (reading
// nothing past them) and only their FMAs run.
func genColT() []byte {
	var w bytes.Buffer
	w.WriteString(header("gen_colt.go"))
	genColTKernel(&w, colT{name: "kernelAVX512ColT", reg: "Z", rows: 16, steps: transpose16Steps(),
		results: regs(0, 16), temps: regs(16, 14), acc: 30, scalars: [3]int{29, 28, 27}}) // Z31 spare
	genColTKernel(&w, colT{name: "kernelAVX2ColT", reg: "Y", rows: 8, steps: transpose8Steps(),
		results: regs(8, 8), temps: regs(8, 6), acc: 15, tmp: 14, scalars: [3]int{14, 13, 12}})
	w.WriteString("\n// kernelAVX2ColT's tail mask: the 8 floats from byte (8-tail)*4 have their first tail lanes set.\n")
	for i := range 16 {
		mask := "0xffffffff"
		if i >= 8 {
			mask = "0"
		}
		fmt.Fprintf(&w, "DATA coltMask<>+%d(SB)/4, $%s\n", 4*i, mask)
	}
	w.WriteString("GLOBL coltMask<>(SB), RODATA|NOPTR, $64\n")
	return w.Bytes()
}

// regs is the registers from, from+1, ..., n of them.
func regs(from, n int) []int {
	r := make([]int, n)
	for i := range r {
		r[i] = from + i
	}
	return r
}

// genColTKernel writes the kernel k of genColT.
func genColTKernel(w *bytes.Buffer, k colT) {
	p := func(format string, args ...any) { fmt.Fprintf(w, "\t"+format+"\n", args...) }
	r := func(i int) string { return fmt.Sprintf("%s%d", k.reg, i) }
	avx512 := k.reg == "Z"
	steps, cols := renameSteps(k.steps, k.results, k.temps)
	// column p of the block is in cols[p]; load is the instruction of row i's load
	block := func(load func(i int), last func(p int)) {
		p("MOVQ SI, R10")
		for i := range k.rows {
			if i > 0 {
				p("ADDQ R9, R10")
			}
			load(i)
		}
		for _, s := range steps {
			p("%s", s.text(k.reg))
		}
		for c, col := range cols {
			if avx512 {
				p("VFMADD231PS.BCST (DI), %s, %s", r(col), r(k.acc))
			} else {
				p("VBROADCASTSS (DI), %s", r(k.tmp))
				p("VFMADD231PS %s, %s, %s", r(k.tmp), r(col), r(k.acc))
			}
			p("ADDQ R13, DI")
			last(c)
		}
	}
	fmt.Fprintf(w, "\n// func %s(kc int, a *float32, lda int, b *float32, bs int, c *float32, alpha, beta float32, tail int)\n", k.name)
	fmt.Fprintf(w, "// %d rows of an untransposed a by one column; see gen_colt.go.\n", k.rows)
	fmt.Fprintf(w, "TEXT ·%s(SB), NOSPLIT, $0-64\n", k.name)
	p("MOVQ a+8(FP), SI")
	p("MOVQ lda+16(FP), R9")
	p("SHLQ $2, R9")
	p("MOVQ b+24(FP), DI")
	p("MOVQ bs+32(FP), R13")
	p("SHLQ $2, R13")
	p("MOVQ tail+56(FP), R15")
	p("MOVQ kc+0(FP), CX") // CX: the whole blocks of columns
	p("SUBQ R15, CX")
	p("SHRQ $%d, CX", bits.TrailingZeros(uint(k.rows)))
	if avx512 {
		p("VPXORD %s, %s, %s", r(k.acc), r(k.acc), r(k.acc))
	} else {
		p("VXORPS %s, %s, %s", r(k.acc), r(k.acc), r(k.acc))
	}
	p("TESTQ CX, CX")
	p("JZ tail")
	w.WriteString("\nblock:\n")
	block(func(i int) { p("VMOVUPS (R10), %s", r(i)) }, func(int) {})
	p("ADDQ $%d, SI", 4*k.rows)
	p("DECQ CX")
	p("JNZ block")
	w.WriteString("\ntail:\n")
	p("TESTQ R15, R15")
	p("JZ store")
	if avx512 { // K1 = the tail's lanes
		p("MOVQ R15, CX")
		p("MOVQ $1, AX")
		p("SHLQ CX, AX")
		p("DECQ AX")
		p("KMOVW AX, K1")
	} else {
		p("MOVQ $%d, AX", k.rows)
		p("SUBQ R15, AX")
		p("LEAQ coltMask<>(SB), BX")
		p("VMOVUPS (BX)(AX*4), %s", r(k.tmp))
	}
	load := func(i int) { p("VMOVUPS.Z (R10), K1, %s", r(i)) }
	if !avx512 {
		load = func(i int) { p("VMASKMOVPS (R10), %s, %s", r(k.tmp), r(i)) }
	}
	block(load, func(c int) {
		if c < k.rows-1 { // the FMAs of the tail's columns only
			p("CMPQ R15, $%d", c+1)
			p("JLE store")
		}
	})
	alpha, beta, tmp := r(k.scalars[0]), r(k.scalars[1]), r(k.scalars[2])
	w.WriteString("\nstore:\n")
	p("MOVQ c+40(FP), DX")
	p("VBROADCASTSS alpha+48(FP), %s", alpha)
	p("MOVL beta+52(FP), AX")
	p("ANDL $0x7fffffff, AX") // -0 is zero too
	p("JZ overwrite")
	p("VBROADCASTSS beta+52(FP), %s", beta)
	storeAcc(p, r(k.acc), alpha, beta, tmp, 0, "")
	p("VZEROUPPER")
	p("RET")
	w.WriteString("\noverwrite:\n")
	storeAcc(p, r(k.acc), alpha, "", "", 0, "")
	p("VZEROUPPER")
	p("RET")
}

// renameSteps reallocates the registers of steps, which read their inputs from registers and
// leave their results in the registers results, so that they write only free registers and
// those they free: each step writes the register freed longest ago (free, in its order, at
// first), a register being freed by the step that last reads its value (its operands in
// order). It returns the renamed steps and the registers that hold the results.
func renameSteps(steps []step, results, free []int) ([]step, []int) {
	free = append([]int(nil), free...)
	at := make(map[int]int) // the register that holds the value of each of steps' registers
	where := func(r int) int {
		if x, ok := at[r]; ok {
			return x
		}
		return r // an input, not moved
	}
	out := make([]step, len(steps))
	for i, s := range steps {
		out[i] = s
		out[i].a, out[i].b = where(s.a), where(s.b)
		if len(free) == 0 {
			panic("renameSteps: no register free")
		}
		out[i].d, free = free[0], free[1:]
		at[s.d] = out[i].d
		for _, src := range [][2]int{{s.a, out[i].a}, {s.b, out[i].b}} {
			if !readAgain(steps[i+1:], src[0], results) {
				free = append(free, src[1])
			}
		}
	}
	res := make([]int, len(results))
	for i, r := range results {
		res[i] = where(r)
	}
	return out, res
}

// readAgain says whether the value in register r is read by rest, or is one of results that
// rest does not overwrite.
func readAgain(rest []step, r int, results []int) bool {
	for _, s := range rest {
		if s.a == r || s.b == r {
			return true
		}
		if s.d == r {
			return false
		}
	}
	return slices.Contains(results, r)
}
