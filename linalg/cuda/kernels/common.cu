// Device functions the kernels share; Source puts this file first.

// block_sum returns the sum of v over the block's threads (blockDim.x <= 256), added in a fixed
// tree so that the result does not depend on timing; part is the caller's shared array of 256.
// Every thread of the block must call it.
__device__ double block_sum(double v, double* part)
{
    part[threadIdx.x] = v;
    __syncthreads();
    for (int s = 128; s > 0; s >>= 1) {
        if (threadIdx.x < s && threadIdx.x + s < blockDim.x) {
            part[threadIdx.x] += part[threadIdx.x + s];
        }
        __syncthreads();
    }
    double r = part[0];
    __syncthreads();
    return r;
}
