/* A stub NVRTC for tests: every program compiles to the same small PTX; each compilation
   appends "compile" to the file STUB_LOG names. */
#include <stddef.h>
#include <stdio.h>
#include <string.h>

static const char ptx[] = ".version 8.0\n.target sm_90\n.address_size 64\n.visible .entry stub()\n{\n\tret;\n}\n";

int nvrtcVersion(int *major, int *minor) { *major = 13; *minor = 0; return 0; }
int nvrtcCreateProgram(void **p, const char *src, const char *name, int n, const char **h, const char **i) {
	*p = (void *)80;
	return 0;
}
int nvrtcCompileProgram(void *p, int n, const char **opts) {
	FILE *f = fopen(STUB_LOG, "a");
	if (f) {
		fputs("compile\n", f);
		fclose(f);
	}
	return 0;
}
int nvrtcGetProgramLogSize(void *p, size_t *n) { *n = 1; return 0; }
int nvrtcGetProgramLog(void *p, char *b) { b[0] = 0; return 0; }
int nvrtcGetPTXSize(void *p, size_t *n) { *n = sizeof ptx; return 0; }
int nvrtcGetPTX(void *p, char *b) { memcpy(b, ptx, sizeof ptx); return 0; }
int nvrtcDestroyProgram(void **p) { return 0; }
const char *nvrtcGetErrorString(int r) { return "stub error"; }
