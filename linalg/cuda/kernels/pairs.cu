// The pairwise networks' own layers (agent/nets/pairwise.go, successor.go, bilinear.go): the
// per-pair input features of agent/pairs, the successor model's barred diagonal, and the
// bilinear critic Q = sum(A * G). Elementwise kernels are grid-stride over their outputs: any
// 1-D grid and block.

// pair_features_matching writes pairs.Matching's features for b MWM states x (each 2n x 2:
// the n points of A, then the n points of B) into dst (b x n x n x 6): for row i (b_i) and
// column j (a_j), b_i.x, b_i.y, a_j.x, a_j.y, b_i.x - a_j.x, b_i.y - a_j.y. Grid-stride over
// the b*n*n pairs.
extern "C" __global__ void pair_features_matching(float* dst, const float* x, int b, int n)
{
    int total = b * n * n;
    for (int e = blockIdx.x * blockDim.x + threadIdx.x; e < total; e += gridDim.x * blockDim.x) {
        int s = e / (n * n), i = e / n % n, j = e % n;
        const float* a = x + (long long)s * 4 * n;
        const float* bb = a + 2 * n;
        float bx = bb[2 * i], by = bb[2 * i + 1], ax = a[2 * j], ay = a[2 * j + 1];
        float* f = dst + (long long)e * 6;
        f[0] = bx;
        f[1] = by;
        f[2] = ax;
        f[3] = ay;
        f[4] = bx - ax;
        f[5] = by - ay;
    }
}

// pair_features_tour writes pairs.Tour's features for b TSP states x (each n x 2: the cities)
// into dst (b x n x n x 6): for row i and column j, c_i.x, c_i.y, c_j.x, c_j.y, c_i.x - c_j.x,
// c_i.y - c_j.y. Grid-stride over the b*n*n pairs.
extern "C" __global__ void pair_features_tour(float* dst, const float* x, int b, int n)
{
    int total = b * n * n;
    for (int e = blockIdx.x * blockDim.x + threadIdx.x; e < total; e += gridDim.x * blockDim.x) {
        int s = e / (n * n), i = e / n % n, j = e % n;
        const float* c = x + (long long)s * 2 * n;
        float ix = c[2 * i], iy = c[2 * i + 1], jx = c[2 * j], jy = c[2 * j + 1];
        float* f = dst + (long long)e * 6;
        f[0] = ix;
        f[1] = iy;
        f[2] = jx;
        f[3] = jy;
        f[4] = ix - jx;
        f[5] = iy - jy;
    }
}

// set_diagonal sets the diagonal of each of the b n x n matrices of x to v: BarDiagonal's
// forward pass (v the bar) and backward pass (v 0) after a copy. Grid-stride over the b*n
// diagonal entries.
extern "C" __global__ void set_diagonal(float* x, int b, int n, float v)
{
    int total = b * n;
    for (int e = blockIdx.x * blockDim.x + threadIdx.x; e < total; e += gridDim.x * blockDim.x) {
        int s = e / n, i = e % n;
        x[((long long)s * n + i) * n + i] = v;
    }
}

// bilinear_q sets q[s] = sum_k a[s, k] g[s, k] over the nn entries of instance s, summed in
// double. Grid b blocks, one per instance; block of at most 256 threads.
extern "C" __global__ void bilinear_q(float* q, const float* a, const float* g, int nn)
{
    __shared__ double part[256];
    long long o = (long long)blockIdx.x * nn;
    double sum = 0;
    for (int k = threadIdx.x; k < nn; k += blockDim.x) {
        sum += (double)a[o + k] * g[o + k];
    }
    double t = block_sum(sum, part);
    if (threadIdx.x == 0) {
        q[blockIdx.x] = (float)t;
    }
}

// scale_rows_add sets y[s, k] = beta y[s, k] + c[s] x[s, k] for the b rows of nn: the
// gradients of bilinear_q (dG = dq A summed over the actions, dA = dq G). Grid-stride over
// the b*nn entries.
extern "C" __global__ void scale_rows_add(float* y, const float* c, const float* x, int b, int nn, float beta)
{
    int total = b * nn;
    for (int e = blockIdx.x * blockDim.x + threadIdx.x; e < total; e += gridDim.x * blockDim.x) {
        float v = c[e / nn] * x[e];
        y[e] = beta == 0 ? v : beta * y[e] + v;
    }
}

// pair_features_sort writes pairs.Sort's features into dst (b x n x n x 2) from the sorting
// states' scaled values v (b x n, from sort_values): for item i at position j, v_i and j/n.
// Grid-stride over the b*n*n pairs.
extern "C" __global__ void pair_features_sort(float* dst, const float* v, int b, int n)
{
    int total = b * n * n;
    float scale = 1.0f / n;
    for (int e = blockIdx.x * blockDim.x + threadIdx.x; e < total; e += gridDim.x * blockDim.x) {
        int s = e / (n * n), i = e / n % n, j = e % n;
        dst[2 * (long long)e] = v[s * n + i];
        dst[2 * (long long)e + 1] = (float)j * scale;
    }
}
