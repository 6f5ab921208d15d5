// The per-pair input features of the pairwise networks (agent/pairs), the bilinear critic's
// sums and the barred self-loops: their steps stay on the device from the states on.

// pair_features_matching writes, for each of b MWM states x (2n x 2: A's points, then B's) and
// each pair (i, j), the six features b_i.x, b_i.y, a_j.x, a_j.y, b_i.x - a_j.x, b_i.y - a_j.y
// into out (b, n, n, 6), as pairs.Matching. Grid-stride over the b*n*n pairs.
extern "C" __global__ void pair_features_matching(float* out, const float* x, int b, int n)
{
    int total = b * n * n;
    for (int p = blockIdx.x * blockDim.x + threadIdx.x; p < total; p += gridDim.x * blockDim.x) {
        int s = p / (n * n), i = (p / n) % n, j = p % n;
        const float* st = x + (long long)s * 4 * n;
        float ax = st[2 * j], ay = st[2 * j + 1];
        float bx = st[2 * n + 2 * i], by = st[2 * n + 2 * i + 1];
        float* f = out + (long long)p * 6;
        f[0] = bx; f[1] = by; f[2] = ax; f[3] = ay; f[4] = bx - ax; f[5] = by - ay;
    }
}

// row_dots sets q[r] = sum_c a[r*cols + c] * g[r*cols + c] for r < rows: the bilinear critic's
// Q(s, A) = <A, G(s)> per state. One block of 256 threads per row (grid.x = rows); each
// thread sums a strided part, then a tree in shared memory, so the order is fixed.
extern "C" __global__ void row_dots(float* q, const float* a, const float* g, int rows, int cols)
{
    __shared__ float s[256];
    int r = blockIdx.x;
    float acc = 0;
    if (r < rows) {
        const float* ar = a + (long long)r * cols;
        const float* gr = g + (long long)r * cols;
        for (int c = threadIdx.x; c < cols; c += blockDim.x) {
            acc += ar[c] * gr[c];
        }
    }
    s[threadIdx.x] = acc;
    __syncthreads();
    for (int w = blockDim.x / 2; w > 0; w /= 2) {
        if (threadIdx.x < w) {
            s[threadIdx.x] += s[threadIdx.x + w];
        }
        __syncthreads();
    }
    if (threadIdx.x == 0 && r < rows) {
        q[r] = s[0];
    }
}

// scale_rows2 sets y[r*cols + c] = s1[r] * a[r*cols + c] + s2[r] * b[r*cols + c]: the bilinear
// critic's gradient with respect to G from the gradients s1, s2 of Q at two actions a, b.
// Grid-stride over rows*cols.
extern "C" __global__ void scale_rows2(float* y, const float* a, const float* b, const float* s1, const float* s2, int rows, int cols)
{
    int total = rows * cols;
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < total; i += gridDim.x * blockDim.x) {
        int r = i / cols;
        y[i] = s1[r] * a[i] + s2[r] * b[i];
    }
}

// pair_features_tour writes, for each of b TSP states x (n x 2: the cities) and each pair
// (i, j), the six features c_i.x, c_i.y, c_j.x, c_j.y, c_i.x - c_j.x, c_i.y - c_j.y into out
// (b, n, n, 6), as pairs.Tour. Grid-stride over the b*n*n pairs.
extern "C" __global__ void pair_features_tour(float* out, const float* x, int b, int n)
{
    int total = b * n * n;
    for (int p = blockIdx.x * blockDim.x + threadIdx.x; p < total; p += gridDim.x * blockDim.x) {
        int s = p / (n * n), i = (p / n) % n, j = p % n;
        const float* c = x + (long long)s * 2 * n;
        float ix = c[2 * i], iy = c[2 * i + 1], jx = c[2 * j], jy = c[2 * j + 1];
        float* f = out + (long long)p * 6;
        f[0] = ix; f[1] = iy; f[2] = jx; f[3] = jy; f[4] = ix - jx; f[5] = iy - jy;
    }
}

// set_diagonal sets the diagonal of each of b n x n matrices of x to v: SPG+Successor's barred
// self-loops (v = nets.SelfLoopScore forward, 0 for their gradient). Grid-stride over b*n.
extern "C" __global__ void set_diagonal(float* x, int b, int n, float v)
{
    for (int k = blockIdx.x * blockDim.x + threadIdx.x; k < b * n; k += gridDim.x * blockDim.x) {
        int m = k / n, i = k % n;
        x[(long long)m * n * n + i * n + i] = v;
    }
}
