// The elementwise part of a GRU time step, forward and backward, with linalg/gru's conventions
// (PyTorch's gate order r, z, n) and its saved layout: one row of 5*h floats per (batch row b,
// time t), at (b*T+t)*5h, holding [r | z | n | hn = Whn hprev + bhn | hprev]; the forward pass
// finds Wi x (without bias) in the row's first 3h on entry. The step's products are matrix
// products on the device; these kernels are what lies between them. Both are grid-stride over
// the b*h (batch row, unit) pairs: any 1-D grid and block, typically block 256.

__device__ float gru_sigmoid(float v)
{
    return 1.0f / (1.0f + expf(-v));
}

// gru_gates finishes time step ti for every batch row: gh (b x 3h) holds Whh hprev without
// bias. It turns the saved row's [Wi x] into [r | z | n], writes hn, writes the new state to
// out (b x T x h) at time ti and, where next >= 0, into the saved row of time next as its hprev:
//
//	r = sigma(gi_r + (bi_r + gh_r + bh_r)), z likewise, hn = gh_n + bh_n,
//	n = tanh(gi_n + (bi_n + r hn)), h' = n + z (hprev - n).
//
// Grid-stride over the b*h pairs: any 1-D grid and block.
extern "C" __global__ void gru_gates(float* saved, const float* gh, const float* bih, const float* bhh, float* out, int b, int t, int h, int ti, int next)
{
    int n = b * h;
    for (int e = blockIdx.x * blockDim.x + threadIdx.x; e < n; e += gridDim.x * blockDim.x) {
        int bi = e / h, j = e % h;
        float* row = saved + (long long)(bi * t + ti) * 5 * h;
        const float* g = gh + (long long)bi * 3 * h;
        float r = gru_sigmoid(row[j] + (bih[j] + g[j] + bhh[j]));
        float z = gru_sigmoid(row[h + j] + (bih[h + j] + g[h + j] + bhh[h + j]));
        float hn = g[2 * h + j] + bhh[2 * h + j];
        float nv = tanhf(row[2 * h + j] + (bih[2 * h + j] + r * hn));
        float hp = row[4 * h + j];
        float hNew = nv + z * (hp - nv);
        row[j] = r;
        row[h + j] = z;
        row[2 * h + j] = nv;
        row[3 * h + j] = hn;
        out[(long long)(bi * t + ti) * h + j] = hNew;
        if (next >= 0) {
            saved[(long long)(bi * t + next) * 5 * h + 4 * h + j] = hNew;
        }
    }
}

// gru_gates_backward does the gate arithmetic of time step ti for every batch row, as
// fastmath.GRUGatesBackward: with dh = dout + carry it writes the pre-activation gradients into
// g's row of (b, ti) (4h at (b*T+ti)*4h) as [n input part | r | z | n hidden part = dn r] and
// leaves dh z in carry (b x h), the direct part of the gradient for the previous state.
// Grid-stride over the b*h pairs: any 1-D grid and block.
extern "C" __global__ void gru_gates_backward(float* g, float* carry, const float* dout, const float* saved, int b, int t, int h, int ti)
{
    int n = b * h;
    for (int e = blockIdx.x * blockDim.x + threadIdx.x; e < n; e += gridDim.x * blockDim.x) {
        int bi = e / h, j = e % h;
        long long k = (long long)bi * t + ti;
        const float* row = saved + k * 5 * h;
        float* gr = g + k * 4 * h;
        float dh = dout[k * h + j] + carry[e];
        float r = row[j], z = row[h + j], nv = row[2 * h + j];
        float dan = dh * (1 - z) * (1 - nv * nv);
        gr[j] = dan;
        gr[3 * h + j] = dan * r;
        gr[h + j] = dan * row[3 * h + j] * r * (1 - r);
        gr[2 * h + j] = dh * (row[4 * h + j] - nv) * z * (1 - z);
        carry[e] = dh * z;
    }
}
