// Corpus twins: f32 sums in three styles (shared tree with block partials; grid-stride +
// warp shuffle + shared + atomicAdd per block; grid-stride + warp shuffle + atomicAdd per warp).
#define BLOCK 256
#define FULL 0xffffffffu

extern "C" __global__ void reduce_tree(const float *in, float *partial, int n)
{
    __shared__ float sdata[BLOCK];
    unsigned t = threadIdx.x;
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    sdata[t] = i < n ? in[i] : 0.0f;
    __syncthreads();
    for (unsigned s = blockDim.x / 2; s > 0; s >>= 1) {
        if (t < s) {
            sdata[t] += sdata[t + s];
        }
        __syncthreads();
    }
    if (t == 0) {
        partial[blockIdx.x] = sdata[0];
    }
}

extern "C" __global__ void reduce_shfl(const float *in, float *out, int n)
{
    __shared__ float warp_sums[32];
    int t = threadIdx.x;
    float sum = 0.0f;
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
        sum += in[i];
    }
    for (int offset = 16; offset > 0; offset /= 2) {
        sum += __shfl_down_sync(FULL, sum, offset);
    }
    if (t % 32 == 0) {
        warp_sums[t / 32] = sum;
    }
    __syncthreads();
    if (t < 32) {
        sum = t < blockDim.x / 32 ? warp_sums[t] : 0.0f;
        for (int offset = 16; offset > 0; offset /= 2) {
            sum += __shfl_down_sync(FULL, sum, offset);
        }
        if (t == 0) {
            atomicAdd(out, sum);
        }
    }
}

extern "C" __global__ void reduce_warp_atomic(const float *in, float *out, int n)
{
    float sum = 0.0f;
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
        sum += in[i];
    }
    for (int offset = 16; offset > 0; offset /= 2) {
        sum += __shfl_down_sync(FULL, sum, offset);
    }
    if (threadIdx.x % 32 == 0) {
        atomicAdd(out, sum);
    }
}
