//go:build !noasm

#include "textflag.h"
#include "consts_amd64.h"

// The AVX-512 kernels repeat the AVX2 ones (vec_amd64.s) instruction for instruction on 16
// lanes instead of 8, so every lane rounds exactly as there: the same operations in the same
// order, compare masks in K registers instead of vectors. The constants are those of
// vec_amd64.s, broadcast from their first element.

// EXP512 is EXPPS on Z registers with log2e, ln2hi, ln2lo, ep0-ep5, one and bias in Z16-Z26.
#define EXP512(x, k, r, p, r2) \
	VMULPS       Z16, x, k; \
	VRNDSCALEPS  $0, k, k; \
	VMOVAPS      x, r; \
	VFNMADD231PS Z17, k, r; \
	VFNMADD231PS Z18, k, r; \
	VMOVAPS      Z19, p; \
	VFMADD213PS  Z20, r, p; \
	VFMADD213PS  Z21, r, p; \
	VFMADD213PS  Z22, r, p; \
	VFMADD213PS  Z23, r, p; \
	VFMADD213PS  Z24, r, p; \
	VMULPS       r, r, r2; \
	VFMADD213PS  r, r2, p; \
	VADDPS       Z25, p, p; \
	VCVTPS2DQ    k, k; \
	VPADDD       Z26, k, k; \
	VPSLLD       $23, k, k; \
	VMULPS       k, p, p

// SIGMOID512 is SIGMOIDPS with -87, 88 in Z27, Z28 and the sign bit in Z29.
#define SIGMOID512(x, k, r, p, r2) \
	VPXORD     Z29, x, x; \
	VMAXPS     x, Z27, x; \
	VMINPS     x, Z28, x; \
	EXP512(x, k, r, p, r2); \
	VADDPS     Z25, p, p; \
	VDIVPS     p, Z25, x

// TANH512 is TANHPS with Z1-Z10 and K1 as scratch, 10 in Z30, 0.625 in Z31, the sign bit in
// Z29 and the polynomial and remaining masks broadcast from memory.
#define TANH512(x) \
	VPANDD.BCST      absmask<>(SB), x, Z1; \
	VMULPS           x, x, Z2; \
	VBROADCASTSS     tp0<>(SB), Z3; \
	VFMADD213PS.BCST tp1<>(SB), Z2, Z3; \
	VFMADD213PS.BCST tp2<>(SB), Z2, Z3; \
	VFMADD213PS.BCST tp3<>(SB), Z2, Z3; \
	VFMADD213PS.BCST tp4<>(SB), Z2, Z3; \
	VMULPS           Z2, Z3, Z3; \
	VFMADD213PS      x, x, Z3; \
	VMINPS           Z1, Z30, Z4; \
	VADDPS           Z4, Z4, Z4; \
	EXP512(Z4, Z5, Z6, Z7, Z8); \
	VADDPS           Z25, Z7, Z7; \
	VBROADCASTSS     two<>(SB), Z9; \
	VDIVPS           Z7, Z9, Z7; \
	VSUBPS           Z7, Z25, Z7; \
	VPANDD           Z29, x, Z9; \
	VPORD            Z9, Z7, Z7; \
	VCMPPS           $1, Z31, Z1, K1; \
	VBLENDMPS        Z3, Z7, K1, x

// LOADCONST512 fills Z16-Z31 as the macros above expect.
#define LOADCONST512 \
	VBROADCASTSS log2e<>(SB), Z16; \
	VBROADCASTSS ln2hi<>(SB), Z17; \
	VBROADCASTSS ln2lo<>(SB), Z18; \
	VBROADCASTSS ep0<>(SB), Z19; \
	VBROADCASTSS ep1<>(SB), Z20; \
	VBROADCASTSS ep2<>(SB), Z21; \
	VBROADCASTSS ep3<>(SB), Z22; \
	VBROADCASTSS ep4<>(SB), Z23; \
	VBROADCASTSS ep5<>(SB), Z24; \
	VBROADCASTSS one<>(SB), Z25; \
	VPBROADCASTD bias<>(SB), Z26; \
	VBROADCASTSS expmin<>(SB), Z27; \
	VBROADCASTSS expmax<>(SB), Z28; \
	VPBROADCASTD signbit<>(SB), Z29; \
	VBROADCASTSS ten<>(SB), Z30; \
	VBROADCASTSS small<>(SB), Z31

