// Arithmetic on whole buffers, for composing layers: accumulating gradients of a layer used
// twice, and the optimiser.

// add_scaled sets y[i] += a * x[i] for i < n. Grid-stride: any 1-D grid and block.
extern "C" __global__ void add_scaled(float* y, const float* x, float a, int n)
{
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
        y[i] += a * x[i];
    }
}

// add_into sets z[i] = x[i] + y[i] for i < n. Grid-stride: any 1-D grid and block.
extern "C" __global__ void add_into(float* z, const float* x, const float* y, int n)
{
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
        z[i] = x[i] + y[i];
    }
}

// scale_into sets y[i] = a * x[i] for i < n (a = 1 copies). Grid-stride: any 1-D grid and block.
extern "C" __global__ void scale_into(float* y, const float* x, float a, int n)
{
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
        y[i] = a * x[i];
    }
}

// sum_squares_partial sets part[blockIdx.x] to the sum of x[i]^2 over the i < n that block
// visits (grid-stride), accumulated in double; the caller adds the gridDim.x partial sums in
// float64 in block order, so the total does not depend on the hardware. Block 256.
extern "C" __global__ void sum_squares_partial(float* part, const float* x, int n)
{
    __shared__ double s[256];
    double acc = 0;
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
        double v = x[i];
        acc += v * v;
    }
    s[threadIdx.x] = acc;
    __syncthreads();
    for (int w = blockDim.x / 2; w > 0; w /= 2) {
        if (threadIdx.x < w) {
            s[threadIdx.x] += s[threadIdx.x + w];
        }
        __syncthreads();
    }
    if (threadIdx.x == 0) {
        part[blockIdx.x] = (float)s[0];
    }
}

// adam_step takes one Adam step over n parameters as agent's adam.update (PyTorch's formula):
// g' = scale g, m = b1 m + c1 g', v = b2 v + c2 g'^2, p -= stepSize m / (sqrt(v) invSqrtBC2 + eps),
// with the bias corrections folded into stepSize and invSqrtBC2 by the caller. Grid-stride.
extern "C" __global__ void adam_step(float* p, const float* g, float* m, float* v, int n,
    float b1, float b2, float c1, float c2, float stepSize, float invSqrtBC2, float eps, float scale)
{
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
        float gj = g[i] * scale;
        float mj = b1 * m[i] + c1 * gj;
        float vj = b2 * v[i] + c2 * gj * gj;
        m[i] = mj;
        v[i] = vj;
        p[i] -= stepSize * mj / (sqrtf(vj) * invSqrtBC2 + eps);
    }
}

// lerp_to sets y[i] += a * (x[i] - y[i]) for i < n: a slow target network's Polyak step
// towards x at rate a, as agent's polyak. Grid-stride: any 1-D grid and block.
extern "C" __global__ void lerp_to(float* y, const float* x, float a, int n)
{
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
        y[i] += a * (x[i] - y[i]);
    }
}
