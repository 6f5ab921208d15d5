// The constants of the vector kernels (vec_amd64.s, vec512_amd64.s); each file that includes
// this gets its own file-local copies.

// Each constant is a float32 (or int32) replicated over a 256-bit vector, so that it can be a
// memory operand of the vector instructions.
#define CONST8(name, bits) \
	DATA name<>+0(SB)/4, $bits; DATA name<>+4(SB)/4, $bits; \
	DATA name<>+8(SB)/4, $bits; DATA name<>+12(SB)/4, $bits; \
	DATA name<>+16(SB)/4, $bits; DATA name<>+20(SB)/4, $bits; \
	DATA name<>+24(SB)/4, $bits; DATA name<>+28(SB)/4, $bits; \
	GLOBL name<>(SB), RODATA|NOPTR, $32

CONST8(signbit, 0x80000000)
CONST8(absmask, 0x7fffffff)
CONST8(one, 0x3f800000)    // 1
CONST8(two, 0x40000000)    // 2
CONST8(expmin, 0xc2ae0000) // -87
CONST8(expmax, 0x42b00000) // 88
CONST8(log2e, 0x3fb8aa3b)  // log2(e)
CONST8(ln2hi, 0x3f318000)  // 0.693359375: ln2's leading bits, k*ln2hi is exact
CONST8(ln2lo, 0xb95e8083)  // -2.12194440e-4 = ln2 - ln2hi
CONST8(ep0, 0x39506967)    // Cephes expf polynomial, highest degree first
CONST8(ep1, 0x3ab743ce)
CONST8(ep2, 0x3c088908)
CONST8(ep3, 0x3d2aa9c1)
CONST8(ep4, 0x3e2aaaaa)
CONST8(ep5, 0x3f000000)
CONST8(bias, 0x0000007f)   // int32 127, the exponent bias
CONST8(ten, 0x41200000)    // 10: tanh(10) rounds to 1
CONST8(small, 0x3f200000)  // 0.625: below it tanh uses its odd polynomial
CONST8(tp0, 0xbbbaf0ea)    // Cephes tanhf polynomial, highest degree first
CONST8(tp1, 0x3ca9134e)
CONST8(tp2, 0xbd5c1e2d)
CONST8(tp3, 0x3e088393)
CONST8(tp4, 0xbeaaaa99)
