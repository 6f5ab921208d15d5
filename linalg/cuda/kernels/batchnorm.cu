// Batch normalisation over (b, c, f) tensors with statistics per channel, as linalg/batchnorm
// (element (bi, ch, fi) at (bi*c + ch)*f + fi, sums in double, biased variance in training),
// with the LeakyReLU of agent/ops' BatchNorm node fused: slope 0.01 applies it, slope 1 is the
// identity. The training kernels run one block per channel (grid c, block 256 or fewer
// threads), each thread striding over the channel's b*f values; the block's sums are added in
// a fixed tree, so the result does not depend on timing.

// bn_index returns the offset of the e-th value (of b*f) of channel ch.
__device__ long long bn_index(int e, int ch, int c, int f)
{
    return ((long long)(e / f) * c + ch) * f + e % f;
}

// batchnorm_forward normalises x into y with the batch statistics, then applies LeakyReLU with
// slope: y = act(gamma (x - mean) invStd + beta). It writes mean and invStd = 1/sqrt(var + eps)
// per channel (the variance from a second pass over x - mean). Grid c blocks, one per channel;
// block of at most 256 threads.
extern "C" __global__ void batchnorm_forward(float* y, const float* x, const float* gamma, const float* beta, float* mean, float* invStd, int b, int c, int f, float eps, float slope)
{
    __shared__ double part[256];
    int ch = blockIdx.x, m = b * f;
    double s = 0;
    for (int e = threadIdx.x; e < m; e += blockDim.x) {
        s += x[bn_index(e, ch, c, f)];
    }
    double mu = block_sum(s, part) / m;
    double q = 0;
    for (int e = threadIdx.x; e < m; e += blockDim.x) {
        double d = x[bn_index(e, ch, c, f)] - mu;
        q += d * d;
    }
    double is = 1 / sqrt(block_sum(q, part) / m + (double)eps);
    float muf = (float)mu, scale = gamma[ch] * (float)is, shift = beta[ch];
    if (threadIdx.x == 0) {
        mean[ch] = muf;
        invStd[ch] = (float)is;
    }
    for (int e = threadIdx.x; e < m; e += blockDim.x) {
        long long i = bn_index(e, ch, c, f);
        float v = (x[i] - muf) * scale + shift;
        y[i] = v > 0 ? v : slope * v;
    }
}

// batchnorm_inference normalises x into y with the running statistics, then applies LeakyReLU
// with slope. Grid-stride over the b*c*f values: any 1-D grid and block.
extern "C" __global__ void batchnorm_inference(float* y, const float* x, const float* gamma, const float* beta, const float* runMean, const float* runVar, int b, int c, int f, float eps, float slope)
{
    int n = b * c * f;
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
        int ch = i / f % c;
        float scale = gamma[ch] * (float)(1 / sqrt((double)runVar[ch] + (double)eps));
        float v = (x[i] - runMean[ch]) * scale + beta[ch];
        y[i] = v > 0 ? v : slope * v;
    }
}

// batchnorm_backward computes the gradients through batchnorm_forward given dy, the gradient
// with respect to its output y: first through the LeakyReLU (g = dy where y > 0, slope*dy
// elsewhere), then, with xhat = (x - mean) invStd and m = b*f,
//
//	dbeta = sum g, dgamma = sum g xhat, dx = gamma invStd (g - dbeta/m - xhat dgamma/m).
//
// dgamma and dbeta are written where params is not 0 (gamma and beta not frozen). dx may be
// dy. Grid c blocks, one per channel; block of at most 256 threads.
extern "C" __global__ void batchnorm_backward(float* dx, float* dgamma, float* dbeta, const float* dy, const float* x, const float* y, const float* gamma, const float* mean, const float* invStd, int b, int c, int f, float slope, int params)
{
    __shared__ double part[256];
    int ch = blockIdx.x, m = b * f;
    float mu = mean[ch], is = invStd[ch];
    double s = 0, p = 0;
    for (int e = threadIdx.x; e < m; e += blockDim.x) {
        long long i = bn_index(e, ch, c, f);
        float g = y[i] > 0 ? dy[i] : slope * dy[i];
        s += g;
        p += (double)g * ((x[i] - mu) * is);
    }
    double sdy = block_sum(s, part);
    double sdyx = block_sum(p, part);
    if (params && threadIdx.x == 0) {
        dbeta[ch] = (float)sdy;
        dgamma[ch] = (float)sdyx;
    }
    float k = gamma[ch] * is, a = (float)(sdy / m), bb = (float)(sdyx / m);
    for (int e = threadIdx.x; e < m; e += blockDim.x) {
        long long i = bn_index(e, ch, c, f);
        float g = y[i] > 0 ? dy[i] : slope * dy[i];
        dx[i] = k * (g - a - (x[i] - mu) * is * bb);
    }
}

// batchnorm_update_running folds one batch's statistics into the running estimates as
// batchnorm.UpdateRunning: run = (1 - momentum) run + momentum stat, with the unbiased variance
// var * count/(count-1), var recovered as 1/invStd^2 - eps (at least 0). count >= 2 is the
// number of values per channel. Grid-stride over the c channels.
extern "C" __global__ void batchnorm_update_running(float* runMean, float* runVar, const float* mean, const float* invStd, int c, int count, float momentum, float eps)
{
    float unbias = (float)count / (float)(count - 1);
    for (int ch = blockIdx.x * blockDim.x + threadIdx.x; ch < c; ch += gridDim.x * blockDim.x) {
        float v = 1 / (invStd[ch] * invStd[ch]) - eps;
        v = v < 0 ? 0 : v; // NaN stays NaN, as in Go's max
        runMean[ch] = (1 - momentum) * runMean[ch] + momentum * mean[ch];
        runVar[ch] = (1 - momentum) * runVar[ch] + momentum * v * unbias;
    }
}
