//go:build ignore

// gen_colt.go, part of the generator gen_kernels.go, writes the kernels of the products with
// one column, which Sgemm computes as their transpose: row_amd64.s, the one-row kernels, and
// colt_amd64.s, the kernel that transposes 16 rows of an untransposed a in registers.
package main

import (
	"bytes"
	"fmt"
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

// genColT is colt_amd64.s:
//
//	func kernelAVX512ColT(kc int, a *float32, lda int, b *float32, bs int, c *float32, alpha, beta float32, tail int)
//
// which sets c[0:16] = alpha acc + beta c[0:16] for 16 rows of a (row stride lda): acc[i] is
// the chain of FMAs over p < kc of a[i*lda+p] b[p*bs], from zero and in order of p. Each
// 16 x 16 block of a is transposed in registers (transpose16Steps, renamed by renameSteps to
// keep Z30 for the sums) so that column p of the block is one register, the FMAs broadcasting
// b[p*bs] from memory; the last kc%16 = tail columns are loaded under a mask and only their
// FMAs run.
func genColT() []byte {
	var w bytes.Buffer
	w.WriteString(header("gen_colt.go"))
	p := func(format string, args ...any) { fmt.Fprintf(&w, "\t"+format+"\n", args...) }
	temps := make([]int, 14) // Z16-Z29: Z30 holds the sums, Z31 is spare
	for i := range temps {
		temps[i] = 16 + i
	}
	steps, cols := renameSteps(transpose16Steps(), 16, temps)
	// column p of the block is in Z(cols[p]); the masked loads ask for K1, set by the tail
	block := func(load string, last func(p int)) {
		p("MOVQ SI, R10")
		for r := range 16 {
			if r > 0 {
				p("ADDQ R9, R10")
			}
			p(load, r)
		}
		for _, s := range steps {
			p("%s", s.text("Z"))
		}
		for c, z := range cols {
			p("VFMADD231PS.BCST (DI), Z%d, Z30", z)
			p("ADDQ R13, DI")
			last(c)
		}
	}
	w.WriteString("\n// func kernelAVX512ColT(kc int, a *float32, lda int, b *float32, bs int, c *float32, alpha, beta float32, tail int)\n" +
		"// 16 rows of an untransposed a by one column; see gen_colt.go.\n")
	w.WriteString("TEXT ·kernelAVX512ColT(SB), NOSPLIT, $0-64\n")
	p("MOVQ a+8(FP), SI")
	p("MOVQ lda+16(FP), R9")
	p("SHLQ $2, R9")
	p("MOVQ b+24(FP), DI")
	p("MOVQ bs+32(FP), R13")
	p("SHLQ $2, R13")
	p("MOVQ tail+56(FP), R15")
	p("MOVQ kc+0(FP), CX") // CX: the whole blocks of 16 columns
	p("SUBQ R15, CX")
	p("SHRQ $4, CX")
	p("VPXORD Z30, Z30, Z30")
	p("TESTQ CX, CX")
	p("JZ tail")
	w.WriteString("\nblock:\n")
	block("VMOVUPS (R10), Z%d", func(int) {})
	p("ADDQ $64, SI")
	p("DECQ CX")
	p("JNZ block")
	w.WriteString("\ntail:\n")
	p("TESTQ R15, R15")
	p("JZ store")
	p("MOVQ R15, CX") // K1 = the tail's lanes
	p("MOVQ $1, AX")
	p("SHLQ CX, AX")
	p("DECQ AX")
	p("KMOVW AX, K1")
	block("VMOVUPS.Z (R10), K1, Z%d", func(c int) {
		if c < 15 { // the FMAs of the tail's columns only
			p("CMPQ R15, $%d", c+1)
			p("JLE store")
		}
	})
	w.WriteString("\nstore:\n")
	p("MOVQ c+40(FP), DX")
	p("VBROADCASTSS alpha+48(FP), Z29")
	p("MOVL beta+52(FP), AX")
	p("ANDL $0x7fffffff, AX") // -0 is zero too
	p("JZ overwrite")
	p("VBROADCASTSS beta+52(FP), Z28")
	storeAcc(p, "Z30", "Z29", "Z28", "Z27", 0, "")
	p("VZEROUPPER")
	p("RET")
	w.WriteString("\noverwrite:\n")
	storeAcc(p, "Z30", "Z29", "", "", 0, "")
	p("VZEROUPPER")
	p("RET")
	return w.Bytes()
}

// renameSteps reallocates the registers of steps, whose inputs are registers 0..n-1 and which
// leave their results in registers 0..n-1, so that they write only those registers and free:
// each step writes the register freed longest ago (free, in its order, at first), a register
// being freed by the step that last reads its value (its operands in order). It returns the
// renamed steps and the register that holds each result.
func renameSteps(steps []step, n int, free []int) ([]step, []int) {
	free = append([]int(nil), free...)
	at := make(map[int]int) // the register that holds the value of each of steps' registers
	for r := range n {
		at[r] = r
	}
	out := make([]step, len(steps))
	for i, s := range steps {
		out[i] = s
		out[i].a, out[i].b = at[s.a], at[s.b]
		if len(free) == 0 {
			panic("renameSteps: no register free")
		}
		out[i].d, free = free[0], free[1:]
		at[s.d] = out[i].d
		for _, src := range [][2]int{{s.a, out[i].a}, {s.b, out[i].b}} {
			if !readAgain(steps[i+1:], src[0], n) {
				free = append(free, src[1])
			}
		}
	}
	res := make([]int, n)
	for r := range n {
		res[r] = at[r]
	}
	return out, res
}

// readAgain says whether the value in register r is read by rest, or is a result (r < n) that
// rest does not overwrite.
func readAgain(rest []step, r, n int) bool {
	for _, s := range rest {
		if s.a == r || s.b == r {
			return true
		}
		if s.d == r {
			return false
		}
	}
	return r < n
}
