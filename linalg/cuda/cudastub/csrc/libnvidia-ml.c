/* A stub NVML (libnvidia-ml.so.1) for tests: one GPU, 42% busy, 1 GiB of its 80 GiB in use. */
#include <stdint.h>

int nvmlInit_v2(void) { return 0; }
int nvmlShutdown(void) { return 0; }
int nvmlDeviceGetCount_v2(unsigned *n) { *n = 1; return 0; }
int nvmlDeviceGetHandleByIndex_v2(unsigned i, void **dev) {
	if (i != 0)
		return 2; /* NVML_ERROR_INVALID_ARGUMENT */
	*dev = (void *)32;
	return 0;
}
int nvmlDeviceGetUtilizationRates(void *dev, unsigned *u) { u[0] = 42; u[1] = 7; return 0; }
int nvmlDeviceGetMemoryInfo(void *dev, uint64_t *m) {
	m[0] = 80ull << 30; /* total */
	m[2] = 1ull << 30;  /* used */
	m[1] = m[0] - m[2]; /* free */
	return 0;
}
const char *nvmlErrorString(int r) { return r == 2 ? "Invalid Argument" : "Unknown Error"; }
