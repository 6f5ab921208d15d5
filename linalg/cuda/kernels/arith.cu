// Arithmetic on whole buffers, for composing layers: accumulating gradients of a layer used
// twice, scaling, and a target network's Polyak step.

// add_scaled sets y[i] += a * x[i] for i < n. Grid-stride: any 1-D grid and block.
extern "C" __global__ void add_scaled(float* y, const float* x, float a, int n)
{
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
        y[i] += a * x[i];
    }
}

// scale_into sets y[i] = a * x[i] for i < n (a = 1 copies). Grid-stride: any 1-D grid and block.
extern "C" __global__ void scale_into(float* y, const float* x, float a, int n)
{
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
        y[i] = a * x[i];
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
