// Fills, copies and sums, which the drivers need between layers (the device has no copy of its
// own): for the block kernels a whole buffer is one row.

// fill_rows sets the rows x cols block of y (leading dimension ldy) to v. Grid-stride over the
// rows*cols elements: any 1-D grid and block.
extern "C" __global__ void fill_rows(float* y, int ldy, int rows, int cols, float v)
{
    int n = rows * cols;
    for (int e = blockIdx.x * blockDim.x + threadIdx.x; e < n; e += gridDim.x * blockDim.x) {
        y[(long long)(e / cols) * ldy + e % cols] = v;
    }
}

// copy_rows copies the rows x cols block of x (leading dimension ldx) into y (ldy); they must
// not overlap. Grid-stride as fill_rows.
extern "C" __global__ void copy_rows(float* y, int ldy, const float* x, int ldx, int rows, int cols)
{
    int n = rows * cols;
    for (int e = blockIdx.x * blockDim.x + threadIdx.x; e < n; e += gridDim.x * blockDim.x) {
        int i = e / cols, j = e % cols;
        y[(long long)i * ldy + j] = x[(long long)i * ldx + j];
    }
}

// transpose sets y (cols x rows) to the transpose of x (rows x cols), both row-major; they must
// not overlap. Grid-stride over the elements of y as fill_rows: the writes are adjacent, the
// reads strided (it transposes weights, once a pass).
extern "C" __global__ void transpose(float* y, const float* x, int rows, int cols)
{
    int n = rows * cols;
    for (int e = blockIdx.x * blockDim.x + threadIdx.x; e < n; e += gridDim.x * blockDim.x) {
        int i = e / rows, j = e % rows;
        y[e] = x[(long long)j * cols + i];
    }
}

// add_floats sets y[i] = a[i] + b[i] for i < n; y may be a or b. Grid-stride as fill_rows.
extern "C" __global__ void add_floats(float* y, const float* a, const float* b, int n)
{
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
        y[i] = a[i] + b[i];
    }
}
