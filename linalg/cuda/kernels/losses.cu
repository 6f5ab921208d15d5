// The training losses of agent/losses.go over a minibatch of b, with their gradients with
// respect to the critic's outputs. One block (grid 1) of at most 256 threads; the means are
// summed in double in a fixed tree.

// critic_loss computes hard = mean((qHard - r)^2), penalty = mean((qSoft - qHard)^2) with
// qHard a constant there (stop_grad), and loss = hard + w penalty into out[0..2] = loss, hard,
// penalty, and the gradients of loss: dqHard = 2 (qHard - r)/b, dqSoft = 2 w (qSoft - qHard)/b.
// Grid 1; block of at most 256 threads.
extern "C" __global__ void critic_loss(float* out, float* dqHard, float* dqSoft, const float* qHard, const float* qSoft, const float* r, int b, float w)
{
    __shared__ double part[256];
    double sh = 0, sp = 0;
    float k = 2.0f / b;
    for (int i = threadIdx.x; i < b; i += blockDim.x) {
        float dh = qHard[i] - r[i], dp = qSoft[i] - qHard[i];
        sh += (double)dh * dh;
        sp += (double)dp * dp;
        dqHard[i] = k * dh;
        dqSoft[i] = w * (k * dp);
    }
    double hard = block_sum(sh, part) / b;
    double penalty = block_sum(sp, part) / b;
    if (threadIdx.x == 0) {
        out[0] = (float)(hard + (double)w * penalty);
        out[1] = (float)hard;
        out[2] = (float)penalty;
    }
}

// actor_loss computes loss = -mean q into out[0] and its gradient dq = -1/b. Grid 1; block of
// at most 256 threads.
extern "C" __global__ void actor_loss(float* out, float* dq, const float* q, int b)
{
    __shared__ double part[256];
    double s = 0;
    for (int i = threadIdx.x; i < b; i += blockDim.x) {
        s += q[i];
        dq[i] = -1.0f / b;
    }
    double mean = block_sum(s, part) / b;
    if (threadIdx.x == 0) {
        out[0] = (float)-mean;
    }
}
