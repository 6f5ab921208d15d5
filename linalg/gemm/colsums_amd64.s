//go:build !noasm

#include "textflag.h"

// func colSumsAVX512(a *float32, m, lda int, y *float32, n int)
//
// Columns in blocks of 64 (four accumulators, so that four addition chains overlap), then of
// 16, then the rest under a mask; each block runs down all m rows. Every lane adds its column's values in row order, the
// new value as the first operand as gonum's kernel has it (which NaN payload wins).
TEXT ·colSumsAVX512(SB), NOSPLIT, $0-40
	MOVQ a+0(FP), SI
	MOVQ m+8(FP), R8
	MOVQ lda+16(FP), R9
	SHLQ $2, R9          // row stride in bytes
	MOVQ y+24(FP), DI
	MOVQ n+32(FP), CX

block64:
	CMPQ   CX, $64
	JLT    block16
	VPXORD Z0, Z0, Z0
	VPXORD Z1, Z1, Z1
	VPXORD Z2, Z2, Z2
	VPXORD Z3, Z3, Z3
	MOVQ   SI, AX
	MOVQ   R8, DX

rows64:
	VMOVUPS (AX), Z4
	VMOVUPS 64(AX), Z5
	VMOVUPS 128(AX), Z6
	VMOVUPS 192(AX), Z7
	VADDPS  Z0, Z4, Z0
	VADDPS  Z1, Z5, Z1
	VADDPS  Z2, Z6, Z2
	VADDPS  Z3, Z7, Z3
	ADDQ   R9, AX
	DECQ   DX
	JNZ    rows64
	VMOVUPS Z0, (DI)
	VMOVUPS Z1, 64(DI)
	VMOVUPS Z2, 128(DI)
	VMOVUPS Z3, 192(DI)
	ADDQ    $256, SI
	ADDQ    $256, DI
	SUBQ    $64, CX
	JMP     block64

block16:
	CMPQ   CX, $16
	JLT    tail
	VPXORD Z0, Z0, Z0
	MOVQ   SI, AX
	MOVQ   R8, DX

rows16:
	VMOVUPS (AX), Z4
	VADDPS  Z0, Z4, Z0
	ADDQ    R9, AX
	DECQ   DX
	JNZ    rows16
	VMOVUPS Z0, (DI)
	ADDQ    $64, SI
	ADDQ    $64, DI
	SUBQ    $16, CX
	JMP     block16

tail: // the last n < 16 columns, by masked loads and a masked store
	CMPQ   CX, $0
	JEQ    done
	MOVQ   $1, BX
	SHLQ   CX, BX
	DECQ   BX
	KMOVW  BX, K1
	VPXORD Z0, Z0, Z0
	MOVQ   SI, AX
	MOVQ   R8, DX

rowsTail:
	VMOVUPS.Z (AX), K1, Z4
	VADDPS    Z0, Z4, Z0
	ADDQ      R9, AX
	DECQ      DX
	JNZ       rowsTail
	VMOVUPS   Z0, K1, (DI)

done:
	VZEROUPPER
	RET