// func gruGatesAVX512(gi, gh, bi, bh, hn, hp, hNew *float32, n, h int)
//
// gruGatesAVX2 for n a positive multiple of 16; r and z stay in Z11 and Z12.
TEXT ·gruGatesAVX512(SB), NOSPLIT, $0-72
	MOVQ gi+0(FP), DI
	MOVQ gh+8(FP), SI
	MOVQ bi+16(FP), DX
	MOVQ bh+24(FP), BX
	MOVQ hn+32(FP), R10
	MOVQ hp+40(FP), R11
	MOVQ hNew+48(FP), R12
	MOVQ n+56(FP), CX
	MOVQ h+64(FP), R8
	SHLQ $2, R8           // one column: h*4 bytes
	LEAQ (R8)(R8*1), R9   // two columns
	LOADCONST512

gruGates512Loop:
	// r = sigmoid(gi + ((bi + gh) + bh)), likewise z one column on.
	VMOVUPS (DX), Z0
	VADDPS  (SI), Z0, Z0
	VADDPS  (BX), Z0, Z0
	VADDPS  (DI), Z0, Z0
	SIGMOID512(Z0, Z1, Z2, Z3, Z4)
	VMOVUPS Z0, (DI)
	VMOVAPS Z0, Z11
	VMOVUPS (DX)(R8*1), Z0
	VADDPS  (SI)(R8*1), Z0, Z0
	VADDPS  (BX)(R8*1), Z0, Z0
	VADDPS  (DI)(R8*1), Z0, Z0
	SIGMOID512(Z0, Z1, Z2, Z3, Z4)
	VMOVUPS Z0, (DI)(R8*1)
	VMOVAPS Z0, Z12

	// hn = gh + bh in the n column; n = tanh(gi + (bi + r hn)).
	VMOVUPS     (SI)(R9*1), Z0
	VADDPS      (BX)(R9*1), Z0, Z0
	VMOVUPS     Z0, (R10)
	VFMADD213PS (DX)(R9*1), Z11, Z0
	VADDPS      (DI)(R9*1), Z0, Z0
	TANH512(Z0)
	VMOVUPS     Z0, (DI)(R9*1)

	// hNew = n + z (hp - n).
	VMOVUPS     (R11), Z1
	VSUBPS      Z0, Z1, Z1
	VFMADD231PS Z12, Z1, Z0
	VMOVUPS     Z0, (R12)

	ADDQ $64, DI
	ADDQ $64, SI
	ADDQ $64, DX
	ADDQ $64, BX
	ADDQ $64, R10
	ADDQ $64, R11
	ADDQ $64, R12
	SUBQ $16, CX
	JNZ  gruGates512Loop
	VZEROUPPER
	RET

// func gruGatesBackwardAVX512(grad, carry, dout, gates, hn, hp *float32, n, h int)
//
// gruGatesBackwardAVX2 for n a positive multiple of 16.
TEXT ·gruGatesBackwardAVX512(SB), NOSPLIT, $0-64
	MOVQ         grad+0(FP), DI
	MOVQ         carry+8(FP), DX
	MOVQ         dout+16(FP), BX
	MOVQ         gates+24(FP), SI
	MOVQ         hn+32(FP), R11
	MOVQ         hp+40(FP), R12
	MOVQ         n+48(FP), CX
	MOVQ         h+56(FP), R8
	SHLQ         $2, R8            // one column
	LEAQ         (R8)(R8*1), R9    // two
	LEAQ         (R9)(R8*1), R10   // three
	VBROADCASTSS one<>(SB), Z15

gruGatesBackward512Loop:
	VMOVUPS      (BX), Z0
	VADDPS       (DX), Z0, Z0      // dh = dout + carry
	VMOVUPS      (SI), Z1          // r
	VMOVUPS      (SI)(R8*1), Z2    // z
	VMOVUPS      (SI)(R9*1), Z3    // n
	VSUBPS       Z2, Z15, Z4       // 1 - z
	VMOVAPS      Z15, Z5
	VFNMADD231PS Z3, Z3, Z5        // 1 - n^2
	VMULPS       Z4, Z0, Z6
	VMULPS       Z5, Z6, Z6        // dan = dh (1 - z) (1 - n^2)
	VMOVUPS      Z6, (DI)          // gnx = dan
	VMULPS       Z1, Z6, Z7
	VMOVUPS      Z7, (DI)(R10*1)   // gnh = dan r
	VMULPS       (R11), Z7, Z7
	VSUBPS       Z1, Z15, Z8
	VMULPS       Z8, Z7, Z7
	VMOVUPS      Z7, (DI)(R8*1)    // gr = dan r hn (1 - r)
	VMOVUPS      (R12), Z9         // hp
	VSUBPS       Z3, Z9, Z9
	VMULPS       Z0, Z9, Z9
	VMULPS       Z2, Z9, Z9
	VMULPS       Z4, Z9, Z9
	VMOVUPS      Z9, (DI)(R9*1)    // gz = dh (hp - n) z (1 - z)
	VMULPS       Z2, Z0, Z0
	VMOVUPS      Z0, (DX)          // carry = dh z
	ADDQ         $64, DI
	ADDQ         $64, DX
	ADDQ         $64, BX
	ADDQ         $64, SI
	ADDQ         $64, R11
	ADDQ         $64, R12
	SUBQ         $16, CX
	JNZ          gruGatesBackward512Loop
	VZEROUPPER
	RET

