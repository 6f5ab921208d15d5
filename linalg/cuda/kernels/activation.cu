// Elementwise activations and the bias terms of dense layers: fastmath.LeakyReLU,
// LeakyReLUGrad and BiasLeakyRows, and backend.ColSums for bias gradients.

// leaky_relu sets y[i] = x[i] where x[i] > 0 and slope*x[i] elsewhere (so -0 stays -0), for
// i < n. y may be x. Grid-stride: any 1-D grid and block, typically block 256 and grid
// ceil(n/256) capped.
extern "C" __global__ void leaky_relu(float* y, const float* x, int n, float slope)
{
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
        float v = x[i];
        y[i] = v > 0 ? v : slope * v;
    }
}

// leaky_relu_grad sets dx[i] = dy[i] where y[i] > 0 and slope*dy[i] elsewhere: the gradient
// with respect to LeakyReLU's input given its output y (at y = 0 the slope is taken). dx may
// be dy. Grid-stride as leaky_relu.
extern "C" __global__ void leaky_relu_grad(float* dx, const float* dy, const float* y, int n, float slope)
{
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
        float g = dy[i];
        dx[i] = y[i] > 0 ? g : slope * g;
    }
}

// bias_leaky_rows sets y = LeakyReLU(y + b) on a rows x cols row-major matrix, b (cols) added
// to every row and the sum rounded once; slope 1 leaves y + b (a plain bias add). Grid-stride
// over the rows*cols elements as leaky_relu.
extern "C" __global__ void bias_leaky_rows(float* y, const float* b, int rows, int cols, float slope)
{
    int n = rows * cols;
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
        float v = y[i] + b[i % cols];
        y[i] = v > 0 ? v : slope * v;
    }
}

// col_sums sets y[j] (j < n) to the sum of column j of the m x n row-major matrix a with
// leading dimension lda. Block 256 threads = 32 columns x 8 row lanes; grid.x = ceil(n/32).
// Each lane sums every 8th row from its first, then the 8 partial sums are added in lane
// order, so the result does not depend on the grid.
extern "C" __global__ void col_sums(float* y, const float* a, int m, int n, int lda)
{
    __shared__ float part[8][32];
    int c = threadIdx.x % 32, lane = threadIdx.x / 32;
    int j = blockIdx.x * 32 + c;
    float s = 0;
    if (j < n) {
        for (int i = lane; i < m; i += 8) {
            s += a[(long long)i * lda + j];
        }
    }
    part[lane][c] = s;
    __syncthreads();
    if (lane == 0 && j < n) {
        float t = part[0][c];
        for (int l = 1; l < 8; l++) {
            t += part[l][c];
        }
        y[j] = t;
    }
}
