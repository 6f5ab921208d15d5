//go:build !noasm

#include "textflag.h"

// The row kernels below take n, a positive multiple of 8, float32 elements; the reductions
// accumulate in float64 as the Go code does (in two vectors of four partial sums), the maps
// round exactly as the Go expressions do (no fused multiply-adds).

// HSUM2 sets the low lane of X0 to the sum of the eight float64 lanes of Y0 and Y1.
#define HSUM2 \
	VADDPD       Y1, Y0, Y0; \
	VEXTRACTF128 $1, Y0, X1; \
	VADDPD       X1, X0, X0; \
	VUNPCKHPD    X0, X0, X1; \
	VADDSD       X1, X0, X0

// func sumAVX2(x *float32, n int) float64
TEXT ·sumAVX2(SB), NOSPLIT, $0-24
	MOVQ   x+0(FP), SI
	MOVQ   n+8(FP), CX
	VXORPD Y0, Y0, Y0
	VXORPD Y1, Y1, Y1

sumLoop:
	VCVTPS2PD (SI), Y2
	VCVTPS2PD 16(SI), Y3
	VADDPD    Y2, Y0, Y0
	VADDPD    Y3, Y1, Y1
	ADDQ      $32, SI
	SUBQ      $8, CX
	JNZ       sumLoop
	HSUM2
	MOVSD     X0, ret+16(FP)
	VZEROUPPER
	RET

// func sumSqDevAVX2(x *float32, n int, mu float64) float64
TEXT ·sumSqDevAVX2(SB), NOSPLIT, $0-32
	MOVQ         x+0(FP), SI
	MOVQ         n+8(FP), CX
	VBROADCASTSD mu+16(FP), Y15
	VXORPD       Y0, Y0, Y0
	VXORPD       Y1, Y1, Y1

sumSqDevLoop:
	VCVTPS2PD   (SI), Y2
	VCVTPS2PD   16(SI), Y3
	VSUBPD      Y15, Y2, Y2
	VSUBPD      Y15, Y3, Y3
	VFMADD231PD Y2, Y2, Y0
	VFMADD231PD Y3, Y3, Y1
	ADDQ        $32, SI
	SUBQ        $8, CX
	JNZ         sumSqDevLoop
	HSUM2
	MOVSD       X0, ret+24(FP)
	VZEROUPPER
	RET

// func sumDyXhatAVX2(dy, x *float32, n int, mu, is float32) (sdy, sdyx float64)
TEXT ·sumDyXhatAVX2(SB), NOSPLIT, $0-48
	MOVQ         dy+0(FP), DI
	MOVQ         x+8(FP), SI
	MOVQ         n+16(FP), CX
	VBROADCASTSS mu+24(FP), Y14
	VBROADCASTSS is+28(FP), Y15
	VXORPD       Y0, Y0, Y0
	VXORPD       Y1, Y1, Y1
	VXORPD       Y2, Y2, Y2
	VXORPD       Y3, Y3, Y3

sumDyXhatLoop:
	VMOVUPS      (SI), Y4
	VSUBPS       Y14, Y4, Y4
	VMULPS       Y15, Y4, Y4 // xhat in float32, as in the Go code
	VCVTPS2PD    X4, Y5
	VEXTRACTF128 $1, Y4, X6
	VCVTPS2PD    X6, Y6
	VCVTPS2PD    (DI), Y7
	VCVTPS2PD    16(DI), Y8
	VADDPD       Y7, Y0, Y0
	VADDPD       Y8, Y1, Y1
	VFMADD231PD  Y7, Y5, Y2
	VFMADD231PD  Y8, Y6, Y3
	ADDQ         $32, SI
	ADDQ         $32, DI
	SUBQ         $8, CX
	JNZ          sumDyXhatLoop
	HSUM2
	MOVSD        X0, sdy+32(FP)
	VMOVAPD      Y2, Y0
	VMOVAPD      Y3, Y1
	HSUM2
	MOVSD        X0, sdyx+40(FP)
	VZEROUPPER
	RET

// func normaliseAVX2(y, x *float32, n int, mu, scale, shift float32)
TEXT ·normaliseAVX2(SB), NOSPLIT, $0-36
	MOVQ         y+0(FP), DI
	MOVQ         x+8(FP), SI
	MOVQ         n+16(FP), CX
	VBROADCASTSS mu+24(FP), Y13
	VBROADCASTSS scale+28(FP), Y14
	VBROADCASTSS shift+32(FP), Y15

normaliseLoop:
	VMOVUPS (SI), Y0
	VSUBPS  Y13, Y0, Y0
	VMULPS  Y14, Y0, Y0
	VADDPS  Y15, Y0, Y0
	VMOVUPS Y0, (DI)
	ADDQ    $32, SI
	ADDQ    $32, DI
	SUBQ    $8, CX
	JNZ     normaliseLoop
	VZEROUPPER
	RET

// func gradAVX2(dx, dy, x *float32, n int, mu, is, k, a, bb float32)
TEXT ·gradAVX2(SB), NOSPLIT, $0-52
	MOVQ         dx+0(FP), DI
	MOVQ         dy+8(FP), DX
	MOVQ         x+16(FP), SI
	MOVQ         n+24(FP), CX
	VBROADCASTSS mu+32(FP), Y11
	VBROADCASTSS is+36(FP), Y12
	VBROADCASTSS k+40(FP), Y13
	VBROADCASTSS a+44(FP), Y14
	VBROADCASTSS bb+48(FP), Y15

gradLoop:
	VMOVUPS (SI), Y0
	VSUBPS  Y11, Y0, Y0
	VMULPS  Y12, Y0, Y0
	VMULPS  Y15, Y0, Y0 // (x - mu) is bb
	VMOVUPS (DX), Y1
	VSUBPS  Y14, Y1, Y1
	VSUBPS  Y0, Y1, Y1  // dy - a - (x - mu) is bb
	VMULPS  Y13, Y1, Y1
	VMOVUPS Y1, (DI)
	ADDQ    $32, SI
	ADDQ    $32, DX
	ADDQ    $32, DI
	SUBQ    $8, CX
	JNZ     gradLoop
	VZEROUPPER
	RET
