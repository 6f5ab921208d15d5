// A GRU over a whole sequence, forward and backward, each one launch: the recurrence (the
// hidden product and the gates of every time step) runs inside the kernel, so a sequence costs
// the same launches whatever its length. Conventions are linalg/gru's: PyTorch's gate order r,
// z, n, and its saved layout, one row of 5*h floats per (batch row b, time t) at (b*T+t)*5h
// holding [r | z | n | hn = Whn hprev + bhn | hprev]. The input projections Wi x of all steps
// are one matrix product before the forward kernel (it finds them in each row's first 3h); the
// weight and input gradients are matrix products after the backward kernel.
//
// Each block runs `rows` consecutive batch rows (at most GRU_ROWS, and rows*h <= GRU_STATE) over
// all time steps, their states in shared memory; a thread owns units j, j + blockDim.x, ... of
// every row of its block, so each weight it loads serves all the rows. Grid ceil(b/rows) blocks,
// any 1-D block (the driver uses min(h, 256) rounded up to 32 threads).

#define GRU_ROWS 8
#define GRU_STATE 4096

__device__ float gru_sigmoid(float v)
{
    return 1.0f / (1.0f + expf(-v));
}

// gru_sequence runs time steps 0..t-1 (t-1..0 where reverse) for its block's rows. On entry
// saved holds Wi x (without bias) in each row's first 3h; on return every row is complete and
// out (b x t x h) holds the state after each step. The starting state is h0 (b x h) where
// from_h0, else zeros, and then the first step's hidden projections are zeros whatever whh
// holds, as on the CPU. whhT is Whh transposed (h x 3h), so that a warp's loads for one k
// are adjacent. A step, with gh = Whh hprev:
//
//	r = sigma(gi_r + (bi_r + gh_r + bh_r)), z likewise, hn = gh_n + bh_n,
//	n = tanh(gi_n + (bi_n + r hn)), h' = n + z (hprev - n).
extern "C" __global__ void gru_sequence(float* saved, float* out, const float* h0, const float* whhT, const float* bih, const float* bhh, int b, int t, int h, int reverse, int from_h0, int rows)
{
    // The states before and after the step, swapped each step: one barrier a step.
    __shared__ float state[2][GRU_STATE];
    int b0 = blockIdx.x * rows;
    int nr = b - b0 < rows ? b - b0 : rows;
    int t0 = reverse ? t - 1 : 0;
    for (int e = threadIdx.x; e < nr * h; e += blockDim.x) {
        int r = e / h, k = e % h;
        float v = from_h0 ? h0[(long long)(b0 + r) * h + k] : 0.0f;
        state[0][e] = v;
        saved[((long long)(b0 + r) * t + t0) * 5 * h + 4 * h + k] = v;
    }
    __syncthreads();
    for (int s = 0; s < t; s++) {
        int ti = reverse ? t - 1 - s : s;
        int next = s + 1 == t ? -1 : reverse ? ti - 1 : ti + 1;
        const float* hp = state[s % 2];
        float* hnext = state[(s + 1) % 2];
        for (int j = threadIdx.x; j < h; j += blockDim.x) {
            float gr[GRU_ROWS], gz[GRU_ROWS], gn[GRU_ROWS];
#pragma unroll
            for (int r = 0; r < GRU_ROWS; r++) {
                gr[r] = gz[r] = gn[r] = 0.0f;
            }
            if (s > 0 || from_h0) {
                for (int k = 0; k < h; k++) {
                    const float* w = whhT + (long long)k * 3 * h;
                    float wr = w[j], wz = w[h + j], wn = w[2 * h + j];
#pragma unroll
                    for (int r = 0; r < GRU_ROWS; r++) {
                        if (r < nr) {
                            float v = hp[r * h + k];
                            gr[r] += wr * v;
                            gz[r] += wz * v;
                            gn[r] += wn * v;
                        }
                    }
                }
            }
#pragma unroll
            for (int r = 0; r < GRU_ROWS; r++) {
                if (r < nr) {
                    long long k = (long long)(b0 + r) * t + ti;
                    float* row = saved + k * 5 * h;
                    float rv = gru_sigmoid(row[j] + (bih[j] + gr[r] + bhh[j]));
                    float zv = gru_sigmoid(row[h + j] + (bih[h + j] + gz[r] + bhh[h + j]));
                    float hn = gn[r] + bhh[2 * h + j];
                    float nv = tanhf(row[2 * h + j] + (bih[2 * h + j] + rv * hn));
                    float hNew = nv + zv * (hp[r * h + j] - nv);
                    row[j] = rv;
                    row[h + j] = zv;
                    row[2 * h + j] = nv;
                    row[3 * h + j] = hn;
                    out[k * h + j] = hNew;
                    hnext[r * h + j] = hNew;
                    if (next >= 0) {
                        saved[((long long)(b0 + r) * t + next) * 5 * h + 4 * h + j] = hNew;
                    }
                }
            }
        }
        __syncthreads();
    }
}

