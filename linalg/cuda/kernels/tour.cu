// The tour critic's weights (nets' tourQ): W is the pair weights g (b x n x n) with each
// diagonal entry replaced by its row's mean off the diagonal, W_ii = sum_{k != i} g_ik / (n-1),
// so that a soft action's self-pair mass is priced as the city's average edge.

// tour_weights sets w from g, one thread per row, the row sum in float in column order and
// then scaled by 1/(n-1), as the CPU's Sum and Mul. Grid-stride over the b*n rows.
extern "C" __global__ void tour_weights(float* w, const float* g, int rows, int n)
{
    float inv = (float)(1.0 / (double)(n - 1));
    for (int r = blockIdx.x * blockDim.x + threadIdx.x; r < rows; r += gridDim.x * blockDim.x) {
        int i = r % n;
        const float* gr = g + (long long)r * n;
        float* wr = w + (long long)r * n;
        float s = 0;
        for (int k = 0; k < n; k++) {
            if (k != i) {
                s += gr[k];
                wr[k] = gr[k];
            }
        }
        wr[i] = s * inv;
    }
}

// tour_weights_backward sets dg from dw, tour_weights' gradient: dg_ik = dw_ik + dw_ii / (n-1)
// off the diagonal, 0 on it (no weight reads g_ii). Grid-stride over the b*n rows.
extern "C" __global__ void tour_weights_backward(float* dg, const float* dw, int rows, int n)
{
    float inv = (float)(1.0 / (double)(n - 1));
    for (int r = blockIdx.x * blockDim.x + threadIdx.x; r < rows; r += gridDim.x * blockDim.x) {
        int i = r % n;
        const float* dr = dw + (long long)r * n;
        float* out = dg + (long long)r * n;
        float self = dr[i] * inv;
        for (int k = 0; k < n; k++) {
            out[k] = k == i ? 0.0f : dr[k] + self;
        }
    }
}
