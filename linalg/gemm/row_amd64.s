//go:build !noasm

#include "textflag.h"

// The one-row kernels (rowkernel_amd64.go): one row of c by two registers of columns, each
// element a chain of FMAs over k from zero, stored as the other kernels store a tile.

// func kernelAVX512Row(kc int, a *float32, ps int, b *float32, bs int, c *float32, alpha, beta float32, mask0, mask1 int)
TEXT ·kernelAVX512Row(SB), NOSPLIT, $0-72
	MOVQ kc+0(FP), CX
	MOVQ a+8(FP), AX
	MOVQ ps+16(FP), R12
	SHLQ $2, R12
	MOVQ b+24(FP), DI
	MOVQ bs+32(FP), R13
	SHLQ $2, R13
	VPXORD Z0, Z0, Z0
	VPXORD Z1, Z1, Z1

loop:
	VBROADCASTSS (AX), Z2
	VFMADD231PS 0(DI), Z2, Z0
	VFMADD231PS 64(DI), Z2, Z1
	ADDQ R12, AX
	ADDQ R13, DI
	DECQ CX
	JNZ loop

	MOVQ c+40(FP), DX
	MOVQ mask0+56(FP), SI
	KMOVW SI, K1
	MOVQ mask1+64(FP), SI
	KMOVW SI, K2
	VBROADCASTSS alpha+48(FP), Z3
	MOVL beta+52(FP), SI
	ANDL $0x7fffffff, SI
	JZ overwrite
	VBROADCASTSS beta+52(FP), Z4
	VMULPS Z3, Z0, Z0
	VMOVUPS.Z 0(DX), K1, Z5
	VMULPS Z4, Z5, Z5
	VADDPS Z5, Z0, Z0
	VMOVUPS Z0, K1, 0(DX)
	VMULPS Z3, Z1, Z1
	VMOVUPS.Z 64(DX), K2, Z5
	VMULPS Z4, Z5, Z5
	VADDPS Z5, Z1, Z1
	VMOVUPS Z1, K2, 64(DX)
	VZEROUPPER
	RET

overwrite:
	VMULPS Z3, Z0, Z0
	VMOVUPS Z0, K1, 0(DX)
	VMULPS Z3, Z1, Z1
	VMOVUPS Z1, K2, 64(DX)
	VZEROUPPER
	RET

// func kernelAVX2Row(kc int, a *float32, ps int, b *float32, bs int, c *float32, alpha, beta float32)
TEXT ·kernelAVX2Row(SB), NOSPLIT, $0-56
	MOVQ kc+0(FP), CX
	MOVQ a+8(FP), AX
	MOVQ ps+16(FP), R12
	SHLQ $2, R12
	MOVQ b+24(FP), DI
	MOVQ bs+32(FP), R13
	SHLQ $2, R13
	VXORPS Y0, Y0, Y0
	VXORPS Y1, Y1, Y1

loop:
	VBROADCASTSS (AX), Y2
	VFMADD231PS 0(DI), Y2, Y0
	VFMADD231PS 32(DI), Y2, Y1
	ADDQ R12, AX
	ADDQ R13, DI
	DECQ CX
	JNZ loop

	MOVQ c+40(FP), DX
	VBROADCASTSS alpha+48(FP), Y3
	MOVL beta+52(FP), SI
	ANDL $0x7fffffff, SI
	JZ overwrite
	VBROADCASTSS beta+52(FP), Y4
	VMULPS Y3, Y0, Y0
	VMULPS 0(DX), Y4, Y5
	VADDPS Y5, Y0, Y0
	VMOVUPS Y0, 0(DX)
	VMULPS Y3, Y1, Y1
	VMULPS 32(DX), Y4, Y5
	VADDPS Y5, Y1, Y1
	VMOVUPS Y1, 32(DX)
	VZEROUPPER
	RET

overwrite:
	VMULPS Y3, Y0, Y0
	VMOVUPS Y0, 0(DX)
	VMULPS Y3, Y1, Y1
	VMOVUPS Y1, 32(DX)
	VZEROUPPER
	RET
