//go:build !noasm

#include "textflag.h"

// MASK16(k) sets k to the lanes of the next 16 of the CX columns left and takes them from CX:
// all 16, the CX < 16 that are left, or none.
#define MASK16(k, skip) \
	MOVQ   $0xffff, DX; \
	CMPQ   CX, $16; \
	JGE    skip; \
	MOVQ   $1, DX; \
	SHLQ   CX, DX; \
	DECQ   DX; \
	MOVQ   $16, CX; \
skip: \
	KMOVW  DX, k; \
	SUBQ   $16, CX

// func colSumsAVX512(a *float32, m, lda int, y *float32, n int)
//
// y[j] = the sum of a[i*lda+j] over i < m for the n <= 64 columns j, four accumulators of 16
// columns running down the rows together so that their addition chains overlap; columns past
// n are masked off (loaded as zeros, never stored). Every lane adds its column's values in row
// order, the new value as the first operand as gonum's kernel has it (which NaN payload wins).
TEXT ·colSumsAVX512(SB), NOSPLIT, $0-40
	MOVQ a+0(FP), SI
	MOVQ m+8(FP), R8
	MOVQ lda+16(FP), R9
	SHLQ $2, R9          // row stride in bytes
	MOVQ y+24(FP), DI
	MOVQ n+32(FP), CX
	MASK16(K1, mask1)
	MASK16(K2, mask2)
	MASK16(K3, mask3)
	MASK16(K4, mask4)
	VPXORD Z0, Z0, Z0
	VPXORD Z1, Z1, Z1
	VPXORD Z2, Z2, Z2
	VPXORD Z3, Z3, Z3

rows:
	VMOVUPS.Z (SI), K1, Z4
	VMOVUPS.Z 64(SI), K2, Z5
	VMOVUPS.Z 128(SI), K3, Z6
	VMOVUPS.Z 192(SI), K4, Z7
	VADDPS    Z0, Z4, Z0
	VADDPS    Z1, Z5, Z1
	VADDPS    Z2, Z6, Z2
	VADDPS    Z3, Z7, Z3
	ADDQ      R9, SI
	DECQ      R8
	JNZ       rows
	VMOVUPS   Z0, K1, (DI)
	VMOVUPS   Z1, K2, 64(DI)
	VMOVUPS   Z2, K3, 128(DI)
	VMOVUPS   Z3, K4, 192(DI)
	VZEROUPPER
	RET

// func colSumsAVX2(a *float32, m, lda int, y *float32, mask *int32)
//
// colSumsAVX512 for n <= 32 columns with four YMM accumulators of 8 columns: mask holds 32
// lanes, -1 for the columns j < n and 0 past them (masked loads read those as zeros and do not
// fault; masked stores leave them alone). The same additions in the same order per lane.
TEXT ·colSumsAVX2(SB), NOSPLIT, $0-40
	MOVQ    a+0(FP), SI
	MOVQ    m+8(FP), R8
	MOVQ    lda+16(FP), R9
	SHLQ    $2, R9
	MOVQ    y+24(FP), DI
	MOVQ    mask+32(FP), DX
	VMOVDQU (DX), Y8
	VMOVDQU 32(DX), Y9
	VMOVDQU 64(DX), Y10
	VMOVDQU 96(DX), Y11
	VXORPS  Y0, Y0, Y0
	VXORPS  Y1, Y1, Y1
	VXORPS  Y2, Y2, Y2
	VXORPS  Y3, Y3, Y3

rows2:
	VMASKMOVPS (SI), Y8, Y4
	VMASKMOVPS 32(SI), Y9, Y5
	VMASKMOVPS 64(SI), Y10, Y6
	VMASKMOVPS 96(SI), Y11, Y7
	VADDPS     Y0, Y4, Y0
	VADDPS     Y1, Y5, Y1
	VADDPS     Y2, Y6, Y2
	VADDPS     Y3, Y7, Y3
	ADDQ       R9, SI
	DECQ       R8
	JNZ        rows2
	VMASKMOVPS Y0, Y8, (DI)
	VMASKMOVPS Y1, Y9, 32(DI)
	VMASKMOVPS Y2, Y10, 64(DI)
	VMASKMOVPS Y3, Y11, 96(DI)
	VZEROUPPER
	RET
