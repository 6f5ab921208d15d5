/* A stub CUDA driver (libcuda.so.1) for tests: one GPU, memory from malloc, launches that do
   nothing. CTX_FAILS, REJECTS and NO_KERNEL make one step of cuda.Open fail; otherwise a PTX
   holding "REJECT" is refused. STUB_LOG names a file each call of note appends a line to. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void note(const char *what) {
	FILE *f = fopen(STUB_LOG, "a");
	if (f) {
		fprintf(f, "%s\n", what);
		fclose(f);
	}
}

int cuInit(unsigned flags) { note("cuInit"); return 0; }
int cuDriverGetVersion(int *v) { *v = 13000; return 0; }
int cuDeviceGetCount(int *n) { *n = 1; return 0; }
int cuDeviceGet(int *dev, int ordinal) { *dev = ordinal; return 0; }
int cuDeviceGetName(char *name, int n, int dev) { snprintf(name, n, "Stub GPU"); return 0; }
int cuDeviceGetAttribute(int *v, int attr, int dev) { *v = attr == 75 ? 9 : 0; return 0; }

int cuDevicePrimaryCtxRetain(void **ctx, int dev) {
#ifdef CTX_FAILS
	return 2;
#else
	note("retain");
	*ctx = (void *)16;
	return 0;
#endif
}

int cuDevicePrimaryCtxRelease_v2(int dev) { note("release"); return 0; }
int cuCtxSetCurrent(void *ctx) { return 0; }
int cuCtxSynchronize(void) { return 0; }

int cuMemAlloc_v2(uint64_t *p, uint64_t n) {
	*p = (uint64_t)(uintptr_t)calloc(1, n);
	return *p ? 0 : 2;
}
int cuMemFree_v2(uint64_t p) { free((void *)(uintptr_t)p); return 0; }
int cuMemsetD32_v2(uint64_t p, uint32_t v, uint64_t n) {
	for (uint64_t i = 0; i < n; i++) ((uint32_t *)(uintptr_t)p)[i] = v;
	return 0;
}
int cuMemcpyHtoD_v2(uint64_t dst, const void *src, uint64_t n) { memcpy((void *)(uintptr_t)dst, src, n); return 0; }
int cuMemcpyDtoH_v2(void *dst, uint64_t src, uint64_t n) { memcpy(dst, (const void *)(uintptr_t)src, n); return 0; }

int cuModuleLoadData(void **mod, const void *image) {
#ifdef REJECTS
	return 218;
#else
	if (strstr((const char *)image, "REJECT")) return 218;
	*mod = (void *)32;
	return 0;
#endif
}

int cuModuleUnload(void *mod) { return 0; }

int cuModuleGetFunction(void **f, void *mod, const char *name) {
#ifdef NO_KERNEL
	return 500;
#else
	*f = (void *)48;
	return 0;
#endif
}

int cuLaunchKernel(void *f, unsigned gx, unsigned gy, unsigned gz, unsigned bx, unsigned by, unsigned bz,
                   unsigned shared, void *stream, void **params, void **extra) { return 0; }

int cuGetErrorString(int r, const char **s) {
	switch (r) {
	case 2: *s = "out of memory"; break;
	case 218: *s = "a PTX JIT compilation failed"; break;
	case 500: *s = "named symbol not found"; break;
	default: *s = "unknown error";
	}
	return 0;
}
