//go:build !noasm

#include "textflag.h"
#include "consts_amd64.h"

// EXPPS sets p = e^x for x in [-87, 88] (x is kept), with k, r and r2 as scratch: Exp32's
// algorithm, k = round(x log2 e), r = x - k ln2, e^x = (1 + r + r^2 P(r)) 2^k.
#define EXPPS(x, k, r, p, r2) \
	VMULPS       log2e<>(SB), x, k; \
	VROUNDPS     $0, k, k; \
	VMOVAPS      x, r; \
	VFNMADD231PS ln2hi<>(SB), k, r; \
	VFNMADD231PS ln2lo<>(SB), k, r; \
	VMOVUPS      ep0<>(SB), p; \
	VFMADD213PS  ep1<>(SB), r, p; \
	VFMADD213PS  ep2<>(SB), r, p; \
	VFMADD213PS  ep3<>(SB), r, p; \
	VFMADD213PS  ep4<>(SB), r, p; \
	VFMADD213PS  ep5<>(SB), r, p; \
	VMULPS       r, r, r2; \
	VFMADD213PS  r, r2, p; \
	VADDPS       one<>(SB), p, p; \
	VCVTPS2DQ    k, k; \
	VPADDD       bias<>(SB), k, k; \
	VPSLLD       $23, k, k; \
	VMULPS       k, p, p

// SIGMOIDPS sets x = 1/(1 + e^-x), with k, r, p, r2 as scratch and the constants -87, 88 and 1
// in lo, hi and one. The argument of e^ is clamped to [-87, 88] with it as the second source
// operand of the min and max, so that a NaN passes through.
#define SIGMOIDPS(x, k, r, p, r2, lo, hi, one) \
	VXORPS  signbit<>(SB), x, x; \
	VMAXPS  x, lo, x; \
	VMINPS  x, hi, x; \
	EXPPS(x, k, r, p, r2); \
	VADDPS  one, p, p; \
	VDIVPS  p, one, x

// TANHPS sets x = tanh(x), with Y1-Y10 as scratch and the constants 10 and 1 in ten and one:
// x + x z P(z) (z = x^2) for |x| < 0.625, else sign(x) (1 - 2/(e^2a + 1)) with a = min(|x|, 10)
// (|x| as the second source operand: a NaN passes through).
#define TANHPS(x, ten, one) \
	VANDPS      absmask<>(SB), x, Y1; \
	VMULPS      x, x, Y2; \
	VMOVUPS     tp0<>(SB), Y3; \
	VFMADD213PS tp1<>(SB), Y2, Y3; \
	VFMADD213PS tp2<>(SB), Y2, Y3; \
	VFMADD213PS tp3<>(SB), Y2, Y3; \
	VFMADD213PS tp4<>(SB), Y2, Y3; \
	VMULPS      Y2, Y3, Y3; \
	VFMADD213PS x, x, Y3; \
	VMINPS      Y1, ten, Y4; \
	VADDPS      Y4, Y4, Y4; \
	EXPPS(Y4, Y5, Y6, Y7, Y8); \
	VADDPS      one, Y7, Y7; \
	VMOVUPS     two<>(SB), Y9; \
	VDIVPS      Y7, Y9, Y7; \
	VSUBPS      Y7, one, Y7; \
	VANDPS      signbit<>(SB), x, Y9; \
	VORPS       Y9, Y7, Y7; \
	VCMPPS      $1, small<>(SB), Y1, Y10; \
	VBLENDVPS   Y10, Y3, Y7, x

// func sigmoidAVX2(dst, x *float32, n int)
TEXT ·sigmoidAVX2(SB), NOSPLIT, $0-24
	MOVQ    dst+0(FP), DI
	MOVQ    x+8(FP), SI
	MOVQ    n+16(FP), CX
	VMOVUPS expmin<>(SB), Y13
	VMOVUPS expmax<>(SB), Y14
	VMOVUPS one<>(SB), Y15

sigmoidLoop:
	VMOVUPS (SI), Y0
	SIGMOIDPS(Y0, Y1, Y2, Y3, Y4, Y13, Y14, Y15)
	VMOVUPS Y0, (DI)
	ADDQ    $32, SI
	ADDQ    $32, DI
	SUBQ    $8, CX
	JNZ     sigmoidLoop
	VZEROUPPER
	RET

// func tanhAVX2(dst, x *float32, n int)
TEXT ·tanhAVX2(SB), NOSPLIT, $0-24
	MOVQ    dst+0(FP), DI
	MOVQ    x+8(FP), SI
	MOVQ    n+16(FP), CX
	VMOVUPS ten<>(SB), Y13
	VMOVUPS one<>(SB), Y15

tanhLoop:
	VMOVUPS (SI), Y0
	TANHPS(Y0, Y13, Y15)
	VMOVUPS Y0, (DI)
	ADDQ    $32, SI
	ADDQ    $32, DI
	SUBQ    $8, CX
	JNZ     tanhLoop
	VZEROUPPER
	RET

