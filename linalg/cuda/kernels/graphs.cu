// Inputs computed from the states alone (no gradient) for the exact critic and SPG+GM:
// ops.PairDistances, ops.RowMean and ops.GraphPairFeatures. The sums walk the items in order
// as the CPU does, so the results are the CPU's bit for bit.

// pair_distances sets d[s,i,j] = |b_i - a_j| for b MWM states x (each 2n x 2: the n points of
// A, then the n points of B), the differences in float and the root in double. Grid-stride
// over the b*n*n distances: any 1-D grid and block.
extern "C" __global__ void pair_distances(float* d, const float* x, int b, int n)
{
    int total = b * n * n;
    for (int e = blockIdx.x * blockDim.x + threadIdx.x; e < total; e += gridDim.x * blockDim.x) {
        int s = e / (n * n), i = e / n % n, j = e % n;
        const float* a = x + (long long)s * 4 * n;
        const float* bb = a + 2 * n;
        double dx = bb[2 * i] - a[2 * j], dy = bb[2 * i + 1] - a[2 * j + 1];
        d[e] = (float)sqrt(dx * dx + dy * dy);
    }
}

// row_mean sets each of the rows of n of x, divided by its sum, into y (rows summing to 0 stay
// 0): the mean over a node's neighbours as a matrix. y may be x. Grid-stride over the rows.
extern "C" __global__ void row_mean(float* y, const float* x, int rows, int n)
{
    for (int r = blockIdx.x * blockDim.x + threadIdx.x; r < rows; r += gridDim.x * blockDim.x) {
        const float* v = x + (long long)r * n;
        float s = 0;
        for (int j = 0; j < n; j++) {
            s += v[j];
        }
        for (int j = 0; j < n; j++) {
            y[(long long)r * n + j] = s != 0 ? v[j] / s : 0;
        }
    }
}

// graph_pair_features writes, for b graph-matching states x (each 2n x n: G1's adjacency rows,
// then G2's), the features of each pair (i, k) of G1's nodes into dst (b x n x n x 4): A1_ik,
// the degrees d_i and d_k over n-1, and their mean. Grid b blocks, one per state; any block
// of at most 256 threads; n <= 256.
extern "C" __global__ void graph_pair_features(float* dst, const float* x, int n)
{
    __shared__ float deg[256];
    __shared__ float mean;
    const float* a1 = x + (long long)blockIdx.x * 2 * n * n;
    for (int i = threadIdx.x; i < n; i += blockDim.x) {
        float d = 0;
        for (int k = 0; k < n; k++) {
            d += a1[i * n + k];
        }
        deg[i] = d / (float)(n - 1);
    }
    __syncthreads();
    if (threadIdx.x == 0) {
        float m = 0;
        for (int i = 0; i < n; i++) {
            m += deg[i];
        }
        mean = m / (float)n;
    }
    __syncthreads();
    float* out = dst + (long long)blockIdx.x * n * n * 4;
    for (int e = threadIdx.x; e < n * n; e += blockDim.x) {
        int i = e / n, k = e % n;
        out[4 * e] = a1[e];
        out[4 * e + 1] = deg[i];
        out[4 * e + 2] = deg[k];
        out[4 * e + 3] = mean;
    }
}
