// Log-domain Sinkhorn, forward and backward, for b instances of n x n (n <= 256), as
// linalg/sinkhorn: M = exp(S^iters(X/tau)), each of the 2*iters half-steps normalising the rows
// (even steps) or the columns (odd steps) of P = exp(y) in the log domain, with the potentials
// in double. saved has the package's SavedLen = 2*iters*n*n floats per instance and its
// layout: slot s (n*n) holds P after half-step s. Forward always stores full slots; Backward
// also reads the package's compact column slots (scale factors, negated, in the first n
// values: P_s = P_{s-1} with column j times -slot[j]), so it takes a CPU Forward's saved too.

// sinkhorn_half computes one half-step from the potentials: along rows (cols = 0), for every
// row i it sets pot[i] = logsumexp_j(x[i,j]*invTau - other[j]); along columns (cols = 1) the
// same over i for every column j. Where out is not null it writes P = exp(x*invTau - alpha_i -
// beta_j) there. Threads stride over the lines.
__device__ void sinkhorn_half(float* out, const float* x, int n, double invTau, double* pot, const double* other, int cols)
{
    for (int l = threadIdx.x; l < n; l += blockDim.x) {
        // Element k of line l is at l*n + k along rows, k*n + l along columns.
        int base = cols ? l : l * n, step = cols ? n : 1;
        double mx = -1e308;
        for (int k = 0; k < n; k++) {
            double y = x[base + k * step] * invTau - other[k];
            mx = y > mx ? y : mx;
        }
        double s = 0;
        for (int k = 0; k < n; k++) {
            s += exp(x[base + k * step] * invTau - other[k] - mx);
        }
        double lse = mx + log(s);
        pot[l] = lse;
        if (out) {
            for (int k = 0; k < n; k++) {
                out[base + k * step] = (float)exp(x[base + k * step] * invTau - other[k] - lse);
            }
        }
    }
}

// sinkhorn_forward writes M (b x n x n) from X (b x n x n), and, where save is not 0, every
// half-step's P into saved (2*iters*n*n per instance). Grid b blocks, one per instance; any
// block of at most 256 threads (128 covers n <= 100 in one pass). m must not overlap x.
extern "C" __global__ void sinkhorn_forward(float* m, const float* x, float* saved, int n, float tau, int iters, int save)
{
    __shared__ double alpha[256], beta[256];
    long long nn = (long long)n * n, k = blockIdx.x;
    const float* xk = x + k * nn;
    float* mk = m + k * nn;
    float* sk = saved + k * 2 * iters * nn;
    double invTau = 1.0 / (double)tau;
    for (int j = threadIdx.x; j < n; j += blockDim.x) {
        beta[j] = 0;
    }
    __syncthreads();
    for (int s = 0; s < 2 * iters; s += 2) {
        sinkhorn_half(save ? sk + s * nn : 0, xk, n, invTau, alpha, beta, 0);
        __syncthreads();
        float* out = s + 1 == 2 * iters - 1 ? mk : save ? sk + (s + 1) * nn : 0;
        sinkhorn_half(out, xk, n, invTau, beta, alpha, 1);
        __syncthreads();
    }
    if (save) {
        float* last = sk + (2 * iters - 1) * nn;
        for (long long i = threadIdx.x; i < nn; i += blockDim.x) {
            last[i] = mk[i];
        }
    }
}

// sinkhorn_backward writes dX (b x n x n) given dM and saved from a forward pass with the same
// n, tau and iters: half-step s maps z to y = z - lse(z) along its axis, so walking back dz =
// dy - P_s * sum(dy) along that axis, and dX = dz_0 / tau. It works in place in dx (which must
// not overlap dm or saved), with the line sums in double. Grid and block as sinkhorn_forward.
extern "C" __global__ void sinkhorn_backward(float* dx, const float* dm, const float* saved, int n, float tau, int iters)
{
    long long nn = (long long)n * n, k = blockIdx.x;
    float* d = dx + k * nn;
    const float* g = dm + k * nn;
    const float* sk = saved + k * 2 * iters * nn;
    const float* mOut = sk + (2 * iters - 1) * nn;
    for (long long i = threadIdx.x; i < nn; i += blockDim.x) {
        d[i] = (float)((double)g[i] * mOut[i]);
    }
    __syncthreads();
    double invTau = 1.0 / (double)tau;
    for (int l = iters - 1; l >= 0; l--) {
        const float* pRow = sk + 2 * l * nn;
        const float* pCol = sk + (2 * l + 1) * nn;
        int compact = pCol[0] < 0;
        for (int j = threadIdx.x; j < n; j += blockDim.x) {
            double cs = 0;
            for (int i = 0; i < n; i++) {
                cs += d[i * n + j];
            }
            for (int i = 0; i < n; i++) {
                double p = compact ? (double)pRow[i * n + j] * -pCol[j] : (double)pCol[i * n + j];
                d[i * n + j] = (float)(d[i * n + j] - p * cs);
            }
        }
        __syncthreads();
        double scale = l == 0 ? invTau : 1.0;
        for (int i = threadIdx.x; i < n; i += blockDim.x) {
            double rs = 0;
            for (int j = 0; j < n; j++) {
                rs += d[i * n + j];
            }
            for (int j = 0; j < n; j++) {
                d[i * n + j] = (float)((d[i * n + j] - (double)pRow[i * n + j] * rs) * scale);
            }
        }
        __syncthreads();
    }
}
