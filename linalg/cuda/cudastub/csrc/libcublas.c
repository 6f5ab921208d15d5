/* A stub cuBLAS for tests: a handle, and products that do nothing. */
int cublasCreate_v2(void **h) { *h = (void *)64; return 0; }
int cublasDestroy_v2(void *h) { return 0; }
int cublasGetVersion_v2(void *h, int *v) { *v = 130000; return 0; }
int cublasSgemm_v2() { return 0; }
int cublasSgemmBatched() { return 0; }
