// Per-instance preprocessing of item inputs for the factored model (agent/nets/factored.go):
// ops.Centre for tours and pairs.SortValues for sorting. One thread per (instance, feature) or
// per instance, walking the items in order as the CPU does, so the sums round the same: any
// 1-D grid and block, grid-stride.

// centre_items sets y[s,i,k] = x[s,i,k] - mean_i x[s,i,k] for b instances of n items of w
// features, the mean a float sum in item order divided by n. y may be x. Grid-stride over the
// b*w (instance, feature) pairs: any 1-D grid and block.
extern "C" __global__ void centre_items(float* y, const float* x, int b, int n, int w)
{
    int total = b * w;
    for (int e = blockIdx.x * blockDim.x + threadIdx.x; e < total; e += gridDim.x * blockDim.x) {
        long long o = (long long)(e / w) * n * w + e % w;
        float sum = 0;
        for (int i = 0; i < n; i++) {
            sum += x[o + (long long)i * w];
        }
        float mean = sum / (float)n;
        for (int i = 0; i < n; i++) {
            y[o + (long long)i * w] = x[o + (long long)i * w] - mean;
        }
    }
}

// sort_values sets y[s,i] = (x[s,i] - min_s)/(max_s - min_s + 1) for b instances of n values:
// pairs.SortValues. y may be x. Grid-stride over the b instances: any 1-D grid and block.
extern "C" __global__ void sort_values(float* y, const float* x, int b, int n)
{
    for (int s = blockIdx.x * blockDim.x + threadIdx.x; s < b; s += gridDim.x * blockDim.x) {
        const float* v = x + (long long)s * n;
        float lo = v[0], hi = v[0];
        for (int i = 0; i < n; i++) {
            lo = v[i] < lo ? v[i] : lo;
            hi = v[i] > hi ? v[i] : hi;
        }
        float scale = 1 / (hi - lo + 1);
        for (int i = 0; i < n; i++) {
            y[(long long)s * n + i] = (v[i] - lo) * scale;
        }
    }
}