// func leakyAVX512(dst, x *float32, n int, slope float32)
TEXT ·leakyAVX512(SB), NOSPLIT, $0-28
	MOVQ         dst+0(FP), DI
	MOVQ         x+8(FP), SI
	MOVQ         n+16(FP), CX
	VBROADCASTSS slope+24(FP), Z15
	VPXORD       Z14, Z14, Z14

leaky512Loop:
	VMOVUPS   (SI), Z0
	VMULPS    Z15, Z0, Z1
	VCMPPS    $0x0e, Z14, Z0, K1 // x > 0
	VBLENDMPS Z0, Z1, K1, Z1     // x where x > 0, else slope x
	VMOVUPS   Z1, (DI)
	ADDQ      $64, SI
	ADDQ      $64, DI
	SUBQ      $16, CX
	JNZ       leaky512Loop
	VZEROUPPER
	RET

// func leakyGradAVX512(dst, dy, y *float32, n int, slope float32)
TEXT ·leakyGradAVX512(SB), NOSPLIT, $0-36
	MOVQ         dst+0(FP), DI
	MOVQ         dy+8(FP), SI
	MOVQ         y+16(FP), DX
	MOVQ         n+24(FP), CX
	VBROADCASTSS slope+32(FP), Z15
	VPXORD       Z14, Z14, Z14

leakyGrad512Loop:
	VMOVUPS   (SI), Z0
	VMOVUPS   (DX), Z3
	VMULPS    Z15, Z0, Z1
	VCMPPS    $0x0e, Z14, Z3, K1 // y > 0
	VBLENDMPS Z0, Z1, K1, Z1     // dy where y > 0, else slope dy
	VMOVUPS   Z1, (DI)
	ADDQ      $64, SI
	ADDQ      $64, DX
	ADDQ      $64, DI
	SUBQ      $16, CX
	JNZ       leakyGrad512Loop
	VZEROUPPER
	RET

// func biasLeakyRowsAVX512(y *float32, rows int, b *float32, n int, slope float32, tail int)
//
// For each of the rows rows of n floats: y = y + b, then y = y where y > 0, else slope y (the
// add rounded once, as the GEMM kernels' beta = 1 update rounds acc + c, and the activation
// as leakyAVX512). The last partial 16 of a row runs under the mask tail (n%16 low bits).
TEXT ·biasLeakyRowsAVX512(SB), NOSPLIT, $0-48
	MOVQ         y+0(FP), DI
	MOVQ         rows+8(FP), R8
	MOVQ         b+16(FP), SI
	MOVQ         n+24(FP), CX
	VBROADCASTSS slope+32(FP), Z15
	VPXORD       Z14, Z14, Z14
	MOVQ         CX, BX
	ANDQ         $15, BX        // the tail's length
	MOVQ         tail+40(FP), DX
	KMOVW        DX, K2         // its lanes
	SHRQ         $4, CX         // whole vectors per row

biasRow:
	MOVQ SI, AX
	MOVQ CX, DX
	TESTQ DX, DX
	JZ   biasTail

biasVec:
	VMOVUPS   (DI), Z0
	VADDPS    (AX), Z0, Z0
	VMULPS    Z15, Z0, Z1
	VCMPPS    $0x0e, Z14, Z0, K1 // y > 0
	VBLENDMPS Z0, Z1, K1, Z1
	VMOVUPS   Z1, (DI)
	ADDQ      $64, DI
	ADDQ      $64, AX
	DECQ      DX
	JNZ       biasVec

biasTail:
	TESTQ     BX, BX
	JZ        biasNext
	VMOVUPS.Z (DI), K2, Z0
	VMOVUPS.Z (AX), K2, Z2
	VADDPS    Z2, Z0, Z0
	VMULPS    Z15, Z0, Z1
	VCMPPS    $0x0e, Z14, Z0, K1
	VBLENDMPS Z0, Z1, K1, Z1
	VMOVUPS   Z1, K2, (DI)
	LEAQ      (DI)(BX*4), DI

biasNext:
	DECQ R8
	JNZ  biasRow
	VZEROUPPER
	RET