// gru_sequence_backward walks the steps of a gru_sequence back, as gru.Backward: with dh =
// dout + carry (carry the gradient reaching the step's output from later steps) it writes the
// pre-activation gradients of every (b, t) into g's row (4h at (b*T+t)*4h) as [n input part |
// r | z | n hidden part = dn r], and carries dh z + dgh Whh back to the previous state, dgh
// being the row's last 3h. Where to_h0 the gradient of the starting state goes to dh0 (b x h).
extern "C" __global__ void gru_sequence_backward(float* g, float* dh0, const float* dout, const float* saved, const float* whh, int b, int t, int h, int reverse, int to_h0, int rows)
{
    // carry[r*h + j] is only touched by the thread that owns unit j.
    __shared__ float carry[GRU_STATE];
    int b0 = blockIdx.x * rows;
    int nr = b - b0 < rows ? b - b0 : rows;
    for (int j = threadIdx.x; j < h; j += blockDim.x) {
        for (int r = 0; r < nr; r++) {
            carry[r * h + j] = 0.0f;
        }
    }
    for (int s = t - 1; s >= 0; s--) {
        int ti = reverse ? t - 1 - s : s;
        for (int j = threadIdx.x; j < h; j += blockDim.x) {
            for (int r = 0; r < nr; r++) {
                long long k = (long long)(b0 + r) * t + ti;
                const float* row = saved + k * 5 * h;
                float* gr = g + k * 4 * h;
                float dh = dout[k * h + j] + carry[r * h + j];
                float rv = row[j], zv = row[h + j], nv = row[2 * h + j];
                float dan = dh * (1 - zv) * (1 - nv * nv);
                gr[j] = dan;
                gr[3 * h + j] = dan * rv;
                gr[h + j] = dan * row[3 * h + j] * rv * (1 - rv);
                gr[2 * h + j] = dh * (row[4 * h + j] - nv) * zv * (1 - zv);
                carry[r * h + j] = dh * zv;
            }
        }
        if (s == 0 && !to_h0) {
            break;
        }
        // Every unit's dgh of the step is written before any thread sums over them.
        __syncthreads();
        for (int j = threadIdx.x; j < h; j += blockDim.x) {
            float acc[GRU_ROWS];
#pragma unroll
            for (int r = 0; r < GRU_ROWS; r++) {
                acc[r] = 0.0f;
            }
            for (int i = 0; i < 3 * h; i++) {
                float w = whh[(long long)i * h + j];
#pragma unroll
                for (int r = 0; r < GRU_ROWS; r++) {
                    if (r < nr) {
                        acc[r] += g[((long long)(b0 + r) * t + ti) * 4 * h + h + i] * w;
                    }
                }
            }
#pragma unroll
            for (int r = 0; r < GRU_ROWS; r++) {
                if (r < nr) {
                    carry[r * h + j] += acc[r];
                }
            }
        }
        // The next step writes other rows of g than the ones just read, and each thread's
        // carry is its own: no barrier needed before it, only before its sums.
    }
    if (to_h0) {
        for (int j = threadIdx.x; j < h; j += blockDim.x) {
            for (int r = 0; r < nr; r++) {
                dh0[(long long)(b0 + r) * h + j] = carry[r * h + j];
            }
        }
    }
}
