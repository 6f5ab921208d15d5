// The optimiser's kernels: Adam as agent/adam.go (PyTorch's formulation, with the gradient
// clipping factor applied to the gradients as they are read) and the sum of squares behind the
// gradient norm of clip_grad_norm_.

// adam_update takes one Adam step on n parameters p with moments m and v, reading the
// gradients g times scale (not modifying g). The host computes the step's constants in double
// as agent/adam.go does: stepSize = lr/(1 - beta1^t), invSqrtBC2 = 1/sqrt(1 - beta2^t),
// c1 = 1 - beta1, c2 = 1 - beta2. Grid-stride: any 1-D grid and block.
extern "C" __global__ void adam_update(float* p, float* m, float* v, const float* g, int n, float stepSize, float invSqrtBC2, float b1, float b2, float c1, float c2, float eps, float scale)
{
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
        float gi = g[i] * scale;
        float mi = b1 * m[i] + c1 * gi;
        float vi = b2 * v[i] + c2 * gi * gi;
        m[i] = mi;
        v[i] = vi;
        p[i] -= stepSize * mi / (sqrtf(vi) * invSqrtBC2 + eps);
    }
}

// sum_squares sets out[0] + out[1] to the sum of x[i]^2 over i < n, accumulated in double and
// returned as two floats (the rounded sum and the rounding's remainder) so that the host gets
// about 48 bits of it. One block (grid 1) of at most 256 threads.
extern "C" __global__ void sum_squares(float* out, const float* x, int n)
{
    __shared__ double part[256];
    double s = 0;
    for (int i = threadIdx.x; i < n; i += blockDim.x) {
        s += (double)x[i] * x[i];
    }
    double t = block_sum(s, part);
    if (threadIdx.x == 0) {
        float hi = (float)t;
        out[0] = hi;
        out[1] = (float)(t - hi);
    }
}