// func gruGatesAVX2(gi, gh, bi, bh, hn, hp, hNew *float32, n, h int)
//
// GRUGates for the hidden units 0..n-1, n a positive multiple of 8; the gate columns of gi, gh,
// bi and bh are h*4 bytes apart. r and z stay in Y11 and Y12 (SIGMOIDPS and TANHPS clobber
// Y1-Y10); Y13 holds -87 for the sigmoids, then 10 for the tanh.
TEXT ·gruGatesAVX2(SB), NOSPLIT, $0-72
	MOVQ    gi+0(FP), DI
	MOVQ    gh+8(FP), SI
	MOVQ    bi+16(FP), DX
	MOVQ    bh+24(FP), BX
	MOVQ    hn+32(FP), R10
	MOVQ    hp+40(FP), R11
	MOVQ    hNew+48(FP), R12
	MOVQ    n+56(FP), CX
	MOVQ    h+64(FP), R8
	SHLQ    $2, R8           // one column: h*4 bytes
	LEAQ    (R8)(R8*1), R9   // two columns
	VMOVUPS expmax<>(SB), Y14
	VMOVUPS one<>(SB), Y15

gruGatesLoop:
	VMOVUPS expmin<>(SB), Y13

	// r = sigmoid(gi + ((bi + gh) + bh)), likewise z one column on.
	VMOVUPS (DX), Y0
	VADDPS  (SI), Y0, Y0
	VADDPS  (BX), Y0, Y0
	VADDPS  (DI), Y0, Y0
	SIGMOIDPS(Y0, Y1, Y2, Y3, Y4, Y13, Y14, Y15)
	VMOVUPS Y0, (DI)
	VMOVAPS Y0, Y11
	VMOVUPS (DX)(R8*1), Y0
	VADDPS  (SI)(R8*1), Y0, Y0
	VADDPS  (BX)(R8*1), Y0, Y0
	VADDPS  (DI)(R8*1), Y0, Y0
	SIGMOIDPS(Y0, Y1, Y2, Y3, Y4, Y13, Y14, Y15)
	VMOVUPS Y0, (DI)(R8*1)
	VMOVAPS Y0, Y12

	// hn = gh + bh in the n column; n = tanh(gi + (bi + r hn)).
	VMOVUPS     (SI)(R9*1), Y0
	VADDPS      (BX)(R9*1), Y0, Y0
	VMOVUPS     Y0, (R10)
	VFMADD213PS (DX)(R9*1), Y11, Y0
	VADDPS      (DI)(R9*1), Y0, Y0
	VMOVUPS     ten<>(SB), Y13
	TANHPS(Y0, Y13, Y15)
	VMOVUPS     Y0, (DI)(R9*1)

	// hNew = n + z (hp - n).
	VMOVUPS     (R11), Y1
	VSUBPS      Y0, Y1, Y1
	VFMADD231PS Y12, Y1, Y0
	VMOVUPS     Y0, (R12)

	ADDQ $32, DI
	ADDQ $32, SI
	ADDQ $32, DX
	ADDQ $32, BX
	ADDQ $32, R10
	ADDQ $32, R11
	ADDQ $32, R12
	SUBQ $8, CX
	JNZ  gruGatesLoop
	VZEROUPPER
	RET

// func gruGatesBackwardAVX2(grad, carry, dout, gates, hn, hp *float32, n, h int)
//
// GRUGatesBackward for the hidden units 0..n-1, n a positive multiple of 8; the columns of g
// and gates are h*4 bytes apart.
TEXT ·gruGatesBackwardAVX2(SB), NOSPLIT, $0-64
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
	VMOVUPS      one<>(SB), Y15

gruGatesBackwardLoop:
	VMOVUPS      (BX), Y0
	VADDPS       (DX), Y0, Y0      // dh = dout + carry
	VMOVUPS      (SI), Y1          // r
	VMOVUPS      (SI)(R8*1), Y2    // z
	VMOVUPS      (SI)(R9*1), Y3    // n
	VSUBPS       Y2, Y15, Y4       // 1 - z
	VMOVAPS      Y15, Y5
	VFNMADD231PS Y3, Y3, Y5        // 1 - n^2
	VMULPS       Y4, Y0, Y6
	VMULPS       Y5, Y6, Y6        // dan = dh (1 - z) (1 - n^2)
	VMOVUPS      Y6, (DI)          // gnx = dan
	VMULPS       Y1, Y6, Y7
	VMOVUPS      Y7, (DI)(R10*1)   // gnh = dan r
	VMULPS       (R11), Y7, Y7
	VSUBPS       Y1, Y15, Y8
	VMULPS       Y8, Y7, Y7
	VMOVUPS      Y7, (DI)(R8*1)    // gr = dan r hn (1 - r)
	VMOVUPS      (R12), Y9         // hp
	VSUBPS       Y3, Y9, Y9
	VMULPS       Y0, Y9, Y9
	VMULPS       Y2, Y9, Y9
	VMULPS       Y4, Y9, Y9
	VMOVUPS      Y9, (DI)(R9*1)    // gz = dh (hp - n) z (1 - z)
	VMULPS       Y2, Y0, Y0
	VMOVUPS      Y0, (DX)          // carry = dh z
	ADDQ         $32, DI
	ADDQ         $32, DX
	ADDQ         $32, BX
	ADDQ         $32, SI
	ADDQ         $32, R11
	ADDQ         $32, R12
	SUBQ         $8, CX
	JNZ          gruGatesBackwardLoop
	VZEROUPPER
	RET

// func leakyAVX2(dst, x *float32, n int, slope float32)
TEXT ·leakyAVX2(SB), NOSPLIT, $0-28
	MOVQ         dst+0(FP), DI
	MOVQ         x+8(FP), SI
	MOVQ         n+16(FP), CX
	VBROADCASTSS slope+24(FP), Y15
	VXORPS       Y14, Y14, Y14

leakyLoop:
	VMOVUPS   (SI), Y0
	VMULPS    Y15, Y0, Y1
	VCMPPS    $0x0e, Y14, Y0, Y2 // x > 0
	VBLENDVPS Y2, Y0, Y1, Y1     // x where x > 0, else slope x
	VMOVUPS   Y1, (DI)
	ADDQ      $32, SI
	ADDQ      $32, DI
	SUBQ      $8, CX
	JNZ       leakyLoop
	VZEROUPPER
	RET

// func leakyGradAVX2(dst, dy, y *float32, n int, slope float32)
TEXT ·leakyGradAVX2(SB), NOSPLIT, $0-36
	MOVQ         dst+0(FP), DI
	MOVQ         dy+8(FP), SI
	MOVQ         y+16(FP), DX
	MOVQ         n+24(FP), CX
	VBROADCASTSS slope+32(FP), Y15
	VXORPS       Y14, Y14, Y14

leakyGradLoop:
	VMOVUPS   (SI), Y0
	VMOVUPS   (DX), Y3
	VMULPS    Y15, Y0, Y1
	VCMPPS    $0x0e, Y14, Y3, Y2 // y > 0
	VBLENDVPS Y2, Y0, Y1, Y1     // dy where y > 0, else slope dy
	VMOVUPS   Y1, (DI)
	ADDQ      $32, SI
	ADDQ      $32, DX
	ADDQ      $32, DI
	SUBQ      $8, CX
	JNZ       leakyGradLoop
	VZEROUPPER
	RET

// func biasLeakyRowsAVX2(y *float32, rows int, b *float32, n int, slope float32, tail *int32)
//
// biasLeakyRowsAVX512 on 8 lanes: for each of the rows rows of n floats, y = y + b, then y
// where y > 0, else slope y. The last partial 8 of a row loads and stores under the mask tail
// (8 int32: -1 in the n%8 low lanes).
TEXT ·biasLeakyRowsAVX2(SB), NOSPLIT, $0-48
	MOVQ         y+0(FP), DI
	MOVQ         rows+8(FP), R8
	MOVQ         b+16(FP), SI
	MOVQ         n+24(FP), CX
	VBROADCASTSS slope+32(FP), Y15
	MOVQ         tail+40(FP), DX
	VMOVDQU      (DX), Y13
	VXORPS       Y14, Y14, Y14
	MOVQ         CX, BX
	ANDQ         $7, BX         // the tail's length
	SHRQ         $3, CX         // whole vectors per row

biasRow2:
	MOVQ SI, AX
	MOVQ CX, DX
	TESTQ DX, DX
	JZ   biasTail2

biasVec2:
	VMOVUPS   (DI), Y0
	VADDPS    (AX), Y0, Y0
	VMULPS    Y15, Y0, Y1
	VCMPPS    $0x0e, Y14, Y0, Y2 // y > 0
	VBLENDVPS Y2, Y0, Y1, Y1
	VMOVUPS   Y1, (DI)
	ADDQ      $32, DI
	ADDQ      $32, AX
	DECQ      DX
	JNZ       biasVec2

biasTail2:
	TESTQ      BX, BX
	JZ         biasNext2
	VMASKMOVPS (DI), Y13, Y0
	VMASKMOVPS (AX), Y13, Y3
	VADDPS     Y3, Y0, Y0
	VMULPS     Y15, Y0, Y1
	VCMPPS     $0x0e, Y14, Y0, Y2
	VBLENDVPS  Y2, Y0, Y1, Y1
	VMASKMOVPS Y1, Y13, (DI)
	LEAQ       (DI)(BX*4), DI

biasNext2:
	DECQ R8
	JNZ  biasRow2
	VZEROUPPER
	RET
